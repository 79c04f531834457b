"""A message read against the user's own tasks (grounding.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.grounding import names_the_task
from backend.agent.turn_limits import CHANGING_TOOLS
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

CHANGING = CHANGING_TOOLS


def _talk(*first: str) -> Conversation:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    for message in first:
        talk.say(message)
    return talk


def _changes(talk: Conversation, message: str) -> list[tuple[str, dict[str, object]]]:
    exchange = talk.say(message)
    return [(c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] in CHANGING]


@pytest.mark.parametrize(
    ("statement", "title"),
    [("I paid the rent", "pay rent"), ("gas bill paid", "pay the gas bill")],
)
def test_a_done_statement_names_the_task_without_its_verb(statement: str, title: str) -> None:
    assert names_the_task(statement, title)


def test_a_done_statement_does_not_name_a_task_it_only_shares_a_verb_with() -> None:
    assert not names_the_task("I paid the plumber", "pay rent")


def test_a_bill_with_a_repeat_typed_alone_is_a_task_not_banking() -> None:
    changes = _changes(_talk(), "pay rent every 1st of the month")
    assert changes == [
        (
            "add_task",
            {"title": "pay rent", "due": "2026-12-01", "repeat": "FREQ=MONTHLY;BYMONTHDAY=1"},
        )
    ]


def test_saying_a_bill_was_paid_completes_its_task() -> None:
    talk = _talk("pay the gas bill tomorrow")
    assert _changes(talk, "gas bill paid") == [("complete_task", {"task_id": 17})]


def test_saying_something_was_paid_that_is_no_task_changes_nothing() -> None:
    talk = _talk()
    exchange = talk.say("I paid my credit card")
    assert [c for c in exchange.tool_calls if c["name"] in CHANGING] == []
    assert "payments" in exchange.reply


def test_a_reminder_about_a_task_said_another_way_sets_that_tasks_reminder() -> None:
    talk = _talk("add return library books")
    changes = _changes(talk, "remind me about the library books at 4")
    assert changes == [("update_task", {"task_id": 17, "remind_at": "2026-11-24T16:00"})]
    assert [t["title"] for t in talk.store.tasks].count("return library books") == 1


def test_a_reminder_about_no_task_keeps_its_reading() -> None:
    exchange = _talk().say("remind me about the meeting in one hour")
    assert [c for c in exchange.tool_calls if c["name"] in CHANGING] == []
