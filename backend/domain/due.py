"""Due instants in the account's time zone (specs/decisions/0017-due-dates-as-said.md).

A task keeps the day and time the user said; its `due_at` is the instant they make in the
account's zone (an all-day task: the start of that day), so "overdue" and "today" never
depend on the server's zone.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from backend.core.timeutil import FIRST_DAY, LAST_DAY, calendar_problem, in_calendar

DEFAULT_ZONE = "UTC"


@cache
def _known_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def is_known_zone(name: str) -> bool:
    """Whether `name` is an IANA zone ("America/New_York"); never a path or a guess."""
    return name in _known_zones()


@cache
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name if is_known_zone(name) else DEFAULT_ZONE)


def due_instant(due_date: date | None, due_time: time | None, zone_name: str) -> datetime | None:
    """The UTC instant a due day (and time) makes in the zone. A time the clocks skip
    (02:30 on a spring-forward night) is read with the offset before the change, as
    `zoneinfo` does, so it lands an hour later on the wall clock rather than vanishing.
    A day outside the calendar (stored before it was bounded: 9999-12-31 in a zone behind
    UTC is past the year 9999) makes the instant of the nearest day inside it, so sorting,
    reminders and a change of zone never overflow."""
    if due_date is None:
        return None
    day = min(max(due_date, FIRST_DAY), LAST_DAY)
    local = datetime.combine(day, due_time or time(0), tzinfo=zone(zone_name))
    return local.astimezone(UTC)


def on_clock(moment: datetime, zone_name: str) -> datetime:
    """`moment` on the zone's clock. One stored at the calendar's very end before it was
    bounded (9999-12-31T23:59Z, past the year 9999 on a clock ahead of UTC) stays on UTC's:
    shown as it is rather than failing."""
    try:
        return moment.astimezone(zone(zone_name))
    except OverflowError:
        return moment.astimezone(UTC)


def today_in(zone_name: str, now: datetime | None = None) -> date:
    """The account's today."""
    return (now or datetime.now(UTC)).astimezone(zone(zone_name)).date()


class OutsideCalendarError(ValueError):
    """A day outside the calendar a task's dates live in (core/timeutil.py)."""


def read_due(text: str, zone_name: str, field: str = "due") -> tuple[date, time | None]:
    """An ISO 8601 due ("2026-11-25", "2026-11-25T09:00") as a day and an optional time of the
    account's zone. A date-time with an offset ("...T14:00Z") is moved into the zone first;
    seconds are dropped (a due time is to the minute). ValueError says what is expected, or
    that the day is outside the calendar (checked before the move, which then cannot
    overflow)."""
    text = text.strip()
    try:
        moment = None if len(text) == 10 else datetime.fromisoformat(text)
        day = date.fromisoformat(text) if moment is None else moment.date()
    except ValueError:
        raise ValueError(
            f"{field} must be an ISO date (2026-11-25) or date-time (2026-11-25T09:00), "
            f"not {text!r}"
        ) from None
    if not in_calendar(day):
        raise OutsideCalendarError(calendar_problem(field))
    if moment is None:
        return day, None
    if moment.tzinfo is not None:
        moment = moment.astimezone(zone(zone_name))
    return moment.date(), time(moment.hour, moment.minute)


def counted(amount: int, unit: str) -> str:
    """ "1 day", "3 hours"."""
    return f"{amount} {unit}{'' if amount == 1 else 's'}"


def short_day(day: date, today: date) -> str:
    """ "Fri 27 Nov", with the year only when it is not this one."""
    label = f"{day:%a} {day.day} {day:%b}"
    return label if day.year == today.year else f"{label} {day.year}"


def due_label(
    due_date: date | None,
    due_time: time | None,
    zone_name: str,
    *,
    completed: bool = False,
    now: datetime | None = None,
) -> str | None:
    """How a person would say when a task is due, from the account's today: "today 09:00",
    "tomorrow", "Fri 27 Nov", "overdue by 2 days" (a done task is never overdue)."""
    if due_date is None:
        return None
    now = now or datetime.now(UTC)
    today = today_in(zone_name, now)
    days = (due_date - today).days
    clock = f" {due_time:%H:%M}" if due_time is not None else ""
    if not completed:
        if days < 0:
            return f"overdue by {counted(-days, 'day')}"
        instant = due_instant(due_date, due_time, zone_name)
        if due_time is not None and instant is not None and instant <= now:
            minutes = int((now - instant).total_seconds() // 60)
            if minutes >= 60:
                return f"overdue by {counted(minutes // 60, 'hour')}"
            return f"overdue by {counted(max(minutes, 1), 'minute')}"
    named = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(days)
    return f"{named or short_day(due_date, today)}{clock}"
