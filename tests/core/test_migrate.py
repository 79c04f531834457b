from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import AsyncConnection

from backend.core.db import create_engine
from backend.core.migrate import alembic_config, migrate
from tests.conftest import TEST_SECRET, make_settings, postgres_admin

ROOT = Path(__file__).resolve().parents[2]


async def test_migrate_creates_every_table_and_is_idempotent(database_url: str) -> None:
    engine = create_engine(make_settings(database_url))
    try:
        await migrate(engine)
        await migrate(engine)
        async with engine.connect() as connection:
            tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
            message_indexes = await connection.run_sync(
                lambda c: {i["name"]: i["column_names"] for i in inspect(c).get_indexes("message")}
            )
            task_indexes = await connection.run_sync(
                lambda c: {i["name"] for i in inspect(c).get_indexes("task")}
            )
    finally:
        await engine.dispose()
    assert {"user", "task", "conversation", "message", "alembic_version"} <= tables
    assert {"task_list", "task_completion", "calendar_feed"} <= tables
    assert message_indexes["ix_message_conversation_id_desc"] == ["conversation_id", "id"]
    # Title search by word stem is index-assisted on PostgreSQL (pg_trgm), a scan on SQLite.
    assert ("ix_task_title_trgm" in task_indexes) == (engine.dialect.name == "postgresql")


def test_cli_migrate_command_creates_the_embedded_database(tmp_path: Path) -> None:
    database = tmp_path / "nested" / "todo.db"
    result = subprocess.run(
        [sys.executable, "-m", "backend.cli", "migrate"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
            "SECRET_KEY": TEST_SECRET,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert database.exists()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database nobody has migrated yet (the shared ones are at the newest revision)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"
        return
    base: str = request.getfixturevalue("postgresql_url").rsplit("/", 1)[0]
    name = f"todo_migrate_{uuid.uuid4().hex[:12]}"
    asyncio.run(postgres_admin(f'CREATE DATABASE "{name}"'))
    yield f"{base}/{name}"
    asyncio.run(postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _at_revision_with_a_task(
    connection: AsyncConnection, revision: str, due_date: str | None = None
) -> None:
    """The schema at `revision`, holding one account and its task 1, "kept" (inserted with
    the columns that revision has)."""
    await connection.run_sync(lambda c: command.upgrade(alembic_config(c), revision))
    key_column, key = ("", "") if revision < "0003" else (", account_key", ", 'k'")
    await connection.execute(
        text(
            f'INSERT INTO "user" (email, hashed_password, last_task_number, created_at{key_column})'
            f" VALUES ('early@example.com', 'x', 1, CURRENT_TIMESTAMP{key})"
        )
    )
    due_column, due = ("", "") if due_date is None else (", due_date", f", '{due_date}'")
    await connection.execute(
        text(
            f"INSERT INTO task (owner_id, number, title, completed, created_at, updated_at"
            f"{due_column}) SELECT id, 1, 'kept', false, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP"
            f'{due} FROM "user"'
        )
    )


async def test_the_account_key_upgrade_keeps_accounts_tasks_and_issued_tokens(
    empty_database_url: str,
) -> None:
    engine = create_engine(make_settings(empty_database_url))
    try:
        async with engine.begin() as connection:
            await _at_revision_with_a_task(connection, "0002")
        await migrate(engine)
        async with engine.connect() as connection:
            key = (await connection.execute(text('SELECT account_key FROM "user"'))).scalar_one()
            titles = (await connection.execute(text("SELECT title FROM task"))).scalars().all()
    finally:
        await engine.dispose()
    # Tokens issued before the upgrade carry this stamp of the email: they still work.
    assert key == hashlib.sha256(b"early@example.com").hexdigest()[:16]
    assert titles == ["kept"]


async def test_the_dates_and_lists_upgrade_gives_every_account_inbox_and_shopping(
    empty_database_url: str,
) -> None:
    engine = create_engine(make_settings(empty_database_url))
    try:
        async with engine.begin() as connection:
            await _at_revision_with_a_task(connection, "0005")
        await migrate(engine)
        async with engine.connect() as connection:
            lists = await connection.execute(text("SELECT name FROM task_list ORDER BY name"))
            task = (
                await connection.execute(
                    text("SELECT title, priority, list_name, tags_text, due_date FROM task")
                )
            ).one()
            zone = (await connection.execute(text('SELECT timezone FROM "user"'))).scalar_one()
            names = lists.scalars().all()
    finally:
        await engine.dispose()
    assert names == ["Inbox", "Shopping"]
    assert tuple(task) == ("kept", "none", "Inbox", " ", None)
    assert zone == "UTC"


async def test_the_repeats_upgrade_keeps_tasks_as_they_were_and_none_repeating(
    empty_database_url: str,
) -> None:
    engine = create_engine(make_settings(empty_database_url))
    try:
        async with engine.begin() as connection:
            await _at_revision_with_a_task(connection, "0006", due_date="2030-01-01")
        await migrate(engine)
        async with engine.connect() as connection:
            task = (
                await connection.execute(
                    text("SELECT title, due_date, repeat_rule, repeat_from FROM task")
                )
            ).one()
            completions = (
                await connection.execute(text("SELECT count(*) FROM task_completion"))
            ).scalar_one()
    finally:
        await engine.dispose()
    assert (task[0], str(task[1]), task[2], task[3]) == ("kept", "2030-01-01", None, "schedule")
    assert completions == 0
