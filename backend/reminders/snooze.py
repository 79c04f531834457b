"""When a snoozed reminder fires again (specs/reminders.md, "Snoozing"): for some minutes, or
until an instant within the next 30 days; an instant written without an offset is on the
account's clock, as a task's `remind_at` is. Pure: the caller gives the moment and the zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from backend.domain.due import zone
from backend.domain.errors import ServiceError
from backend.models.reminder import SNOOZE_MAX_MINUTES, ReminderSnooze

SNOOZE_MAX = timedelta(minutes=SNOOZE_MAX_MINUTES)


class SnoozeTimeError(ServiceError):
    """A time to snooze until that has passed or lies too far ahead (a 422 on `until`)."""

    field = "until"


def snooze_until(asked: ReminderSnooze, *, now: datetime, zone_name: str) -> datetime:
    """The UTC instant the reminder fires again."""
    if asked.minutes is not None:
        return now + timedelta(minutes=asked.minutes)
    until = asked.until
    assert until is not None  # the request holds exactly one of the two
    if until.tzinfo is None:
        until = until.replace(tzinfo=zone(zone_name))
    # Compared before converting: a far date near the calendar's end cannot overflow here.
    if until <= now:
        raise SnoozeTimeError("until must be in the future")
    if until > now + SNOOZE_MAX:
        raise SnoozeTimeError(
            f"until must be at most 30 days ahead ({SNOOZE_MAX_MINUTES:,} minutes)"
        )
    return until.astimezone(UTC)
