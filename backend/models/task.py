from __future__ import annotations

import builtins
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, time
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field as PydanticField
from pydantic import (
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError
from sqlalchemy import Date, Index, Time, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from backend.core.json_numbers import WHOLE
from backend.core.timeutil import (
    FIRST_DAY,
    LAST_DAY,
    UTCDateTime,
    calendar_problem,
    in_calendar,
    utcnow,
)
from backend.domain.reminder_times import REMIND_BEFORE_MAX_MINUTES
from backend.domain.repeat_phrases import describe, read_repeat
from backend.domain.repeats import Repeat

TITLE_MAX_LENGTH = 200
DESCRIPTION_MAX_LENGTH = 2000


LIST_NAME_MAX_LENGTH = 60
DEFAULT_LIST = "Inbox"
MAX_TAGS = 10
# What a tag may be: a short lower-case word ("#Work" is stored as "work").
_TAG = re.compile(r"^[a-z0-9][a-z0-9_-]{0,29}$")
# "09:30", as people and the web UI's time input write it.
_CLOCK = re.compile(r"^(?P<h>[01]\d|2[0-3]):(?P<m>[0-5]\d)(?::00)?$")


class Priority(StrEnum):
    """Words, never numbers: "1" is the highest in one app and the lowest in another."""

    NONE = "none"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


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


# Joiners belong inside words (Persian, Indic scripts) and emoji sequences.
_JOINERS = frozenset("\u200c\u200d")
# Letters and symbols that render as nothing (Hangul fillers, the blank Braille pattern).
_BLANK_LOOKING = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def _hidden(name: str, at: int) -> bool:
    """Whether the character at `at` shows nothing: a format character (zero-width space,
    direction marks and overrides, byte order mark...) or a blank-looking letter. A joiner
    between two characters that show, one of them beyond ASCII, is part of what they show
    ("کتاب‌خانه", an emoji family); between two ASCII letters it only hides."""
    char = name[at]
    if char in _BLANK_LOOKING:
        return True
    if unicodedata.category(char) != "Cf":
        return False
    if char not in _JOINERS or at == 0 or at == len(name) - 1:
        return True
    around = (name[at - 1], name[at + 1])
    shown = not any(c.isspace() or unicodedata.category(c) == "Cf" for c in around)
    return not (shown and any(not c.isascii() for c in around))


def clean_list_name(value: object) -> object:
    """A list's name as shown: cleaned text of 1-60 characters. As for titles, the limit
    holds for what was sent (the schema's maxLength), before cleaning shortens it. Nothing
    in it may be invisible: "Inbox" plus a zero-width space, or a name reversed by a
    right-to-left override, would sit beside the real one looking the same."""
    if not isinstance(value, str):
        return value
    if len(value) > LIST_NAME_MAX_LENGTH:
        raise ValueError(f"list must have at most {LIST_NAME_MAX_LENGTH} characters")
    name = _clean_text(value) or ""
    if not name:
        raise ValueError("list must not be blank")
    if any(_hidden(name, at) for at in range(len(name))):
        raise ValueError(
            "list must not contain invisible characters (such as zero-width spaces or "
            "direction marks)"
        )
    return name


def tag_word(tag: str) -> str:
    """A tag as stored: "#Work" is "work"."""
    return tag.strip().lstrip("#").lower()


def clean_tags(value: object) -> object:
    """Lower-case words, each once, in the order given; a leading "#" is dropped."""
    if not isinstance(value, list):
        return value
    tags: list[str] = []
    for tag in value:
        if not isinstance(tag, str):
            raise ValueError("tags must be strings")
        word = tag_word(tag)
        if not _TAG.match(word):
            raise ValueError(
                f"tag {tag!r} must be 1-30 letters, digits, '_' or '-' (a leading '#' is fine)"
            )
        if word not in tags:
            tags.append(word)
    if len(tags) > MAX_TAGS:
        raise ValueError(f"a task has at most {MAX_TAGS} tags")
    return tags


def parse_clock(value: object) -> object:
    """ "09:30" as a time of day (seconds other than :00 are refused; a number is no time,
    though pydantic would read it as seconds)."""
    if isinstance(value, str):
        found = _CLOCK.match(value.strip())
        if found is None:
            raise ValueError("due_time must be HH:MM (24-hour)")
        return time(int(found["h"]), int(found["m"]))
    if value is not None and not isinstance(value, time):
        raise ValueError("due_time must be HH:MM (24-hour)")
    return value


_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_day(value: object, field: str = "due_date") -> object:
    """ "2026-11-25" only: pydantic would also read a number as a Unix time."""
    if isinstance(value, str) and not _DAY.match(value.strip()):
        raise ValueError(f"{field} must be YYYY-MM-DD")
    if value is not None and not isinstance(value, (str, date)):
        raise ValueError(f"{field} must be YYYY-MM-DD")
    return value.strip() if isinstance(value, str) else value


RepeatFrom = Literal["schedule", "completion"]
REPEAT_HELP = (
    "An RRULE (FREQ=MONTHLY;BYMONTHDAY=1) or a phrase ('every monday', 'every 1st of the "
    "month', '3 days after I finish it'); a task with no due date gets the rule's first day. "
    "Its step is 1 day to 10 years, and its next date must come within 30 years"
)
REPEAT_FROM_HELP = "What the next date counts from: the due date (default) or the completion"
# Four weeks: the earliest a reminder may come before its task.
# Minutes, a whole number (30 or 30.0, never "30"), stated in the schema with its bounds.
RemindBefore = Annotated[StrictInt, PydanticField(ge=0, le=REMIND_BEFORE_MAX_MINUTES), WHOLE]
REMIND_AT_HELP = (
    f"When to remind: an ISO date-time in the years {FIRST_DAY.year} to {LAST_DAY.year}; one "
    "without an offset is read "
    "in the account's zone. "
    "Before a due task's time it is kept as an offset (it moves with the task); null: no reminder"
)
REMIND_BEFORE_HELP = (
    "Remind this many minutes before the due time (an all-day task's 09:00); a timed task "
    "reminds at its time (0) unless told otherwise; null: no reminder"
)


class _TaskInput(SQLModel):
    """The rules a task's fields follow wherever they come in (a create, an update, an
    import): the same validators on the same field names."""

    @field_validator("title", "description", mode="before", check_fields=False)
    @classmethod
    def _strip(cls, value: object, info: ValidationInfo) -> object:
        return _cleaned_field(value, info)

    @field_validator("list", mode="before", check_fields=False)
    @classmethod
    def _list(cls, value: object) -> object:
        return clean_list_name(value)

    @field_validator("tags", mode="before", check_fields=False)
    @classmethod
    def _tags(cls, value: object) -> object:
        return clean_tags(value)

    @field_validator("due_time", mode="before", check_fields=False)
    @classmethod
    def _clock(cls, value: object) -> object:
        return parse_clock(value)

    @field_validator("due_date", mode="before", check_fields=False)
    @classmethod
    def _day(cls, value: object) -> object:
        return parse_day(value)

    # Days within the calendar the service computes in (core/timeutil.py): a zone shift, a
    # reminder offset or a repeat's next date from there never overflows.
    @field_validator("due_date", mode="after", check_fields=False)
    @classmethod
    def _day_in_calendar(cls, value: date | None) -> date | None:
        if value is not None and not in_calendar(value):
            raise ValueError(calendar_problem("due_date"))
        return value

    @field_validator("remind_at", mode="after", check_fields=False)
    @classmethod
    def _remind_in_calendar(cls, value: datetime | None) -> datetime | None:
        if value is not None and not in_calendar(value.date()):
            raise ValueError(calendar_problem("remind_at"))
        return value

    @field_validator("repeat", mode="after", check_fields=False)
    @classmethod
    def _repeat(cls, value: str | None) -> str | None:
        if value is not None:
            read_repeat(value)  # ValueError: what a repeat must look like
        return value


class TaskCreate(_TaskInput):
    title: str = Field(min_length=1, max_length=TITLE_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX_LENGTH)
    due_date: date | None = Field(
        default=None,
        description=f"The day it is due (YYYY-MM-DD), from {FIRST_DAY} to {LAST_DAY}",
    )
    due_time: time | None = Field(
        default=None, description="The time it is due (HH:MM, 24-hour), in the account's zone"
    )
    # Optional in the schema (clients may leave them out): "none" and Inbox when absent.
    priority: Priority | None = Field(default=None, description='Default "none"')
    list: str | None = Field(
        default=None, max_length=LIST_NAME_MAX_LENGTH, description="Default Inbox"
    )
    # `builtins.list`: the field named "list" hides the type inside the class
    tags: builtins.list[str] = Field(
        default_factory=builtins.list, description="Short lower-case words"
    )
    repeat: str | None = Field(default=None, max_length=200, description=REPEAT_HELP)
    repeat_from: RepeatFrom | None = Field(default=None, description=REPEAT_FROM_HELP)
    remind_at: datetime | None = Field(default=None, description=REMIND_AT_HELP)
    # "30" is not a number of minutes; 30.0 is (JSON Schema's integer)
    remind_before: RemindBefore | None = Field(default=None, description=REMIND_BEFORE_HELP)

    @model_validator(mode="after")
    def _time_needs_a_day(self) -> TaskCreate:
        _one_kind_of_reminder(self)
        if self.due_time is not None and self.due_date is None:
            raise ValueError("due_time needs a due_date")
        return self

    @field_validator("title")
    @classmethod
    def _title_not_blank(cls, value: str) -> str:
        if not value:
            raise ValueError("title must not be blank")
        return value


def _one_kind_of_reminder(data: SQLModel) -> None:
    if (
        getattr(data, "remind_at", None) is not None
        and getattr(data, "remind_before", None) is not None
    ):
        raise ValueError("give remind_at or remind_before, not both")


class TaskUpdate(_TaskInput):
    title: str | None = Field(default=None, min_length=1, max_length=TITLE_MAX_LENGTH)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX_LENGTH)
    # Strict: JSON 0/1 or "true" are type confusion, not a completion state.
    completed: StrictBool | None = None
    # null clears a due date (and its time) or a time; "none" clears a priority; [] the tags.
    due_date: date | None = None
    due_time: time | None = None
    priority: Priority | None = None
    list: str | None = Field(default=None, max_length=LIST_NAME_MAX_LENGTH)
    tags: builtins.list[str] | None = None
    # null stops a task repeating
    repeat: str | None = Field(default=None, max_length=200, description=REPEAT_HELP)
    repeat_from: RepeatFrom | None = Field(default=None, description=REPEAT_FROM_HELP)
    # null (either) turns the task's reminder off
    remind_at: datetime | None = Field(default=None, description=REMIND_AT_HELP)
    # "30" is not a number of minutes; 30.0 is (JSON Schema's integer)
    remind_before: RemindBefore | None = Field(default=None, description=REMIND_BEFORE_HELP)

    @model_validator(mode="after")
    def _one_reminder(self) -> TaskUpdate:
        _one_kind_of_reminder(self)
        return self

    @field_validator("title")
    @classmethod
    def _title_not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value:
            raise ValueError("title must not be blank")
        return value


