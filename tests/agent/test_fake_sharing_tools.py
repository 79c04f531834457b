"""The corpus's in-memory list and sharing tools (corpus/fake_sharing.py) answer as the real
MCP tools do: two people's sessions of calls (an owner who shares a list, a member who joins,
adds, completes, is made a viewer and leaves) give results of the same shape, each its
tool's result model, and refusals in the same words."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from fastapi import FastAPI
from mcp import Client

from backend.agent.rules.types import ToolCall, ToolOutcome
from backend.models.tool_results import ToolFailure, read_result
from corpus.fake_sharing import FakeInvitation
from corpus.fake_tools import FakeTaskStore
from mcp_tools.principal import principal_from_meta, principal_meta
from mcp_tools.server import build_task_server
from tests.agent.test_fake_tools import shape
from tests.conftest import register

Do = Callable[[str, ToolCall], Awaitable[ToolOutcome]]
OWNER_EMAIL, MEMBER_EMAIL = "owner@example.com", "member@example.com"


async def session(do: Do, member_email: str) -> list[ToolOutcome]:
    """The calls, in order; ids and numbers are read from earlier answers, as a client would."""
    said: list[ToolOutcome] = []

    async def call(who: str, name: str, **arguments: Any) -> ToolOutcome:
        outcome = await do(who, ToolCall(name, arguments))
        said.append(outcome)
        return outcome

    await call("owner", "add_task", title="tent", list="Packing")
    await call("owner", "list_lists")
    await call("owner", "share_list", list="Packing", email=member_email)
    await call("owner", "share_list", list="Packing", email=member_email, role="viewer")
    await call("owner", "share_list", list="Inbox", email=member_email)
    await call("owner", "list_members", list="Packing")
    waiting = await call("member", "list_invitations")
    invitation = waiting.data["invitations"][0]["id"]
    await call("member", "answer_invitation", invitation_id=invitation, accept=True)
    await call("member", "list_lists")
    listed = await call("member", "list_tasks", status="all")
    tent = int(listed.data[0]["id"])
    await call("member", "add_task", title="stove", list="Packing")
    await call("member", "complete_task", task_id=tent)
    await call("member", "list_members", list="Packing")
    await call("member", "stop_sharing", list="Packing")
    await call("owner", "change_member_role", list="Packing", email=member_email, role="viewer")
    await call("member", "update_task", task_id=tent, completed=False)
    await call("member", "complete_task", task_ids=[tent])
    await call("member", "delete_task", every="all")
    await call("owner", "remove_member", list="Packing", email="nobody@example.com")
    await call("member", "leave_list", list="Packing")
    await call("owner", "stop_sharing", list="Packing")
    await call("owner", "stop_sharing", list="Nope")
    return said


def fake_do() -> Do:
    """Two stores, one a person, kept in step where one's change shows in the other's view."""
    owner = FakeTaskStore([], me=OWNER_EMAIL)
    member = FakeTaskStore(
        [],
        me=MEMBER_EMAIL,
        invitations=[
            FakeInvitation(
                "Packing",
                OWNER_EMAIL,
                tasks=[{"title": "tent", "description": None, "completed": False}],
            )
        ],
    )
    stores = {"owner": owner, "member": member}

    async def do(who: str, call: ToolCall) -> ToolOutcome:
        outcome = stores[who].call(call)
        if outcome.ok and call.name == "answer_invitation":
            for invited in owner.shared_lists[0].members:
                invited.status = "accepted"
        if outcome.ok and call.name == "change_member_role":
            member.shared_lists[0].role = call.arguments["role"]
        if outcome.ok and call.name == "leave_list":
            owner.shared_lists[0].members.clear()
        return outcome

    return do


def real_do(app: FastAPI, mcp: Client, people: dict[str, int]) -> Do:
    async def do(who: str, call: ToolCall) -> ToolOutcome:
        result = await mcp.call_tool(call.name, call.arguments, meta=principal_meta(people[who]))
        if result.is_error:
            text = getattr(result.content[0], "text", "")
            message = text.split(": ", 1)[-1] if text.startswith("Error executing") else text
            return ToolOutcome.read(call, ToolFailure(error=message).model_dump())
        data = result.structured_content
        assert data is not None
        return ToolOutcome.read(call, data["result"] if "result" in data else data)

    return do


def key_sets(data: Any) -> Any:
    """A result's keys (of each distinct kind of item, for a list): not its values or size."""
    found = shape(data)
    if isinstance(found, list):
        return sorted({tuple(sorted(item)) for item in found})
    return {
        key: key_sets(value) if isinstance(value, list) else value for key, value in found.items()
    }


def _nested(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: key_sets(v) if isinstance(v, list) else None for k, v in data.items()}
    return key_sets(data)


async def test_the_fake_sharing_tools_answer_as_the_real_ones(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner, member = await register(client), await register(client)
    server = build_task_server(app.state.sessionmaker, principal_from_meta)
    async with Client(server) as mcp:
        real = await session(
            real_do(app, mcp, {"owner": owner.id, "member": member.id}), member.email
        )
    fake = await session(fake_do(), MEMBER_EMAIL)
    for mine, theirs in zip(fake, real, strict=True):
        call = theirs.call
        assert mine.ok == theirs.ok, (call, mine.error, theirs.error)
        if not mine.ok:
            expected = str(theirs.error).replace(member.email, MEMBER_EMAIL)
            assert mine.error == expected, call
            continue
        assert _nested(mine.data) == _nested(theirs.data), call
        assert type(mine.result) is type(theirs.result), call
        assert mine.result is not None
        read_result(call.name, mine.data)  # the tool's model reads the fake's JSON
