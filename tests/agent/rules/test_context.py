from __future__ import annotations

import pytest

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.types import Turn
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def _assistant(tool_calls: list[dict], **meta: object) -> Turn:
    return Turn("assistant", "ok", tool_calls, dict(meta))


def test_focus_is_the_last_task_mentioned_by_either_side() -> None:
    turns = [
        Turn("user", "add milk"),
        _assistant([], focus=4),
        Turn("user", "what about task 7?"),
    ]
    assert ConversationContext.from_turns(turns).focus_task_id == 7


def test_the_open_question_is_only_the_last_assistant_turns() -> None:
    asked = _assistant([], pending={"kind": "offer_list"})
    assert ConversationContext.from_turns([asked]).pending == {"kind": "offer_list"}
    later = [asked, Turn("user", "hmm"), _assistant([])]
    assert ConversationContext.from_turns(later).pending is None


def test_known_tasks_follow_adds_completions_renames_and_deletes() -> None:
    turns = [
        _assistant(
            [
                {
                    "name": "list_tasks",
                    "arguments": {},
                    "result": [
                        {"id": 1, "title": "a", "completed": False},
                        {"id": 2, "title": "b", "completed": False},
                    ],
                }
            ]
        ),
        _assistant(
            [
                {
                    "name": "complete_task",
                    "arguments": {"task_id": 1},
                    "result": {"task_id": 1, "title": "a"},
                }
            ]
        ),
        _assistant(
            [
                {
                    "name": "update_task",
                    "arguments": {"task_id": 2, "title": "bb"},
                    "result": {"task_id": 2, "title": "bb"},
                }
            ]
        ),
        _assistant(
            [
                {
                    "name": "add_task",
                    "arguments": {"title": "c"},
                    "result": {"task_id": 3, "title": "c"},
                }
            ]
        ),
        _assistant(
            [
                {
                    "name": "delete_task",
                    "arguments": {"task_id": 3},
                    "result": {"task_id": 3, "title": "c"},
                }
            ]
        ),
        _assistant(
            [
                {
                    "name": "delete_task",
                    "arguments": {"task_id": 9},
                    "result": {"error": "Task 9 not found"},
                }
            ]
        ),
    ]
    context = ConversationContext.from_turns(turns)
    assert context.known_tasks == ((1, "a", True), (2, "bb", False))
    assert context.completions == 1
    assert context.adds_in_a_row == 1


def test_an_undone_change_cannot_be_undone_twice() -> None:
    change = {"tool": "delete_task", "arguments": {"task_id": 3}}
    turns = [_assistant([], undo=change), _assistant([], undone=True)]
    assert ConversationContext.from_turns(turns).last_change is None
    assert ConversationContext.from_turns(turns[:1]).last_change == change


def _four_tasks() -> Conversation:
    tasks = numbered_tasks("buy groceries", "call mom", "pay rent", "walk dog")
    return Conversation(FakeTaskStore(tasks))


@pytest.mark.parametrize(
    "first",
    [
        "how many tasks do I have",  # a count reads the whole list
        "is bread on my list?",  # a look-up that found nothing
        "can you put a note on it saying renew online",  # asked which task
    ],
)
def test_a_turn_that_named_no_task_leaves_nothing_for_it_to_point_at(first: str) -> None:
    conversation = _four_tasks()
    conversation.say(first)
    asked = conversation.say("delete it")
    assert len(conversation.store.tasks) == 4
    assert asked.meta["pending"]["kind"] == "ask_task"


def test_a_lookup_that_found_a_task_is_what_it_points_at() -> None:
    conversation = _four_tasks()
    conversation.say("have I rung my mother yet?")
    conversation.say("I have just put the phone down with her, so please mark that one as done.")
    assert [t["title"] for t in conversation.store.tasks if t["completed"]] == ["call mom"]
