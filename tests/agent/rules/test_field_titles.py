"""A follow-up that says only fields changes those fields, never the title (field_titles.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from backend.agent.rules.field_titles import fields_said_alone
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
AFTER_A_REMINDER = {"tool": "update_task", "arguments": {"task_id": 4, "remind_before": 30}}


@pytest.mark.parametrize(
    ("message", "last_change", "fields"),
    [
        ("actually make that 30 minutes before", None, {"remind_before": 30}),
        ("make it an hour", AFTER_A_REMINDER, {"remind_before": 60}),
        ("half an hour instead", AFTER_A_REMINDER, {"remind_before": 30}),
        ("change it to every 3 weeks instead", None, {"repeat": "FREQ=WEEKLY;INTERVAL=3"}),
        ("from monthly to every 3 weeks", None, {"repeat": "FREQ=WEEKLY;INTERVAL=3"}),
        ("that was meant to go on the work list", None, {"list": "Work"}),
        ("no, thursday", None, {"due": "2026-11-26"}),
    ],
)
def test_a_message_of_fields_alone_gives_those_fields(
    message: str, last_change: dict[str, object] | None, fields: dict[str, object]
) -> None:
    assert fields_said_alone(message, NOW, last_change) == fields


@pytest.mark.parametrize(
    ("message", "last_change"),
    [
        ("make it an hour", None),  # no reminder talked about: "an hour" is no offset
        ("call the vet on thursday", None),  # a title with a day
        ("rename it to weekly planning", None),
        ("change it to buy oat milk", None),
    ],
)
def test_a_message_that_says_a_title_gives_no_fields(
    message: str, last_change: dict[str, object] | None
) -> None:
    assert fields_said_alone(message, NOW, last_change) is None


def _changes(talk: Conversation, message: str) -> list[dict[str, object]]:
    exchange = talk.say(message)
    return [c["arguments"] for c in exchange.tool_calls if c["name"] == "update_task"]


@pytest.mark.parametrize(
    ("first", "follow_up", "change"),
    [
        (
            "remind me 15 minutes before the report draft review",
            "make it an hour",
            {"task_id": 4, "remind_before": 60},
        ),
        (
            "add pay rent monthly",
            "change it to every 3 weeks instead",
            {"task_id": 17, "repeat": "FREQ=WEEKLY;INTERVAL=3"},
        ),
        (
            "add printer paper",
            "that was meant to go on the work list",
            {"task_id": 17, "list": "Work"},
        ),
    ],
)
def test_a_follow_up_of_fields_changes_the_field_and_keeps_the_title(
    first: str, follow_up: str, change: dict[str, object]
) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say(first)
    titles = {t["id"]: t["title"] for t in talk.store.tasks}
    assert _changes(talk, follow_up) == [change]
    assert {t["id"]: t["title"] for t in talk.store.tasks} == titles


@pytest.mark.parametrize(
    ("first", "follow_up", "change"),
    [
        ("add buy stamps", "high priority", {"task_id": 17, "priority": "high"}),
        (
            "add buy stamps friday",
            "oh wait, the 5th actually",
            {"task_id": 17, "due": "2026-12-05"},
        ),
        ("add buy stamps", "actually make that saturday", {"task_id": 17, "due": "2026-11-28"}),
        # only a time said: the day the task was just given stays
        ("move the dentist to monday", "at 3pm", {"task_id": 6, "due": "2026-11-30T15:00"}),
    ],
)
def test_fields_said_alone_right_after_a_change_are_that_tasks(
    first: str, follow_up: str, change: dict[str, object]
) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say(first)
    assert _changes(talk, follow_up) == [change]
    assert len(talk.store.tasks) == len(dated_start()) + first.startswith("add")


@pytest.mark.parametrize(
    ("first", "follow_up"),
    [
        ("add buy stamps friday", "not friday"),  # a negation corrects; it never sets friday
        ("add buy stamps", "tomorrow?"),  # a question
        ("what's due tomorrow?", "friday"),  # no change just made: nothing to set it on
    ],
)
def test_fields_after_no_change_or_asked_or_negated_set_nothing(first: str, follow_up: str) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say(first)
    exchange = talk.say(follow_up)
    assert exchange.meta.get("rules") != ["fields of the task just changed"]


def test_a_reason_after_the_fields_is_no_part_of_them() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("add buy plants")
    follow_up = "Actually make it Sunday, the garden centre's shut Saturdays"
    assert _changes(talk, follow_up) == [{"task_id": 17, "due": "2026-11-29"}]


def test_a_reason_given_after_a_move_never_completes_the_task() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("move the groceries to Saturday, since the big shop's sort of done")
    assert [c["name"] for c in exchange.tool_calls if c["name"] != "list_tasks"] == ["update_task"]


def test_a_would_be_title_that_says_only_a_field_is_that_fields_change() -> None:
    # a long story before "can you make it an hour before instead": the title a rename would
    # take says only the reminder's offset
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say(
        "the draft review thing on Thursday, I know there's already a reminder on it but half"
        " an hour isn't long enough for me to get across, can you make it an hour before instead"
    )
    changes = [c["arguments"] for c in exchange.tool_calls if c["name"] == "update_task"]
    assert changes == [{"task_id": 4, "remind_before": 60}]


def test_a_tail_after_and_with_a_command_of_its_own_is_no_more_of_the_last_change() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("tick off the eggs")
    exchange = talk.say("oh, and move the groceries to Saturday morning then")
    assert [c["name"] for c in exchange.tool_calls if c["name"] != "list_tasks"] == ["update_task"]
