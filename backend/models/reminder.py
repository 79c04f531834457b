"""A reminder that has fired: what the user is shown (in the open web UI, as a browser
notification, or on their next visit) until they dismiss it (specs/reminders.md).

The reminder to come lives on its task (`task.remind_at`); the scheduler claims it there and
writes one of these in the same transaction, so each fires once.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow
from backend.models.task import TITLE_MAX_LENGTH


class Reminder(SQLModel, table=True):
    __table_args__ = (Index("ix_reminder_owner_id", "owner_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    # A deleted task takes its reminders with it: there is nothing left to do.
    task_pk: int = Field(foreign_key="task.pk", ondelete="CASCADE", index=True)
    task_number: int
    title: str = Field(max_length=TITLE_MAX_LENGTH)
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # When it was meant to fire, and when it did (later if no scheduler was running then).
    remind_at: datetime = Field(sa_type=UTCDateTime)
    fired_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    seen_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class ReminderPublic(SQLModel):
    id: int
    task_id: int = Field(description="The task's number")
    title: str = Field(description="The task's title when the reminder fired")
    due_at: datetime | None = Field(description="The task's due instant (UTC), if it has one")
    remind_at: datetime = Field(description="When the reminder was set for (UTC)")
    fired_at: datetime = Field(description="When it fired (later than remind_at if missed)")

    @classmethod
    def of(cls, reminder: Reminder) -> ReminderPublic:
        assert reminder.id is not None
        return cls(
            id=reminder.id,
            task_id=reminder.task_number,
            title=reminder.title,
            due_at=reminder.due_at,
            remind_at=reminder.remind_at,
            fired_at=reminder.fired_at,
        )
