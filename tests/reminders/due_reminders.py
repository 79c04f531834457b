"""An account with reminders that have fallen due, written straight to the database as the
clock passing their time would leave them."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from sqlmodel import col, func, select

from backend.core.config import Settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.models import Reminder, Task, User
from backend.reminders.scheduler import ReminderScheduler


@asynccontextmanager
async def migrated(settings: Settings) -> AsyncIterator[SessionMaker]:
    """Sessions on an engine of its own (as another process would have), migrated."""
    engine = create_engine(settings)
    await migrate(engine)
    try:
        yield create_sessionmaker(engine)
    finally:
        await engine.dispose()


async def account_with_due_reminders(
    sessionmaker: SessionMaker, count: int, *, minutes_ago: int = 5, **task_fields: object
) -> int:
    """A new account holding `count` tasks whose reminders were due `minutes_ago`."""
    due = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    async with sessionmaker() as session:
        user = User(
            email=f"due-{uuid.uuid4().hex[:10]}@example.com",
            hashed_password="not a hash: this account never signs in",
            last_task_number=count,
        )
        session.add(user)
        await session.flush()
        assert user.id is not None
        session.add_all(
            Task(
                owner_id=user.id,
                number=number,
                title=f"reminder {number}",
                **{"remind_at": due + timedelta(seconds=number), **task_fields},  # type: ignore[arg-type]
            )
            for number in range(1, count + 1)
        )
        await session.commit()
        return user.id


async def fired_per_task(sessionmaker: SessionMaker, owner_id: int) -> dict[int, int]:
    """How many times each of the account's tasks has fired."""
    async with sessionmaker() as session:
        rows = await session.exec(
            select(col(Reminder.task_number), func.count())
            .where(col(Reminder.owner_id) == owner_id)
            .group_by(col(Reminder.task_number))
        )
        return {int(number): int(times) for number, times in rows.all()}


async def still_to_fire(sessionmaker: SessionMaker, owner_id: int) -> Sequence[int]:
    async with sessionmaker() as session:
        rows = await session.exec(
            select(col(Task.number)).where(
                col(Task.owner_id) == owner_id, col(Task.remind_at).is_not(None)
            )
        )
        return sorted(rows.all())


async def account_with_snoozed_reminders(
    sessionmaker: SessionMaker, count: int, *, minutes_ago: int = 5, **task_fields: object
) -> int:
    """A new account holding `count` tasks whose reminders fired and were snoozed until
    `minutes_ago`: each has one reminder row, dismissed, to fire again."""
    owner = await account_with_due_reminders(sessionmaker, count, remind_at=None, **task_fields)
    until = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    async with sessionmaker() as session:
        tasks = (await session.exec(select(Task).where(col(Task.owner_id) == owner))).all()
        session.add_all(
            Reminder(
                owner_id=owner,
                task_pk=task.pk or 0,
                task_number=task.number,
                title=task.title,
                remind_at=until - timedelta(hours=1),
                fired_at=until - timedelta(hours=1),
                seen_at=until - timedelta(minutes=30),
                snoozed_until=until + timedelta(seconds=task.number),
            )
            for task in tasks
        )
        await session.commit()
    return owner


async def still_snoozed(sessionmaker: SessionMaker, owner_id: int) -> Sequence[int]:
    """The account's tasks with a snoozed reminder yet to fire again."""
    async with sessionmaker() as session:
        rows = await session.exec(
            select(col(Reminder.task_number)).where(
                col(Reminder.owner_id) == owner_id, col(Reminder.snoozed_until).is_not(None)
            )
        )
        return sorted(rows.all())


async def sweep_together(sessionmakers: Sequence[SessionMaker]) -> None:
    """One scheduler a sessionmaker, as separate processes, sweeping at once in small
    batches, so they interleave over many transactions."""
    sweeps = [
        ReminderScheduler(maker, interval_seconds=1, batch=7).sweep() for maker in sessionmakers
    ]
    await asyncio.wait_for(asyncio.gather(*sweeps), timeout=120)
