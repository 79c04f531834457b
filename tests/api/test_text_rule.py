"""One rule for text from outside (backend/core/text_rule.py): NUL and lone UTF-16 surrogates
are refused with a 422 naming where they were, whichever the database (PostgreSQL cannot store
NUL; no UTF-8 text can carry half a surrogate pair). REST requests meet it at the edge
(backend/api/middleware.py's TextRule), the MCP tools in the server's one call path, backups
when they are read (tests/services/test_backup_format.py)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.types import TextContent

from mcp_tools.principal import principal_from_meta, principal_meta
from mcp_tools.server import build_task_server
from tests.conftest import UserSession, register

NUL = "\x00"
LONE_SURROGATE = "\ud800"
NUL_MESSAGE = "must not contain NUL characters"
SURROGATE_MESSAGE = "must not contain lone surrogates"


def _detail(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 422, response.text
    detail: list[dict[str, Any]] = response.json()["detail"]
    return detail


@pytest.mark.parametrize("name", ["list", "tag", "q"])
async def test_a_nul_in_a_query_parameter_is_a_422_naming_it(
    client: httpx.AsyncClient, user: UserSession, name: str
) -> None:
    response = await client.get(f"/api/tasks?{name}=%00", headers=user.headers)
    [error] = _detail(response)
    assert error["loc"] == ["query", name]
    assert error["msg"] == NUL_MESSAGE


async def test_a_nul_in_a_query_parameter_the_route_does_not_take_is_refused_too(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await client.get("/api/tasks?unknown=a%00b", headers=user.headers)
    assert _detail(response)[0]["loc"] == ["query", "unknown"]


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [
        ("PATCH", "/api/lists/a%00b", "name"),
        ("DELETE", "/api/lists/%00", "name"),
        ("POST", "/api/1%00/chat", "user_id"),
    ],
)
async def test_a_nul_in_a_path_parameter_is_a_422_naming_it(
    client: httpx.AsyncClient, user: UserSession, method: str, path: str, name: str
) -> None:
    response = await client.request(method, path, json={"name": "x"}, headers=user.headers)
    [error] = _detail(response)
    assert error["loc"] == ["path", name]


async def test_a_nul_in_an_unknown_path_is_still_a_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/no%00where")
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("body", "loc", "message"),
    [
        ({"title": "a\x00b"}, ["body", "title"], NUL_MESSAGE),
        ({"title": "ok", "description": "x\x00"}, ["body", "description"], NUL_MESSAGE),
        ({"title": "ok", "tags": ["fine", "b\x00d"]}, ["body", "tags", 1], NUL_MESSAGE),
        ({"title": "ok", "list": "\x00"}, ["body", "list"], NUL_MESSAGE),
        ({"title": "ok", "not_a_field": "\x00"}, ["body", "not_a_field"], NUL_MESSAGE),
        ({"title": "ok\ud800"}, ["body", "title"], SURROGATE_MESSAGE),
        ({"title": "ok", "repeat": "every \udc00day"}, ["body", "repeat"], SURROGATE_MESSAGE),
    ],
)
async def test_a_nul_or_a_lone_surrogate_in_a_body_is_a_422_naming_the_field(
    client: httpx.AsyncClient,
    user: UserSession,
    body: dict[str, Any],
    loc: list[object],
    message: str,
) -> None:
    # json.dumps writes both as \u escapes, as any JSON encoder would.
    response = await client.post(
        "/api/tasks",
        content=json.dumps(body).encode(),
        headers={**user.headers, "content-type": "application/json"},
    )
    [error] = _detail(response)
    assert error["loc"] == loc
    assert error["msg"].startswith(message)
    assert (await client.get("/api/tasks", headers=user.headers)).json() == []


async def test_a_surrogate_encoded_as_utf8_bytes_is_refused_like_an_escaped_one(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    # b"\xed\xa0\x80" is U+D800 written as if it were a character ("CESU-8"): Python's JSON
    # reader lets it through as a lone surrogate.
    response = await client.post(
        "/api/tasks",
        content=b'{"title": "a\xed\xa0\x80b"}',
        headers={**user.headers, "content-type": "application/json"},
    )
    assert _detail(response)[0]["loc"] == ["body", "title"]


async def test_a_nul_in_a_key_of_the_body_is_refused_naming_the_key(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await client.post(
        "/api/tasks",
        content=b'{"title": "ok", "bad\\u0000key": 1}',
        headers={**user.headers, "content-type": "application/json"},
    )
    assert _detail(response)[0]["loc"] == ["body", "bad\x00key"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/chat", {"message": "hi\x00"}, "message"),
        ("/api/chat/stream", {"message": "hi\ud800"}, "message"),
        ("/api/auth/login", {"email": "\x00a@example.com", "password": "whatever"}, "email"),
        ("/api/auth/login", {"email": "a@example.com", "password": "pass\x00word"}, "password"),
        ("/api/auth/register", {"email": "a@example.com", "password": "\x00" * 8}, "password"),
        ("/api/lists", {"name": "Groceries\x00"}, "name"),
    ],
)
async def test_every_route_refuses_nul_and_lone_surrogates_in_its_body(
    client: httpx.AsyncClient, user: UserSession, path: str, body: dict[str, Any], field: str
) -> None:
    response = await client.post(
        path,
        content=json.dumps(body).encode(),
        headers={**user.headers, "content-type": "application/json"},
    )
    assert _detail(response)[0]["loc"] == ["body", field]


async def test_a_nul_in_a_header_is_a_422_naming_it(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    # HTTP servers (h11, httptools) refuse these before the app sees them; other servers and
    # in-process clients may not.
    response = await client.post(
        "/api/chat",
        json={"message": "hi"},
        headers={**user.headers, "Idempotency-Key": "key\x00"},
    )
    [error] = _detail(response)
    assert error["loc"] == ["header", "idempotency-key"]


async def test_text_without_nul_or_lone_surrogates_passes_untouched(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    title = "emoji 😀 (a surrogate pair in JSON), 한국어, tab\tand \\u0000 as plain text"
    created = await client.post(
        "/api/tasks",
        content=json.dumps({"title": title}).encode(),
        headers={**user.headers, "content-type": "application/json"},
    )
    assert created.status_code == 201, created.text
    assert created.json()["title"] == title
    found = await client.get("/api/tasks", params={"q": "한국어"}, headers=user.headers)
    assert [task["title"] for task in found.json()] == [title]


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("add_task", {"title": "a\x00b"}, "title"),
        ("add_task", {"title": "ok", "tags": ["x\ud800"]}, "tags.0"),
        ("list_tasks", {"list": "\x00"}, "list"),
        ("list_tasks", {"q": "milk\x00"}, "q"),
        ("update_task", {"task_id": 1, "description": "\ud800"}, "description"),
    ],
)
async def test_an_mcp_tool_refuses_nul_and_lone_surrogates_naming_the_argument(
    app: FastAPI, client: httpx.AsyncClient, tool: str, arguments: dict[str, Any], field: str
) -> None:
    # The one call path every transport shares (stdio, streamable HTTP, the chat's in-process
    # tools).
    server = build_task_server(app.state.sessionmaker, principal_from_meta)
    user = await register(client)
    async with Client(server) as mcp:
        await mcp.call_tool("add_task", {"title": "seed"}, meta=principal_meta(user.id))
        result = await mcp.call_tool(tool, arguments, meta=principal_meta(user.id))
    assert result.is_error is True
    content = result.content[0]
    assert isinstance(content, TextContent)
    assert content.text.startswith(f"Invalid {field}: must not contain"), content.text
