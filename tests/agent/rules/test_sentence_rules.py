"""The sentence rules as data (issue 32): a rule's examples are tests. Each example is taken
by its rule, as the engine presents a clause to the rules (`core_request`), and by no earlier
one; no not_example is taken by its rule."""

from __future__ import annotations

import pytest

from backend.agent.rules.patterns import (
    HELP_PATTERN,
    SENTENCE_RULES,
    UNDO_PATTERN,
    SentenceRule,
)
from backend.agent.rules.text import core_request

# What `_by_sentence` (intents.py) tries before the sentence rules.
_BEFORE_THE_RULES = (("help question", HELP_PATTERN), ("undo", UNDO_PATTERN))


def _first_rule(text: str) -> str | None:
    """The name of the first pattern that takes `text`, in the order `_by_sentence` tries
    them."""
    for name, pattern in _BEFORE_THE_RULES:
        if pattern.match(text):
            return name
    return next((rule.name for rule in SENTENCE_RULES if rule.pattern.match(text)), None)


def _cases(field: str) -> list[pytest.param]:
    return [
        pytest.param(rule, text, id=f"{rule.name}: {text}")
        for rule in SENTENCE_RULES
        for text in getattr(rule, field)
    ]


def test_every_rule_has_examples_and_a_name_of_its_own() -> None:
    names = [rule.name for rule in SENTENCE_RULES]
    assert len(names) == len(set(names))
    for rule in SENTENCE_RULES:
        assert len(rule.examples) >= 2, rule.name


@pytest.mark.parametrize(("rule", "example"), _cases("examples"))
def test_a_rule_takes_its_examples(rule: SentenceRule, example: str) -> None:
    assert rule.pattern.match(core_request(example))


@pytest.mark.parametrize(("rule", "example"), _cases("examples"))
def test_no_earlier_rule_takes_an_example(rule: SentenceRule, example: str) -> None:
    assert _first_rule(core_request(example)) == rule.name


@pytest.mark.parametrize(("rule", "not_example"), _cases("not_examples"))
def test_a_rule_takes_none_of_its_not_examples(rule: SentenceRule, not_example: str) -> None:
    assert not rule.pattern.match(core_request(not_example))
