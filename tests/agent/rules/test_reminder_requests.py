"""Reminder requests in chat (backend/agent/rules/reminder_requests.py): the phrasings, what
they must leave to other rules, and the conversation around them."""

from __future__ import annotations

from datetime import datetime

import pytest

from backend.agent.rules.reminder_requests import DAY_BEFORE_REMINDER, reminder_change
from backend.agent.rules.text import core_request
from corpus.fake_tools import Conversation, FakeTaskStore

NOW = datetime(2026, 11, 24, 23, 30)  # the user's wall clock: late on Tuesday


@pytest.mark.parametrize(
    ("said", "target", "fields"),
    [
        ("remind me 30 minutes before", "it", {"remind_before": 30}),
        ("Remind me 30 mins before!", "it", {"remind_before": 30}),
        ("remind me 10m before", "it", {"remind_before": 10}),
        ("remind me 1h before it", "it", {"remind_before": 60}),
        ("remind me an hour before", "it", {"remind_before": 60}),
        ("remind me half an hour before the flight", "flight", {"remind_before": 30}),
        ("remind me a quarter of an hour before", "it", {"remind_before": 15}),
        ("remind me 2 hours and a half before", "it", {"remind_before": 150}),
        ("remind me twenty minutes early", "it", {"remind_before": 20}),
        ("remind me five minutes in advance", "it", {"remind_before": 5}),
        ("remind me the day before", "it", {"remind_before": 1440}),
        ("remind me 2 days before", "it", {"remind_before": 2880}),
        ("remind me a week ahead", "it", {"remind_before": 10080}),
        ("remind me about the dentist an hour before", "the dentist", {"remind_before": 60}),
        ("notify me of task 3 15 minutes before", "task 3", {"remind_before": 15}),
        # on the eve of the due day at 20:00 (resolved against the task when it is read)
        (
            "remind me about the bins the night before",
            "the bins",
            {DAY_BEFORE_REMINDER: (1, "20:00")},
        ),
        ("set a reminder for the dentist 15 minutes before", "the dentist", {"remind_before": 15}),
        ("can you remind me 45 minutes before?", "it", {"remind_before": 45}),
        ("remind me at 8", "it", {"remind_at": "2026-11-25T08:00"}),
        ("remind me at 5pm", "it", {"remind_at": "2026-11-25T17:00"}),
        ("remind me about it tomorrow at 9", "it", {"remind_at": "2026-11-25T09:00"}),
        ("remind me on friday at noon", "it", {"remind_at": "2026-11-27T12:00"}),
        ("remind me in 2 hours", "it", {"remind_at": "2026-11-25T01:30"}),
        ("remind me tomorrow morning about task 2", "task 2", {"remind_at": "2026-11-25T09:00"}),
        ("don't remind me about it", "it", {"remind_at": "none"}),
        ("don't remind me", "it", {"remind_at": "none"}),
        ("stop reminding me about the bins", "the bins", {"remind_at": "none"}),
        ("turn off the reminder for the dentist", "the dentist", {"remind_at": "none"}),
        ("remove the reminder from task 4", "task 4", {"remind_at": "none"}),
        ("no reminder please", "it", {"remind_at": "none"}),
    ],
)
def test_a_reminder_request_names_its_task_and_the_fields(
    said: str, target: str, fields: dict[str, object]
) -> None:
    assert reminder_change(core_request(said), NOW) == (target, fields)


@pytest.mark.parametrize(
    "said",
    [
        "remind me to call mom tomorrow",  # an add
        "remind me at 5pm to call mom",  # an add with its time
        "remind me about the meeting in one hour",  # "in an hour" is a time, not an offset
        "remind me about tomorrow meeting at ten am",  # a titled time reads as an add
        "cancel the reminder to call mom",  # people call a task a reminder: a delete
        "delete my reminder for the dentist",
        "remind me tomorrow",  # no time of day and no task: the add rules ask
        "what are my reminders",
        "set an alarm 30 minutes before",
    ],
)
def test_what_is_not_a_reminder_change_is_left_to_the_other_rules(said: str) -> None:
    assert reminder_change(core_request(said), NOW) is None


def test_a_reminder_is_set_on_the_task_just_added_and_undone() -> None:
    chat = Conversation(FakeTaskStore([]))
    chat.say("add dentist tomorrow at 10")
    turn = chat.say("remind me 30 minutes before")
    assert [call["arguments"] for call in turn.tool_calls] == [{"task_id": 1, "remind_before": 30}]
    assert turn.reply.startswith("I'll remind you about 'dentist'")
    assert turn.reply.endswith("(30 minutes before).")
    undone = chat.say("undo")
    assert undone.tool_calls[0]["arguments"] == {"task_id": 1, "remind_at": "none"}
    timed = chat.say("remind me at 8")
    assert timed.tool_calls[0]["arguments"]["task_id"] == 1
    assert timed.tool_calls[0]["arguments"]["remind_at"].endswith("T08:00")
    stopped = chat.say("don't remind me about it")
    assert stopped.reply == "OK, I won't remind you about 'dentist'."


def test_an_offset_for_a_task_with_no_date_asks_when_instead() -> None:
    chat = Conversation(FakeTaskStore([]))
    chat.say("add pay bills")
    turn = chat.say("remind me 10 minutes before")
    assert turn.reply.startswith("That task has no due date")
    assert turn.meta.get("error") == "reminder_needs_due"


def test_a_reminder_with_no_task_talked_about_asks_which() -> None:
    chat = Conversation(FakeTaskStore([]))
    turn = chat.say("remind me 30 minutes before")
    assert turn.tool_calls == []
    assert "Which task" in turn.reply


def test_a_reminder_for_a_task_named_by_title_finds_it() -> None:
    store = FakeTaskStore(
        [{"id": 4, "title": "dentist", "completed": False, "due_date": "2026-11-26"}]
    )
    chat = Conversation(store)
    turn = chat.say("remind me about the dentist an hour before")
    assert turn.tool_calls[-1]["arguments"] == {"task_id": 4, "remind_before": 60}
