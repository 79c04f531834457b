"""Streaming fired reminders to the users connected to a process (backend/reminders/fanout.py):
whoever fired them, once each, only to their owner."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from backend.core.config import Settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.core.security import AccessClaims
from backend.models import Reminder, User
from backend.reminders import store as reminders
from backend.reminders.fanout import ReminderFanout, Subscription
from backend.reminders.scheduler import ReminderScheduler
from tests.conftest import make_settings
from tests.reminders.due_reminders import account_with_due_reminders, migrated


@pytest.fixture
async def sessionmaker(settings: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings) as maker:
        yield maker


def _drain(subscription: Subscription) -> list[str]:
    """The titles handed to the stream so far (what it would send next)."""
    found = []
    while not subscription._queue.empty():
        reminder = subscription._queue.get_nowait()
        found.append(reminder.title if reminder is not None else "(ended)")
    return found


async def _claims(sessionmaker: SessionMaker, owner_id: int) -> AccessClaims:
    """What a token for the account carries."""
    async with sessionmaker() as session:
        user = await session.get(User, owner_id)
        assert user is not None
        return AccessClaims(owner_id, user.account_key)


async def test_a_connected_user_gets_reminders_another_process_fired_once_each(
    sessionmaker: SessionMaker,
) -> None:
    fanout = ReminderFanout(sessionmaker, interval_seconds=60)
    await fanout.poll()  # starts from the newest reminder there is
    owner = await account_with_due_reminders(sessionmaker, 2)
    other = await account_with_due_reminders(sessionmaker, 1)
    async with fanout.subscribed(await _claims(sessionmaker, owner)) as queue:
        # Fired by "another process": nothing tells this one but the database.
        await ReminderScheduler(sessionmaker, interval_seconds=1).sweep()
        assert await fanout.poll() >= 2
        await fanout.poll()  # looked at again within the look-back: not handed on twice
        assert _drain(queue) == ["reminder 1", "reminder 2"]
    assert other != owner


async def test_nobody_connected_costs_no_query(sessionmaker: SessionMaker) -> None:
    fanout = ReminderFanout(sessionmaker, interval_seconds=60)
    await fanout.poll()
    assert await fanout.poll() == 0


async def test_a_reminder_fired_here_wakes_the_fanout_for_its_owner_only(
    sessionmaker: SessionMaker,
) -> None:
    fanout = ReminderFanout(sessionmaker, interval_seconds=3600)
    await fanout.poll()
    owner = await account_with_due_reminders(sessionmaker, 1)
    running = asyncio.create_task(fanout.run())
    try:
        async with fanout.subscribed(await _claims(sessionmaker, owner)) as queue:
            scheduler = ReminderScheduler(sessionmaker, interval_seconds=1, on_fired=fanout.fired)
            await scheduler.sweep()
            # An hour's interval: only the wake-up can deliver it.
            reminder = await asyncio.wait_for(queue.next(), timeout=60)
            assert reminder is not None and reminder.title == "reminder 1"
    finally:
        running.cancel()


async def test_a_reminder_committed_late_with_a_lower_id_is_still_handed_on(
    tmp_path: Path,
) -> None:
    """Two schedulers commit out of id order: the look-back finds the late one."""
    engine = create_engine(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'late.db'}"))
    await migrate(engine)
    maker = create_sessionmaker(engine)
    try:
        owner = await account_with_due_reminders(maker, 2)
        fanout = ReminderFanout(maker, interval_seconds=60, look_back_seconds=3600)
        await fanout.poll()
        async with fanout.subscribed(await _claims(maker, owner)) as queue:
            now = datetime.now(UTC)
            async with maker() as session:
                for id_, number in ((20, 2), (10, 1)):  # 20 commits first, then 10
                    session.add(
                        Reminder(
                            id=id_,
                            owner_id=owner,
                            task_pk=number,
                            task_number=number,
                            title=f"reminder {number}",
                            remind_at=now,
                        )
                    )
                    await session.commit()
                    await fanout.poll()
            assert _drain(queue) == ["reminder 2", "reminder 1"]
    finally:
        await engine.dispose()


async def test_a_reminder_dismissed_before_anyone_connected_is_not_handed_on(
    sessionmaker: SessionMaker,
) -> None:
    fanout = ReminderFanout(sessionmaker, interval_seconds=60)
    await fanout.poll()
    owner = await account_with_due_reminders(sessionmaker, 2)
    await ReminderScheduler(sessionmaker, interval_seconds=1).sweep()  # nobody connected
    async with sessionmaker() as session:
        [first, *_] = await reminders.unseen(session, owner_id=owner)
        assert first.id is not None
        await reminders.dismiss(session, owner_id=owner, reminder_id=first.id)
    async with fanout.subscribed(await _claims(sessionmaker, owner)) as subscription:
        await fanout.poll()
        assert _drain(subscription) == ["reminder 2"]


async def test_looking_for_reminders_takes_no_write_lock_on_sqlite(tmp_path: Path) -> None:
    """A writer holding SQLite's lock does not hold up the look (nor would the look hold up
    a writer): it only reads."""
    database = tmp_path / "locked.db"
    settings = make_settings(f"sqlite+aiosqlite:///{database}", sqlite_busy_timeout_ms=100)
    async with migrated(settings) as maker:
        owner = await account_with_due_reminders(maker, 1)
        fanout = ReminderFanout(maker, interval_seconds=60)
        await fanout.poll()
        await ReminderScheduler(maker, interval_seconds=1).sweep()
        async with fanout.subscribed(await _claims(maker, owner)) as subscription:
            writer = sqlite3.connect(database, isolation_level=None)
            try:
                writer.execute("BEGIN IMMEDIATE")  # another process's write, in flight
                assert await asyncio.wait_for(fanout.poll(), 30) == 1
            finally:
                writer.execute("ROLLBACK")
                writer.close()
            assert _drain(subscription) == ["reminder 1"]
