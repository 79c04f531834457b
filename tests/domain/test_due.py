"""Due instants in the account's zone (backend/domain/due.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from backend.domain.due import (
    OutsideCalendarError,
    due_instant,
    due_label,
    is_known_zone,
    on_clock,
    read_due,
    today_in,
)


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


NOW = datetime(2026, 11, 24, 19, 30, tzinfo=UTC)  # Tue 24 Nov 19:30 UTC


@pytest.mark.parametrize(
    ("day", "clock", "zone", "completed", "label"),
    [
        (date(2026, 11, 24), None, "UTC", False, "today"),
        (date(2026, 11, 24), time(21, 0), "UTC", False, "today 21:00"),
        (date(2026, 11, 25), time(9, 0), "UTC", False, "tomorrow 09:00"),
        (date(2026, 11, 27), None, "UTC", False, "Fri 27 Nov"),
        (date(2027, 1, 4), None, "UTC", False, "Mon 4 Jan 2027"),
        (date(2026, 11, 22), None, "UTC", False, "overdue by 2 days"),
        (date(2026, 11, 23), None, "UTC", False, "overdue by 1 day"),
        (date(2026, 11, 23), None, "UTC", True, "yesterday"),
        (date(2026, 11, 24), time(17, 15), "UTC", False, "overdue by 2 hours"),
        (date(2026, 11, 24), time(19, 0), "UTC", False, "overdue by 30 minutes"),
        (date(2026, 11, 24), time(17, 15), "UTC", True, "today 17:15"),
        # 19:30 UTC is already Wed 25 Nov 09:30 at UTC+14, and only 09:30 on the 24th at -10
        (date(2026, 11, 25), None, "Pacific/Kiritimati", False, "today"),
        (date(2026, 11, 24), None, "Pacific/Kiritimati", False, "overdue by 1 day"),
        (date(2026, 11, 25), None, "Pacific/Honolulu", False, "tomorrow"),
        (date(2026, 11, 24), time(9, 0), "Pacific/Honolulu", False, "overdue by 30 minutes"),
    ],
)
def test_a_due_label_says_when_from_the_accounts_today(
    day: date, clock: time | None, zone: str, completed: bool, label: str
) -> None:
    assert due_label(day, clock, zone, completed=completed, now=NOW) == label


def test_no_due_day_has_no_label() -> None:
    assert due_label(None, None, "UTC", now=NOW) is None


@pytest.mark.parametrize(
    ("text", "zone", "expected"),
    [
        ("2026-11-25", "UTC", (date(2026, 11, 25), None)),
        ("2026-11-25T09:00", "UTC", (date(2026, 11, 25), time(9, 0))),
        ("2026-11-25 09:00:59", "UTC", (date(2026, 11, 25), time(9, 0))),
        # an instant with an offset is the zone's wall clock: 08:00 UTC is 22:00 the day before
        ("2026-11-25T08:00:00Z", "Pacific/Honolulu", (date(2026, 11, 24), time(22, 0))),
        ("2026-11-25T08:00:00+00:00", "Pacific/Kiritimati", (date(2026, 11, 25), time(22, 0))),
        ("2028-02-29", "UTC", (date(2028, 2, 29), None)),
    ],
)
def test_an_iso_due_is_read_as_the_accounts_day_and_time(
    text: str, zone: str, expected: tuple[date, time | None]
) -> None:
    assert read_due(text, zone) == expected


@pytest.mark.parametrize("text", ["tomorrow", "2026-02-29", "2026-13-01", "25/11/2026", ""])
def test_a_due_that_is_not_iso_says_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match="ISO date"):
        read_due(text, "UTC")


@pytest.mark.parametrize(
    ("day", "clock", "zone", "instant"),
    [
        # stored before dates were bounded: the nearest day inside the calendar, no overflow
        (date(9999, 12, 31), time(23, 59), "Etc/GMT+12", datetime(3000, 1, 1, 11, 59, tzinfo=UTC)),
        (date(1, 1, 1), time(0, 0), "Etc/GMT-14", datetime(1899, 12, 31, 10, 0, tzinfo=UTC)),
        (date(2999, 12, 31), time(23, 59), "Etc/GMT+12", datetime(3000, 1, 1, 11, 59, tzinfo=UTC)),
    ],
)
def test_a_day_outside_the_calendar_makes_the_instant_of_the_nearest_day_inside(
    day: date, clock: time, zone: str, instant: datetime
) -> None:
    assert due_instant(day, clock, zone) == instant


def test_an_instant_past_the_year_9999_on_the_zones_clock_is_shown_on_utcs() -> None:
    last = datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
    assert on_clock(last, "Etc/GMT-14") == last
    assert on_clock(datetime(2030, 1, 1, tzinfo=UTC), "Etc/GMT-14").hour == 14


@pytest.mark.parametrize("text", ["9999-12-31", "9999-12-31T23:59-12:00", "0001-01-01T00:00+14:00"])
def test_a_due_outside_the_calendar_is_refused_before_it_is_moved_into_the_zone(text: str) -> None:
    with pytest.raises(OutsideCalendarError, match="due must be from 1900-01-01 to 2999-12-31"):
        read_due(text, "Etc/GMT-14")
