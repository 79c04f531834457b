"""A question's readings as choices, picked by button or in words (choices.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.choices import MAX_CHOICES, choices_for, picked_message
from backend.agent.rules.types import Choice, PendingKind, PendingQuestion
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

TASK_CHOICES = [
    Choice(label="finish Q4 report (task 3)", message="task 3"),
    Choice(label="review report draft (task 4)", message="task 4"),
]
YES_NO = [Choice(label="Yes, delete them", message="yes"), Choice(label="No", message="no")]


def _talk() -> Conversation:
    return Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)


def test_which_task_offers_each_candidate_by_its_number() -> None:
    exchange = _talk().say("delete the report")
    assert exchange.meta.get("choices") == TASK_CHOICES


def test_a_confirmation_offers_yes_naming_the_change_and_no() -> None:
    exchange = _talk().say("the dentist's booked anyway so the dentist thing can go")
    assert exchange.meta.get("choices") == [
        Choice(label="Yes, delete 'book dentist appointment'", message="yes"),
        Choice(label="No, leave it", message="no"),
    ]


def test_a_reply_that_asks_nothing_offers_no_choices() -> None:
    assert "choices" not in _talk().say("add stamps").meta


def test_no_more_than_three_readings_are_offered() -> None:
    pending = PendingQuestion(
        kind=PendingKind.CHOOSE_TASK, candidates=[1, 2, 3, 4], titles=["a", "b", "c", "d"]
    )
    assert len(choices_for(pending)) == MAX_CHOICES


@pytest.mark.parametrize(
    ("said", "message"),
    [
        ("the second one", "task 4"),
        ("yes, the first", "task 3"),
        ("option 2", "task 4"),
        ("I meant the 2nd one", "task 4"),
    ],
)
def test_a_reading_is_picked_by_its_place_in_words(said: str, message: str) -> None:
    assert picked_message(said, TASK_CHOICES) == message


@pytest.mark.parametrize(
    "said", ["2", "the third one", "task 2", "the second one on my list please now"]
)
def test_a_bare_number_or_a_place_with_no_reading_picks_nothing(said: str) -> None:
    assert picked_message(said, TASK_CHOICES) is None


def test_a_yes_or_a_no_is_never_picked_by_number() -> None:
    assert picked_message("the first one", YES_NO) is None


def test_picking_the_second_reading_in_words_changes_that_task_only() -> None:
    talk = _talk()
    talk.say("delete the report")
    exchange = talk.say("the second one")
    assert [(c["name"], c["arguments"]) for c in exchange.tool_calls] == [
        ("delete_task", {"task_id": 4})
    ]
