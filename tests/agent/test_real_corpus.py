"""The labelled real-utterance corpus and the conversation corpus, one test per item.

Items the assistant gets wrong today are listed in `corpus/data/known_misses.txt` and run as
strict xfails: a fix makes its test pass and fail the run until it leaves the list, and a
regression fails at once. The overall figures are in `python -m corpus.real`.
"""

from __future__ import annotations

import pytest

from corpus.model import Call
from corpus.real import (
    ConversationSpec,
    Expectation,
    Observed,
    Utterance,
    is_right,
    known_misses,
    load_conversations,
    load_utterances,
    run_conversation,
    run_utterance,
    unasked_changes,
)

KNOWN_MISSES = known_misses()
UTTERANCES = load_utterances()
CONVERSATIONS = load_conversations()

# The figures the "done" asks for, as floors that only move up.
HOLDOUT_UTTERANCE_FLOOR = 0.90


def _marks(item_id: str) -> list[pytest.MarkDecorator]:
    if item_id in KNOWN_MISSES:
        return [pytest.mark.xfail(strict=True, reason="known miss (corpus/data/known_misses.txt)")]
    return []


@pytest.mark.parametrize(
    "item",
    [pytest.param(item, id=item.id, marks=_marks(item.id)) for item in UTTERANCES],
)
def test_the_assistant_handles_a_real_utterance_as_labelled(item: Utterance) -> None:
    observed = run_utterance(item)
    assert is_right(item.expect, observed), (
        f"{item.text!r}: want {item.expect.describe()}, got {observed.describe()}"
    )


@pytest.mark.parametrize(
    "spec",
    [pytest.param(spec, id=spec.id, marks=_marks(spec.id)) for spec in CONVERSATIONS],
)
def test_the_assistant_follows_a_conversation_turn_by_turn(spec: ConversationSpec) -> None:
    result = run_conversation(spec)
    assert result.ok, f"{spec.id}: wrong at turn {len(result.observed)}"


def test_the_corpora_are_large_and_varied() -> None:
    assert len(UTTERANCES) >= 7900
    assert len(CONVERSATIONS) >= 300
    voices = {spec.voice for spec in CONVERSATIONS}
    assert voices >= {"terse", "chatty", "typos", "voice_assistant", "non_native", "impatient"}
    holdout = [item for item in UTTERANCES if item.split == "holdout"]
    assert 0.2 < len(holdout) / len(UTTERANCES) < 0.3


def test_no_known_miss_names_an_item_that_does_not_exist() -> None:
    ids = {item.id for item in UTTERANCES} | {spec.id for spec in CONVERSATIONS}
    assert KNOWN_MISSES <= ids


def test_the_held_out_quarter_stays_above_its_floor() -> None:
    holdout = [item for item in UTTERANCES if item.split == "holdout"]
    right = sum(1 for item in holdout if item.id not in KNOWN_MISSES)
    assert right / len(holdout) >= HOLDOUT_UTTERANCE_FLOOR


def test_an_unasked_change_is_a_data_change_the_label_did_not_ask_for() -> None:
    asked = Expectation(frozenset({"query"}), (), None)
    added = Observed("add", (Call("add_task", {"title": "bread"}),), False, "")
    looked = Observed("query", (), False, "")
    assert unasked_changes(asked, added) == (Call("add_task", {"title": "bread"}),)
    assert unasked_changes(asked, looked) == ()
    wanted = Expectation(frozenset({"delete"}), (Call("delete_task", {"task_id": 2}),), False)
    wrong = Observed("delete", (Call("delete_task", {"task_id": 1}),), False, "")
    assert unasked_changes(wanted, wrong) == (Call("delete_task", {"task_id": 1}),)
