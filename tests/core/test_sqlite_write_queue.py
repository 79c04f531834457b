"""SQLite's writers in one process take the write lock in the order they asked for it, and a
writer that stops half way (cancelled, rolled back, closed) never leaves the line stuck."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.db import (
    SessionMaker,
    create_engine,
    create_sessionmaker,
    read_only_engine,
    sqlite_write_queue,
    wait_for_lock_at_most,
)
from backend.core.migrate import migrate
from backend.core.sqlite_writers import WriteQueue
from tests.conftest import make_settings

INSERT = text("INSERT INTO rate_limit VALUES (:key, 1, 0)")


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'queue.db'}"))
    await migrate(engine)
    yield engine
    await engine.dispose()


def _queue(engine: AsyncEngine) -> WriteQueue:
    queue = sqlite_write_queue(engine)
    assert queue is not None
    return queue


async def _until_waiting(queue: WriteQueue, count: int) -> None:
    # The queue only counts its waiters (no event to wait on): poll, with no time limit.
    while queue.waiting < count:  # noqa: ASYNC110
        await asyncio.sleep(0.001)


async def _write(sessions: SessionMaker, key: str, written: list[str]) -> None:
    async with sessions() as session:
        await session.exec(INSERT, params={"key": key})  # type: ignore[call-overload]
        written.append(key)  # still holding the lock: the list is in the lock's order
        await session.commit()


async def test_writers_take_the_lock_in_the_order_they_asked_for_it(engine: AsyncEngine) -> None:
    """Without the line, SQLite's busy handler lets whichever waiter polls first win, and the
    one that has waited longest sleeps longest between polls (up to 100 ms)."""
    sessions = create_sessionmaker(engine)
    queue = _queue(engine)
    written: list[str] = []
    async with sessions() as holder:
        await holder.exec(INSERT, params={"key": "holder"})  # type: ignore[call-overload]
        writers = []
        for index in range(12):
            key = f"writer-{index}"
            writers.append(asyncio.create_task(_write(sessions, key, written)))
            await _until_waiting(queue, index + 1)
        await holder.commit()
    await asyncio.gather(*writers)
    assert written == [f"writer-{index}" for index in range(12)]
    assert queue.waiting == 0


async def test_a_writer_with_a_deadline_gives_up_in_line_as_database_is_locked(
    engine: AsyncEngine,
) -> None:
    sessions = create_sessionmaker(engine)
    async with sessions() as holder:
        await holder.exec(INSERT, params={"key": "holder"})  # type: ignore[call-overload]
        async with sessions() as hurried:
            with pytest.raises(OperationalError, match="database is locked"):
                await wait_for_lock_at_most(hurried, 0.05)
        await holder.commit()
    written: list[str] = []
    await asyncio.wait_for(_write(sessions, "after", written), 5)
    assert written == ["after"]
    assert _queue(engine).waiting == 0


async def test_a_writer_cancelled_while_writing_or_in_line_hands_on_its_turn(
    engine: AsyncEngine,
) -> None:
    sessions = create_sessionmaker(engine)
    queue = _queue(engine)
    writing = asyncio.Event()

    async def stuck_writer() -> None:
        async with sessions() as session:
            await session.exec(INSERT, params={"key": "stuck"})  # type: ignore[call-overload]
            writing.set()
            await asyncio.sleep(3600)

    first = asyncio.create_task(stuck_writer())
    await writing.wait()
    in_line = asyncio.create_task(_write(sessions, "in-line", []))
    await _until_waiting(queue, 1)
    in_line.cancel()
    first.cancel()
    for task in (first, in_line):
        with pytest.raises(asyncio.CancelledError):
            await task
    written: list[str] = []
    await asyncio.wait_for(_write(sessions, "next", written), 5)
    assert written == ["next"]
    async with sessions() as session:
        keys = (await session.exec(text("SELECT bucket FROM rate_limit"))).scalars().all()  # type: ignore[call-overload]
    assert keys == ["next"]


async def test_a_transaction_rolled_back_or_left_open_hands_on_its_turn(
    engine: AsyncEngine,
) -> None:
    sessions = create_sessionmaker(engine)
    async with sessions() as session:
        await session.exec(INSERT, params={"key": "undone"})  # type: ignore[call-overload]
        await session.rollback()
        await session.exec(INSERT, params={"key": "again"})  # type: ignore[call-overload]
        await session.commit()
    async with sessions() as session:
        await session.exec(INSERT, params={"key": "left open"})  # type: ignore[call-overload]
    written: list[str] = []
    await asyncio.wait_for(_write(sessions, "next", written), 5)
    assert written == ["next"]


async def test_reads_do_not_queue_behind_a_writer(engine: AsyncEngine) -> None:
    sessions = create_sessionmaker(engine)
    async with sessions() as holder:
        await holder.exec(INSERT, params={"key": "holder"})  # type: ignore[call-overload]
        async with read_only_engine(engine).connect() as reader:
            reads = await asyncio.wait_for(
                reader.scalar(text("SELECT count(*) FROM rate_limit")), 5
            )
        await holder.commit()
    assert reads == 0
