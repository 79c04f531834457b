"""A small learned intent classifier: which kind of request a message is.

Hand patterns are precise on the phrasings their authors thought of; real people phrase
things in ways nobody listed ("the lists of my reminders is what"). This linear model, trained
on the labelled real-utterance corpus (`corpus/data/utterances.jsonl`, tuning
quarter only) by `python -m scripts.train_intent_model`, scores a message against each kind
of reply (add, list, query, complete, delete, clear, update, greeting, social, help,
off_topic, ...). The rules still extract every slot (titles, task numbers, status); the model
only says what kind of request it is, and the engine trusts it only where the rules' own
decision is a weak one (see `arbiter.py`).

Two kinds of evidence are summed per class: the message's n-grams (word 1-2 grams and
character 2-4 grams within words, sublinear tf-idf, l2-normalised) and, from version 3, the
mean of its WordPiece tokens' rows of a static word embedding distilled from a sentence
model (all-MiniLM-L6-v2, by model2vec), each row already multiplied into one score per class
when the model was built. The embedding knows that "rubbish" is like "trash" though no
training text said so. A softmax with the fitted temperature gives the confidences.
Inference reads `intent_model.json.gz` into numpy matrices; deterministic.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from backend.agent.rules.wordpiece import WordPiece

MODEL_PATH = Path(__file__).with_name("intent_model.json.gz")
# What the model is (version, hash), what it was trained on (the training data's hash) and
# the commands that rebuild it: a build record, never read by the service.
MANIFEST_PATH = MODEL_PATH.with_name("intent_model.manifest.json")

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
        found += _character_grams(word)
    return found


@lru_cache(maxsize=8192)
def _character_grams(word: str) -> tuple[str, ...]:
    """The 2-4 character grams of one word, padded: words recur, so each is cut once."""
    padded = f" {word} "
    return tuple(
        f"c:{padded[i : i + size]}" for size in (2, 3, 4) for i in range(len(padded) - size + 1)
    )


@dataclass(frozen=True)
class Prediction:
    label: str
    confidence: float
    scores: dict[str, float]


class IntentModel:
    def __init__(
        self,
        classes: list[str],
        weights: dict[str, list[float]],
        bias: list[float],
        *,
        token_scores: dict[str, list[float]] | None = None,
        temperature: float = 1.0,
    ):
        self.classes = classes
        # feature -> its row: the idf, then one weight per class
        self._row = {feature: n for n, feature in enumerate(weights)}
        table = np.array(list(weights.values()), dtype=np.float64).reshape(len(weights), -1)
        self._idf = table[:, 0].copy()
        self._weights = np.ascontiguousarray(table[:, 1:])
        self._bias = np.array(bias, dtype=np.float64)
        self._temperature = temperature
        tokens = token_scores or {}
        self._tokenizer = WordPiece({token: n for n, token in enumerate(tokens)})
        self._token_scores = np.array(list(tokens.values()), dtype=np.float64).reshape(
            len(tokens), len(classes)
        )

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> IntentModel:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
        return cls(
            data["classes"],
            data["weights"],
            data["bias"],
            token_scores=data.get("token_scores"),
            temperature=float(data.get("temperature", 1.0)),
        )

    def predict(self, text: str) -> Prediction:
        row = self._row
        counts = Counter(row[f] for f in features(text) if f in row)
        scores = self._bias
        if counts:
            rows = np.fromiter(counts.keys(), dtype=np.intp, count=len(counts))
            tf = 1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64, count=len(counts)))
            values = tf * self._idf[rows]
            values /= float(np.sqrt(values @ values)) or 1.0
            scores = scores + values @ self._weights[rows]
        if len(self._token_scores):
            tokens = self._tokenizer.ids(text)
            if tokens:
                scores = scores + self._token_scores[tokens].mean(axis=0)
        exps = np.exp(self._temperature * (scores - scores.max()))
        shares = (exps / exps.sum()).tolist()
        probabilities = dict(zip(self.classes, shares, strict=True))
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
