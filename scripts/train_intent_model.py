"""Trains the intent classifier and writes `backend/agent/rules/intent_model.json.gz`.

    .venv/bin/python -m scripts.train_intent_model [--check]

Trains only on the tuning quarters (never the held-out quarter, `tests/agent/corpus/split.py`)
of the labelled real-utterance corpus, plus the first turn of each tuning conversation and the
project's hand-written corpus (`tests/agent/corpus/cases_*.py`). scikit-learn (a dev
dependency) fits a multinomial logistic regression on the runtime module's own features; the
weights are exported as plain JSON, so inference needs no scikit-learn. The fit is
deterministic: the same data gives the same file. `--check` prints cross-validated accuracy on
the training data without writing anything.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import zlib
from collections import Counter

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict

from backend.agent.rules.intent_model import MODEL_PATH, features
from tests.agent.corpus.real import load_conversations, load_utterances
from tests.agent.corpus.report import all_cases

MODEL_VERSION = 2
C = 8.0
MIN_DF = 2
# Weights smaller than this (after idf) change no decision; dropping them keeps the file small.
PRUNE_BELOW = 0.02

# The hand-written corpus names engine intents; as reply kinds:
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


def _first(intent: str | list[str]) -> str:
    return intent if isinstance(intent, str) else sorted(intent)[0]


def training_data() -> tuple[list[str], list[str]]:
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


def fit(texts: list[str], labels: list[str]) -> tuple[TfidfVectorizer, LogisticRegression]:
    vectorizer = TfidfVectorizer(
        analyzer=features, sublinear_tf=True, min_df=MIN_DF, lowercase=False
    )
    matrix = vectorizer.fit_transform(texts)
    model = LogisticRegression(C=C, max_iter=5000)
    model.fit(matrix, labels)
    return vectorizer, model


def export(vectorizer: TfidfVectorizer, model: LogisticRegression) -> dict[str, object]:
    coef = model.coef_  # classes x features
    idf = vectorizer.idf_
    weights: dict[str, list[float]] = {}
    for feature, column in sorted(vectorizer.vocabulary_.items()):
        row = coef[:, column]
        if float(np.max(np.abs(row))) * idf[column] < PRUNE_BELOW:
            continue
        weights[feature] = [round(float(idf[column]), 4)] + [round(float(w), 4) for w in row]
    return {
        "version": MODEL_VERSION,
        "classes": [str(c) for c in model.classes_],
        "bias": [round(float(b), 4) for b in model.intercept_],
        "weights": weights,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="cross-validate, write nothing")
    args = parser.parse_args()
    texts, labels = augmented(*training_data())
    print(f"{len(texts)} training texts: {dict(Counter(labels).most_common())}")
    if args.check:
        vectorizer = TfidfVectorizer(
            analyzer=features, sublinear_tf=True, min_df=MIN_DF, lowercase=False
        )
        matrix = vectorizer.fit_transform(texts)
        predicted = cross_val_predict(LogisticRegression(C=C, max_iter=5000), matrix, labels, cv=5)
        right = sum(p == y for p, y in zip(predicted, labels, strict=True))
        print(f"5-fold accuracy: {right / len(labels):.1%}")
        per = Counter(y for p, y in zip(predicted, labels, strict=True) if p != y)
        print(f"misses by label: {dict(per.most_common())}")
        return
    vectorizer, model = fit(texts, labels)
    data = export(vectorizer, model)
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    # mtime=0: the same weights give byte-identical files.
    with open(MODEL_PATH, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(payload)
    print(f"{len(data['weights'])} features, {MODEL_PATH.stat().st_size} bytes -> {MODEL_PATH}")


if __name__ == "__main__":
    main()