@dataclass(frozen=True)
class TaskSharing:
    """What a task on a shared list tells the user who sees it (specs/sharing.md)."""

    role: Literal["owner", "editor", "viewer"]
    added_by: str | None = None
    completed_by: str | None = None


class Task(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("owner_id", "number", name="uq_task_owner_number"),
        Index("ix_task_owner_completed_number", "owner_id", "completed", "number"),
        # The reminder scheduler's probe: only tasks with a reminder to come are indexed.
        Index(
            "ix_task_remind_at",
            "remind_at",
            postgresql_where=text("remind_at IS NOT NULL"),
            sqlite_where=text("remind_at IS NOT NULL"),
        ),
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
    # The day and time as the user said them, and the instant they make in the account's
    # zone (recomputed when the zone changes): see specs/decisions/0017-due-dates-as-said.md.
    due_date: date | None = Field(default=None, sa_type=Date)
    due_time: time | None = Field(default=None, sa_type=Time)
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    priority: str = Field(default=Priority.NONE.value, max_length=6)
    list_name: str = Field(default=DEFAULT_LIST, max_length=LIST_NAME_MAX_LENGTH)
    # " home work ": one word per tag, a space at each end, so a tag filter is a LIKE.
    tags_text: str = Field(default=" ", max_length=400)
    # An RFC 5545 RRULE body ("FREQ=MONTHLY;BYMONTHDAY=1") and what its next date counts
    # from: "schedule" (the due date) or "completion" (specs/decisions/0020-repeats-as-rrule.md).
    repeat_rule: str | None = Field(default=None, max_length=200)
    repeat_from: str = Field(default="schedule", max_length=10)
    # The next reminder's instant (cleared when it fires), and, for one kept relative to the
    # due time, how many minutes before it: such a reminder moves with the task.
    remind_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    remind_before: int | None = Field(default=None)
    # On a shared list (specs/sharing.md): who added it, who completed it, and whom its
    # reminder is for (whoever set it; None: the owner).
    added_by_id: int | None = Field(default=None, foreign_key="user.id", ondelete="SET NULL")
    completed_by_id: int | None = Field(default=None, foreign_key="user.id", ondelete="SET NULL")
    remind_user_id: int | None = Field(default=None, foreign_key="user.id", ondelete="SET NULL")
    # Set on a task as the task service hands it to a user who sees it on a shared list;
    # never stored.
    _sharing: TaskSharing | None = PrivateAttr(default=None)

    @property
    def sharing(self) -> TaskSharing | None:
        return self._sharing

    @property
    def tag_list(self) -> list[str]:
        return self.tags_text.split()

    @property
    def repeats(self) -> Repeat | None:
        if self.repeat_rule is None:
            return None
        return Repeat(self.repeat_rule, from_completion=self.repeat_from == "completion")

    @property
    def repeat_text(self) -> str | None:
        """ "every month on the 1st", for people."""
        repeat = self.repeats
        return describe(repeat) if repeat is not None else None


def tags_text(tags: list[str]) -> str:
    return f" {' '.join(tags)} "


class TaskPublic(SQLModel):
    id: int
    title: str
    description: str | None
    completed: bool
    created_at: datetime
    updated_at: datetime
    due_date: date | None = None
    due_time: str | None = Field(default=None, description="HH:MM in the account's zone")
    due_at: datetime | None = Field(
        default=None, description="The due instant (UTC); an all-day task's start of day"
    )
    priority: Priority = Priority.NONE
    list: str = DEFAULT_LIST
    tags: builtins.list[str] = Field(default_factory=builtins.list)
    repeat: str | None = Field(default=None, description="Its RRULE, if it repeats")
    repeat_from: RepeatFrom = "schedule"
    repeat_text: str | None = Field(default=None, description='"every month on the 1st"')
    remind_at: datetime | None = Field(
        default=None, description="The next reminder (UTC); null once it has fired or if none"
    )
    remind_before: int | None = Field(
        default=None,
        description="Minutes before the due time the reminder comes, if it moves with it",
    )
    shared: bool = Field(default=False, description="Whether its list is shared")
    added_by: str | None = Field(
        default=None, description="On a shared list: the email of whoever added it"
    )
    completed_by: str | None = Field(
        default=None, description="On a shared list: the email of whoever completed it"
    )

    @classmethod
    def of(cls, task: Task) -> TaskPublic:
        sharing = task.sharing
        return cls(
            id=task.number,
            title=task.title,
            description=task.description,
            completed=task.completed,
            created_at=task.created_at,
            updated_at=task.updated_at,
            due_date=task.due_date,
            due_time=task.due_time.strftime("%H:%M") if task.due_time else None,
            due_at=task.due_at,
            priority=Priority(task.priority),
            list=task.list_name,
            tags=task.tag_list,
            repeat=task.repeat_rule,
            repeat_from="completion" if task.repeat_from == "completion" else "schedule",
            repeat_text=task.repeat_text,
            remind_at=task.remind_at,
            remind_before=task.remind_before,
            shared=sharing is not None,
            added_by=sharing.added_by if sharing else None,
            completed_by=sharing.completed_by if sharing else None,
        )
