"""The calendar feed's VTIMEZONE (issue 33): written from the compiled zone `zoneinfo` reads,
its changes since 1970 as dates and its closing rule as yearly RRULEs, so it holds past 2038.
Read back by vobject (through dateutil, independent of the code that wrote it) and checked
against `zoneinfo` from 1970 to 2100, for the compiled file of either kind: the system's
("fat", changes listed up to 2037) and the tzdata package's ("slim", the rule sooner)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from zoneinfo import TZPATH, ZoneInfo

import icalendar
import pytest
import vobject

from backend.services.calendar_zones import _vtimezone, zone_component

ZONES = [
    "America/New_York",
    "Europe/Berlin",
    "Europe/Dublin",  # "negative" daylight time: winter is the DAYLIGHT observance
    "Australia/Sydney",  # southern: daylight time across the new year
    "Australia/Lord_Howe",  # half an hour of daylight time
    "Pacific/Chatham",  # changes at 02:45
    "Asia/Jerusalem",  # "M3.4.4/26": the Friday after the fourth Thursday
    "America/Nuuk",  # "M3.5.0/-1": the Saturday before the last Sunday, at 23:00
    "Africa/Cairo",  # the day after the last Thursday of October: may be in November
    "America/Port-au-Prince",  # the rule skipped 2016
    "Africa/Casablanca",  # no rule: its changes are listed up to 2087
    "Asia/Tokyo",  # no daylight time
    "Etc/GMT+5",  # no changes at all
]


def _compiled(name: str) -> Iterator[tuple[str, bytes]]:
    for folder in TZPATH:
        path = Path(folder, name)
        if path.is_file():
            yield "system", path.read_bytes()
            break
    package = resources.files("tzdata").joinpath("zoneinfo", *name.split("/"))
    yield "tzdata", package.read_bytes()


def _in_a_calendar(text: str) -> str:
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n{text}END:VCALENDAR\r\n"


def _instants(real: ZoneInfo) -> Iterator[datetime]:
    """Instants from 1970 to 2100 at least a day from a change of offset: dateutil finds the
    offset of an instant through its wall clock, which is only approximate near a change."""
    moment, day = datetime(1970, 1, 2, tzinfo=UTC), timedelta(days=1)
    while moment < datetime(2100, 1, 1, tzinfo=UTC):
        around = {(moment + shift).astimezone(real).utcoffset() for shift in (-day, day)}
        if around == {moment.astimezone(real).utcoffset()}:
            yield moment
        moment += timedelta(days=17, hours=5)


@pytest.mark.parametrize("name", ZONES)
def test_a_zone_gives_the_offsets_zoneinfo_does_from_1970_to_2100(name: str) -> None:
    for source, data in _compiled(name):
        text = _vtimezone(name, data).to_ical().decode()
        described = vobject.readOne(_in_a_calendar(text)).vtimezone.gettzinfo()
        real = ZoneInfo.from_file(io.BytesIO(data), key=name)
        for moment in _instants(real):
            expected = moment.astimezone(real).utcoffset()
            assert moment.astimezone(described).utcoffset() == expected, (source, moment)
        # icalendar reads it too (it resolves a zone of its own only up to 2038).
        [zone] = icalendar.Calendar.from_ical(_in_a_calendar(text)).walk("VTIMEZONE")
        assert isinstance(zone, icalendar.Timezone)
        own = zone.to_tz(lookup_tzid=False)
        summer, winter = datetime(2030, 7, 1, 12, tzinfo=UTC), datetime(2030, 1, 1, 12, tzinfo=UTC)
        for moment in (summer, winter):
            expected = moment.astimezone(real).utcoffset()
            assert moment.astimezone(own).utcoffset() == expected, (source, moment)


@pytest.mark.parametrize(
    ("name", "summer", "winter"), [("America/New_York", -4, -5), ("Europe/Berlin", 2, 1)]
)
def test_a_zone_with_daylight_time_does_not_expire(name: str, summer: int, winter: int) -> None:
    text = zone_component(name).to_ical().decode()
    assert "2038" not in text and "COMMENT" not in text
    # The closing rule, without an end, as Outlook and Google write zones.
    [daylight, standard] = [line for line in text.splitlines() if line.startswith("RRULE:")]
    assert "UNTIL" not in daylight + standard and "COUNT" not in daylight + standard
    described = vobject.readOne(_in_a_calendar(text)).vtimezone.gettzinfo()
    for year in (2040, 2060, 2999):
        assert datetime(year, 7, 1, 12, tzinfo=described).utcoffset() == timedelta(hours=summer)
        assert datetime(year, 1, 15, 12, tzinfo=described).utcoffset() == timedelta(hours=winter)


def test_a_zone_the_feed_cannot_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown zone"):
        zone_component("../../etc/passwd")
