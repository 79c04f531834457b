"""Changing a task's due date, priority, list or tags, and lists filtered by them, in chat
(backend/agent/rules/field_requests.py), through the engine and the in-memory tools."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from backend.agent.rules.field_requests import field_change, list_filters
from backend.agent.rules.intents import detect_intent
from backend.agent.rules.types import Action, Intent
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start
from corpus.model import STANDARD_TASKS

NOW = datetime(2026, 11, 24, 19, 30, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("said", "target", "fields"),
    [
        ("push the dentist to thursday", "the dentist", {"due": "2026-11-26"}),
        ("move it to tomorrow at 3", "it", {"due": "2026-11-25T15:00"}),
        ("reschedule task 9 to friday at 5pm", "task 9", {"due": "2026-11-27T17:00"}),
        ("postpone the report until next week", "the report", {"due": "2026-11-30"}),
        ("the report is due friday", "the report", {"due": "2026-11-27"}),
        ("remove the date from it", "it", {"due": "none"}),
        ("clear the due date on task 4", "task 4", {"due": "none"}),
        ("make it high priority", "it", {"priority": "high"}),
        ("mark the report as urgent", "the report", {"priority": "high"}),
        ("set task 2 to low priority", "task 2", {"priority": "low"}),
        ("prioritize the report draft", "the report draft", {"priority": "high"}),
        ("remove the priority from it", "it", {"priority": "none"}),
        ("move it to work", "it", {"list": "Work"}),
        ("move the milk to my shopping list", "the milk", {"list": "Shopping"}),
        ("put it on my errands list", "it", {"list": "Errands"}),
        ("tag it #work", "it", {"add_tags": ["work"]}),
        ("tag the report with home", "the report", {"add_tags": ["home"]}),
        ("add #urgent to task 3", "task 3", {"add_tags": ["urgent"]}),
        ("remove the tags from it", "it", {"tags": []}),
    ],
)
def test_a_change_of_a_field_names_its_task_and_the_new_value(
    said: str, target: str, fields: dict[str, object]
) -> None:
    change = field_change(said, NOW)
    assert change is not None
    assert (change.target, change.fields) == (target, fields)
    assert detect_intent(said).action is Action.FIELDS


@pytest.mark.parametrize(
    "said",
    [
        "put bread on my shopping list",  # an add
        "put milk in the fridge",
        "set an alarm for 6am",  # another assistant's
        "move the meeting in my calendar to friday",
        "move the car to the garage",
        "delete the report",
        "what's due today?",
        "change the report to the final report",  # a rename
        "move buying eggs to trash from to do list",
    ],
)
def test_other_requests_are_no_field_change(said: str) -> None:
    assert field_change(said, NOW) is None


@pytest.mark.parametrize(
    ("said", "filters"),
    [
        ("what's due today?", {"due": "today"}),
        ("anything due tomorrow?", {"due": "tomorrow"}),
        ("what do I have due this week", {"due": "this_week"}),
        ("what's overdue?", {"due": "overdue"}),
        ("show my tasks with no due date", {"due": "no_date"}),
        ("show my shopping list", {"list": "Shopping"}),
        ("what's on the grocery list", {"list": "Groceries"}),
        ("What is outstanding on the Work list?", {"list": "Work"}),
        ("work list", {"list": "Work"}),
        ("show me my hardware list", {"list": "Hardware"}),
        ("show #home", {"tag": "home"}),
        ("show me everything tagged work", {"tag": "work"}),
        ("Please list all tasks tagged errand.", {"tag": "errand"}),
        ("tasks tagged work", {"tag": "work"}),
        ("what's important?", {"priority": "high"}),
        ("list my low priority tasks", {"priority": "low"}),
        ("what's urgent on my work list", {"list": "Work", "priority": "high"}),
    ],
)
def test_a_filtered_list_question_names_its_filters(said: str, filters: dict[str, str]) -> None:
    assert list_filters(said) == filters
    detection = detect_intent(said)
    assert (detection.intent, detection.action) == (Intent.LIST, Action.FILTERED)


def test_questions_about_other_lists_are_not_filters() -> None:
    for said in ("what is the ingredient list for an omelette", "what's on my play list"):
        assert detect_intent(said).action is not Action.FILTERED, said


def _conversation() -> Conversation:
    return Conversation(FakeTaskStore(STANDARD_TASKS))


def test_rescheduling_a_task_by_title_updates_only_its_due_date_and_says_so() -> None:
    conversation = _conversation()
    exchange = conversation.say("push the dentist appointment to 2027-01-04")
    assert exchange.tool_calls[-1]["name"] == "update_task"
    assert exchange.tool_calls[-1]["arguments"] == {"task_id": 6, "due": "2027-01-04"}
    assert exchange.reply == "Done: 'book dentist appointment' is now due 2027-01-04."
    cleared = conversation.say("remove the date from it")
    assert cleared.tool_calls[-1]["arguments"] == {"task_id": 6, "due": "none"}
    assert cleared.reply == "Done: 'book dentist appointment' no longer has a due date."


def test_a_field_change_after_a_list_finds_the_position_and_never_deletes() -> None:
    conversation = _conversation()
    conversation.say("show my tasks")
    exchange = conversation.say("make the second one high priority")
    assert [c["name"] for c in exchange.tool_calls] == ["update_task"]
    assert exchange.tool_calls[0]["arguments"] == {"task_id": 2, "priority": "high"}
    gone = conversation.say("remove the date from task 3")
    assert [c["name"] for c in gone.tool_calls] == ["update_task"]


def test_a_filtered_list_shows_only_its_tasks_with_their_labels() -> None:
    conversation = _conversation()
    conversation.say("move the milk to my shopping list")
    conversation.say("make it high priority")
    shown = conversation.say("show my shopping list")
    # the lists are read first: the user keeps a Shopping list, so it is the one shown
    assert shown.tool_calls[-1]["arguments"]["list"] == "Shopping"
    assert shown.reply == "Here's your Shopping list:\n11. milk (high priority)"
    empty = conversation.say("show #garden")
    assert empty.reply == "You have no tasks tagged #garden."


def test_what_lists_do_i_have_names_each_list_with_its_counts_not_its_tasks() -> None:
    conversation = _conversation()
    conversation.say("move the milk to my shopping list")
    conversation.say("add the bank statement to my Admin list")
    conversation.say("i finished the bank statement")
    reply = conversation.say("what lists do I have?").reply
    assert reply == (
        "Your lists:\n- Inbox: 11 pending, 4 done\n- Shopping: 1 pending\n- Admin: 1 done\n"
        'Say "show my Shopping list" to see one.'
    )


def test_a_correction_of_the_day_just_set_moves_the_due_not_the_title() -> None:
    conversation = _conversation()
    conversation.say("add pick up the cake on 2030-01-05")
    fixed = conversation.say("oh wait no, it's 2030-01-06 not 2030-01-05, sorry")
    assert fixed.tool_calls[-1]["name"] == "update_task"
    assert fixed.tool_calls[-1]["arguments"] == {"task_id": 17, "due": "2030-01-06"}


def test_a_correction_of_only_the_time_keeps_the_day() -> None:
    conversation = _conversation()
    conversation.say("add pick up kids on 2030-01-05 at 4pm")
    fixed = conversation.say("sorry, is at 5, not at 4")
    assert fixed.tool_calls[-1]["arguments"] == {"task_id": 17, "due": "2030-01-05T17:00"}
    assert [t["title"] for t in conversation.store.tasks if t["id"] == 17] == ["pick up kids"]


def test_undo_puts_a_changed_due_date_priority_or_list_back() -> None:
    conversation = _conversation()
    conversation.say("add pay rent on 2030-01-04 at 9am")
    conversation.say("push it to 2030-01-09")
    undone = conversation.say("undo")
    assert undone.tool_calls[-1]["arguments"] == {"task_id": 17, "due": "2030-01-04T09:00"}
    assert undone.reply == "Undone: 'pay rent' is back the way it was."
    conversation.say("make it high priority")
    conversation.say("undo that")
    conversation.say("move it to my bills list")
    conversation.say("undo")
    [rent] = [t for t in conversation.store.tasks if t["id"] == 17]
    assert (rent["due_date"], rent["due_time"], rent["priority"], rent["list"]) == (
        "2030-01-04",
        "09:00",
        "none",
        "Inbox",
    )


def test_undo_of_a_delete_brings_back_the_task_under_its_number_with_its_fields() -> None:
    conversation = _conversation()
    conversation.say("add urgent: pay rent on 2030-01-04 at 9am #home")
    conversation.say("move it to my bills list")
    conversation.say("delete pay rent")
    restored = conversation.say("undo")
    assert restored.tool_calls[-1]["name"] == "add_task"
    assert restored.tool_calls[-1]["arguments"] == {
        "title": "pay rent",
        "number": 17,
        "due": "2030-01-04T09:00",
        "priority": "high",
        "list": "Bills",
        "tags": ["home"],
    }


@pytest.mark.parametrize(
    ("said", "target", "fields"),
    [
        # the title holds "to": the day is what follows the last parting that is wholly a day
        ("move the call to my mother to tomorrow", "the call to my mother", {"due": "2026-11-25"}),
        ("put off the dentist until Friday", "the dentist", {"due": "2026-11-27"}),
        ("put the dentist off till friday", "the dentist", {"due": "2026-11-27"}),
        ("push it back to monday", "it", {"due": "2026-11-30"}),
        ("bump the passport to next week", "the passport", {"due": "2026-11-30"}),
        (
            "the first one can wait till tomorrow evening",
            "the first one",
            {"due": "2026-11-25T18:00"},
        ),
        (
            "the draft review can move to Monday at 3",
            "the draft review",
            {"due": "2026-11-30T15:00"},
        ),
        (
            "add an urgent tag to the grocery shopping one, the fridge is literally empty",
            "the grocery shopping one",
            {"add_tags": ["urgent"]},
        ),
        (
            "add the work tag to review report draft as well",
            "review report draft",
            {"add_tags": ["work"]},
        ),
        (
            "add the tag 'urgent' to the email to Sarah",
            "the email to Sarah",
            {"add_tags": ["urgent"]},
        ),
        ("this one please put also the tag weekend", "this one", {"add_tags": ["weekend"]}),
        ("put a home label on it", "it", {"add_tags": ["home"]}),
    ],
)
def test_field_changes_said_the_way_people_say_them_are_updates(
    said: str, target: str, fields: dict[str, object]
) -> None:
    change = field_change(said, NOW)
    assert change is not None
    assert (change.target, change.fields) == (target, fields)
    assert detect_intent(said).action is Action.FIELDS


@pytest.mark.parametrize(
    "said",
    [
        "put bread for tomorrow",  # "put" moves only when put off
        "move the call to my mother to the work list",  # no day said: no due change
        "add a gift tag to the shopping list",  # a thing to buy
        "add a task buy printer paper tag it office",
    ],
)
def test_a_move_or_a_tag_needs_a_whole_day_or_a_task(said: str) -> None:
    change = field_change(said, NOW)
    assert change is None or "due" not in change.fields and "add_tags" not in change.fields


@pytest.mark.parametrize(
    ("said", "due"),
    [
        # buy groceries is due today at 18:00: moved to a day, it keeps its time
        ("move the grocery shopping to tomorrow at the same time", "2026-11-25T18:00"),
        ("move the groceries to friday", "2026-11-27T18:00"),
        ("move the groceries to friday at 9am", "2026-11-27T09:00"),  # a time said is kept
    ],
)
def test_a_timed_task_moved_to_another_day_keeps_its_time(said: str, due: str) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say(said)
    assert exchange.tool_calls[-1]["arguments"] == {"task_id": 1, "due": due}


def test_a_tag_said_as_people_say_it_is_added_to_the_tags_the_task_has() -> None:
    conversation = _conversation()
    exchange = conversation.say("can you add an urgent tag to the grocery shopping one")
    assert [c["name"] for c in exchange.tool_calls] == ["list_tasks", "update_task"]
    assert exchange.tool_calls[-1]["arguments"] == {"task_id": 1, "add_tags": ["urgent"]}


def test_a_move_of_a_title_holding_to_moves_that_task_and_adds_nothing() -> None:
    conversation = _conversation()
    exchange = conversation.say("Please move the call to my mother to tomorrow.")
    assert [c["name"] for c in exchange.tool_calls] == ["list_tasks", "update_task"]
    assert exchange.tool_calls[-1]["arguments"]["task_id"] == 2
