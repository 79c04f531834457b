"""`list_tasks` pages: `offset` picks up where a page ended, and the result's `_meta` says how
many tasks the filters match (`total`) and where the next page starts (`next_offset`, absent on
the last), while the data stays the bare list every client reads."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.server.mcpserver import MCPServer

from mcp_tools.principal import principal_from_meta, principal_meta
from mcp_tools.server import build_task_server
from tests.conftest import UserSession, register


@pytest.fixture
def server(app: FastAPI) -> MCPServer:
    return build_task_server(app.state.sessionmaker, principal_from_meta)


async def _call(mcp: Client, user: UserSession, tool: str, **arguments: Any) -> Any:
    result = await mcp.call_tool(tool, arguments, meta=principal_meta(user.id))
    assert result.is_error is False, result.content
    return result


def _paging(result: Any) -> dict[str, Any]:
    """The result's paging keys (the SDK adds its own, such as the server's name)."""
    return {key: result.meta.get(key) for key in ("total", "next_offset")}


async def _seven_tasks(mcp: Client, user: UserSession) -> None:
    for number in range(1, 8):
        await _call(mcp, user, "add_task", user_id=user.id, title=f"task {number}")
    await _call(mcp, user, "complete_task", user_id=user.id, task_id=2)


async def test_pages_follow_one_another_to_the_last_with_the_total_on_each(
    server: MCPServer, client: Any
) -> None:
    user = await register(client)
    async with Client(server) as mcp:
        await _seven_tasks(mcp, user)
        pages = []
        offset: int | None = 0
        while offset is not None:
            result = await _call(mcp, user, "list_tasks", user_id=user.id, limit=3, offset=offset)
            pages.append(([t["id"] for t in result.structured_content["result"]], _paging(result)))
            offset = _paging(result)["next_offset"]
    assert pages == [
        ([1, 2, 3], {"total": 7, "next_offset": 3}),
        ([4, 5, 6], {"total": 7, "next_offset": 6}),
        ([7], {"total": 7, "next_offset": None}),
    ]


async def test_the_total_counts_what_the_filters_match_on_every_page_and_past_the_end(
    server: MCPServer, client: Any
) -> None:
    user = await register(client)
    other = await register(client)
    async with Client(server) as mcp:
        await _seven_tasks(mcp, user)
        await _call(mcp, other, "add_task", user_id=other.id, title="not theirs")
        pending = await _call(mcp, user, "list_tasks", user_id=user.id, status="pending", limit=2)
        sorted_page = await _call(
            mcp, user, "list_tasks", user_id=user.id, sort="title", limit=2, offset=2
        )
        past_the_end = await _call(mcp, user, "list_tasks", user_id=user.id, offset=50)
        whole = await _call(mcp, user, "list_tasks", user_id=user.id)
    assert _paging(pending) == {"total": 6, "next_offset": 2}
    assert [t["id"] for t in pending.structured_content["result"]] == [1, 3]
    assert _paging(sorted_page) == {"total": 7, "next_offset": 4}
    assert past_the_end.structured_content == {"result": []}
    assert _paging(past_the_end) == {"total": 7, "next_offset": None}
    assert _paging(whole) == {"total": 7, "next_offset": None}
    assert len(whole.content) == 7  # one text block per task, as a returned list always had


async def test_an_offset_outside_its_bounds_is_refused_with_a_clear_error(
    server: MCPServer, client: Any
) -> None:
    user = await register(client)
    async with Client(server) as mcp:
        for offset in (-1, 1_000_001, "3"):
            result = await mcp.call_tool(
                "list_tasks",
                {"user_id": user.id, "offset": offset},
                meta=principal_meta(user.id),
            )
            assert result.is_error is True
            assert "offset" in result.content[0].text  # type: ignore[union-attr]
