"""Moving a running app's reminders to now, for the tests of what happens when they fire."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi import FastAPI
from sqlmodel import col, update

from backend.models import Task


async def reminders_due_now(app: FastAPI, owner_id: int, *numbers: int) -> None:
    """The clock reaches these tasks' reminders, and the scheduler sweeps."""
    async with app.state.sessionmaker() as session:
        await session.exec(
            update(Task)
            .where(col(Task.owner_id) == owner_id, col(Task.number).in_(numbers))
            .values(remind_at=datetime.now(UTC) - timedelta(seconds=1))
        )
        await session.commit()
    await app.state.reminder_scheduler.sweep()
