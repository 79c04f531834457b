"""The corpus's in-memory tools (corpus/fake_tools.py) answer as the real MCP tools do: the
same calls give results with the same keys, each one its tool's result model."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI
from mcp import Client

from backend.agent.rules.types import ToolCall, ToolOutcome
from backend.models.tool_results import TaskChange, ToolFailure, read_result
from corpus.fake_tools import FakeTaskStore
from mcp_tools.principal import principal_from_meta, principal_meta
from mcp_tools.server import build_task_server
from tests.conftest import register

# One user's session of calls, from an empty list: every result shape the engine reads.
CALLS = [
    ToolCall("add_task", {"title": "Buy milk"}),
    ToolCall(
        "add_task",
        {
            "title": "Pay rent",
            "due": "2030-01-05T09:00",
            "priority": "high",
            "list": "Home",
            "tags": ["bills"],
        },
    ),
    ToolCall("add_task", {"title": "Call mum"}),
    ToolCall("list_tasks", {"status": "all"}),
    ToolCall("list_tasks", {"status": "pending", "query": "rent", "limit": 1000}),
    ToolCall("update_task", {"task_id": 1, "title": "Buy oat milk"}),
    ToolCall("update_task", {"task_id": 2, "priority": "low", "due": "2030-01-06"}),
    ToolCall("complete_task", {"task_id": 1}),
    ToolCall("complete_task", {"task_ids": [2, 99]}),
    ToolCall("delete_task", {"task_id": 3}),
    ToolCall("delete_task", {"every": "completed"}),
    ToolCall("complete_task", {"task_id": 42}),
    ToolCall("update_task", {"task_id": 42, "title": "nothing"}),
]


def shape(data: Any) -> Any:
    """The keys of a result (of each task, for a list), not its values."""
    if isinstance(data, list):
        return [shape(item) for item in data]
    if isinstance(data, dict):
        return {
            key: shape(value) if isinstance(value, dict) else None for key, value in data.items()
        }
    return None


def keys(data: Any) -> Any:
    found = shape(data)
    return [sorted(item) for item in found] if isinstance(found, list) else sorted(found)


async def real_outcomes(app: FastAPI, client: httpx.AsyncClient) -> list[ToolOutcome]:
    user = await register(client)
    server = build_task_server(app.state.sessionmaker, principal_from_meta)
    outcomes = []
    async with Client(server) as mcp:
        for call in CALLS:
            result = await mcp.call_tool(call.name, call.arguments, meta=principal_meta(user.id))
            if result.is_error:
                text = getattr(result.content[0], "text", "")
                message = text.split(": ", 1)[-1]  # "Error executing tool x: Task 42 not found"
                outcomes.append(ToolOutcome.read(call, ToolFailure(error=message).model_dump()))
                continue
            data = result.structured_content
            assert data is not None
            outcomes.append(ToolOutcome.read(call, data["result"] if "result" in data else data))
    return outcomes


async def test_the_fake_tools_give_results_of_the_real_tools_shape(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    fake = FakeTaskStore([])
    fake_outcomes = [fake.call(call) for call in CALLS]
    real = await real_outcomes(app, client)
    for call, mine, theirs in zip(CALLS, fake_outcomes, real, strict=True):
        assert mine.ok == theirs.ok, call
        if not mine.ok:
            assert mine.error == theirs.error, call
            continue
        assert keys(mine.data) == keys(theirs.data), call
        assert type(mine.result) is type(theirs.result), call
        assert mine.result is not None
        assert read_result(call.name, mine.data) == mine.result, call


def test_a_fake_change_is_the_model_of_its_json() -> None:
    outcome = FakeTaskStore([]).call(ToolCall("add_task", {"title": "Buy milk"}))
    assert outcome.result == TaskChange(task_id=1, status="created", title="Buy milk")
    assert outcome.data == {"task_id": 1, "status": "created", "title": "Buy milk"}
