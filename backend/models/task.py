from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import StrictBool, field_validator
from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow

TITLE_MAX_LENGTH = 200
DESCRIPTION_MAX_LENGTH = 2000


class TaskStatus(StrEnum):
    ALL = "all"
    PENDING = "pending"
    COMPLETED = "completed"


def _clean_text(value: str | None) -> str | None:
    if value is None:
        return None
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value.strip()


class TaskCreate(SQLModel):
    title: str = Field(min_length=1, max_length=TITLE_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX_LENGTH)

    @field_validator("title", "description", mode="before")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        return _clean_text(value) if isinstance(value, str) or value is None else value

    @field_validator("title")
    @classmethod
    def _title_not_blank(cls, value: str) -> str:
        if not value:
            raise ValueError("title must not be blank")
        return value


class TaskUpdate(SQLModel):
    title: str | None = Field(default=None, min_length=1, max_length=TITLE_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX_LENGTH)
    # Strict: JSON 0/1 or "true" are type confusion, not a completion state.
    completed: StrictBool | None = None

    @field_validator("title", "description", mode="before")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        return _clean_text(value) if isinstance(value, str) or value is None else value

    @field_validator("title")
    @classmethod
    def _title_not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value:
            raise ValueError("title must not be blank")
        return value


class Task(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("owner_id", "number", name="uq_task_owner_number"),
        Index("ix_task_owner_completed_number", "owner_id", "completed", "number"),
    )

    # The global row id never leaves the server; users see `number`.
    pk: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    number: int
    title: str = Field(max_length=TITLE_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX_LENGTH)
    completed: bool = Field(default=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class TaskPublic(SQLModel):
    id: int
    title: str
    description: str | None
    completed: bool
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, task: Task) -> TaskPublic:
        return cls(
            id=task.number,
            title=task.title,
            description=task.description,
            completed=task.completed,
            created_at=task.created_at,
            updated_at=task.updated_at,
        )
