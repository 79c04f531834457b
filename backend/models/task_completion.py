"""Each completion of a repeating task: the task itself moves to its next date and stays
pending (one task, as in Todoist), so its history of done dates is kept here."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, Index
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow
from backend.models.task import TITLE_MAX_LENGTH


class TaskCompletion(SQLModel, table=True):
    __tablename__ = "task_completion"
    __table_args__ = (Index("ix_task_completion_owner_task", "owner_id", "task_number"),)

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    # The task's per-user number, and its title and due day when it was done.
    task_number: int
    title: str = Field(max_length=TITLE_MAX_LENGTH)
    due_date: date | None = Field(default=None, sa_type=Date)
    completed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
