"""The embedded SQLite setup: WAL, busy timeout, and writers that queue instead of failing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from backend.core.db import create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.models import TaskCreate
from backend.services import tasks, users
from tests.conftest import make_settings


async def test_sqlite_uses_wal_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = create_engine(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"))
    try:
        async with engine.connect() as connection:
            mode = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
            timeout = (await connection.execute(text("PRAGMA busy_timeout"))).scalar()
    finally:
        await engine.dispose()
    assert mode == "wal"
    assert timeout == 30_000


async def test_two_engines_writing_at_once_never_hit_database_is_locked(tmp_path: Path) -> None:
    """Two engines stand for two processes (the web app and a stdio MCP client)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    engines = [create_engine(make_settings(url)) for _ in range(2)]
    try:
        await migrate(engines[0])
        makers = [create_sessionmaker(engine) for engine in engines]
        async with makers[0]() as session:
            owner = await users.register_user(session, email="w@example.com", password="pw123456")
        assert owner.id is not None
        owner_id = owner.id

        async def write(maker_index: int, i: int) -> int:
            async with makers[maker_index]() as session:
                task = await tasks.create_task(
                    session, owner_id=owner_id, data=TaskCreate(title=f"{maker_index}-{i}")
                )
                return task.number

        numbers = await asyncio.gather(*(write(i % 2, i) for i in range(40)))
    finally:
        for engine in engines:
            await engine.dispose()
    assert sorted(numbers) == list(range(1, 41))
