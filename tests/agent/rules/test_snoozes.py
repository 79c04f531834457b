"""Snoozing a reminder from chat (backend/agent/rules/snoozes.py, issue 34 item 4): the
phrasings and what they leave to other rules; which reminder "that" is (the card shown, else
the task talked about, else a question); that a snooze never adds a task; undo."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from backend.agent.rules.snoozes import snooze_request
from backend.agent.rules.text import prepare
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks

# The user's wall clock: Tuesday 14:10:20 in London.
NOW = datetime(2026, 11, 24, 14, 10, 20, tzinfo=ZoneInfo("Europe/London"))


@pytest.mark.parametrize(
    ("said", "at", "minutes", "target"),
    [
        ("snooze that for 10 minutes", "2026-11-24T14:20", 10, None),
        ("snooze it", "2026-11-24T14:20", 10, None),
        ("Snooze.", "2026-11-24T14:20", 10, None),
        ("snooze for an hour", "2026-11-24T15:10", 60, None),
        ("snooze it for another 10 minutes please", "2026-11-24T14:20", 10, None),
        ("snooze that 15 min", "2026-11-24T14:25", 15, None),
        ("hit snooze on that for half an hour", "2026-11-24T14:40", 30, None),
        ("remind me again in an hour", "2026-11-24T15:10", 60, None),
        ("remind me again in 20 minutes", "2026-11-24T14:30", 20, None),
        ("ping me again in half an hour", "2026-11-24T14:40", 30, None),
        ("remind me again later", "2026-11-24T15:10", 60, None),
        ("remind me later", "2026-11-24T15:10", 60, None),
        ("not now, remind me later", "2026-11-24T15:10", 60, None),
        ("remind me tomorrow instead", "2026-11-25T09:00", None, None),
        ("remind me about it at 5pm instead", "2026-11-24T17:00", None, None),
        ("remind me about that tonight instead", "2026-11-24T20:00", None, None),
        ("snooze the report reminder until tomorrow morning", "2026-11-25T09:00", None, "report"),
        ("can you snooze the dentist reminder till 6pm?", "2026-11-24T18:00", None, "dentist"),
        ("snooze call mom for 20 min", "2026-11-24T14:30", 20, "call mom"),
        ("remind me again about the report tomorrow", "2026-11-25T09:00", None, "the report"),
        ("snooze my reminder until monday", "2026-11-30T09:00", None, None),
    ],
)
def test_snooze_phrasings_give_a_time_and_the_task_as_said(
    said: str, at: str, minutes: int | None, target: str | None
) -> None:
    found = snooze_request(prepare(said), NOW)
    assert found is not None
    assert (found.at, found.minutes, found.target) == (at, minutes, target)


def test_a_snooze_of_a_task_number_names_that_task() -> None:
    found = snooze_request(prepare("snooze task 3 for 10 more minutes"), NOW)
    assert found is not None and (found.task_id, found.minutes) == (3, 10)


@pytest.mark.parametrize(
    "said",
    [
        "remind me to call mom again tomorrow",  # a new task
        "remind me again what's on my list",  # a question
        "remind me at 5",  # a reminder set (reminder_requests.py), not a snooze
        "remind me in 2 hours",
        "remind me 30 minutes before",
        "snooze all today's alarms permanently",  # another app's
        "snooze my alarm for 10 minutes",
        "snooze all of them for an hour",  # no one reminder
        "add snooze button to the app",
    ],
)
def test_what_is_no_snooze_is_left_to_the_other_rules(said: str) -> None:
    assert snooze_request(prepare(said), NOW) is None


def _conversation(*fired: int) -> Conversation:
    store = FakeTaskStore(numbered_tasks("call mom", "finish the report", "buy milk"))
    store.fired = list(fired)  # most recent last
    return Conversation(store, now=NOW.astimezone(UTC))


def _changes(exchange_calls: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(c["name"], c["arguments"]) for c in exchange_calls if c["name"] != "list_tasks"]


def test_snooze_that_moves_the_most_recently_fired_reminder_and_says_for_how_long() -> None:
    talk = _conversation(2, 1)
    said = talk.say("snooze that for 10 minutes")
    assert _changes(said.tool_calls) == [
        ("update_task", {"task_id": 1, "remind_at": "2026-11-24T14:20"})
    ]
    assert said.reply.startswith("Snoozed 'call mom' for 10 minutes, until ")
    assert said.reply.endswith("Say 'undo' to put it back.")
    assert talk.store.fired == [2]  # its card is superseded


def test_a_plain_snooze_is_ten_minutes_and_says_so() -> None:
    said = _conversation(3).say("snooze it")
    assert _changes(said.tool_calls) == [
        ("update_task", {"task_id": 3, "remind_at": "2026-11-24T14:20"})
    ]
    assert said.reply.startswith("Snoozed 'buy milk' for 10 minutes")


def test_undo_of_a_snooze_puts_the_old_reminder_and_its_card_back() -> None:
    talk = _conversation(1)
    talk.say("remind me again in an hour")
    undone = talk.say("undo")
    assert _changes(undone.tool_calls) == [
        ("update_task", {"task_id": 1, "remind_at": "none", "restore_reminder": True})
    ]
    assert undone.reply == "Undone: the reminder for 'call mom' is back the way it was."
    assert talk.store.fired == [1]


def test_remind_me_again_never_adds_a_task() -> None:
    for said in ("remind me again in an hour", "remind me again later", "remind me later"):
        talk = _conversation(2)
        exchange = talk.say(said)
        assert [c["name"] for c in exchange.tool_calls] == ["list_tasks", "update_task"], said
        assert [t["title"] for t in talk.store.tasks] == [
            "call mom",
            "finish the report",
            "buy milk",
        ]


def test_a_snooze_names_its_task_among_the_cards_shown() -> None:
    said = _conversation(2, 1).say("snooze the report reminder until tomorrow morning")
    assert _changes(said.tool_calls) == [
        ("update_task", {"task_id": 2, "remind_at": "2026-11-25T09:00"})
    ]
    assert said.reply.startswith("Snoozed 'finish the report' until ")


def test_a_snooze_of_a_task_with_no_card_finds_it_by_title() -> None:
    said = _conversation(1).say("remind me about the milk at 5pm instead")
    assert _changes(said.tool_calls) == [
        ("update_task", {"task_id": 3, "remind_at": "2026-11-24T17:00"})
    ]


def test_with_no_card_shown_the_task_talked_about_is_snoozed() -> None:
    talk = _conversation()
    talk.say("add pay the rent")
    said = talk.say("remind me tomorrow instead")
    assert _changes(said.tool_calls) == [
        ("update_task", {"task_id": 4, "remind_at": "2026-11-25T09:00"})
    ]


def test_instead_right_after_a_reminder_was_set_corrects_that_one() -> None:
    talk = _conversation(1)
    talk.say("remind me about task 3 at 4pm")
    said = talk.say("remind me at 5pm instead")
    assert _changes(said.tool_calls) == [
        ("update_task", {"task_id": 3, "remind_at": "2026-11-24T17:00"})
    ]


def test_with_no_card_and_no_task_talked_about_it_asks_which_and_changes_nothing() -> None:
    talk = _conversation()
    asked = talk.say("snooze for an hour")
    assert _changes(asked.tool_calls) == []
    assert asked.reply.startswith("There's no reminder showing right now. Which task")
    assert [c["message"] for c in asked.meta.get("choices", [])] == ["task 1", "task 2", "task 3"]
    answered = talk.say("the second one")
    assert _changes(answered.tool_calls) == [
        ("update_task", {"task_id": 2, "remind_at": "2026-11-24T15:10"})
    ]


def test_several_cards_of_the_task_named_are_asked_about() -> None:
    store = FakeTaskStore(numbered_tasks("call mom", "call dad", "buy milk"))
    store.fired = [1, 2]
    said = Conversation(store, now=NOW.astimezone(UTC)).say("snooze the call reminder")
    assert _changes(said.tool_calls) == []
    assert sorted(said.meta.get("pending", {}).get("candidates", [])) == [1, 2]


def test_a_bare_snooze_with_nothing_to_snooze_says_so_and_asks_nothing() -> None:
    said = _conversation().say("snooze")
    assert _changes(said.tool_calls) == []
    assert said.reply.startswith("There's no reminder showing to snooze.")
    assert "pending" not in said.meta
