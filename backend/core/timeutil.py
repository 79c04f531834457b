"""Timezone-aware timestamps that round-trip through SQLite (no zone stored) and PostgreSQL,
and the calendar a task's dates live in."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


# The days a task may be due or remind on (issue 30). Wide enough for any plan and any past an
# import brings; far enough from the years 1 and 9999 that no zone shift (up to 26 hours), no
# reminder offset (up to 4 weeks) and no next date of a repeat (searched at most 30 years on,
# and never past LAST_DAY) leaves the range `datetime` represents.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)


def in_calendar(day: date) -> bool:
    return FIRST_DAY <= day <= LAST_DAY


def calendar_problem(field: str) -> str:
    """What a date outside the calendar is told, naming its field."""
    return f"{field} must be from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}"


class UTCDateTime(TypeDecorator[datetime]):
    """Stores UTC; always returns an aware datetime."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise TypeError("UTCDateTime needs a datetime")
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
