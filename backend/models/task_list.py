"""The account's named lists ("Inbox", "Shopping", "Hardware"): a task names its list."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow
from backend.models.task import LIST_NAME_MAX_LENGTH

# Every account has these; Inbox is where a task goes when no list is named.
STARTING_LISTS = ("Inbox", "Shopping")


class TaskList(SQLModel, table=True):
    __tablename__ = "task_list"
    __table_args__ = (UniqueConstraint("owner_id", "name_key", name="uq_task_list_owner_name"),)

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    name: str = Field(max_length=LIST_NAME_MAX_LENGTH)
    # The name lower-cased: "shopping" and "Shopping" are one list.
    name_key: str = Field(max_length=LIST_NAME_MAX_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
