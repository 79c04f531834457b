from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum

from pydantic import StrictBool, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow

TITLE_MAX_LENGTH = 200
DESCRIPTION_MAX_LENGTH = 2000


class TaskStatus(StrEnum):
    ALL = "all"
    PENDING = "pending"
    COMPLETED = "completed"


# Terminal escape sequences (ECMA-48): stored in a title they would recolour, move the cursor
# or retitle the window of whoever prints the task in a terminal.
_TERMINAL_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI: "ESC[31m", cursor moves
    # OSC, DCS, SOS, PM, APC: a string up to its terminator (window titles, hyperlinks)
    r"|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]"  # the short ones: "ESC c" (reset), "ESC ( B"
)
# C0 and C1 control characters other than tab and line breaks (BEL, backspace, DEL...).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _clean_text(value: str | None) -> str | None:
    """What the user wrote, minus terminal escapes and control characters (NUL is refused:
    clients have long been told so), and surrounding spaces."""
    if value is None:
        return None
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return _CONTROL.sub("", _TERMINAL_ESCAPE.sub("", value)).strip()


_MAX_LENGTHS = {"title": TITLE_MAX_LENGTH, "description": DESCRIPTION_MAX_LENGTH}


def _cleaned_field(value: object, info: ValidationInfo) -> object:
    """The length limit holds for what was sent, as the schema says (a 201-character title
    is refused even if cleaning would shorten it), then the text is cleaned."""
    if not isinstance(value, str):
        return value
    limit = _MAX_LENGTHS[str(info.field_name)]
    if len(value) > limit:
        raise PydanticCustomError(
            "string_too_long",
            "String should have at most {max_length} characters",
            {"max_length": limit},
        )
    return _clean_text(value)


class TaskCreate(SQLModel):
    title: str = Field(min_length=1, max_length=TITLE_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX_LENGTH)

    @field_validator("title", "description", mode="before")
    @classmethod
    def _strip(cls, value: object, info: ValidationInfo) -> object:
        return _cleaned_field(value, info)

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
    def _strip(cls, value: object, info: ValidationInfo) -> object:
        return _cleaned_field(value, info)

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
