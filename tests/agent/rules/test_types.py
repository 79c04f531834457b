"""The engine's typed edges (backend/agent/rules/types.py): tool outputs read through the
tools' result models, pending kinds as a StrEnum, reply metadata as stored."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from backend.agent.rules.types import (
    PendingKind,
    PendingQuestion,
    ToolCall,
    ToolOutcome,
    Turn,
    pending_kind,
    stored_meta,
)
from backend.models.tool_results import BulkChange, ListedTasks, TaskChange
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks

ADD = ToolCall("add_task", {"title": "Buy milk"})


def test_an_error_output_is_a_failed_outcome() -> None:
    outcome = ToolOutcome.read(ADD, {"error": "Task 7 not found"})
    assert (outcome.ok, outcome.error, outcome.result) == (False, "Task 7 not found", None)


def test_a_change_output_is_read_as_its_model_and_keeps_its_json() -> None:
    data = {"task_id": 4, "status": "created", "title": "Buy milk"}
    outcome = ToolOutcome.read(ADD, data)
    assert outcome.result == TaskChange(task_id=4, status="created", title="Buy milk")
    assert outcome.data is data


def test_a_bulk_output_and_a_list_output_are_read_as_theirs() -> None:
    bulk = {"task_ids": [1, 2], "status": "deleted", "count": 2, "titles": ["a", "b"]}
    deleted = ToolOutcome.read(ToolCall("delete_task", {"task_ids": [1, 2]}), bulk)
    assert isinstance(deleted.result, BulkChange)
    listed = ToolOutcome.read(ToolCall("list_tasks", {}), [])
    assert listed.result == ListedTasks([])


def test_an_output_not_of_its_tools_shape_is_refused() -> None:
    with pytest.raises(ValidationError):
        ToolOutcome.read(ADD, {"task_id": "four", "status": "created", "title": "x"})
    with pytest.raises(ValidationError):
        ToolOutcome.read(ToolCall("list_tasks", {}), [{"id": 1, "title": "partial"}])


def test_an_unknown_tools_output_is_kept_unread() -> None:
    outcome = ToolOutcome.read(ToolCall("unknown", {}), {"anything": 1})
    assert (outcome.ok, outcome.data, outcome.result) == (True, {"anything": 1}, None)


def test_a_pending_kind_is_stored_as_its_bare_string() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk")))
    asked = conversation.say("is bread on my list?")
    pending = asked.meta.get("pending")
    assert pending is not None and pending.get("kind") is PendingKind.OFFER_ADD
    assert json.loads(json.dumps(asked.meta))["pending"]["kind"] == "offer_add"


def test_a_question_stored_by_an_older_version_is_still_answered() -> None:
    # Plain JSON from the database, as every version so far has stored it.
    stored = json.loads('{"pending": {"kind": "offer_add", "title": "bread"}, "focus": null}')
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk")))
    conversation.turns = [
        Turn("user", "is bread on my list?"),
        Turn("assistant", "No, bread isn't on your list. Shall I add it?", [], stored_meta(stored)),
    ]
    answered = conversation.say("yes")
    assert [call["name"] for call in answered.tool_calls] == ["add_task"]
    assert conversation.store.tasks[-1]["title"] == "bread"


def test_a_kind_this_version_does_not_know_asks_nothing() -> None:
    assert pending_kind(PendingQuestion(kind="ask_colour")) is None
    assert pending_kind(PendingQuestion()) is None
    assert pending_kind(PendingQuestion(kind="confirm_clear")) is PendingKind.CONFIRM_CLEAR
