"""`todo-chatbot mcp-config`: the settings it prints, filled in with a new personal access
token, are exactly what a client needs. Each is used as printed: the `mcp` SDK's stdio client
starts the printed command with the printed environment (from a directory of its own, as a
desktop client does), its streamable-HTTP client connects to the printed URL with the printed
headers, and the `openai` client uses the printed base URL, key and model, against a real
server on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent
from openai import AsyncOpenAI

from backend.services.connections import PASSWORD_PLACEHOLDER, database_url_for_clients
from mcp_tools.principal import READ_ONLY
from tests.conftest import UserSession, register
from tests.live_server import ROOT, served_on_each_database
from tests.mcp_tools.tool_names import ALL_TOOLS


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    # Sign-ups are counted per address in PostgreSQL's shared limit store, which other
    # tests' servers on the session's database spend too: lifted here, not tested here.
    yield from served_on_each_database(
        request, tmp_path_factory, "mcp-config", LOGIN_ATTEMPTS_PER_WINDOW="100000"
    )


def mcp_config(database_url: str, base_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PUBLIC_URL": base_url,
        "LOG_LEVEL": "WARNING",
    }
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", "mcp-config", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def printed(database_url: str, base_url: str, user: UserSession, *args: str) -> dict[str, Any]:
    done = mcp_config(database_url, base_url, "--email", user.email, *args)
    assert done.returncode == 0, done.stderr
    configs: dict[str, Any] = json.loads(done.stdout)
    return configs


def text_of(result: CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


async def test_the_printed_stdio_config_starts_a_server_for_the_account(
    served: tuple[str, str], tmp_path: Path
) -> None:
    base_url, database_url = served
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        user = await register(http)
    server = printed(database_url, base_url, user, "--name", "Claude Desktop")["claude"]
    server = server["mcpServers"]["todo"]
    assert server["env"]["MCP_USER_TOKEN"].startswith("tdc_")
    params = StdioServerParameters(
        command=server["command"], args=server["args"], env=server["env"], cwd=str(tmp_path)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert names == ALL_TOOLS
        added = await session.call_tool("add_task", {"title": "call the plumber"})
        assert added.is_error is False, text_of(added)
        assert "call the plumber" in text_of(await session.call_tool("list_tasks", {}))
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        tasks = (await http.get("/api/tasks", headers=user.headers)).json()
        tokens = (await http.get("/api/tokens", headers=user.headers)).json()
    assert [task["title"] for task in tasks] == ["call the plumber"]
    assert [(token["name"], token["scope"]) for token in tokens] == [("Claude Desktop", "write")]


async def test_the_printed_http_config_reaches_the_tools_and_a_read_token_stays_read_only(
    served: tuple[str, str],
) -> None:
    base_url, database_url = served
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        user = await register(http)
        await http.post("/api/tasks", json={"title": "buy stamps"}, headers=user.headers)
    for scope in ("write", "read"):
        server = printed(database_url, base_url, user, "--scope", scope)["http"]
        server = server["mcpServers"]["todo"]
        assert server["type"] == "http" and server["url"] == f"{base_url}/mcp/"
        async with (
            httpx2.AsyncClient(headers=server["headers"], timeout=httpx2.Timeout(30)) as http2,
            Client(streamable_http_client(server["url"], http_client=http2)) as mcp,
        ):
            assert "buy stamps" in text_of(await mcp.call_tool("list_tasks", {}))
            added = await mcp.call_tool("add_task", {"title": f"{scope} note"})
            if scope == "write":
                assert added.is_error is False, text_of(added)
            else:
                assert added.is_error is True and READ_ONLY in text_of(added)


async def test_the_printed_openai_settings_chat_with_the_account(
    served: tuple[str, str],
) -> None:
    base_url, database_url = served
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        user = await register(http)
    settings = printed(database_url, base_url, user, "--format", "openai")
    assert settings["base_url"] == f"{base_url}/v1" and settings["model"] == "todo-assistant"
    client = AsyncOpenAI(base_url=settings["base_url"], api_key=settings["api_key"])
    async with client:
        reply = await client.chat.completions.create(
            model=settings["model"], messages=[{"role": "user", "content": "add water the ferns"}]
        )
    assert reply.choices[0].message.content
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        tasks = (await http.get("/api/tasks", headers=user.headers)).json()
    assert [task["title"] for task in tasks] == ["water the ferns"]


async def test_an_existing_token_is_filled_in_and_mistakes_are_one_line(
    served: tuple[str, str],
) -> None:
    base_url, database_url = served
    token = "tdc_" + "t" * 43
    done = mcp_config(database_url, base_url, "--token", token, "--format", "http")
    assert done.returncode == 0, done.stderr
    headers = json.loads(done.stdout)["mcpServers"]["todo"]["headers"]
    assert headers == {"Authorization": f"Bearer {token}"}
    for args, said in (
        (("--email", "nobody@example.com"), "no account with the email nobody@example.com"),
        ((), "needs --email"),
        (("--token", "not-a-token"), "personal access token"),
    ):
        refused = mcp_config(database_url, base_url, *args)
        assert refused.returncode == 2
        assert said in refused.stderr and "Traceback" not in refused.stderr


def test_a_database_password_is_never_printed_and_a_sqlite_path_is_absolute() -> None:
    shown = database_url_for_clients("postgresql+asyncpg://todo:s3cret@db.internal:5432/todo")
    assert "s3cret" not in shown and PASSWORD_PLACEHOLDER in shown
    local = database_url_for_clients("sqlite+aiosqlite:///data/todo.db")
    assert local == f"sqlite+aiosqlite:///{(Path('data') / 'todo.db').resolve()}"


def test_the_database_password_is_printed_only_when_the_operator_asks() -> None:
    database_url = "postgresql+asyncpg://todo:s3cret@db.internal:5432/todo"
    token = "tdc_" + "t" * 43
    shown: dict[bool, str] = {}
    for asked in ((), ("--show-database-password",)):
        done = mcp_config(database_url, "https://todo.example", "--token", token, *asked)
        assert done.returncode == 0, done.stderr
        shown[bool(asked)] = done.stdout
    hidden = json.loads(shown[False])["claude"]["mcpServers"]["todo"]["env"]["DATABASE_URL"]
    assert hidden == f"postgresql+asyncpg://todo:{PASSWORD_PLACEHOLDER}@db.internal:5432/todo"
    assert "s3cret" not in shown[False]
    revealed = json.loads(shown[True])["claude"]["mcpServers"]["todo"]["env"]["DATABASE_URL"]
    assert revealed == database_url
    assert "s3cret" not in json.dumps(json.loads(shown[True])["http"])
