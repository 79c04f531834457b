"""Which database `python -m mcp_tools` opens when a desktop client starts it outside the
checkout (issue 33, item 17): the checkout's own by default, never a new empty one, and it
says which on stderr.

The default database is found from the code's location, so these tests run a copy of the
checkout's code (PYTHONPATH) whose data/ directory is theirs: the real data/todo.db is never
touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from backend.main import create_app
from mcp_tools.stdio import database_name
from tests.conftest import TEST_SECRET, client_for, make_settings, register, running

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout's code with no data/ directory yet, as a fresh clone has."""
    copy = tmp_path / "checkout"
    copy.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")
    for package in ("backend", "mcp_tools"):
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return copy


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """The directory a desktop client starts the server in: not the checkout."""
    directory = tmp_path / "elsewhere"
    directory.mkdir()
    return directory


def _env(checkout: Path, **extra: str) -> dict[str, str]:
    """No DATABASE_URL unless given: the default is under test."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(checkout),
        "SECRET_KEY": TEST_SECRET,
    } | extra


def _entries(directory: Path) -> list[str]:
    return sorted(entry.name for entry in directory.iterdir())


def _run(
    module: str, *args: str, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_the_stdio_server_started_elsewhere_opens_its_checkouts_database(
    checkout: Path, elsewhere: Path, tmp_path: Path
) -> None:
    database = checkout / "data" / "todo.db"
    async with (
        running(create_app(make_settings(f"sqlite+aiosqlite:///{database}"))) as app,
        client_for(app) as http,
    ):
        user = await register(http)
        added = await http.post("/api/tasks", json={"title": "Call mum"}, headers=user.headers)
        assert added.status_code == 201, added.text

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_tools"],
        env=_env(checkout, MCP_USER_TOKEN=user.token),
        cwd=str(elsewhere),
    )
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.call_tool("list_tasks", {})
            assert listed.is_error is False, listed.content
            assert listed.structured_content is not None
            assert [task["title"] for task in listed.structured_content["result"]] == ["Call mum"]

    assert f"mcp_tools: opened the database {database}\n" in stderr.read_text()
    assert _entries(elsewhere) == []  # no data/todo.db of its own


@pytest.mark.parametrize("configured", ["the default", "a relative DATABASE_URL"])
def test_the_stdio_server_refuses_a_missing_database_in_one_line_and_creates_nothing(
    checkout: Path, elsewhere: Path, configured: str
) -> None:
    if configured == "the default":
        env, missing = _env(checkout), checkout / "data" / "todo.db"
    else:
        relative = "sqlite+aiosqlite:///./data/todo.db"  # relative to where it is started
        env, missing = _env(checkout, DATABASE_URL=relative), elsewhere / "data" / "todo.db"
    result = _run("mcp_tools", cwd=elsewhere, env=env | {"MCP_USER_ID": "1"})

    assert result.returncode == 2, result.stderr
    assert result.stdout == ""  # stdout belongs to the protocol
    [line] = result.stderr.splitlines()
    assert line.startswith(f"mcp_tools: no database at {missing}, ")
    assert "DATABASE_URL" in line
    assert _entries(elsewhere) == []
    assert not (checkout / "data").exists()


def test_the_web_service_creates_its_checkouts_database_from_any_directory(
    checkout: Path, elsewhere: Path
) -> None:
    # What `make run` does on a fresh clone (serve migrates first, as `migrate` does).
    result = _run("backend.cli", "migrate", cwd=elsewhere, env=_env(checkout))
    assert result.returncode == 0, result.stderr
    assert (checkout / "data" / "todo.db").is_file()
    assert _entries(elsewhere) == []


def test_the_database_line_names_a_sqlite_file_by_absolute_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_name("sqlite+aiosqlite:///./data/todo.db") == str(tmp_path / "data/todo.db")
    assert database_name("sqlite+aiosqlite:////srv/todo.db") == "/srv/todo.db"


def test_the_database_line_names_a_postgresql_database_without_its_password() -> None:
    named = database_name("postgresql+asyncpg://todo:s3cret-pass@db.example:5432/todo")
    assert named == "postgresql+asyncpg://todo:***@db.example:5432/todo"
