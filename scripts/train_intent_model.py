"""Trains the intent classifier and writes `backend/agent/rules/intent_model.json.gz`.

    python -m scripts.distill_intent_embeddings   # once, in a build venv (see its doc)
    .venv/bin/python -m scripts.train_intent_model [--check] [--embeddings DIR]

Trains only on the tuning quarters (never the held-out quarter, `corpus/split.py`) of the
labelled real-utterance corpus, plus the first turn of each tuning conversation and the
project's own cases (`corpus/cases_*.py`): `corpus.intent_training.training_data()`. Beside
the model it writes its manifest (`intent_model.manifest.json`): the model's version and
SHA-256, the training data's SHA-256 and the commands that rebuild it; a test compares them
with the model and the corpus as they are.

scikit-learn (a dev dependency) fits a linear SVM on the runtime module's n-gram features
plus the mean of the message's static word embeddings (distilled from all-MiniLM-L6-v2,
`--embeddings`). The weights are exported as plain JSON, the embedding already multiplied
into one score per class and token, so inference needs neither scikit-learn nor the embedding
table. A softmax
temperature is fitted on out-of-fold scores (grouped 5-fold cross-validation: a typo variant
stays with its original), so the confidences the arbiter compares to its thresholds are
calibrated. The fit is deterministic: the same data gives the same file. `--check` prints the
cross-validated accuracy without writing anything.

Decided in session 13 (`specs/decisions/0010-intent-model.md`): against the logistic regression on
n-grams alone, grouped CV misses fell from about 479 to 405 of 7,276 texts, and the held-out
real utterances rose from 1,890 to 1,914 of 2,025.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import scipy.sparse as sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.model_selection import StratifiedGroupKFold
from sklearn.svm import LinearSVC

from backend.agent.rules.intent_model import MANIFEST_PATH, MODEL_PATH, features
from backend.agent.rules.wordpiece import WordPiece
from corpus.intent_training import training_data, training_data_sha256

MODEL_VERSION = 3
C = 2.0
# How much the embedding mean counts beside the tf-idf n-grams (chosen by grouped CV).
EMBEDDING_SCALE = 0.2
EMBEDDINGS = Path("build/intent_embeddings")
MIN_DF = 2
# Weights smaller than this (after idf) change no decision; dropping them keeps the file small.
PRUNE_BELOW = 0.02

# Kinds of request people also type in a hurry: each tuning text of these kinds is also
# learned with typos, so "ad eggs" or "delte everyting" is not mistaken for small talk.
_TYPO_KINDS = {"add", "list", "query", "complete", "delete", "clear", "update", "clarify"}
TYPO_VARIANTS = 2


def with_typos(text: str, variant: int) -> str:
    """The text with one or two deterministic slips of the finger (swap, drop, double)."""
    rng = random.Random(zlib.crc32(f"{variant}:{text}".encode()))
    words = text.split()
    long_words = [i for i, w in enumerate(words) if len(w) >= 4 and w.isalpha()]
    for index in rng.sample(long_words, min(len(long_words), rng.choice((1, 2)))):
        word = words[index]
        at = rng.randrange(1, len(word) - 1)
        slip = rng.choice(("swap", "drop", "double"))
        if slip == "swap":
            word = word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]
        elif slip == "drop":
            word = word[:at] + word[at + 1 :]
        else:
            word = word[:at] + word[at] + word[at:]
        words[index] = word
    return " ".join(words)


def augmented(texts: list[str], labels: list[str]) -> tuple[list[str], list[str]]:
    more_texts, more_labels = list(texts), list(labels)
    for text, label in zip(texts, labels, strict=True):
        if label in _TYPO_KINDS:
            for variant in range(TYPO_VARIANTS):
                more_texts.append(with_typos(text, variant))
                more_labels.append(label)
    return more_texts, more_labels


class Embeddings:
    """The distilled static embedding: each message's mean token vector, scaled."""

    def __init__(self, folder: Path) -> None:
        if not (folder / "table.npy").exists():
            raise SystemExit(
                f"No embeddings in {folder}: run `python -m scripts.distill_intent_embeddings` "
                "first (see its doc for the build venv it needs)."
            )
        self.table = np.load(folder / "table.npy")
        tokenizer = json.loads((folder / "tokenizer.json").read_text())
        self.vocabulary: dict[str, int] = tokenizer["model"]["vocab"]
        self._pieces = WordPiece(self.vocabulary)

    def means(self, texts: list[str]) -> np.ndarray:
        rows = np.zeros((len(texts), self.table.shape[1]), dtype=np.float64)
        for n, text in enumerate(texts):
            ids = self._pieces.ids(text)
            if ids:
                rows[n] = self.table[ids].mean(axis=0)
        return rows * EMBEDDING_SCALE


def _vectorizer() -> TfidfVectorizer:
    return TfidfVectorizer(analyzer=features, sublinear_tf=True, min_df=MIN_DF, lowercase=False)


def _design(
    vectorizer: TfidfVectorizer, embeddings: Embeddings, texts: list[str], *, fit: bool
) -> sparse.csr_matrix:
    grams = vectorizer.fit_transform(texts) if fit else vectorizer.transform(texts)
    return sparse.hstack([grams, sparse.csr_matrix(embeddings.means(texts))]).tocsr()


