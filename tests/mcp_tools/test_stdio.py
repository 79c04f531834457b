"""`python -m mcp_tools`: the task tools over stdio, spoken to by the SDK's stdio client.

SQLite only: stdio is the local desktop transport, and the tools themselves are covered on both
databases by test_server.py. Each test gets its own database file, so task numbers are known.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from backend.core.config import Settings
from backend.core.security import create_access_token
from backend.main import create_app
from tests.conftest import (
    TEST_SECRET,
    UserSession,
    client_for,
    make_settings,
    register,
    remove_sqlite_account,
    running,
)
from tests.mcp_tools.tool_names import ALL_TOOLS

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class LocalDatabase:
    url: str
    user: UserSession
    other: UserSession


@pytest.fixture
async def local_db(tmp_path: Path) -> LocalDatabase:
    """A fresh SQLite file with two registered users, created through the real API."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"
    async with running(create_app(make_settings(url))) as app, client_for(app) as http:
        return LocalDatabase(url, await register(http), await register(http))


def child_env(database_url: str, **extra: str) -> dict[str, str]:
    """The child sees only a few inherited variables (HOME, PATH, ...), so pass what it needs."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": database_url,
        "SECRET_KEY": TEST_SECRET,
    }
    return env | extra


def stdio_params(env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "mcp_tools"], env=env, cwd=str(ROOT)
    )


@pytest.mark.parametrize("identity", ["MCP_USER_TOKEN", "MCP_USER_ID"])
async def test_stdio_server_lists_tools_and_manages_the_configured_users_tasks(
    local_db: LocalDatabase, identity: str
) -> None:
    user = local_db.user
    value = user.token if identity == "MCP_USER_TOKEN" else str(user.id)
    params = stdio_params(child_env(local_db.url, **{identity: value}))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.server_info.name == "todo-tasks"
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert names == ALL_TOOLS

        added = await session.call_tool("add_task", {"title": "Water plants"})
        assert added.structured_content == {
            "task_id": 1,
            "status": "created",
            "title": "Water plants",
        }
        listed = await session.call_tool("list_tasks", {"status": "pending"})
        assert listed.structured_content is not None
        [task] = listed.structured_content["result"]
        assert (task["id"], task["title"], task["completed"]) == (1, "Water plants", False)


async def test_stdio_server_refuses_a_user_id_naming_someone_else(
    local_db: LocalDatabase,
) -> None:
    env = child_env(local_db.url, MCP_USER_TOKEN=local_db.user.token)
    async with (
        stdio_client(stdio_params(env)) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        refused = await session.call_tool(
            "add_task", {"title": "planted", "user_id": local_db.other.id}
        )
        assert refused.is_error is True
        assert isinstance(refused.content[0], TextContent)
        assert "user_id does not match" in refused.content[0].text
        listed = await session.call_tool("list_tasks", {})
        assert listed.structured_content == {"result": []}


async def test_a_running_stdio_server_stops_acting_once_its_tokens_account_is_removed(
    local_db: LocalDatabase,
) -> None:
    leaving = local_db.other  # the newest account: SQLite gives its id to the next sign-up
    env = child_env(local_db.url, MCP_USER_TOKEN=leaving.token)
    async with (
        stdio_client(stdio_params(env)) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        assert (await session.call_tool("add_task", {"title": "mine"})).is_error is False
        remove_sqlite_account(Path(local_db.url.removeprefix("sqlite+aiosqlite:///")), leaving.id)
        async with running(create_app(make_settings(local_db.url))) as app, client_for(app) as http:
            newcomer = await register(http)
            assert newcomer.id == leaving.id
            for tool, arguments in [("list_tasks", {}), ("add_task", {"title": "planted"})]:
                refused = await session.call_tool(tool, arguments)
                assert refused.is_error is True
                assert isinstance(refused.content[0], TextContent)
                assert "no longer exists" in refused.content[0].text
            assert (await http.get("/api/tasks", headers=newcomer.headers)).json() == []


def _run_stdio(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcp_tools"],
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_starting_without_a_configured_user_exits_with_code_2(tmp_path: Path) -> None:
    # Synchronous on purpose: a plain blocking subprocess.run, no event loop involved.
    result = _run_stdio(child_env(f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"))
    assert result.returncode == 2
    assert "MCP_USER_TOKEN" in result.stderr
    assert result.stdout == ""  # stdout belongs to the protocol


def test_starting_with_an_unusable_identity_exits_with_code_2(tmp_path: Path) -> None:
    database = tmp_path / "todo.db"
    database.touch()  # an empty database: the stdio server makes none (test_stdio_database.py)
    url = f"sqlite+aiosqlite:///{database}"
    foreign = create_access_token(1, Settings(secret_key="another-secret-" + "x" * 32), account="k")
    cases = {
        "not a valid token": {"MCP_USER_TOKEN": foreign},
        "no user with id 424242": {"MCP_USER_ID": "424242"},
        "no longer exists": {
            "MCP_USER_TOKEN": create_access_token(1, Settings(secret_key=TEST_SECRET), account="k")
        },
    }
    for message, identity in cases.items():
        result = _run_stdio(child_env(url, **identity))
        assert result.returncode == 2, result.stderr
        assert message in result.stderr
        assert result.stdout == ""
