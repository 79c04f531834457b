"""The learned intent model is a build artefact: its manifest says which file it is, what it was
trained on and how to rebuild it (`backend/agent/rules/intent_model.manifest.json`).

A model rebuilt without its manifest, or a corpus edit that changes what the model would learn
without a rebuild, fails here (`python -m corpus.intent_training` shows the hashes).
"""

from __future__ import annotations

import fnmatch
import gzip
import hashlib
import json
import tomllib
from pathlib import Path

from backend.agent.rules.intent_model import MODEL_PATH
from corpus.intent_training import (
    accepted_hashes,
    read_manifest,
    training_data,
    training_data_sha256,
)

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = read_manifest()


def test_the_manifest_describes_the_model_file_as_it_is() -> None:
    raw = MODEL_PATH.read_bytes()
    assert MANIFEST["model"] == MODEL_PATH.name
    assert MANIFEST["sha256"] == hashlib.sha256(raw).hexdigest(), (
        "the model file changed without its manifest: rebuild it with the commands in the "
        "manifest, which write both"
    )
    assert MANIFEST["bytes"] == len(raw)
    assert MANIFEST["version"] == json.loads(gzip.decompress(raw))["version"]


def test_the_corpus_is_what_the_model_was_trained_on() -> None:
    texts, labels = training_data()
    now = training_data_sha256(texts, labels)
    assert now in accepted_hashes(MANIFEST), (
        f"what the intent model learns from changed ({len(texts)} texts, sha256 {now}); "
        "rebuild the model: " + " && ".join(MANIFEST["rebuild"])
    )


def test_the_manifest_says_how_to_rebuild_the_model() -> None:
    train = MANIFEST["rebuild"][-1].split()
    assert train[1:3] == ["-m", "scripts.train_intent_model"]
    assert (ROOT / "scripts" / "train_intent_model.py").exists()
    embeddings = train[train.index("--embeddings") + 1]
    assert MANIFEST["rebuild"][0].endswith(f"scripts.distill_intent_embeddings --out {embeddings}")


def test_an_installed_service_gets_the_model() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        shipped = tomllib.load(handle)["tool"]["setuptools"]["package-data"]["backend"]
    package = MODEL_PATH.parent.relative_to(ROOT / "backend").as_posix()

    model = f"{package}/{MODEL_PATH.name}"
    assert any(fnmatch.fnmatch(model, pattern) for pattern in shipped)
