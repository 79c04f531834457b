"""Due instants in the account's zone (backend/services/due.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from backend.services.due import due_instant, is_known_zone, today_in


@pytest.mark.parametrize(
    ("day", "clock", "zone", "instant"),
    [
        (date(2026, 11, 25), time(9, 0), "America/New_York", datetime(2026, 11, 25, 14, 0)),
        (date(2026, 7, 1), time(9, 0), "America/New_York", datetime(2026, 7, 1, 13, 0)),
        (date(2026, 3, 29), time(9, 0), "Europe/London", datetime(2026, 3, 29, 8, 0)),
        (date(2026, 3, 28), time(9, 0), "Europe/London", datetime(2026, 3, 28, 9, 0)),
        (date(2026, 11, 25), None, "Pacific/Kiritimati", datetime(2026, 11, 24, 10, 0)),
        (date(2026, 11, 25), None, "Pacific/Honolulu", datetime(2026, 11, 25, 10, 0)),
        # 02:30 does not exist on the spring-forward night: read with the offset before it
        (date(2026, 3, 8), time(2, 30), "America/New_York", datetime(2026, 3, 8, 7, 30)),
    ],
)
def test_a_due_day_and_time_make_the_instant_of_the_accounts_zone(
    day: date, clock: time | None, zone: str, instant: datetime
) -> None:
    assert due_instant(day, clock, zone) == instant.replace(tzinfo=UTC)


def test_no_day_means_no_instant() -> None:
    assert due_instant(None, None, "UTC") is None


def test_today_is_the_accounts_not_the_servers() -> None:
    late_utc = datetime(2026, 11, 24, 23, 0, tzinfo=UTC)
    assert today_in("Pacific/Kiritimati", late_utc) == date(2026, 11, 25)
    assert today_in("Pacific/Honolulu", late_utc) == date(2026, 11, 24)


@pytest.mark.parametrize("name", ["Mars/Olympus", "../etc/passwd", "", "utc "])
def test_only_iana_zone_names_are_known(name: str) -> None:
    assert not is_known_zone(name)
