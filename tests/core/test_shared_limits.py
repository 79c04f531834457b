"""The database limit store: exact counts under concurrency, windows, refunds, expiry."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.db import create_engine
from backend.core.limits.database_store import DatabaseLimitStore
from backend.core.limits.window import Limit
from backend.core.migrate import migrate
from tests.conftest import make_settings

FIVE_PER_MINUTE = Limit("test", 5, 60)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(make_settings(database_url))
    await migrate(engine)
    try:
        yield engine
    finally:
        await engine.dispose()


def subject() -> str:
    return uuid.uuid4().hex


async def test_concurrent_hits_are_counted_exactly(engine: AsyncEngine) -> None:
    store, key = DatabaseLimitStore(engine), subject()
    waits = await asyncio.gather(*(store.hit(FIVE_PER_MINUTE, key) for _ in range(20)))
    assert sum(wait is None for wait in waits) == 5
    assert all(1 <= wait <= 60 for wait in waits if wait is not None)


async def test_two_stores_on_one_database_share_the_count(engine: AsyncEngine) -> None:
    first, second, key = DatabaseLimitStore(engine), DatabaseLimitStore(engine), subject()
    for store in (first, second, first, second, first):
        assert await store.hit(FIVE_PER_MINUTE, key) is None
    assert await second.hit(FIVE_PER_MINUTE, key) is not None
    assert await first.wait(FIVE_PER_MINUTE, key) is not None


async def test_a_new_window_opens_when_the_old_one_ends(engine: AsyncEngine) -> None:
    now = [1_000_000.0]
    store, key = DatabaseLimitStore(engine, clock=lambda: now[0]), subject()
    for _ in range(5):
        assert await store.hit(FIVE_PER_MINUTE, key) is None
    now[0] += 20
    assert await store.hit(FIVE_PER_MINUTE, key) == 40
    assert await store.wait(FIVE_PER_MINUTE, key) == 40
    now[0] += 40
    assert await store.wait(FIVE_PER_MINUTE, key) is None
    assert await store.hit(FIVE_PER_MINUTE, key) is None


async def test_a_refund_gives_back_one_hit(engine: AsyncEngine) -> None:
    store, key = DatabaseLimitStore(engine), subject()
    for _ in range(5):
        await store.hit(FIVE_PER_MINUTE, key)
    assert await store.wait(FIVE_PER_MINUTE, key) is not None
    await store.refund(FIVE_PER_MINUTE, key)
    assert await store.wait(FIVE_PER_MINUTE, key) is None
    assert await store.hit(FIVE_PER_MINUTE, key) is None


async def test_ended_windows_are_swept_away(engine: AsyncEngine) -> None:
    now = [2_000_000.0]
    store = DatabaseLimitStore(engine, clock=lambda: now[0], sweep_every=30)
    ended, live = subject(), subject()
    await store.hit(Limit("test", 5, 10), ended)
    await store.hit(Limit("test", 5, 100), live)
    now[0] += 31  # past the first window and the sweep interval: the next hit sweeps
    await store.hit(Limit("test", 5, 100), live)

    async with engine.connect() as connection:
        buckets = set(
            (
                await connection.execute(
                    text("SELECT bucket FROM rate_limit WHERE bucket IN (:a, :b)"),
                    {"a": Limit("test", 5, 10).key(ended), "b": Limit("test", 5, 100).key(live)},
                )
            ).scalars()
        )
    assert buckets == {Limit("test", 5, 100).key(live)}


async def test_a_hit_that_waited_for_the_database_never_reports_more_than_the_window(
    engine: AsyncEngine,
) -> None:
    # `late` read the clock (t=0), then queued; meanwhile `early` opened the window at t=10.
    # By the time `late`'s statement returns, it is t=10 for it too.
    readings = iter([0.0, 0.0, 10.0])  # at construction, at the hit, after it
    late = DatabaseLimitStore(engine, clock=lambda: next(readings, 10.0))
    early, key = DatabaseLimitStore(engine, clock=lambda: 10.0), subject()
    for _ in range(5):
        assert await early.hit(FIVE_PER_MINUTE, key) is None
    assert await late.hit(FIVE_PER_MINUTE, key) == 60
