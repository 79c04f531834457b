"""Due instants in the account's time zone (specs/issue-14-dates-lists.md).

A task keeps the day and time the user said; its `due_at` is the instant they make in the
account's zone (an all-day task: the start of that day), so "overdue" and "today" never
depend on the server's zone.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

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
    `zoneinfo` does, so it lands an hour later on the wall clock rather than vanishing."""
    if due_date is None:
        return None
    local = datetime.combine(due_date, due_time or time(0), tzinfo=zone(zone_name))
    return local.astimezone(UTC)


def today_in(zone_name: str, now: datetime | None = None) -> date:
    """The account's today."""
    return (now or datetime.now(UTC)).astimezone(zone(zone_name)).date()
