"""Personal access tokens on the MCP transports (specs/access-tokens.md): over streamable HTTP
to a real server (SQLite and PostgreSQL) and over stdio (`MCP_USER_TOKEN`), a `write` token
manages the account's tasks, a `read` one lists them and every change is a tool error, a
revoked token stops at once, and wrong tokens are throttled like wrong passwords."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

from backend.main import create_app
from mcp_tools.principal import READ_ONLY
from tests.conftest import UserSession, client_for, make_settings, register, running
from tests.live_server import live_server, served_on_each_database
from tests.mcp_tools.test_http import mcp_with
from tests.mcp_tools.test_stdio import child_env, stdio_params


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    # Limits lifted: on PostgreSQL other tests' servers spend the address's budgets in the
    # shared store too. Throttling has a server of its own below.
    for url, _database_url in served_on_each_database(
        request, tmp_path_factory, "mcp-tokens", LOGIN_ATTEMPTS_PER_WINDOW="100000"
    ):
        yield url


@pytest.fixture
async def rest(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        yield http


async def token_for(http: httpx.AsyncClient, user: UserSession, scope: str) -> dict[str, Any]:
    response = await http.post(
        "/api/tokens", json={"name": f"{scope} MCP", "scope": scope}, headers=user.headers
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


ACCEPT = "application/json, text/event-stream"


async def list_tools_raw(rest: httpx.AsyncClient, token: str) -> httpx.Response:
    """One JSON-RPC request to /mcp/ with `token` as its bearer, the answer as it comes."""
    return await rest.post(
        "/mcp/",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        },
    )


def text_of(result: CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


async def titles(rest: httpx.AsyncClient, user: UserSession) -> list[str]:
    response = await rest.get("/api/tasks", headers=user.headers)
    assert response.status_code == 200, response.text
    return [task["title"] for task in response.json()]


async def test_a_write_token_manages_tasks_over_http(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    token = (await token_for(rest, user, "write"))["token"]
    async with mcp_with(base_url, token) as mcp:
        added = await mcp.call_tool("add_task", {"title": "file taxes"})
        assert added.is_error is False, text_of(added)
        listed = await mcp.call_tool("list_tasks", {})
        assert "file taxes" in text_of(listed)
    assert await titles(rest, user) == ["file taxes"]


async def test_a_read_token_lists_over_http_and_every_change_is_a_tool_error(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    await rest.post("/api/tasks", json={"title": "water plants"}, headers=user.headers)
    token = (await token_for(rest, user, "read"))["token"]
    async with mcp_with(base_url, token) as mcp:
        assert "water plants" in text_of(await mcp.call_tool("list_tasks", {}))
        for name, arguments in (
            ("add_task", {"title": "sneaky"}),
            ("complete_task", {"task_id": 1}),
            ("update_task", {"task_id": 1, "title": "renamed"}),
            ("delete_task", {"task_id": 1}),
            ("delete_task", {"every": "all"}),
        ):
            refused = await mcp.call_tool(name, arguments)
            assert refused.is_error is True, name
            assert READ_ONLY in text_of(refused)
    assert await titles(rest, user) == ["water plants"]


async def test_a_revoked_token_stops_at_once_over_http(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    made = await token_for(rest, user, "write")
    async with mcp_with(base_url, made["token"]) as mcp:
        assert (await mcp.call_tool("list_tasks", {})).is_error is False
    revoked = await rest.delete(f"/api/tokens/{made['id']}", headers=user.headers)
    assert revoked.status_code == 204
    assert (await list_tools_raw(rest, made["token"])).status_code == 401


async def test_guessing_tokens_on_mcp_is_throttled_per_address(tmp_path: Path) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"
    with live_server(database_url, tmp_path / "uvicorn.log", LOGIN_ATTEMPTS_PER_WINDOW="5") as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as rest:
            statuses = [
                (await list_tools_raw(rest, f"tdc_guess-{attempt:039d}")).status_code
                for attempt in range(8)
            ]
    assert statuses[:5] == [401] * 5
    assert statuses[5:] == [429] * 3


async def test_a_personal_token_serves_stdio_with_its_scope(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"
    async with running(create_app(make_settings(url))) as app, client_for(app) as http:
        user = await register(http)
        await http.post("/api/tasks", json={"title": "book dentist"}, headers=user.headers)
        read = (await token_for(http, user, "read"))["token"]
        write = (await token_for(http, user, "write"))["token"]
    params = stdio_params(child_env(url, MCP_USER_TOKEN=read))
    async with stdio_client(params) as (reader, writer), ClientSession(reader, writer) as session:
        await session.initialize()
        listed = await session.call_tool("list_tasks", {})
        assert "book dentist" in text_of(listed)
        refused = await session.call_tool("add_task", {"title": "sneaky"})
        assert refused.is_error is True and READ_ONLY in text_of(refused)
    params = stdio_params(child_env(url, MCP_USER_TOKEN=write))
    async with stdio_client(params) as (reader, writer), ClientSession(reader, writer) as session:
        await session.initialize()
        added = await session.call_tool("add_task", {"title": "renew passport"})
        assert added.is_error is False, text_of(added)
