"""A field change read by its slots, whatever the sentence shape (slot_reading.py), and the
guards that keep follow-ups from becoming tasks nobody asked for."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from backend.agent.rules.slot_reading import grounded_task, names_no_task, slot_change
from corpus.fake_tools import Conversation, Exchange, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("message", "fields"),
    [
        (
            "the bins only go out on fridays now, not tuesdays",
            {"repeat": "FREQ=WEEKLY;BYDAY=FR"},
        ),
        ("I'd like a reminder for the vet thing, twenty minutes beforehand", {"remind_before": 20}),
        (
            "for the gas bill please make me a reminder on Friday at 8",
            {"remind_at": "2026-11-27T08:00"},
        ),
        ("could you stop the hoovering repeating, it's a pain", {"repeat": "none"}),
        ("take the priority off the car wash", {"priority": "none"}),
        (
            "could you move the tax return off the Work list into a new one called Admin",
            {"list": "Admin"},
        ),
        ("can we shift the haircut to the 9th", {"due": "2026-12-09"}),
    ],
)
def test_fields_are_read_wherever_they_stand(message: str, fields: dict[str, Any]) -> None:
    change = slot_change(message, NOW)
    assert change is not None
    assert change.fields == fields


@pytest.mark.parametrize(
    "message",
    [
        "is the vet thing still on for friday?",  # a question asks
        "I might move the haircut to friday",  # a hedge
        "I have an appointment tomorrow remind me",  # what the person does, no request
        "i will no longer be joining mom for lunch tomorrow",
        "make appointment for next friday",  # something new is made
        "can you please set up a meeting for 3:00 on wednesday",
        "rename the haircut to barber friday",  # a title, not a field
        "set an alarm for 7 tomorrow",  # another assistant's job
        "the haircut is friday",  # nothing asks for a change
    ],
)
def test_no_change_is_read_from_a_question_a_hedge_a_statement_or_a_new_thing(
    message: str,
) -> None:
    assert slot_change(message, NOW) is None


def test_words_left_after_the_fields_name_the_task_holding_most_of_them() -> None:
    tasks = [
        {"id": 3, "title": "finish Q4 report"},
        {"id": 4, "title": "review report draft"},
        {"id": 15, "title": "clean the bathroom"},
    ]
    assert [t["id"] for t in grounded_task("so the Q4 report", tasks)] == [3]
    assert [t["id"] for t in grounded_task("the report", tasks)] == [3, 4]  # asked which
    assert grounded_task("bring up any", tasks) == []  # "up" names nothing


def test_fields_with_only_asking_and_pointing_words_name_no_task() -> None:
    change = slot_change("and give us a nudge quarter of an hour before would you", NOW)
    assert change is not None and change.fields == {"remind_before": 15}
    assert names_no_task(change)


def _talk(*messages: str) -> tuple[Conversation, Exchange]:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = None
    for message in messages:
        exchange = talk.say(message)
    assert exchange is not None
    return talk, exchange


def _changes(exchange: Exchange) -> list[tuple[str, dict[str, Any]]]:
    return [(c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] != "list_tasks"]


def test_a_field_change_inside_a_story_changes_only_the_task_it_names() -> None:
    _, exchange = _talk(
        "we've got guests all weekend so honestly could you just shift the bathroom "
        "cleaning to the Sunday after, the 6th"
    )
    assert _changes(exchange) == [("update_task", {"task_id": 15, "due": "2026-12-06"})]


def test_a_slot_change_naming_two_tasks_alike_asks_which_and_offers_both() -> None:
    _, exchange = _talk("ugh, can you push the report to monday")
    assert _changes(exchange) == []
    assert [c["message"] for c in exchange.meta["choices"]] == ["task 3", "task 4"]


def test_a_reminder_follow_up_after_an_add_sets_that_tasks_reminder_never_a_new_task() -> None:
    talk, exchange = _talk(
        "add ring the garage thursday at 10", "and give us a nudge quarter of an hour before"
    )
    assert _changes(exchange) == [("update_task", {"task_id": 17, "remind_before": 15})]
    assert len(talk.store.tasks) == 17


def test_an_add_naming_a_task_already_there_gives_it_the_fields_instead() -> None:
    talk, exchange = _talk("add oat milk", "oh put the oat milk on groceries")
    assert _changes(exchange) == [("update_task", {"task_id": 17, "list": "Groceries"})]
    assert len(talk.store.tasks) == 17


@pytest.mark.parametrize("follow_up", ["put in Inbox", "and put it on a new lst caled Trip"])
def test_an_add_whose_words_only_place_or_point_adds_nothing(follow_up: str) -> None:
    talk, exchange = _talk("add printer ink", follow_up)
    assert not [c for c in exchange.tool_calls if c["name"] == "add_task"]
    assert len(talk.store.tasks) == 17


def test_the_same_fields_are_asked_again_of_another_task() -> None:
    _, exchange = _talk(
        "make the dentist high priority", "and the passport as well, while you're at it"
    )
    assert _changes(exchange) == [("update_task", {"task_id": 8, "priority": "high"})]


def test_a_rename_to_a_field_value_is_asked_never_made() -> None:
    talk, exchange = _talk("change the Q4 report deadline to monday mornign")
    assert not any("title" in arguments for _, arguments in _changes(exchange))
    assert talk.store.tasks[2]["title"] == "finish Q4 report"


def test_a_timed_task_moved_by_its_row_keeps_its_time() -> None:
    _, exchange = _talk("show my work list", "move the last one to friday")
    assert _changes(exchange) == [("update_task", {"task_id": 10, "due": "2026-11-27T10:00"})]


def test_no_to_a_clear_with_only_the_ones_finished_asks_about_the_finished_ones() -> None:
    talk, exchange = _talk("delete all my tasks", "no no, only the ones finished")
    assert _changes(exchange) == []
    assert "4 completed" in exchange.reply
    _, confirmed = _talk("delete all my tasks", "no no, only the ones finished", "yes")
    assert _changes(confirmed) == [("delete_task", {"task_ids": [5, 7, 13, 16]})]


def test_that_after_a_list_of_several_is_a_guess_a_deletion_of_it_is_asked_first() -> None:
    talk, exchange = _talk("show my list", "delete that")
    assert _changes(exchange) == []
    assert "buy groceries" in exchange.reply and exchange.meta["choices"]
    assert len(talk.store.tasks) == 16


def test_a_slot_change_never_lands_on_the_first_row_of_a_list_by_a_pronoun() -> None:
    _, exchange = _talk("what's due in the next 7 days", "give it a reminder 10 minutes before")
    assert not [name for name, _ in _changes(exchange) if name == "update_task"]
