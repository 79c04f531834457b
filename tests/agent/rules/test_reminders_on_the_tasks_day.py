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
