"""Backup and restore of one user's data through the CLI, across databases: round trips,
and imports refused whole (exit 1, one line per problem, nothing written)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, text, update
from sqlmodel import col, select

from backend.main import create_app
from backend.models import Conversation, Message, Task, User
from backend.services import backup
from backend.services.backup_format import parse_backup
from backend.services.users import get_user_by_email
from tests.conftest import (
    TEST_SECRET,
    ChatFn,
    UserSession,
    client_for,
    make_settings,
    running,
    unique_email,
)
from tests.services.backup_documents import as_bytes, valid_document

ROOT = Path(__file__).resolve().parents[2]


def cli(database_url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": TEST_SECRET, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_export_then_import_into_a_fresh_database_restores_everything(
    database_url: str, tmp_path: Path, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add buy milk")
    await chat("add call mom with about the weekend")
    await chat("complete task 1")
    await client.delete("/api/tasks/2", headers=user.headers)
    await chat("add walk the dog")
    backup = tmp_path / "backup.json"
    exported = cli(database_url, "export", "--email", user.email, "--out", str(backup))
    assert exported.returncode == 0, exported.stderr
    document = json.loads(backup.read_text(encoding="utf-8"))
    assert [t["number"] for t in document["tasks"]] == [1, 3]

    fresh = f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    imported = cli(fresh, "import", str(backup))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == f"imported {user.email}"

    async with running(create_app(make_settings(fresh))) as app, client_for(app) as restored:
        login = await restored.post(
            "/api/auth/login", json={"email": user.email, "password": "correct horse battery"}
        )
        assert login.status_code == 200  # the same password works
        headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
        tasks = (await restored.get("/api/tasks", headers=headers)).json()
        assert [(t["id"], t["title"], t["completed"]) for t in tasks] == [
            (1, "buy milk", True),
            (3, "walk the dog", False),
        ]
        conversations = (await restored.get("/api/conversations", headers=headers)).json()
        messages = (
            await restored.get(
                f"/api/conversations/{conversations[0]['id']}/messages", headers=headers
            )
        ).json()
        assert [m["content"] for m in messages][:2] == [
            "add buy milk",
            "I've added 'buy milk' to your list.",
        ]
        assert messages[1]["tool_calls"][0]["name"] == "add_task"
        # Numbers are never reused, even after a restore: task 2 was deleted.
        new = await restored.post("/api/tasks", json={"title": "next"}, headers=headers)
        assert new.json()["id"] == 4
        # Context survives too: "it" is the last task the conversation was about.
        reply = await restored.post(
            "/api/chat",
            json={"message": "mark it as done", "conversation_id": conversations[0]["id"]},
            headers=headers,
        )
        assert reply.json()["response"] == "Awesome! I've marked 'walk the dog' as complete."


def test_import_refuses_to_overwrite_an_existing_account(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_bytes(as_bytes(valid_document("dup@example.com")))
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.db'}"
    assert cli(url, "import", str(path)).returncode == 0
    again = cli(url, "import", str(path))
    assert again.returncode == 1
    assert "a user with email dup@example.com already exists" in again.stderr


def test_export_of_an_unknown_email_is_a_clear_error(tmp_path: Path) -> None:
    result = cli(f"sqlite+aiosqlite:///{tmp_path / 'db.db'}", "export", "--email", "no@x.io")
    assert result.returncode == 1
    assert "no user with email no@x.io" in result.stderr


def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    result = cli(f"sqlite+aiosqlite:///{tmp_path / 'db.db'}", "import", str(path))
    assert result.returncode == 1
    assert "not a todo-chatbot/user-export" in result.stderr


async def row_counts(app: FastAPI) -> dict[str, int]:
    async with app.state.sessionmaker() as session:
        return {
            model.__name__: (await session.exec(select(func.count()).select_from(model))).one()
            for model in (User, Task, Conversation, Message)
        }


def assert_refused(result: subprocess.CompletedProcess[str], path: Path, problem: str) -> None:
    assert result.returncode == 1
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()  # after the migration's log lines, if it got that far
    heading = f"todo-chatbot: cannot import {path}; nothing was imported:"
    assert heading in lines, result.stderr
    problems = lines[lines.index(heading) + 1 :]
    assert any(line.startswith(f"  {problem}") for line in problems), result.stderr


Change = Callable[[dict[str, Any]], object]


def _drop_role(document: dict[str, Any]) -> None:
    del document["conversations"][0]["messages"][0]["role"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        pytest.param(
            lambda d: d["user"].update(email="not an email"),
            "user.email: value is not a valid email address",
            id="a bad email",
        ),
        pytest.param(
            lambda d: d["tasks"][1].update(title="x" * 5000),
            "tasks[1].title: String should have at most 200 characters",
            id="an over-long title",
        ),
        pytest.param(
            lambda d: d["tasks"][0].update(description="x" * 5000),
            "tasks[0].description: String should have at most 2000 characters",
            id="an over-long description",
        ),
        pytest.param(
            lambda d: d["conversations"][0]["messages"][0].update(role="system"),
            "conversations[0].messages[0].role: Input should be 'user' or 'assistant'",
            id="a system message",
        ),
        pytest.param(
            lambda d: d["conversations"][0]["messages"][0].update(content="x" * 4001),
            "conversations[0].messages[0].content: String should have at most 4000 characters",
            id="a message longer than the chat takes",
        ),
        pytest.param(
            lambda d: d["tasks"][1].update(number=2**31 - 1),
            "tasks[1].number: at most 2146483647, to leave room for 1,000,000 new tasks",
            id="a task number at the top of the range",
        ),
        pytest.param(
            lambda d: d["tasks"][1].update(number=1),
            "tasks[1].number: 1 is the number of tasks[0] too",
            id="duplicate task numbers",
        ),
        pytest.param(
            lambda d: d["tasks"][0].update(completed="yes"),
            "tasks[0].completed: Input should be a valid boolean",
            id="a wrong type",
        ),
        pytest.param(_drop_role, "conversations[0].messages[0].role: missing", id="a missing key"),
    ],
)
async def test_an_invalid_backup_is_refused_whole_with_one_line_per_problem(
    app: FastAPI, database_url: str, tmp_path: Path, change: Change, problem: str
) -> None:
    document = valid_document(unique_email())
    change(document)
    path = tmp_path / "backup.json"
    path.write_bytes(as_bytes(document))
    before = await row_counts(app)
    assert_refused(cli(database_url, "import", str(path)), path, problem)
    assert await row_counts(app) == before


async def test_an_import_of_tasks_the_service_cannot_compute_with_is_refused_without_a_traceback(
    app: FastAPI, database_url: str, tmp_path: Path
) -> None:
    # Due 9999-12-31 23:59 at UTC-12 is past the year 9999 in UTC; INTERVAL=0 never moves on.
    document = valid_document(unique_email())
    document["user"]["timezone"] = "Etc/GMT+12"
    document["tasks"][0].update(due_date="2030-01-01", repeat="FREQ=DAILY;INTERVAL=0")
    document["tasks"][1].update(due_date="9999-12-31", due_time="23:59")
    path = tmp_path / "backup.json"
    path.write_bytes(as_bytes(document))
    before = await row_counts(app)
    result = cli(database_url, "import", str(path))
    assert_refused(result, path, "tasks[0].repeat: repeat 'FREQ=DAILY;INTERVAL=0' cannot be kept")
    assert_refused(
        result, path, "tasks[1].due_date: due_date must be from 1900-01-01 to 2999-12-31"
    )
    assert await row_counts(app) == before


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        pytest.param(b"this is not JSON", "not JSON: expected ident at line 1 column 2", id="text"),
        pytest.param(b'{"format": "todo-chatbot/user-', "not JSON: EOF", id="cut short"),
        pytest.param("café".encode("latin-1"), "not UTF-8 text: byte 0xe9", id="latin-1"),
        pytest.param(None, "No such file or directory", id="no file"),
    ],
)
async def test_a_file_that_cannot_be_read_as_json_is_refused_clearly(
    app: FastAPI, database_url: str, tmp_path: Path, content: bytes | None, problem: str
) -> None:
    path = tmp_path / "backup.json"
    if content is not None:
        path.write_bytes(content)
    before = await row_counts(app)
    assert_refused(cli(database_url, "import", str(path)), path, problem)
    assert await row_counts(app) == before


async def test_a_backup_over_the_list_cap_is_refused(
    app: FastAPI, database_url: str, tmp_path: Path
) -> None:
    document = valid_document(unique_email())
    document["tasks"][0]["list"] = "Work"
    document["tasks"][1]["list"] = "Home"
    path = tmp_path / "backup.json"
    path.write_bytes(as_bytes(document))
    before = await row_counts(app)
    refused = cli(database_url, "import", str(path), MAX_LISTS_PER_USER="3")
    assert_refused(refused, path, "lists: 4 lists, more than the 3 an account may hold here")
    assert await row_counts(app) == before


async def test_a_backup_over_the_task_cap_is_refused(
    app: FastAPI, database_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "backup.json"
    path.write_bytes(as_bytes(valid_document(unique_email())))
    before = await row_counts(app)
    refused = cli(database_url, "import", str(path), MAX_TASKS_PER_USER="1")
    assert_refused(refused, path, "tasks: 2 tasks, more than the 1 an account may hold here")
    assert await row_counts(app) == before


@asynccontextmanager
async def messages_refused(app: FastAPI) -> AsyncIterator[None]:
    """The database refuses every new message (a failure half-way through an import)."""
    if app.state.engine.dialect.name == "sqlite":
        install = [
            "CREATE TRIGGER refuse_messages BEFORE INSERT ON message "
            "BEGIN SELECT RAISE(ABORT, 'refused for the test'); END"
        ]
        remove = ["DROP TRIGGER refuse_messages"]
    else:
        install = [
            "CREATE FUNCTION refuse_row() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$",
            "CREATE TRIGGER refuse_messages BEFORE INSERT ON message "
            "FOR EACH ROW EXECUTE FUNCTION refuse_row()",
        ]
        remove = ["DROP TRIGGER refuse_messages ON message", "DROP FUNCTION refuse_row()"]
    async with app.state.engine.begin() as connection:
        for statement in install:
            await connection.execute(text(statement))
    try:
        yield
    finally:
        async with app.state.engine.begin() as connection:
            for statement in remove:
                await connection.execute(text(statement))


async def test_an_import_failing_half_way_leaves_nothing_behind(
    app: FastAPI, database_url: str, tmp_path: Path
) -> None:
    email = unique_email()
    path = tmp_path / "backup.json"
    path.write_bytes(as_bytes(valid_document(email)))
    before = await row_counts(app)
    async with messages_refused(app):
        result = cli(database_url, "import", str(path))
    # The account, its tasks and its conversation were written before the messages failed.
    assert_refused(result, path, "database error: ")
    assert "refused for the test" in result.stderr
    assert await row_counts(app) == before
    async with app.state.sessionmaker() as session:
        assert await get_user_by_email(session, email=email) is None


async def test_an_export_imported_and_exported_again_is_the_same_document(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add buy milk")
    await chat("add call mom about the weekend")
    await chat("show my tasks")
    await client.delete("/api/tasks/1", headers=user.headers)
    async with app.state.sessionmaker() as session:
        exported = await backup.export_user(session, email=user.email)
    copy_email = unique_email()
    restored = parse_backup(
        json.dumps({**exported, "user": {**exported["user"], "email": copy_email}}).encode()
    )
    async with app.state.sessionmaker() as session:
        copy = await backup.import_user(session, restored)
        again = await backup.export_user(session, email=copy_email)
        original = await get_user_by_email(session, email=user.email)
    assert again == {**exported, "user": {**exported["user"], "email": copy_email}}
    assert [t["number"] for t in again["tasks"]] == [2]
    assert original is not None and copy.account_key != original.account_key


async def test_an_export_never_writes_a_counter_behind_its_tasks(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    for title in ("one", "two"):
        await client.post("/api/tasks", json={"title": title}, headers=user.headers)
    async with app.state.sessionmaker() as session:
        await session.exec(update(User).where(col(User.id) == user.id).values(last_task_number=0))
        await session.commit()
        exported = await backup.export_user(session, email=user.email)
    assert exported["user"]["last_task_number"] == 2
    assert parse_backup(json.dumps(exported).encode()).user.last_task_number == 2


async def test_an_export_carries_due_dates_priorities_lists_tags_repeats_and_the_zone(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    await client.patch("/api/auth/me", json={"timezone": "Asia/Tokyo"}, headers=user.headers)
    dated = {
        "title": "pay rent",
        "due_date": "2026-12-01",
        "due_time": "09:00",
        "priority": "high",
        "list": "Bills",
        "tags": ["home"],
        "repeat": "every 1st of the month",
    }
    assert (await client.post("/api/tasks", json=dated, headers=user.headers)).status_code == 201
    async with app.state.sessionmaker() as session:
        exported = await backup.export_user(session, email=user.email)
    assert exported["user"]["timezone"] == "Asia/Tokyo"
    task = exported["tasks"][0]
    assert (task["due_date"], task["due_time"][:5]) == ("2026-12-01", "09:00")
    assert (task["priority"], task["list"], task["tags"]) == ("high", "Bills", ["home"])
    assert (task["repeat"], task["repeat_from"]) == ("FREQ=MONTHLY;BYMONTHDAY=1", "schedule")
    copy_email = unique_email()
    restored = parse_backup(
        json.dumps({**exported, "user": {**exported["user"], "email": copy_email}}).encode()
    )
    async with app.state.sessionmaker() as session:
        copy = await backup.import_user(session, restored)
        again = await backup.export_user(session, email=copy_email)
        stored = (await session.exec(select(Task).where(Task.owner_id == copy.id))).one()
    assert again["tasks"] == exported["tasks"]
    assert stored.due_at is not None and stored.due_at.isoformat().startswith("2026-12-01T00:00")
    assert (stored.repeat_rule, stored.repeat_from) == ("FREQ=MONTHLY;BYMONTHDAY=1", "schedule")
    login = await client.post(
        "/api/auth/login", json={"email": copy_email, "password": "correct horse battery"}
    )
    headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
    lists = (await client.get("/api/lists", headers=headers)).json()
    assert [entry["name"] for entry in lists] == ["Inbox", "Shopping", "Bills"]


async def test_an_export_carries_reminders_an_offset_as_an_offset_and_a_fixed_one_as_its_time(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    relative = {
        "title": "dentist",
        "due_date": "2031-03-04",
        "due_time": "10:00",
        "remind_before": 30,
    }
    fixed = {"title": "call mom", "remind_at": "2031-03-05T08:00:00Z"}
    for body in (relative, fixed):
        assert (await client.post("/api/tasks", json=body, headers=user.headers)).status_code == 201
    async with app.state.sessionmaker() as session:
        exported = await backup.export_user(session, email=user.email)
    first, second = exported["tasks"]
    assert (first["remind_before"], first["remind_at"]) == (30, None)
    assert (second["remind_before"], second["remind_at"]) == (None, "2031-03-05T08:00:00Z")
    copy_email = unique_email()
    restored = parse_backup(
        json.dumps({**exported, "user": {**exported["user"], "email": copy_email}}).encode()
    )
    async with app.state.sessionmaker() as session:
        copy = await backup.import_user(session, restored)
        stored = (
            await session.exec(
                select(Task).where(Task.owner_id == copy.id).order_by(col(Task.number))
            )
        ).all()
    assert [t.remind_at.isoformat() if t.remind_at else None for t in stored] == [
        "2031-03-04T09:30:00+00:00",  # 10:00 UTC (the account's zone) less 30 minutes
        "2031-03-05T08:00:00+00:00",
    ]
    assert [t.remind_before for t in stored] == [30, None]
