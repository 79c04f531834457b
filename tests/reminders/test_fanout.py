"""Streaming fired reminders to the users connected to a process (backend/reminders/fanout.py):
whoever fired them, once each, only to their owner."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from backend.core.config import Settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.models import Reminder
from backend.reminders.fanout import ReminderFanout
from backend.reminders.scheduler import ReminderScheduler
from tests.conftest import make_settings
from tests.reminders.due_reminders import account_with_due_reminders, migrated


@pytest.fixture
async def sessionmaker(settings: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings) as maker:
        yield maker


def _drain(queue: asyncio.Queue[Reminder]) -> list[str]:
    found = []
    while not queue.empty():
        found.append(queue.get_nowait().title)
    return found


async def test_a_connected_user_gets_reminders_another_process_fired_once_each(
    sessionmaker: SessionMaker,
) -> None:
    fanout = ReminderFanout(sessionmaker, interval_seconds=60)
    await fanout.poll()  # starts from the newest reminder there is
    owner = await account_with_due_reminders(sessionmaker, 2)
    other = await account_with_due_reminders(sessionmaker, 1)
    async with fanout.subscribe(owner) as queue:
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
        async with fanout.subscribe(owner) as queue:
            scheduler = ReminderScheduler(sessionmaker, interval_seconds=1, on_fired=fanout.fired)
            await scheduler.sweep()
            # An hour's interval: only the wake-up can deliver it.
            reminder = await asyncio.wait_for(queue.get(), timeout=60)
            assert reminder.title == "reminder 1"
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
        async with fanout.subscribe(owner) as queue:
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