def _classifier() -> LinearSVC:
    return LinearSVC(C=C, random_state=0, max_iter=5000)


def out_of_fold_scores(
    texts: list[str], labels: list[str], embeddings: Embeddings
) -> tuple[np.ndarray, list[str]]:
    """Each original text scored by a model that never saw it nor its typo variants."""
    scores: np.ndarray | None = None
    classes: list[str] = []
    folds = StratifiedGroupKFold(5, shuffle=True, random_state=0)
    every = np.arange(len(texts))
    for train, test in folds.split(every, labels, groups=every):
        fold_texts, fold_labels = augmented([texts[i] for i in train], [labels[i] for i in train])
        vectorizer = _vectorizer()
        model = _classifier().fit(
            _design(vectorizer, embeddings, fold_texts, fit=True), fold_labels
        )
        if scores is None:
            classes = [str(c) for c in model.classes_]
            scores = np.zeros((len(texts), len(classes)))
        held = _design(vectorizer, embeddings, [texts[i] for i in test], fit=False)
        scores[test] = model.decision_function(held)
    assert scores is not None
    return scores, classes


def temperature(scores: np.ndarray, answers: np.ndarray) -> float:
    """The softmax temperature that makes out-of-fold scores the best probabilities."""

    def loss(t: float) -> float:
        z = scores * t
        z = z - z.max(axis=1, keepdims=True)
        return float(-(z[np.arange(len(z)), answers] - np.log(np.exp(z).sum(axis=1))).mean())

    grid = np.exp(np.linspace(np.log(0.5), np.log(50), 400))
    return float(grid[int(np.argmin([loss(t) for t in grid]))])


def export(
    vectorizer: TfidfVectorizer, model: LinearSVC, embeddings: Embeddings, fitted_t: float
) -> dict[str, object]:
    coef = model.coef_  # classes x (n-gram features + embedding dimensions)
    n_grams = len(vectorizer.vocabulary_)
    idf = vectorizer.idf_
    weights: dict[str, list[float]] = {}
    for feature, column in sorted(vectorizer.vocabulary_.items()):
        row = coef[:, column]
        if float(np.max(np.abs(row))) * idf[column] < PRUNE_BELOW:
            continue
        weights[feature] = [round(float(idf[column]), 4)] + [round(float(w), 4) for w in row]
    # Each token's embedding, folded into one score per class: a message's share is its mean.
    per_token = EMBEDDING_SCALE * (embeddings.table.astype(np.float64) @ coef[:, n_grams:].T)
    token_scores = {
        token: [round(float(v), 4) for v in per_token[index]]
        for token, index in embeddings.vocabulary.items()
    }
    return {
        "version": MODEL_VERSION,
        "classes": [str(c) for c in model.classes_],
        "bias": [round(float(b), 4) for b in model.intercept_],
        "temperature": round(fitted_t, 4),
        "weights": weights,
        "token_scores": token_scores,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="cross-validate, write nothing")
    parser.add_argument("--embeddings", type=Path, default=EMBEDDINGS)
    args = parser.parse_args()
    embeddings = Embeddings(args.embeddings)
    originals, original_labels = training_data()
    print(f"{len(originals)} training texts: {dict(Counter(original_labels).most_common())}")
    scores, classes = out_of_fold_scores(originals, original_labels, embeddings)
    answers = np.array([classes.index(label) for label in original_labels])
    right = int((scores.argmax(axis=1) == answers).sum())
    print(
        f"grouped 5-fold accuracy: {right / len(originals):.2%} ({len(originals) - right} misses)"
    )
    if args.check:
        return
    fitted_t = temperature(scores, answers)
    texts, labels = augmented(originals, original_labels)
    vectorizer = _vectorizer()
    model = _classifier().fit(_design(vectorizer, embeddings, texts, fit=True), labels)
    data = export(vectorizer, model, embeddings, fitted_t)
    kept = data["weights"]
    assert isinstance(kept, dict)
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    # mtime=0: the same weights give byte-identical files.
    with open(MODEL_PATH, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(payload)
    print(
        f"{len(kept)} n-gram features, {len(embeddings.vocabulary)} tokens, "
        f"temperature {fitted_t:.3f}, {MODEL_PATH.stat().st_size} bytes -> {MODEL_PATH}"
    )
    write_manifest(originals, original_labels, args.embeddings)
    print(f"manifest -> {MANIFEST_PATH}")


def write_manifest(texts: list[str], labels: list[str], embeddings: Path) -> None:
    """The model's version and hash, its training data's hash, and how to rebuild it."""
    raw = MODEL_PATH.read_bytes()
    manifest = {
        "model": MODEL_PATH.name,
        "version": MODEL_VERSION,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "bytes": len(raw),
        "training_data": {"sha256": training_data_sha256(texts, labels), "texts": len(texts)},
        "rebuild": [
            "build/distill-venv/bin/python -m scripts.distill_intent_embeddings"
            f" --out {embeddings}",
            f".venv/bin/python -m scripts.train_intent_model --embeddings {embeddings}",
        ],
    }
    MANIFEST_PATH.write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
