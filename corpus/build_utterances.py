"""Builds `data/utterances.jsonl`, the labelled real-utterance corpus.

    .venv/bin/python -m corpus.build_utterances

Every row of `../shared/corpus/dev_utterances.jsonl` (the public datasets' train and dev
splits) becomes one item with the behaviour the assistant must show. Items labelled by hand
(`data/parts/labels_*.jsonl`, written per `LABELLING.md`) carry their own
expectation; the rest are conversational or off-topic rows, whose expectation follows from the
dataset's label (a friendly reply, and never a change to the list).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
SHARED_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "dev_utterances.jsonl"

_GREETING_LABELS = {"greeting"}
_HELP_LABELS = {"what_can_i_ask_you"}
# Small talk whose right reply may be social or a polite "I only do tasks".
_EITHER_LABELS = {
    "general_quirky",
    "oos",
    "tell_joke",
    "general_joke",
    "fun_fact",
    "meaning_of_life",
}


def item_id(row: dict[str, Any]) -> str:
    key = f"{row['source']}|{row['split']}|{row['label']}|{row['id']}|{row['text']}"
    return f"{row['source']}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def default_expectation(row: dict[str, Any]) -> dict[str, Any]:
    label = row["label"]
    if label in _GREETING_LABELS:
        intent: str | list[str] = "greeting"
    elif label in _HELP_LABELS:
        intent = "help"
    elif label in _EITHER_LABELS:
        intent = ["social", "off_topic"]
    elif row["group"] == "conversation":
        intent = "social"
    else:
        intent = "off_topic"
    return {"intent": intent, "calls": [], "asks": None}


def hand_labels() -> dict[str, dict[str, Any]]:
    labels: dict[str, dict[str, Any]] = {}
    for path in sorted((DATA / "parts").glob("labels_*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                label = json.loads(line)
                labels[label["id"]] = label
    return labels


def build(source: Path = SHARED_CORPUS) -> list[dict[str, Any]]:
    labels = hand_labels()
    items = []
    for line in source.read_text().splitlines():
        row = json.loads(line)
        uid = item_id(row)
        label = labels.get(uid)
        if label is None and row["group"] == "task":
            raise SystemExit(f"task utterance without a hand label: {uid} {row['text']!r}")
        item = {
            "id": uid,
            "text": row["text"],
            "source": row["source"],
            "dataset_label": row["label"],
            "group": row["group"],
            "expect": label["expect"] if label else default_expectation(row),
        }
        if label and label.get("note"):
            item["note"] = label["note"]
        items.append(item)
    return items


if __name__ == "__main__":
    built = build()
    with (DATA / "utterances.jsonl").open("w") as out:
        for item in built:
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(f"{len(built)} utterances -> {DATA / 'utterances.jsonl'}")
