"""A reminder "that morning" / "that day" / "on the day" is on the day the task is due."""

from __future__ import annotations

import pytest

from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start


@pytest.mark.parametrize(
    ("said", "remind_at"),
    [
        ("And would you remind me at 9 that morning, please?", "2026-11-26T09:00"),
        ("remind me at 7 that evening", "2026-11-26T19:00"),
        ("remind me on the day at 8", "2026-11-26T08:00"),
    ],
)
def test_a_reminder_that_morning_is_on_the_day_the_task_just_got(said: str, remind_at: str) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("Could you please add 'return library books' for Thursday?")
    exchange = talk.say(said)
    calls = [(c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] != "list_tasks"]
    assert calls == [("update_task", {"task_id": 17, "remind_at": remind_at})]


def test_a_reminder_that_morning_after_the_day_was_corrected_is_on_the_new_day() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("Could you please add 'return library books' for Thursday? Thank you.")
    talk.say("Oh, sorry, I meant Wednesday, not Thursday.")
    exchange = talk.say("And would you remind me at 9 that morning, please?")
    calls = [(c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] != "list_tasks"]
    assert calls == [("update_task", {"task_id": 17, "remind_at": "2026-11-25T09:00"})]


@pytest.mark.parametrize(
    ("said", "task_id", "remind_at"),
    [
        # an all-day task: the eve of its day, at the clock said
        ("and for the passport remind me the day before at 9am", 8, "2026-11-30T09:00"),
        ("AND FOR THE PASSPORT REMIND ME THE DAY BEFORE AT 9AM", 8, "2026-11-30T09:00"),
        # "the night before" with no time is 20:00 (the labelling guide's)
        ("remind me about the dentist the night before", 6, "2026-11-19T20:00"),
        ("remind me about the report draft the day before at 9", 4, "2026-11-25T09:00"),
    ],
)
def test_a_reminder_on_the_eve_of_the_due_day_is_at_the_clock_said(
    said: str, task_id: int, remind_at: str
) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    updated = [c["arguments"] for c in talk.say(said).tool_calls if c["name"] == "update_task"]
    assert updated == [{"task_id": task_id, "remind_at": remind_at}]


def test_the_night_before_said_after_an_add_is_on_the_eve_of_the_new_task() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("add water the lawn friday")
    exchange = talk.say("remind me the night before")
    updated = [c["arguments"] for c in exchange.tool_calls if c["name"] == "update_task"]
    assert updated == [{"task_id": 17, "remind_at": "2026-11-26T20:00"}]


def test_a_reminder_wished_for_in_words_is_set_on_the_task_just_added() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("Please add 'prepare board presentation' to my Work list, due on the 2nd of December")
    exchange = talk.say("I should like a reminder the afternoon before as well.")
    assert [(c["name"], c["arguments"]) for c in exchange.tool_calls][-1] == (
        "update_task",
        {"task_id": 17, "remind_at": "2026-12-01T15:00"},
    )
