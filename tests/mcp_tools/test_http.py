"""The streamable HTTP endpoint at /mcp/, over real HTTP to a real uvicorn process.

Bearer tokens are the REST API's own access tokens; each tool call acts for the token's user.
Runs once against a SQLite file and once against the session's PostgreSQL database.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from backend.core.config import Settings
from backend.core.security import create_access_token
from backend.models.tool_results import TaskChange
from tests.conftest import TEST_SECRET, UserSession, register
from tests.live_server import served_on_each_database
from tests.mcp_tools.tool_names import ALL_TOOLS

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    for url, _database_url in served_on_each_database(request, tmp_path_factory, "mcp-http"):
        yield url


@pytest.fixture
async def rest(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        yield http


@asynccontextmanager
async def mcp_as(base_url: str, user: UserSession) -> AsyncIterator[Client]:
    async with mcp_with(base_url, user.token) as client:
        yield client


@asynccontextmanager
async def mcp_with(base_url: str, token: str) -> AsyncIterator[Client]:
    """An MCP client session over streamable HTTP with `token` as its bearer."""
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30)) as http,
        Client(streamable_http_client(f"{base_url}/mcp/", http_client=http)) as client,
    ):
        yield client


def error_text(result: CallToolResult) -> str:
    assert result.is_error is True
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


async def rest_tasks(rest: httpx.AsyncClient, user: UserSession) -> list[dict[str, Any]]:
    response = await rest.get("/api/tasks", headers=user.headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


async def test_a_task_added_over_mcp_shows_up_in_the_rest_api(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    async with mcp_as(base_url, user) as mcp:
        names = {tool.name for tool in (await mcp.list_tools()).tools}
        assert names == ALL_TOOLS
        added = await mcp.call_tool("add_task", {"title": "Over HTTP", "description": "real"})
        assert added.structured_content == {"task_id": 1, "status": "created", "title": "Over HTTP"}
        listed = await mcp.call_tool("list_tasks", {})
        assert listed.structured_content is not None
        assert [t["title"] for t in listed.structured_content["result"]] == ["Over HTTP"]
    [task] = await rest_tasks(rest, user)
    assert (task["title"], task["description"], task["completed"]) == ("Over HTTP", "real", False)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(
    "headers",
    [
        {},
        _bearer("not-a-jwt"),
        _bearer(
            create_access_token(
                1, Settings(secret_key="someone-elses-secret-" + "x" * 32), account="k"
            )
        ),
        {"Authorization": "Basic dXNlcjpwYXNz"},
    ],
    ids=["missing", "garbage", "foreign-signature", "basic"],
)
async def test_mcp_refuses_a_missing_or_invalid_token_with_401(
    base_url: str, headers: dict[str, str]
) -> None:
    accept = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(timeout=30) as http:
        response = await http.post(f"{base_url}/mcp/", json=INITIALIZE, headers=accept | headers)
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_token"
    assert response.headers["www-authenticate"].startswith("Bearer")


async def test_a_token_for_a_user_that_does_not_exist_gets_401(base_url: str) -> None:
    token = create_access_token(2**31 - 1, Settings(secret_key=TEST_SECRET), account="k")
    accept = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(timeout=30) as http:
        response = await http.post(
            f"{base_url}/mcp/", json=INITIALIZE, headers=accept | _bearer(token)
        )
    assert response.status_code == 401


async def test_user_b_cannot_touch_user_a_tasks(base_url: str, rest: httpx.AsyncClient) -> None:
    alice, bob = await register(rest), await register(rest)
    created = await rest.post("/api/tasks", json={"title": "Alice's"}, headers=alice.headers)
    assert created.status_code == 201, created.text
    async with mcp_as(base_url, bob) as mcp:
        listed = await mcp.call_tool("list_tasks", {})
        assert listed.structured_content == {"result": []}
        attempts: list[tuple[str, dict[str, Any]]] = [
            ("complete_task", {"task_id": 1}),
            ("update_task", {"task_id": 1, "title": "hijacked"}),
            ("delete_task", {"task_id": 1}),
        ]
        for tool, arguments in attempts:
            assert "Task 1 not found" in error_text(await mcp.call_tool(tool, arguments))
    [task] = await rest_tasks(rest, alice)
    assert (task["title"], task["completed"]) == ("Alice's", False)


async def test_user_id_naming_another_user_is_refused_over_http(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    alice, bob = await register(rest), await register(rest)
    async with mcp_as(base_url, bob) as mcp:
        for claimed in (alice.id, str(alice.id)):
            refused = await mcp.call_tool("add_task", {"title": "planted", "user_id": claimed})
            assert "user_id does not match" in error_text(refused)
        peek = await mcp.call_tool("list_tasks", {"user_id": alice.id})
        assert "user_id does not match" in error_text(peek)
    assert await rest_tasks(rest, alice) == []
    assert await rest_tasks(rest, bob) == []


async def test_a_get_for_an_event_stream_is_refused_at_once_not_left_open(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    headers = {"Accept": "text/event-stream"} | _bearer(user.token)
    async with httpx.AsyncClient(timeout=10) as http:
        response = await http.get(f"{base_url}/mcp/", headers=headers)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"


async def test_the_endpoint_answers_at_mcp_without_a_trailing_slash_too(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    headers = _bearer(user.token)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30)) as http,
        Client(streamable_http_client(f"{base_url}/mcp", http_client=http)) as client,
    ):
        added = await client.call_tool("add_task", {"title": "no slash"})
    assert added.structured_content == {"task_id": 1, "status": "created", "title": "no slash"}


async def test_rejected_arguments_over_http_are_answered_in_brief_without_the_input(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    secret = "my-private-words-" * 40
    async with mcp_as(base_url, user) as mcp:
        bad_number = error_text(await mcp.call_tool("complete_task", {"task_id": 0}))
        assert bad_number == "Invalid task_id: Input should be greater than or equal to 1"
        bad_query = error_text(await mcp.call_tool("list_tasks", {"query": secret}))
        assert bad_query.startswith("Invalid query:")
        assert "my-private-words" not in bad_query
        assert "pydantic" not in bad_query and "\n" not in bad_query


async def test_tools_list_over_http_gives_every_tool_an_output_schema(
    base_url: str, rest: httpx.AsyncClient
) -> None:
    user = await register(rest)
    async with mcp_as(base_url, user) as mcp:
        tools = (await mcp.list_tools()).tools
        added = await mcp.call_tool("add_task", {"title": "Typed"})
    schema_types = {tool.name: (tool.output_schema or {}).get("type") for tool in tools}
    assert schema_types == dict.fromkeys(ALL_TOOLS, "object")
    # The client checked the structured content against the schema it was given.
    assert TaskChange.model_validate(added.structured_content).title == "Typed"
