"""When a task's reminder fires, as its fields change (specs/reminders.md).

A reminder is either relative ("30 minutes before": `remind_before`, recomputed whenever the
due moves, by a reschedule, a repeat or a change of zone) or a fixed instant (one asked for
after the due, or for a task with no due). An asked-for instant before the due is kept as
an offset, so it moves with the task as people expect. `remind_at` is the next instant to
fire; a reminder whose time has passed is not armed (the scheduler would fire it at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from backend.domain.due import counted, due_instant, due_label, on_clock, zone
from backend.domain.errors import ReminderInPastError, ReminderNeedsDueError

# The furthest ahead of its due a reminder may be set: four weeks.
REMIND_BEFORE_MAX_MINUTES = 4 * 7 * 24 * 60
# An all-day task's reminders count back from this time on its day ("the day before": 09:00).
ALL_DAY_REMINDER_TIME = time(9, 0)
# A timed task reminds at its time unless told otherwise.
DEFAULT_REMIND_BEFORE = 0


@dataclass(frozen=True)
class Reminding:
    """A task's reminder fields: the next instant (None: none armed) and the offset."""

    at: datetime | None = None
    before: int | None = None


OFF = Reminding()


@dataclass(frozen=True)
class Due:
    """The due a reminder counts from, in the account's zone."""

    day: date | None
    clock: time | None
    zone: str

    def reference(self) -> datetime | None:
        return due_instant(self.day, self.clock or ALL_DAY_REMINDER_TIME, self.zone)


def relative(due: Due, before: int, now: datetime) -> Reminding:
    """ "N minutes before": armed if that is still ahead."""
    reference = due.reference()
    if reference is None:
        raise ReminderNeedsDueError()
    at = reference - timedelta(minutes=before)
    return Reminding(at if at > now else None, before)


def fixed(at: datetime, due: Due, now: datetime) -> Reminding:
    """An asked-for instant (one without an offset is on the account's clock). A whole
    number of minutes before the due's time, it is kept as an offset from it."""
    at = (at.replace(tzinfo=zone(due.zone)) if at.tzinfo is None else at).astimezone(UTC)
    if at <= now:
        raise ReminderInPastError()
    reference = due.reference()
    if reference is not None and at <= reference:
        minutes, rest = divmod(reference - at, timedelta(minutes=1))
        if not rest and minutes <= REMIND_BEFORE_MAX_MINUTES:
            return Reminding(at, minutes)
    return Reminding(at, None)


def asked(
    due: Due, now: datetime, *, at: datetime | None, before: int | None, default: bool
) -> Reminding:
    """A reminder as a request gives it: an instant, an offset, or (neither) the default of
    a timed task when `default` allows it."""
    if at is not None:
        return fixed(at, due, now)
    if before is not None:
        return relative(due, before, now)
    if default and due.day is not None and due.clock is not None:
        return relative(due, DEFAULT_REMIND_BEFORE, now)
    return OFF


def after_due_change(current: Reminding, old: Due, new: Due, now: datetime) -> Reminding:
    """The reminder once the due has moved. A relative one moves with it (and goes when the
    due does); a fixed one stays put. A task given its first time gets the default."""
    if current.before is not None:
        if new.day is None:
            return OFF
        return relative(new, current.before, now)
    if current.at is None and old.clock is None and new.clock is not None:
        return relative(new, DEFAULT_REMIND_BEFORE, now)
    return current


def after_move(current: Reminding, old: Due, new: Due, now: datetime) -> Reminding:
    """A repeating task moved to its next date: a relative reminder is counted from the new
    due; a fixed one still to fire moves by as much as the due did."""
    if current.before is not None:
        return after_due_change(current, old, new, now)
    old_at, new_at = old.reference(), new.reference()
    if current.at is None or old_at is None or new_at is None:
        return current
    try:
        moved = current.at + (new_at - old_at)
    except OverflowError:  # a time stored at the calendar's end, before it was bounded
        return Reminding(None, None)
    return Reminding(moved if moved > now else None, None)


def rearmed(current: Reminding, due: Due, now: datetime) -> Reminding:
    """A reopened task's relative reminder, armed again if still ahead."""
    if current.before is None or due.day is None:
        return current
    return relative(due, current.before, now)


def describe_before(minutes: int) -> str:
    """ "30 minutes before", "1 hour 30 minutes before", "2 days before", "at its time"."""
    if minutes == 0:
        return "at its time"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [
        counted(amount, unit)
        for amount, unit in ((days, "day"), (hours, "hour"), (mins, "minute"))
        if amount
    ]
    return f"{' '.join(parts)} before"


def reminder_label(
    at: datetime | None, before: int | None, zone_name: str, now: datetime | None = None
) -> str | None:
    """When the next reminder comes, as a person would say it ("tomorrow 08:30, 30 minutes
    before"); None if none is to come."""
    if at is None:
        return None
    now = now or datetime.now(at.tzinfo)
    local = on_clock(at, zone_name)
    day = due_label(local.date(), local.time(), zone_name, now=now) or ""
    if day.startswith("overdue"):  # fired any moment now
        day = f"today {local:%H:%M}"
    return day if before is None else f"{day}, {describe_before(before)}"
