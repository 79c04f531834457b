"""A reminder that has fired: what the user is shown (in the open web UI, as a browser
notification, or on their next visit) until they dismiss it (specs/reminders.md).

The reminder to come lives on its task (`task.remind_at`); the scheduler claims it there and
writes one of these in the same transaction, so each fires once. A snoozed one is dismissed
and holds `snoozed_until`, which the scheduler claims the same way: it fires again then, once,
as a new row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Self

from pydantic import StrictInt, model_validator
from sqlalchemy import Index, text
from sqlmodel import Field, SQLModel

from backend.core.json_numbers import WHOLE
from backend.core.timeutil import UTCDateTime, utcnow
from backend.models.task import TITLE_MAX_LENGTH

# The furthest ahead a reminder may be snoozed: 30 days.
SNOOZE_MAX_MINUTES = 30 * 24 * 60


class Reminder(SQLModel, table=True):
    __table_args__ = (
        Index("ix_reminder_owner_id", "owner_id", "id"),
        # The scheduler's probe for snoozes: only the reminders snoozed and yet to fire again.
        Index(
            "ix_reminder_snoozed_until",
            "snoozed_until",
            postgresql_where=text("snoozed_until IS NOT NULL"),
            sqlite_where=text("snoozed_until IS NOT NULL"),
        ),
    )

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
    # Snoozed: dismissed (`seen_at`), to fire again at this instant as a new reminder; cleared
    # when it does (or when it comes due for a task done since, which it no longer concerns).
    snoozed_until: datetime | None = Field(default=None, sa_type=UTCDateTime)


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


Minutes = Annotated[StrictInt, Field(ge=1, le=SNOOZE_MAX_MINUTES), WHOLE]


class ReminderSnooze(SQLModel):
    """For how long, or until when: exactly one of the two."""

    minutes: Minutes | None = Field(
        default=None,
        description=f"Snooze for this many minutes (1-{SNOOZE_MAX_MINUTES:,}: up to 30 days)",
    )
    until: datetime | None = Field(
        default=None,
        description=(
            "Snooze until this instant, in the next 30 days; one without an offset "
            '("2026-11-25T09:00:00") is on the account\'s clock'
        ),
    )

    @model_validator(mode="after")
    def _one_of_the_two(self) -> Self:
        given = {"minutes", "until"} & {
            name for name in self.model_fields_set if getattr(self, name) is not None
        }
        if len(given) != 1:
            raise ValueError(
                "give either minutes or until, not both" if given else "give minutes or until"
            )
        return self


class ReminderSnoozed(ReminderPublic):
    """The task's new reminder: the snoozed one, to fire again at `remind_at`."""

    remind_at: datetime = Field(description="When it fires again (UTC)")
    snoozed_until: datetime = Field(
        description="The same instant: it fires then, once, as a new reminder with an id of its own"
    )

    @classmethod
    def of(cls, reminder: Reminder) -> ReminderSnoozed:
        assert reminder.snoozed_until is not None
        public = ReminderPublic.of(reminder).model_dump()
        public["remind_at"] = reminder.snoozed_until
        return cls(**public, snoozed_until=reminder.snoozed_until)
