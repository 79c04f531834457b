"""A task number followed by words that change it ("4 hundred", "4 or 5") is asked about,
never acted on as the number before those words (backend/agent/rules/numbers.py)."""

from __future__ import annotations

from typing import Any

import pytest

from backend.agent.rules.extract import extract_task_id, extract_task_ids, unclear_task_number
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks

TITLES = [f"chore {n}" for n in range(1, 12)]


def _conversation() -> Conversation:
    return Conversation(FakeTaskStore(numbered_tasks(*TITLES)))


def _unchanged(conversation: Conversation) -> bool:
    def fields(tasks: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(t["id"], t["title"], t["completed"], t.get("description")) for t in tasks]

    return fields(conversation.store.tasks) == fields(numbered_tasks(*TITLES))


UNCLEAR = [
    ("delete task 4 hundred", "4 hundred"),
    ("delete 4 hundred", "4 hundred"),
    ("delete task 4 hundred and two", "4 hundred"),
    ("delete task 4 thousand", "4 thousand"),
    ("delete task 4 or 5", "4 or 5"),
    ("delete task 4 or task 5", "4 or task 5"),
    ("delete task four or five", "four or five"),
    ("delete #4 or maybe 5", "4 or maybe 5"),
    ("delete task 4.5", "4.5"),
    ("delete task 4-6", "4-6"),
    ("delete task 4 or so", "4 or so"),
    ("delete tasks 4 and 5 hundred", "5 hundred"),
    ("complete task 4 or 5", "4 or 5"),
    ("mark 4 hundred as done", "4 hundred"),
    ("tick off task 4 hundred", "4 hundred"),
    ("finish number 4 or 5", "4 or 5"),
    ("rename task 4 hundred to buy milk", "4 hundred"),
    ("change task 4 or 5 to high priority", "4 or 5"),
    ("move task 4 hundred to tomorrow", "4 hundred"),
]


@pytest.mark.parametrize(("message", "phrase"), UNCLEAR)
def test_a_number_whose_next_words_change_it_is_no_task_number(message: str, phrase: str) -> None:
    assert extract_task_id(message) is None
    assert extract_task_ids(message) == []
    assert unclear_task_number(message) == phrase


@pytest.mark.parametrize(("message", "phrase"), UNCLEAR)
def test_a_change_to_an_unclear_task_number_asks_which_task_and_changes_nothing(
    message: str, phrase: str
) -> None:
    conversation = _conversation()
    exchange = conversation.say(message)
    assert _unchanged(conversation), message
    assert not [c for c in exchange.tool_calls if c["name"] != "list_tasks"]
    assert exchange.meta.get("pending", {}).get("kind") == "ask_task"
    assert f"“{phrase}”" in exchange.reply


def test_the_answer_to_the_question_acts_on_the_task_it_names() -> None:
    conversation = _conversation()
    conversation.say("delete task 4 or 5")
    conversation.say("5")
    assert [t["id"] for t in conversation.store.tasks] == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]


def test_an_unclear_answer_to_which_task_asks_again() -> None:
    conversation = _conversation()
    conversation.say("delete it")
    exchange = conversation.say("4 or 5")
    assert _unchanged(conversation)
    assert exchange.meta.get("pending", {}).get("kind") == "ask_task"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("delete task 4", {"deleted": [4]}),
        ("delete tasks 4 and 5", {"deleted": [4, 5]}),
        ("delete task four hundred", {"deleted": []}),  # task 400: read whole, not found
        ("complete task 4 now", {"done": [4]}),
        ("complete task 4 or whatever it is called", {"done": [4]}),
        ("change task 4 to 5pm", {"due": 4}),
        ("move task 4 to tomorrow", {"due": 4}),
        ("delete task 4 - the chore", {"deleted": [4]}),
    ],
)
def test_a_task_number_followed_by_other_words_is_still_that_task(
    message: str, expected: dict[str, Any]
) -> None:
    conversation = _conversation()
    conversation.say(message)
    tasks = conversation.store.tasks
    if "deleted" in expected:
        assert sorted(set(range(1, 12)) - {t["id"] for t in tasks}) == expected["deleted"]
    if "done" in expected:
        assert [t["id"] for t in tasks if t["completed"]] == expected["done"]
    if "due" in expected:
        assert [t["id"] for t in tasks if t.get("due_date")] == [expected["due"]]
