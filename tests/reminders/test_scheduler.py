"""Firing reminders exactly once (backend/reminders/store.py, backend/reminders/scheduler.py),
on both databases: schedulers sweeping together, a row another transaction holds, a sweep
that dies before commit, and what must never fire."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlmodel import col, select

from backend.core.db import SessionMaker
from backend.models import Reminder, Task
from backend.reminders import store as reminders
from backend.reminders.scheduler import ReminderScheduler
from tests.conftest import make_settings
from tests.reminders.due_reminders import (
    account_with_due_reminders,
    fired_per_task,
    migrated,
    still_to_fire,
    sweep_together,
)


async def test_two_schedulers_sweeping_together_fire_each_reminder_once(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    first, second = sessionmakers
    owner = await account_with_due_reminders(first, 120)
    await sweep_together(sessionmakers)
    assert await fired_per_task(first, owner) == dict.fromkeys(range(1, 121), 1)
    assert await still_to_fire(first, owner) == []


async def test_a_fired_reminder_records_the_task_and_both_times(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    due = datetime.now(UTC) + timedelta(days=3)
    owner = await account_with_due_reminders(maker, 1, due_at=due)
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    async with maker() as session:
        fired = (await session.exec(select(Reminder).where(Reminder.owner_id == owner))).one()
    assert (fired.task_number, fired.title, fired.due_at) == (1, "reminder 1", due)
    assert fired.remind_at < fired.fired_at  # it was due before the sweep found it
    assert fired.seen_at is None


async def test_done_tasks_and_reminders_still_ahead_do_not_fire(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    done = await account_with_due_reminders(maker, 3, completed=True)
    ahead = await account_with_due_reminders(maker, 3, minutes_ago=-60)
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    assert await fired_per_task(maker, done) == {}
    assert await fired_per_task(maker, ahead) == {}
    assert await still_to_fire(maker, ahead) == [1, 2, 3]


async def test_a_sweep_that_dies_before_commit_fires_nothing_and_loses_nothing(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    owner = await account_with_due_reminders(maker, 4)

    async with maker() as session:

        async def crash() -> None:
            raise ConnectionResetError("the process died here")

        session.commit = crash  # type: ignore[method-assign]
        with pytest.raises(ConnectionResetError):
            await reminders.fire_due(session)
    assert await fired_per_task(maker, owner) == {}
    assert await still_to_fire(maker, owner) == [1, 2, 3, 4]
    # A scheduler started afterwards (a restart) fires them.
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    assert await fired_per_task(maker, owner) == {1: 1, 2: 1, 3: 1, 4: 1}


async def test_deleting_a_task_takes_its_fired_reminders_with_it(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    owner = await account_with_due_reminders(maker, 2)
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    async with maker() as session:
        await session.exec(
            Task.__table__.delete().where(  # type: ignore[attr-defined]
                (Task.owner_id == owner) & (Task.number == 1)
            )
        )
        await session.commit()
    assert await fired_per_task(maker, owner) == {2: 1}


@pytest.fixture
async def postgresql_sessionmakers(
    postgresql_url: str,
) -> AsyncIterator[tuple[SessionMaker, SessionMaker]]:
    """Two engines on PostgreSQL alone: what its row locks do, SQLite has no counterpart of."""
    settings = make_settings(postgresql_url)
    async with migrated(settings) as first, migrated(settings) as second:
        yield first, second


async def test_a_reminder_another_transaction_holds_is_skipped_not_waited_for(
    postgresql_sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    """PostgreSQL: FOR UPDATE SKIP LOCKED. A sweep takes what is free at once and leaves a
    row another worker (or a user's edit) holds to the next sweep."""
    holder, sweeper = postgresql_sessionmakers
    owner = await account_with_due_reminders(holder, 6)
    async with holder() as session:
        await session.exec(
            select(Task).where(col(Task.owner_id) == owner, col(Task.number) <= 2).with_for_update()
        )
        # Held until this transaction ends: a sweep that waited would never finish.
        await asyncio.wait_for(ReminderScheduler(sweeper, interval_seconds=1).sweep(), 120)
        assert sorted(await fired_per_task(sweeper, owner)) == [3, 4, 5, 6]
        await session.rollback()
    await ReminderScheduler(sweeper, interval_seconds=1).sweep()
    assert await fired_per_task(sweeper, owner) == dict.fromkeys(range(1, 7), 1)


async def test_the_scheduler_probe_uses_the_partial_index_on_postgresql(
    postgresql_sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = postgresql_sessionmakers
    async with maker() as session:
        await session.exec(text("SET LOCAL enable_seqscan = off"))
        plan = "\n".join(
            row[0]
            for row in (
                await session.exec(
                    text(
                        "EXPLAIN SELECT pk FROM task WHERE remind_at <= now() "
                        "AND completed = false ORDER BY remind_at LIMIT 500"
                    )
                )
            ).all()
        )
    assert "ix_task_remind_at" in plan


async def test_firing_does_not_touch_the_tasks_updated_at(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    owner = await account_with_due_reminders(maker, 1)
    async with maker() as session:
        before = (await session.exec(select(Task.updated_at).where(Task.owner_id == owner))).one()
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    async with maker() as session:
        after = (await session.exec(select(Task.updated_at).where(Task.owner_id == owner))).one()
    assert after == before


async def test_the_scheduler_waits_out_a_pool_with_no_connection_to_lend() -> None:
    # sqlalchemy's pool timeout is no DBAPIError: it once ended the sweeping loop for good.
    sweeps = 0
    swept_again = asyncio.Event()

    class Starved(ReminderScheduler):
        async def sweep(self, now: datetime | None = None) -> int:
            nonlocal sweeps
            sweeps += 1
            if sweeps == 1:
                raise PoolTimeoutError("QueuePool limit reached")
            swept_again.set()
            return 0

    scheduler = Starved(None, interval_seconds=0.01)  # type: ignore[arg-type]
    running = asyncio.create_task(scheduler.run())
    try:
        await asyncio.wait_for(swept_again.wait(), timeout=30)
    finally:
        running.cancel()
    assert sweeps >= 2
