"""The tools' results are typed: `tools/list` publishes each tool's result model as its
`outputSchema`, and the `structuredContent` a client reads is that model's JSON, with no key
the tool did not give (backend/models/tool_results.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

from backend.models.tool_results import (
    TOOL_RESULTS,
    BulkChange,
    ListedTask,
    ListedTasks,
    TaskChange,
    read_result,
)
from mcp_tools.principal import principal_from_meta, principal_meta
from mcp_tools.server import build_task_server
from tests.conftest import UserSession, register

# Each tool's published schema is named after its result model (a list is wrapped by MCP).
SCHEMA_TITLES = {
    "add_task": "TaskChange",
    "update_task": "TaskChange",
    "complete_task": "ChangeOutcome",
    "delete_task": "ChangeOutcome",
    "list_tasks": "list_tasksOutput",
    "list_lists": "Lists",
    "list_members": "Members",
    "list_invitations": "Invitations",
    "share_list": "SharingChange",
    "change_member_role": "SharingChange",
    "remove_member": "SharingChange",
    "stop_sharing": "SharingChange",
    "leave_list": "SharingChange",
    "answer_invitation": "SharingChange",
}


@pytest.fixture
def server(app: FastAPI) -> MCPServer:
    return build_task_server(app.state.sessionmaker, principal_from_meta)


async def structured(mcp: Client, user: UserSession, tool: str, **arguments: Any) -> Any:
    result = await mcp.call_tool(tool, arguments, meta=principal_meta(user.id))
    assert result.is_error is False, result.content
    return result.structured_content


def fields_of(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


async def test_every_tool_lists_an_output_schema_naming_its_result_model(
    server: MCPServer,
) -> None:
    async with Client(server) as mcp:
        tools = {tool.name: tool for tool in (await mcp.list_tools()).tools}
    assert set(tools) == set(TOOL_RESULTS)
    for name, tool in tools.items():
        schema = tool.output_schema
        assert schema is not None, name
        assert schema["type"] == "object", name
        assert schema["title"] == SCHEMA_TITLES[name], name
    change = tools["add_task"].output_schema
    assert change is not None
    assert set(change["properties"]) == fields_of(TaskChange)
    assert change["required"] == ["task_id", "status", "title"]
    # An optional key is absent when not given, so the schema promises no null default.
    assert all("default" not in field for field in change["properties"].values())
    listed = tools["list_tasks"].output_schema
    assert listed is not None
    assert set(listed["$defs"]["ListedTask"]["properties"]) == fields_of(ListedTask)
    either = tools["complete_task"].output_schema
    assert either is not None
    assert {ref["$ref"] for ref in either["anyOf"]} == {
        "#/$defs/TaskChange",
        "#/$defs/BulkChange",
    }


async def test_structured_content_of_each_tool_reads_back_as_its_model(
    server: MCPServer, client: Any
) -> None:
    user = await register(client)
    async with Client(server) as mcp:
        added = await structured(
            mcp, user, "add_task", title="Pay rent", due="2030-01-05T09:00", priority="high"
        )
        plain = await structured(mcp, user, "add_task", title="Buy milk")
        updated = await structured(mcp, user, "update_task", task_id=1, list="Home")
        listed = await structured(mcp, user, "list_tasks")
        one = await structured(mcp, user, "complete_task", task_id=2)
        bulk = await structured(mcp, user, "delete_task", task_ids=[1, 2, 9])

    change = read_result("add_task", added)
    assert isinstance(change, TaskChange)
    assert (change.task_id, change.status, change.priority) == (1, "created", "high")
    assert change.due_date == "2030-01-05" and change.due_time == "09:00"
    # Only the keys the call gave: the three, and the fields it set.
    assert plain == {"task_id": 2, "status": "created", "title": "Buy milk"}
    assert read_result("add_task", plain).model_dump(mode="json") == plain
    assert read_result("update_task", updated).model_dump(mode="json") == updated
    assert updated["before"] == {"list": "Inbox"}

    assert set(listed) == {"result"}
    tasks = read_result("list_tasks", listed["result"])
    assert isinstance(tasks, ListedTasks)
    assert [task.title for task in tasks.root] == ["Pay rent", "Buy milk"]
    assert tasks.model_dump(mode="json") == listed["result"]

    assert read_result("complete_task", one) == TaskChange(
        task_id=2, status="completed", title="Buy milk"
    )
    deleted = read_result("delete_task", bulk)
    assert isinstance(deleted, BulkChange)
    assert (deleted.task_ids, deleted.count, deleted.not_found) == ([1, 2], 2, [9])
    assert deleted.repeat_ended is None and "repeat_ended" not in bulk
