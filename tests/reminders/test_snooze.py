"""Snoozed reminders fire again exactly once (backend/reminders/store.py), on both databases:
schedulers sweeping together, a sweep that dies before commit, what must not fire, and the
rows another transaction holds; and when a snooze ends (backend/reminders/snooze.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlmodel import select

from backend.core.db import SessionMaker
from backend.models import Reminder, Task
from backend.models.reminder import ReminderSnooze
from backend.reminders import store as reminders
from backend.reminders.scheduler import ReminderScheduler
from backend.reminders.snooze import SnoozeTimeError, snooze_until
from tests.conftest import make_settings
from tests.reminders.due_reminders import (
    account_with_due_reminders,
    account_with_snoozed_reminders,
    fired_per_task,
    migrated,
    still_snoozed,
    still_to_fire,
    sweep_together,
)


async def test_two_schedulers_fire_each_snoozed_reminder_again_once(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    first, second = sessionmakers
    snoozed = await account_with_snoozed_reminders(first, 90)
    due = await account_with_due_reminders(first, 30)
    # They interleave over tasks' and snoozes' alike.
    await sweep_together(sessionmakers)
    # The snoozed one and the one it fired again as.
    assert await fired_per_task(first, snoozed) == dict.fromkeys(range(1, 91), 2)
    assert await still_snoozed(first, snoozed) == []
    assert await fired_per_task(first, due) == dict.fromkeys(range(1, 31), 1)
    assert await still_to_fire(first, due) == []


async def test_a_snooze_fires_again_as_a_new_reminder_to_show(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    owner = await account_with_snoozed_reminders(maker, 1)
    async with maker() as session:
        old = (await session.exec(select(Reminder).where(Reminder.owner_id == owner))).one()
    fired = await ReminderScheduler(maker, interval_seconds=1).sweep()
    assert fired == 1
    async with maker() as session:
        [shown] = await reminders.unseen(session, owner_id=owner)
    assert shown.id is not None and old.id is not None and shown.id > old.id
    assert (shown.task_number, shown.title, shown.seen_at) == (1, "reminder 1", None)
    assert shown.remind_at == old.snoozed_until  # when it was meant to fire again
    assert shown.remind_at < shown.fired_at


async def test_snoozes_still_ahead_and_those_of_done_tasks_do_not_fire(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    ahead = await account_with_snoozed_reminders(maker, 3, minutes_ago=-60)
    done = await account_with_snoozed_reminders(maker, 3, completed=True)
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    assert await fired_per_task(maker, ahead) == dict.fromkeys(range(1, 4), 1)
    assert await still_snoozed(maker, ahead) == [1, 2, 3]
    # A done task's snooze is spent when it comes due: reopening the task later fires nothing.
    assert await fired_per_task(maker, done) == dict.fromkeys(range(1, 4), 1)
    assert await still_snoozed(maker, done) == []


async def test_a_sweep_that_dies_before_commit_loses_no_snooze(
    sessionmakers: tuple[SessionMaker, SessionMaker],
) -> None:
    maker, _ = sessionmakers
    owner = await account_with_snoozed_reminders(maker, 3)

    async with maker() as session:

        async def crash() -> None:
            raise ConnectionResetError("the process died here")

        session.commit = crash  # type: ignore[method-assign]
        with pytest.raises(ConnectionResetError):
            await reminders.fire_due(session)
    assert await still_snoozed(maker, owner) == [1, 2, 3]
    await ReminderScheduler(maker, interval_seconds=1).sweep()
    assert await fired_per_task(maker, owner) == dict.fromkeys(range(1, 4), 2)


@pytest.fixture
async def postgresql_sessionmakers(
    postgresql_url: str,
) -> AsyncIterator[tuple[SessionMaker, SessionMaker]]:
    """Two engines on PostgreSQL alone: what its row locks do, SQLite has no counterpart of."""
    settings = make_settings(postgresql_url)
    async with migrated(settings) as first, migrated(settings) as second:
        yield first, second


@pytest.mark.parametrize("held", [Reminder, Task])
async def test_a_snooze_another_transaction_holds_is_skipped_not_waited_for(
    postgresql_sessionmakers: tuple[SessionMaker, SessionMaker], held: type[Reminder | Task]
) -> None:
    """PostgreSQL: a snoozed reminder, or its task, held by another transaction (a worker
    snoozing it anew, a user's edit, a deletion) is left to the next sweep."""
    holder, sweeper = postgresql_sessionmakers
    owner = await account_with_snoozed_reminders(holder, 4)
    async with holder() as session:
        number = Reminder.task_number if held is Reminder else Task.number
        await session.exec(
            select(held)  # type: ignore[call-overload]
            .where(held.owner_id == owner, number <= 2)
            .with_for_update()
        )
        await asyncio.wait_for(ReminderScheduler(sweeper, interval_seconds=1).sweep(), 120)
        assert await still_snoozed(sweeper, owner) == [1, 2]
        await session.rollback()
    await ReminderScheduler(sweeper, interval_seconds=1).sweep()
    assert await fired_per_task(sweeper, owner) == dict.fromkeys(range(1, 5), 2)


async def test_the_snooze_probe_uses_its_partial_index_on_postgresql(
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
                        "EXPLAIN SELECT id FROM reminder WHERE snoozed_until <= now() "
                        "ORDER BY snoozed_until LIMIT 500"
                    )
                )
            ).all()
        )
    assert "ix_reminder_snoozed_until" in plan


NOW = datetime(2026, 3, 28, 22, 30, tzinfo=UTC)  # 23:30 in Berlin, the night before DST


def _until(**asked: object) -> datetime:
    return snooze_until(ReminderSnooze(**asked), now=NOW, zone_name="Europe/Berlin")  # type: ignore[arg-type]


def test_minutes_count_from_now() -> None:
    assert _until(minutes=10) == NOW + timedelta(minutes=10)
    assert _until(minutes=60) == NOW + timedelta(hours=1)


def test_a_time_without_an_offset_is_on_the_accounts_clock_across_a_clock_change() -> None:
    # Tomorrow 09:00 in Berlin is on summer time (UTC+2), although tonight is not.
    assert _until(until="2026-03-29T09:00:00") == datetime(2026, 3, 29, 7, 0, tzinfo=UTC)
    assert _until(until="2026-03-29T09:00:00Z") == datetime(2026, 3, 29, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("until", "message"),
    [
        ("2026-03-28T23:30:00", "until must be in the future"),  # now, on Berlin's clock
        ("2026-03-28T22:29:59Z", "until must be in the future"),
        ("2026-04-27T22:30:01Z", "until must be at most 30 days ahead (43,200 minutes)"),
        # Near the calendar's end, on a clock ahead of UTC: refused, never an overflow.
        ("9999-12-31T23:59:59", "until must be at most 30 days ahead (43,200 minutes)"),
        ("0001-01-01T00:00:00", "until must be in the future"),
    ],
)
def test_a_snooze_time_passed_or_too_far_ahead_is_refused(until: str, message: str) -> None:
    with pytest.raises(SnoozeTimeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _until(until=until)
    assert _until(until="2026-04-27T22:30:00Z") == NOW + timedelta(days=30)
