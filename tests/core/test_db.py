"""The embedded SQLite setup (WAL, busy timeout, writers that queue instead of failing) and
how database errors are told apart: an outage or an aborted transaction is worth retrying."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import JSON, bindparam, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.db import (
    create_engine,
    create_sessionmaker,
    is_unavailable,
    read_only,
    read_only_engine,
    wait_for_lock_at_most,
)
from backend.core.migrate import migrate
from backend.models import TaskCreate
from backend.services import tasks, users
from tests.conftest import make_settings, postgres_admin


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
                    session, user_id=owner_id, data=TaskCreate(title=f"{maker_index}-{i}")
                )
                return task.number

        numbers = await asyncio.gather(*(write(i % 2, i) for i in range(40)))
    finally:
        for engine in engines:
            await engine.dispose()
    assert sorted(numbers) == list(range(1, 41))


async def test_a_bounded_lock_wait_holds_for_its_own_transaction_only(tmp_path: Path) -> None:
    """A writer with a deadline (a chat reply) waits for SQLite's lock only as long as it says,
    then hears "database is locked"; the pooled connection's next transaction waits as long as
    SQLITE_BUSY_TIMEOUT_MS says again."""
    database = tmp_path / "lock.db"
    engine = create_engine(make_settings(f"sqlite+aiosqlite:///{database}"))
    sessions = create_sessionmaker(engine)
    holder = sqlite3.connect(database, isolation_level=None)
    try:
        await migrate(engine)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock throughout
        async with sessions() as session:
            with pytest.raises(OperationalError, match="database is locked"):
                await wait_for_lock_at_most(session, 0.05)  # it begins the transaction
        holder.execute("ROLLBACK")
        async with sessions() as session:
            bounded = (await session.exec(text("PRAGMA busy_timeout"))).scalar()
        async with sessions() as session:
            await wait_for_lock_at_most(session, 1.5)
            during = (await session.exec(text("PRAGMA busy_timeout"))).scalar()
    finally:
        holder.close()
        await engine.dispose()
    assert bounded == 30_000  # the next transaction on the one pooled connection
    assert during == 1_500


async def test_a_deadlock_the_server_broke_counts_as_worth_retrying(postgresql_url: str) -> None:
    """Two transactions lock two rows in opposite orders: PostgreSQL aborts one (40P01)."""
    engine = create_engine(make_settings(postgresql_url))
    try:
        async with engine.begin() as setup:
            await setup.execute(text("CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int)"))
            await setup.execute(text("INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)"))
        both_hold_one = asyncio.Barrier(2)

        async def lock_in_order(first: int, second: int) -> None:
            async with engine.begin() as connection:
                bump = text("UPDATE deadlock_probe SET n = n + 1 WHERE id = :id")
                await connection.execute(bump, {"id": first})
                await both_hold_one.wait()
                await connection.execute(bump, {"id": second})

        outcomes = await asyncio.gather(
            lock_in_order(1, 2), lock_in_order(2, 1), return_exceptions=True
        )
        async with engine.begin() as cleanup:
            await cleanup.execute(text("DROP TABLE deadlock_probe"))
    finally:
        await engine.dispose()
    errors = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], DBAPIError)
    assert getattr(errors[0].orig, "sqlstate", None) == "40P01"
    assert is_unavailable(errors[0])


@pytest.mark.parametrize("sql", ["SELECT no_such_column FROM deadlock_probe", "SELECT 1/0"])
async def test_a_wrong_query_is_a_bug_not_an_outage(postgresql_url: str, sql: str) -> None:
    engine = create_engine(make_settings(postgresql_url))
    try:
        async with engine.connect() as connection:
            with pytest.raises(DBAPIError) as raised:
                await connection.execute(text(sql))
    finally:
        await engine.dispose()
    assert not is_unavailable(raised.value)


async def _backend_pid(engine: AsyncEngine) -> int:
    async with engine.connect() as connection:
        pid: int = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    return pid


async def test_a_pooled_connection_killed_while_idle_is_replaced_before_use(
    postgresql_url: str,
) -> None:
    engine = create_engine(make_settings(postgresql_url, db_ping_after_idle_seconds=0))
    try:
        killed = await _backend_pid(engine)
        await postgres_admin(f"SELECT pg_terminate_backend({killed})")
        assert await _backend_pid(engine) != killed  # pinged, found dead, replaced: no error
    finally:
        await engine.dispose()


async def test_a_busy_connection_is_not_pinged_and_one_failure_renews_the_pool(
    postgresql_url: str,
) -> None:
    """The trade-off of pinging only idle connections: a connection killed within the idle
    window fails its next use (an outage, so a 503), and the pool is renewed after it."""
    engine = create_engine(make_settings(postgresql_url, db_ping_after_idle_seconds=3600))
    try:
        killed = await _backend_pid(engine)
        await postgres_admin(f"SELECT pg_terminate_backend({killed})")
        with pytest.raises(DBAPIError) as raised:
            await _backend_pid(engine)
        assert is_unavailable(raised.value)
        assert await _backend_pid(engine) != killed
    finally:
        await engine.dispose()


async def test_json_columns_round_trip_what_orjson_cannot_write(tmp_path: Path) -> None:
    engine = create_engine(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'json.db'}"))
    value = {"big": 2**70, "text": "é ✓", "nested": [{"n": 1}]}
    try:
        async with engine.begin() as connection:
            await connection.execute(text("CREATE TABLE doc (body JSON)"))
            insert = text("INSERT INTO doc VALUES (:body)").bindparams(
                bindparam("body", type_=JSON)
            )
            await connection.execute(insert, {"body": value})
            read = text("SELECT body FROM doc").columns(body=JSON)
            stored = (await connection.execute(read)).scalar_one()
    finally:
        await engine.dispose()
    assert stored == value


async def test_a_read_only_session_on_sqlite_reads_while_a_writer_holds_the_lock(
    tmp_path: Path,
) -> None:
    """A read takes no write lock (BEGIN DEFERRED): with BEGIN IMMEDIATE it would wait for
    the writer, then fail after the busy timeout (1 ms here)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'read.db'}"
    engine = create_engine(make_settings(url, sqlite_busy_timeout_ms=1))
    try:
        await migrate(engine)
        async with engine.connect() as writer:
            await writer.execute(text("INSERT INTO rate_limit VALUES ('held', 1, 0)"))
            async with create_sessionmaker(engine)() as session:
                await read_only(session)
                connection = await session.connection()
                count = await connection.scalar(text("SELECT count(*) FROM rate_limit"))
            async with read_only_engine(engine).connect() as reader:
                again = await reader.scalar(text("SELECT count(*) FROM rate_limit"))
            await writer.rollback()
    finally:
        await engine.dispose()
    assert count == again == 0  # the writer's row is not committed


async def test_a_read_only_session_on_postgresql_opens_no_transaction(postgresql_url: str) -> None:
    engine = create_engine(make_settings(postgresql_url))
    try:
        async with create_sessionmaker(engine)() as session:
            await read_only(session)
            connection = await session.connection()
            await connection.execute(text("SELECT 1"))
            raw = await connection.get_raw_connection()
            in_transaction = raw.driver_connection.is_in_transaction()  # type: ignore[union-attr]
        async with read_only_engine(engine).connect() as bare:
            await bare.execute(text("SELECT 1"))
            raw = await bare.get_raw_connection()
            engine_in_transaction = raw.driver_connection.is_in_transaction()  # type: ignore[union-attr]
    finally:
        await engine.dispose()
    assert in_transaction is False and engine_in_transaction is False
