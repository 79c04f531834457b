"""The learned intent classifier (backend/agent/rules/intent_model.py)."""

from __future__ import annotations

import gzip
import json
import math
from collections import Counter

import pytest

from backend.agent.rules.intent_model import MODEL_PATH, IntentModel, features
from backend.agent.rules.wordpiece import WordPiece


@pytest.fixture(scope="module")
def model() -> IntentModel:
    return IntentModel.load()


def _reference_scores(text: str) -> dict[str, float]:
    """The model's formula, worked out in plain Python from the shipped file."""
    with gzip.open(MODEL_PATH, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    weights, scores = data["weights"], list(data["bias"])
    counts = Counter(f for f in features(text) if f in weights)
    values = {f: (1.0 + math.log(n)) * weights[f][0] for f, n in counts.items()}
    norm = math.sqrt(sum(v * v for v in values.values())) or 1.0
    for feature, value in values.items():
        for k in range(len(scores)):
            scores[k] += value / norm * weights[feature][k + 1]
    tokens = list(data["token_scores"])
    ids = WordPiece({token: n for n, token in enumerate(tokens)}).ids(text)
    for k in range(len(scores)):
        if ids:
            scores[k] += sum(data["token_scores"][tokens[i]][k] for i in ids) / len(ids)
    top = max(scores)
    exps = [math.exp(data["temperature"] * (s - top)) for s in scores]
    return {c: e / sum(exps) for c, e in zip(data["classes"], exps, strict=True)}


@pytest.mark.parametrize(
    "text",
    [
        "add milk to my list",
        "what's the weather like",
        "thanks a lot",
        "zzqx",
        "",
        "did I call mom?",
    ],
)
def test_a_prediction_is_the_models_formula(model: IntentModel, text: str) -> None:
    prediction = model.predict(text)
    expected = _reference_scores(text)
    assert prediction.scores == pytest.approx(expected, abs=1e-12)
    assert prediction.label == max(expected, key=expected.__getitem__)
    assert sum(prediction.scores.values()) == pytest.approx(1.0)


def test_a_word_the_training_texts_never_had_still_counts_through_its_embedding(
    model: IntentModel,
) -> None:
    plain = model.predict("put it on my list")
    rarer = model.predict("put it on my list, the rubbish bags")
    assert plain.scores != rarer.scores


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("add milk to my list", "add"),
        ("what's the weather like tomorrow", "off_topic"),
        ("thank you so much", "social"),
        ("show me my to do list", "list"),
    ],
)
def test_plain_requests_are_read_as_their_kind(model: IntentModel, text: str, label: str) -> None:
    assert model.predict(text).label == label
