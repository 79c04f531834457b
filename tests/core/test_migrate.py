from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import inspect

from backend.core.db import create_engine
from backend.core.migrate import migrate
from tests.conftest import TEST_SECRET, make_settings

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
