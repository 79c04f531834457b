"""A small learned intent classifier: which kind of request a message is.

Hand patterns are precise on the phrasings their authors thought of; real people phrase
things in ways nobody listed ("the lists of my reminders is what"). This linear model, trained
on the labelled real-utterance corpus (`tests/agent/corpus/data/utterances.jsonl`, tuning
quarter only) by `python -m scripts.train_intent_model`, scores a message against each kind
of reply (add, list, query, complete, delete, clear, update, greeting, social, help,
off_topic, ...). The rules still extract every slot (titles, task numbers, status); the model
only says what kind of request it is, and the engine trusts it only where the rules' own
decision is a weak one (see `arbiter.py`).

Inference is plain Python over the exported weights (`intent_model.json.gz`): the same
features as training (word 1-2 grams and character 2-4 grams within words, sublinear tf-idf,
l2-normalised), a dot product per class, a softmax. Deterministic, no numpy at run time.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

MODEL_PATH = Path(__file__).with_name("intent_model.json.gz")

_WORD = re.compile(r"[a-z0-9']+")
_DIGITS = re.compile(r"\d+")


def features(text: str) -> list[str]:
    """The model's features of a message; training uses this very function."""
    words = _WORD.findall(_DIGITS.sub("0", text.lower().replace("’", "'")))
    found = [f"w:{w}" for w in words]
    found += [f"b:{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    if words:
        found.append(f"s:{words[0]}")  # the first word often carries the request
    for word in words:
        padded = f" {word} "
        for size in (2, 3, 4):
            found += [f"c:{padded[i : i + size]}" for i in range(len(padded) - size + 1)]
    return found


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    scores: dict[str, float]


class IntentModel:
    def __init__(self, classes: list[str], weights: dict[str, list[float]], bias: list[float]):
        self.classes = classes
        # feature -> [idf, w_class0, w_class1, ...]
        self._weights = weights
        self._bias = bias

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> IntentModel:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
        return cls(data["classes"], data["weights"], data["bias"])

    def predict(self, text: str) -> Prediction:
        counts = Counter(f for f in features(text) if f in self._weights)
        scores = list(self._bias)
        if counts:
            values = {f: (1.0 + math.log(n)) * self._weights[f][0] for f, n in counts.items()}
            norm = math.sqrt(sum(v * v for v in values.values())) or 1.0
            for feature, value in values.items():
                row = self._weights[feature]
                scaled = value / norm
                for k in range(len(scores)):
                    scores[k] += scaled * row[k + 1]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        probabilities = {c: e / total for c, e in zip(self.classes, exps, strict=True)}
        label = max(probabilities, key=probabilities.__getitem__)
        return Prediction(label, probabilities[label], probabilities)


class CachedModel:
    """The model with a memory of recent messages: one message is read by several rules
    (its clauses, an answer check, a typo-corrected retry), and each should cost one
    prediction."""

    def __init__(self, model: IntentModel) -> None:
        self.classes = model.classes
        self.predict = lru_cache(maxsize=512)(model.predict)


@cache
def intent_model() -> CachedModel | None:
    """The shipped model, or None when it has not been built (the rules then decide alone)."""
    if not MODEL_PATH.exists():
        return None
    return CachedModel(IntentModel.load())
