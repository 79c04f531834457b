"""What the learned intent model is trained on, and the hash its manifest records of it.

    .venv/bin/python -m corpus.intent_training   # the training data's hash vs the manifest's

`scripts/train_intent_model.py` trains on exactly `training_data()`: the tuning quarter of the
labelled real utterances (never the held-out quarter, `split.py`), the first turn of each
tuning conversation and the project's own cases said without history. The model's manifest
(`backend/agent/rules/intent_model.manifest.json`) records `training_data_sha256()` of what
it was trained on, and `tests/agent/test_intent_model_manifest.py` compares it with the
corpus as it is: a corpus edit that changes what the model would learn fails there until the
model is rebuilt (or the manifest says why not).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from backend.agent.rules.intent_model import MANIFEST_PATH
from corpus.real import load_conversations, load_utterances
from corpus.report import all_cases

# The own cases name engine intents; as reply kinds:
_HAND_INTENT = {
    "create_task": "add",
    "list_tasks": "list",
    "complete_task": "complete",
    "delete_task": "delete",
    "update_task": "update",
    "help": "help",
    "greeting": "greeting",
    "unclear": "clarify",
}


def training_data() -> tuple[list[str], list[str]]:
    """The texts the intent model learns and their labels (reply kinds), in a fixed order."""
    texts: list[str] = []
    labels: list[str] = []
    for item in load_utterances():
        if item.split == "tuning":
            texts.append(item.text)
            labels.append(sorted(item.expect.intents)[0])
    for conversation in load_conversations():
        if conversation.split == "tuning":
            first = conversation.turns[0]
            texts.append(first.say)
            labels.append(sorted(first.expect.intents)[0])
    for case in all_cases():
        if case.history:
            continue  # its meaning depends on the earlier turns
        label = _HAND_INTENT[case.intent]
        if label == "list" and not case.calls:
            label = "query"
        texts.append(case.say)
        labels.append(label)
    return texts, labels


def training_data_sha256(texts: list[str], labels: list[str]) -> str:
    """SHA-256 of the (label, text) pairs in order, one JSON array a line."""
    digest = hashlib.sha256()
    for text, label in zip(texts, labels, strict=True):
        digest.update(json.dumps([label, text], ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()


def read_manifest() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads(MANIFEST_PATH.read_text())
    return manifest


def accepted_hashes(manifest: dict[str, Any]) -> dict[str, str]:
    """The training-data hashes the model stands for: the one it was trained on and, when
    the corpus was edited without a retrain, the one its manifest accepts with a reason."""
    hashes = {manifest["training_data"]["sha256"]: "trained on"}
    accepted = manifest.get("accepted_without_retraining")
    if accepted:
        hashes[accepted["training_data"]["sha256"]] = "accepted without retraining"
    return hashes


def main() -> None:
    texts, labels = training_data()
    current = training_data_sha256(texts, labels)
    manifest = read_manifest()
    status = accepted_hashes(manifest).get(current)
    print(f"training data: {len(texts)} texts, sha256 {current}")
    if status:
        print(f"the model's manifest: {status}")
    else:
        print("changed since the model was trained; rebuild it:")
        print("\n".join(f"    {command}" for command in manifest["rebuild"]))


if __name__ == "__main__":
    main()
