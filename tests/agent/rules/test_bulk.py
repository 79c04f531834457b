"""Requests about every task at once, and "them" after a list (backend/agent/rules/bulk.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.bulk import Bulk, bulk_scope
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def state(conversation: Conversation) -> list[tuple[str, bool]]:
    return [(t["title"], t["completed"]) for t in conversation.store.tasks]


@pytest.mark.parametrize(
    ("target", "scope"),
    [
        ("all", Bulk("all")),
        ("everything", Bulk("all")),
        ("all of them", Bulk("all")),
        ("all my tasks", Bulk("all")),
        ("all the tasks on my list", Bulk("all")),
        ("every completed task", Bulk("completed")),
        ("all of my pending tasks", Bulk("pending")),
        ("all done ones", Bulk("completed")),
        ("all the finished stuff", Bulk("completed")),
        ("all tasks except call mom", Bulk("all", exceptions=("call mom",))),
        ("everything but the report", Bulk("all", exceptions=("the report",))),
        ("call mom", None),
        ("install app", None),
        ("all the report tasks", None),
        ("them", None),
    ],
)
def test_bulk_targets_are_told_from_titles(target: str, scope: Bulk | None) -> None:
    assert bulk_scope(target, listed=0) == scope


def test_them_means_the_tasks_just_listed() -> None:
    assert bulk_scope("them", listed=3) == Bulk("all", listed=True)
    assert bulk_scope("both", listed=2) == Bulk("all", listed=True)


def test_complete_all_is_never_a_title_search_for_all() -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("buy milk", "call mom", "install app"))
    )
    reply = conversation.say("mark all as done").reply
    assert reply == "Great job! I've marked all 3 pending tasks as complete."
    assert state(conversation) == [("buy milk", True), ("call mom", True), ("install app", True)]


def test_delete_all_of_them_asks_before_deleting_anything() -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("buy milk", "call mom", "install app"))
    )
    asked = conversation.say("delete all of them")
    assert asked.reply.startswith("Are you sure you want to delete all 3 tasks?")
    assert len(conversation.store.tasks) == 3
    assert conversation.say("yes").reply == "Done! I've deleted 3 tasks. Your list is clear."
    assert conversation.store.tasks == []


def test_complete_all_except_one_completes_every_other_pending_task() -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("buy milk", "call mom", "renew passport"))
    )
    conversation.say("mark everything as done except the passport")
    assert state(conversation) == [
        ("buy milk", True),
        ("call mom", True),
        ("renew passport", False),
    ]


def test_complete_all_except_a_task_that_is_not_there_changes_nothing() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "call mom")))
    exchange = conversation.say("done all except the dentist")
    assert "couldn't find 'the dentist'" in exchange.reply
    assert state(conversation) == [("buy milk", False), ("call mom", False)]


def test_a_bulk_delete_with_exceptions_asks_first_and_keeps_the_excepted_task() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "call mom")))
    asked = conversation.say("delete all tasks except call mom")
    assert asked.reply.startswith("Are you sure you want to delete 'buy milk'?")
    assert len(conversation.store.tasks) == 2
    conversation.say("yes")
    assert state(conversation) == [("call mom", False)]


def test_delete_them_after_a_list_means_the_listed_tasks_after_a_yes() -> None:
    store = FakeTaskStore(numbered_tasks("buy milk", "walk the dog", "call mom", done=(2, 3)))
    conversation = Conversation(store)
    conversation.say("show completed tasks")
    asked = conversation.say("delete them")
    assert asked.reply.startswith(
        "Are you sure you want to delete these 2 tasks ('walk the dog', 'call mom')?"
    )
    assert conversation.say("yes").reply == "Done! I've deleted 2 tasks."
    assert state(conversation) == [("buy milk", False)]


def test_complete_them_after_a_list_completes_only_the_listed_tasks() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "call mom", "pay rent")))
    conversation.say("is milk on my list?")
    conversation.say("show my tasks")
    conversation.store.tasks.append(
        {"id": 4, "title": "added elsewhere", "description": None, "completed": False}
    )
    reply = conversation.say("complete them all").reply
    assert reply == "Great job! I've marked those 3 tasks as complete."
    assert state(conversation)[-1] == ("added elsewhere", False)


def test_a_yes_deletes_only_what_the_question_counted() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("a", "b")))
    conversation.say("clear my list")
    conversation.store.add_task("c")
    assert conversation.say("yes").reply == "Done! I've deleted 2 tasks."
    assert state(conversation) == [("c", False)]


def test_clearing_completed_tasks_does_not_claim_the_list_is_clear() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "call mom", done=(2,))))
    conversation.say("delete all completed tasks")
    assert conversation.say("yes").reply == "Done! I've deleted 1 completed task."
    assert state(conversation) == [("buy milk", False)]


def test_undo_after_a_bulk_delete_says_it_cannot_instead_of_reaching_further_back() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("alpha", "beta", "gamma")))
    conversation.say("delete task 1")
    conversation.say("delete all of them")
    conversation.say("yes")
    exchange = conversation.say("undo")
    assert exchange.reply == "Sorry, I can't undo a change to several tasks at once."
    assert exchange.tool_calls == []
    assert conversation.store.tasks == []


def test_undo_after_completing_the_only_pending_task_reopens_that_task() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("alpha", "beta")))
    conversation.say("complete task 1")
    conversation.say("complete all")
    conversation.say("undo")
    assert state(conversation) == [("alpha", True), ("beta", False)]


def test_a_yes_after_the_tasks_went_elsewhere_says_so() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("a", "b")))
    conversation.say("clear my list")
    conversation.store.tasks.clear()
    reply = conversation.say("yes").reply
    assert reply == "Those tasks are already gone, so there was nothing left to delete."


def test_both_after_a_list_of_more_than_two_is_not_that_list() -> None:
    assert bulk_scope("both", listed=12) is None
    assert bulk_scope("all three", listed=3) == Bulk("all", listed=True)


def _work_and_groceries() -> FakeTaskStore:
    """Inbox 1, 2; Work 3 (the Q4 report), 4, 5; Groceries 6-8; task 2 and 5 tagged home."""
    tasks = numbered_tasks(
        "call mom",
        "clean the bathroom",
        "finish Q4 report",
        "review report draft",
        "email Sarah about the project",
        "milk",
        "eggs",
        "paper towels",
    )
    for task in tasks:
        task["list"] = "Inbox"
    for number in (3, 4, 5):
        tasks[number - 1]["list"] = "Work"
    for number in (6, 7, 8):
        tasks[number - 1]["list"] = "Groceries"
    tasks[1]["tags"] = ["home"]
    tasks[4]["tags"] = ["home"]
    return FakeTaskStore(tasks)


def done(conversation: Conversation) -> list[int]:
    return [int(t["id"]) for t in conversation.store.tasks if t["completed"]]


@pytest.mark.parametrize(
    ("target", "scope"),
    [
        (
            "every task on my Work list as complete, with the exception of the Q4 report",
            Bulk("all", exceptions=("the Q4 report",), list_name="Work"),
        ),
        (
            "Got everything off the shopping list bar the paper towels",
            Bulk("all", exceptions=("the paper towels",), list_name="shopping"),
        ),
        (
            "everything on work except the draft review 💪",
            Bulk("all", exceptions=("the draft review",), list_name="work"),
        ),
        (
            "everything except the report on the work list",
            Bulk("all", exceptions=("the report",), list_name="work"),
        ),
        (
            "all tasks tagged home apart from the bathroom",
            Bulk("all", exceptions=("the bathroom",), tag="home"),
        ),
        ("everything due today save for mum", Bulk("all", exceptions=("mum",), due="today")),
        (
            "all completed tasks but not the passport",
            Bulk("completed", exceptions=("the passport",)),
        ),
        ("everything on the work list", Bulk("all", list_name="work")),
        (
            "all the report tasks other than the draft",
            Bulk("all", exceptions=("the draft",), unread="all the report tasks"),
        ),
    ],
)
def test_a_bulk_request_reads_its_scope_and_exceptions_in_any_order(
    target: str, scope: Bulk
) -> None:
    assert bulk_scope(target, listed=0, completing=True) == scope


@pytest.mark.parametrize(
    "said",
    [
        "Please mark every task on my Work list as complete, with the exception of the Q4 report.",
        "done everything on work except the Q4 report",
        "complete everything except the Q4 report on the work list",
        "finished all the tasks in the work list besides the Q4 report",
    ],
)
def test_complete_a_list_but_one_changes_only_that_lists_other_tasks(said: str) -> None:
    conversation = Conversation(_work_and_groceries())
    conversation.say(said)
    assert done(conversation) == [4, 5]


def test_the_shopping_list_is_the_groceries_list_and_the_excepted_item_stays() -> None:
    conversation = Conversation(_work_and_groceries())
    conversation.say("Got everything off the shopping list bar the paper towels")
    assert done(conversation) == [6, 7]


def test_complete_everything_tagged_home_but_one() -> None:
    conversation = Conversation(_work_and_groceries())
    conversation.say("mark all tasks tagged home as done except the bathroom")
    assert done(conversation) == [5]


@pytest.mark.parametrize(
    "said",
    [
        "complete everything on the holiday list except the tickets",  # no such list
        "complete everything on the work list except the dentist",  # not in the scope
        "complete everything on the work list except the report",  # two reports
        "complete everything tagged garden except the roses",  # no such tag
        "complete all the report tasks except the draft",  # a scope not understood
    ],
)
def test_a_scope_or_exception_that_names_no_one_task_asks_and_changes_nothing(
    said: str,
) -> None:
    conversation = Conversation(_work_and_groceries())
    exchange = conversation.say(said)
    assert done(conversation) == []
    assert exchange.reply.endswith("?")
    assert not [c for c in exchange.tool_calls if c["name"] != "list_tasks"]


def test_a_scoped_delete_asks_first_and_never_reaches_past_its_list_or_exception() -> None:
    conversation = Conversation(_work_and_groceries())
    asked = conversation.say("delete everything on the grocery list except the eggs")
    assert asked.reply.startswith("Are you sure you want to delete these 2 tasks")
    assert len(conversation.store.tasks) == 8
    conversation.say("yes")
    assert [int(t["id"]) for t in conversation.store.tasks] == [1, 2, 3, 4, 5, 7]


def test_clear_a_named_list_but_one_deletes_only_that_lists_other_tasks() -> None:
    conversation = Conversation(_work_and_groceries())
    conversation.say("clear everything on the work list apart from the Q4 report")
    conversation.say("yes")
    assert [int(t["id"]) for t in conversation.store.tasks] == [1, 2, 3, 6, 7, 8]
