"""A message as clauses (backend/agent/rules/clauses.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.clauses import (
    distribute_rename_verb,
    merge_pronoun_tail,
    split_clauses,
)
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks
from corpus.fresh import CLOCK, TODAY, dated_start


def test_compound_requests_split_into_clauses() -> None:
    assert split_clauses("add milk and show my tasks") == ["add milk", "show my tasks"]
    assert split_clauses("delete task 3. What's left?") == ["delete task 3.", "What's left?"]


def test_and_inside_a_title_does_not_split() -> None:
    assert split_clauses("add salt and pepper") == ["add salt and pepper"]


def test_a_greeting_before_a_request_is_dropped() -> None:
    assert split_clauses("Hi! Delete task 1") == ["Delete task 1"]
    assert split_clauses("hello there") == ["hello there"]


def test_a_statement_that_already_says_it_is_done_needs_no_tail() -> None:
    assert merge_pronoun_tail("I walked the dog, mark it done") == "I walked the dog"


def test_a_tail_that_asks_for_another_action_applies_it_to_the_task_named() -> None:
    assert merge_pronoun_tail("the dentist thing, delete it") == "delete the dentist thing"


def test_an_add_then_mark_it_done_keeps_the_add_and_chains_the_action() -> None:
    assert merge_pronoun_tail("Add walk the dog, mark it done") == (
        "Add walk the dog and then complete it"
    )


def test_one_rename_verb_is_shared_by_two_renames() -> None:
    assert distribute_rename_verb("change task 1 to call mom and task 2 to buy milk") == (
        "change task 1 to call mom and then change task 2 to buy milk"
    )
    assert distribute_rename_verb("rename task 1 to salt and pepper") == (
        "rename task 1 to salt and pepper"
    )


@pytest.mark.parametrize(
    ("message", "clauses"),
    [
        ("fine, then add bagels", ["add bagels"]),
        (
            "Could you mark task nine done? The plants got a good long drink.",
            ["Could you mark task nine done?"],
        ),
        ("Okay good. Add bread if it not there.", ["Add bread if it not there."]),
        (
            "Could you read me my list? Just the stuff I haven't done yet.",
            ["Could you read me my list? Just the stuff I haven't done yet."],
        ),
    ],
)
def test_small_talk_and_reasons_around_a_request_are_dropped(
    message: str, clauses: list[str]
) -> None:
    assert split_clauses(message) == clauses


@pytest.mark.parametrize(
    ("message", "clauses"),
    [
        ("add batteries, delete the paper towels", ["add batteries", "delete the paper towels"]),
        ("add shampoo add razors", ["add shampoo", "add razors"]),
        ("Go ahead and delete the eggs, we're going vegan", ["delete the eggs"]),
        ("Good news, I've already emailed Sarah", ["Good news, I've already emailed Sarah"]),
    ],
)
def test_several_requests_split_and_reasons_after_a_request_drop(
    message: str, clauses: list[str]
) -> None:
    assert split_clauses(message) == clauses


def test_the_one_plain_request_among_asides_is_the_clause() -> None:
    said = (
        "So my sister asked if I'd called mom yet and honestly I don't remember, "
        "did I already call mom, according to my list?"
    )
    assert split_clauses(said) == ["did I already call mom, according to my list?"]


def test_a_list_asked_for_twice_in_one_message_is_shown_once() -> None:
    conversation = Conversation(FakeTaskStore([]))
    shown = conversation.say("please go through my list and tell me what's on it")
    assert [c["name"] for c in shown.tool_calls] == ["list_tasks"]


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        ("add batteries and cross off eggs. quick", ["add_task", "complete_task"]),
        ('i finish the eggs finally!! and please add "send report"', ["complete_task", "add_task"]),
        (
            "okay two things: you can take the eggs off, my sister brought a pack over, and add "
            "birthday card for jess",
            ["delete_task", "add_task"],
        ),
    ],
)
def test_two_requests_in_one_message_are_both_carried_out(said: str, calls: list[str]) -> None:
    conversation = Conversation(
        FakeTaskStore([{"id": 1, "title": "eggs", "description": None, "completed": False}])
    )
    made = conversation.say(said).tool_calls
    assert [c["name"] for c in made if c["name"] != "list_tasks"] == calls


def _pending(n: int) -> FakeTaskStore:
    return FakeTaskStore(numbered_tasks(*(f"task {i}" for i in range(1, n + 1))))


def test_a_bare_position_after_a_change_in_the_same_message_is_that_change() -> None:
    conversation = Conversation(_pending(6))
    conversation.say("whats left")
    conversation.say("first two done. and the fifth")
    assert [t["id"] for t in conversation.store.tasks if t["completed"]] == [1, 2, 5]


def test_a_position_too_after_a_change_and_a_list_is_a_row_of_that_list() -> None:
    conversation = Conversation(_pending(6))
    conversation.say("mark task 1 done and show me whats left")
    conversation.say("the last one too")
    assert [t["id"] for t in conversation.store.tasks if t["completed"]] == [1, 6]


def _done_tasks() -> FakeTaskStore:
    return FakeTaskStore(
        [
            {"id": 1, "title": "call mom", "description": None, "completed": True},
            {"id": 2, "title": "pick up dry cleaning", "description": None, "completed": True},
        ]
    )


@pytest.mark.parametrize(
    ("said", "reopened"),
    [
        (
            "actually, the mom one isn't really done. I promised to call her back tonight, so "
            "mark it as not done",
            1,
        ),
        (
            "hold on, the last one on there, I never actually picked that up, the shop was "
            "closed. can you mark it as not done?",
            2,
        ),
    ],
)
def test_a_story_then_mark_it_as_not_done_reopens_the_task_the_story_is_about(
    said: str, reopened: int
) -> None:
    conversation = Conversation(_done_tasks())
    conversation.say("what did I finish?")
    conversation.say(said)
    assert [t["id"] for t in conversation.store.tasks if not t["completed"]] == [reopened]


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        (
            "right, I've finally done the eggs, it was a pain, and can you also stick bin bags on "
            "the list while I remember",
            ["complete_task", "add_task"],
        ),
        ("eggs done. add bread", ["complete_task", "add_task"]),
    ],
)
def test_a_done_statement_beside_another_request_is_carried_out_too(
    said: str, calls: list[str]
) -> None:
    conversation = Conversation(
        FakeTaskStore([{"id": 1, "title": "eggs", "description": None, "completed": False}])
    )
    made = conversation.say(said).tool_calls
    assert [c["name"] for c in made if c["name"] != "list_tasks"] == calls
    assert conversation.store.tasks[-1]["title"] in ("bin bags", "bread")


def test_things_got_named_without_commas_are_completed() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs", "paper towels")))
    conversation.say("got milk eggs paper towels")
    assert all(t["completed"] for t in conversation.store.tasks)


@pytest.mark.parametrize(
    "message",
    [
        "ok so big day, I finally booked the dentist AND I called my mom, she says hi by the way",
        "I booked the dentist. I called my mom",
        "I booked the dentist, and I called my mom",
    ],
)
def test_two_done_statements_by_i_are_two_completions(message: str) -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("book dentist appointment", "call mom", "milk"))
    )
    conversation.say(message)
    assert [t["id"] for t in conversation.store.tasks if t["completed"]] == [1, 2]


def test_a_done_statement_beside_a_request_is_not_split_off_it() -> None:
    clauses = split_clauses("I finally called mom, and I think you should add send mom the photos")
    assert len(clauses) == 1


def test_a_story_about_a_calendar_beside_a_rename_is_a_reason() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("clean the bathroom")))
    exchange = conversation.say(
        "hey so I finally looked at my calendar and the bathroom isn't happening this weekend, "
        "can you change clean the bathroom to clean the bathroom next weekend"
    )
    assert exchange.meta["acts"] == ["update"]
    assert conversation.store.tasks[0]["title"] == "clean the bathroom next weekend"


@pytest.mark.parametrize(
    "message",
    [
        "can you add ricotta, fresh basil and mozzarella? oh and parmesan",
        "can you add ricotta, fresh basil and mozzarella, oh and parmesan",
    ],
)
def test_oh_and_one_more_item_after_an_add_is_one_more_add(message: str) -> None:
    conversation = Conversation(FakeTaskStore([]))
    exchange = conversation.say(message)
    assert [c["arguments"]["title"] for c in exchange.tool_calls] == [
        "ricotta",
        "fresh basil",
        "mozzarella",
        "parmesan",
    ]


def test_a_position_said_not_done_then_unmark_it_reopens_that_row() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs", "bread", done=(1, 3))))
    conversation.say("show me what i finished")
    exchange = conversation.say("the 2nd one isnt actualy done, unmark it")
    assert exchange.tool_calls[-1]["arguments"] == {"task_id": 3, "completed": False}


@pytest.mark.parametrize(
    ("message", "clauses"),
    [
        (
            "Tick off the Q4 report, move the Sarah email to Thursday at ten, and add bread",
            ["Tick off the Q4 report", "move the Sarah email to Thursday at ten", "add bread"],
        ),
        ("tick off the eggs and shift the bathroom to Sunday", None),
        ("cancel the dentist, postpone the passport until Friday", None),
    ],
)
def test_a_list_of_commands_splits_at_each_command(message: str, clauses: list[str] | None) -> None:
    found = split_clauses(message)
    assert found == clauses if clauses is not None else len(found) == 2


def test_a_list_of_items_after_one_command_stays_one_clause() -> None:
    assert split_clauses("mark milk, eggs and bread as done") == [
        "mark milk, eggs and bread as done"
    ]


def test_each_row_named_in_a_message_gets_its_own_change() -> None:
    # "the second one I did, ... and the first one can wait till tomorrow evening": one row
    # done, the other moved; never both completed
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("what's left")
    exchange = talk.say(
        "right, the second one I actually did on the way in, phoned her from the car, "
        "and the first one can wait till tomorrow evening"
    )
    changes = [
        (c["name"], c["arguments"]["task_id"])
        for c in exchange.tool_calls
        if c["name"] != "list_tasks"
    ]
    assert changes == [("complete_task", 2), ("update_task", 1)]
