"""The calendar feed's time zones, as VTIMEZONEs that do not expire (issue 33).

icalendar's Timezone.from_tzid() lists each change of offset from 1970 to 2038 (and says so
in a COMMENT); past its last one an app keeps that offset, an hour off half of every year.
A compiled zone (TZif, RFC 8536) ends with the POSIX rule that holds after the changes it
lists ("EST5EDT,M3.2.0,M11.1.0"). That rule is written as yearly RRULEs from the first
listed change that it makes anyway, as Outlook and Google write zones; the changes before
it are dates (RDATE). A zone without daylight time has no rule: its last offset holds on.
"""

from __future__ import annotations

import re
import struct
from calendar import monthrange
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from zoneinfo import TZPATH

from icalendar import Timezone, TimezoneDaylight, TimezoneStandard, vRecur

from backend.domain.due import is_known_zone

# What reading a zone may raise (an unknown name, a missing or malformed compiled file, a
# rule this module does not write): a caller that can do without the zone catches these.
UNREADABLE_ZONE: tuple[type[Exception], ...] = (
    ValueError,
    OSError,
    ImportError,
    OverflowError,
    struct.error,
)

# Where the zone's history starts, as icalendar's did: 1970-01-01, in Unix seconds.
_HISTORY_FROM = 0
_EPOCH = datetime(1970, 1, 1)
_TZIF_HEADER = struct.Struct(">4sc15x6l")
_TYPE = struct.Struct(">lBB")
_WEEKDAYS = ("SU", "MO", "TU", "WE", "TH", "FR", "SA")  # POSIX counts from Sunday
_NAME = r"(<[^>]+>|[A-Za-z]{3,})"
_HOURS = r"([+-]?\d{1,3}(?::\d{1,2}){0,2})"
_DAY = rf"M(\d{{1,2}})\.([1-5])\.([0-6])(?:/{_HOURS})?"
_POSIX_RULE = re.compile(rf"{_NAME}{_HOURS}(?:{_NAME}{_HOURS}?,{_DAY},{_DAY})?\Z")


@dataclass(frozen=True)
class _Offset:
    """A local time a zone keeps."""

    utc: timedelta
    daylight: bool
    name: str


@dataclass(frozen=True)
class _Change:
    at: int  # Unix seconds
    before: _Offset
    after: _Offset

    @property
    def onset(self) -> datetime:
        """On the clock in use before the change, as a DTSTART or RDATE of a VTIMEZONE."""
        return _EPOCH + timedelta(seconds=self.at) + self.before.utc


@dataclass(frozen=True)
class _Yearly:
    """A change the rule makes every year: on the `week`th `weekday` (0: Sunday; week 5: the
    last) of `month`, `seconds` after that midnight on the clock before it (RFC 8536 allows
    -167 to 167 hours: Israel's "M3.4.4/26" is the Friday after the fourth Thursday)."""

    month: int
    week: int
    weekday: int
    seconds: int
    before: _Offset
    after: _Offset

    def change(self, year: int) -> _Change:
        first = date(year, self.month, 1)
        day = 1 + ((self.weekday - 1) % 7 - first.weekday()) % 7 + 7 * (self.week - 1)
        while day > monthrange(year, self.month)[1]:
            day -= 7
        onset = datetime(year, self.month, day) + timedelta(seconds=self.seconds)
        at = int((onset - self.before.utc - _EPOCH).total_seconds())
        return _Change(at, self.before, self.after)

    def rrule(self) -> str:
        shift = self.seconds // 86400  # a time past midnight (or before it) moves the day
        weekday = _WEEKDAYS[(self.weekday + shift) % 7]
        if shift == 0:
            week = -1 if self.week == 5 else self.week
            return f"FREQ=YEARLY;BYMONTH={self.month};BYDAY={week}{weekday}"
        # The seven days it may fall on, moved: as days of the month while they stay in it,
        # else as days of the year counted from the end that leap days do not move (Egypt's
        # "the day after the last Thursday of October" may be November 1st).
        first = -7 if self.week == 5 else 7 * self.week - 6
        days = [day + shift for day in range(first, first + 7)]
        shortest = 28 if self.month == 2 else monthrange(2001, self.month)[1]
        if all(1 <= day <= shortest or -shortest <= day <= -1 for day in days):
            listed = ",".join(str(day) for day in days)
            return f"FREQ=YEARLY;BYMONTH={self.month};BYMONTHDAY={listed};BYDAY={weekday}"
        plain, leap = self._days_of_year(2001), self._days_of_year(2004)
        from_end = [[day - length - 1 for day, length in year] for year in (plain, leap)]
        from_start = [[day for day, _ in year] for year in (plain, leap)]
        for in_plain, in_leap in (from_end, from_start):
            if in_plain == in_leap:
                listed = ",".join(str(day) for day in in_plain)
                return f"FREQ=YEARLY;BYYEARDAY={listed};BYDAY={weekday}"
        raise ValueError("a yearly change this feed cannot write as a rule")

    def _days_of_year(self, year: int) -> list[tuple[int, int]]:
        """The seven days it may fall on in `year`: (day of the year, days in the year)."""
        length = 366 if monthrange(year, 2)[1] == 29 else 365
        last = monthrange(year, self.month)[1]
        start = date(year, self.month, last - 6 if self.week == 5 else 7 * self.week - 6)
        start += timedelta(days=self.seconds // 86400)
        days = [start + timedelta(days=n) for n in range(7)]
        if any(day.year != year for day in days):
            raise ValueError("a yearly change that crosses into another year")
        return [(day.timetuple().tm_yday, length) for day in days]


def _compiled_zone(name: str) -> bytes:
    """The compiled zone `zoneinfo` reads: from its search path, else the tzdata package."""
    if not is_known_zone(name):
        raise ValueError(f"unknown zone {name!r}")
    for folder in TZPATH:
        path = Path(folder, name)
        if path.is_file():
            return path.read_bytes()
    return resources.files("tzdata").joinpath("zoneinfo", *name.split("/")).read_bytes()


@dataclass(frozen=True)
class _Compiled:
    """A TZif file's changes of offset (from its 64-bit part), the offset before the first,
    and the POSIX rule that holds after its last listed moment (even one that changes
    nothing: Latvia's ends its listing early in 2001, so its rule's 2000 never happened)."""

    changes: list[_Change]
    first: _Offset
    rule: str
    last_listed: int | None


def _read_compiled(data: bytes) -> _Compiled:
    magic, version, *counts = _TZIF_HEADER.unpack_from(data)
    if magic != b"TZif" or version < b"2":
        raise ValueError("not a compiled zone of version 2 or later")
    utc_n, std_n, leap_n, time_n, type_n, char_n = counts
    at = _TZIF_HEADER.size + time_n * 5 + type_n * 6 + char_n + leap_n * 8 + std_n + utc_n
    _, _, *counts = _TZIF_HEADER.unpack_from(data, at)
    utc_n, std_n, leap_n, time_n, type_n, char_n = counts
    at += _TZIF_HEADER.size
    times = struct.unpack_from(f">{time_n}q", data, at)
    at += time_n * 8
    kinds = data[at : at + time_n]
    at += time_n
    types = [_TYPE.unpack_from(data, at + _TYPE.size * i) for i in range(type_n)]
    at += type_n * _TYPE.size
    names = data[at : at + char_n]
    at += char_n + leap_n * 12 + std_n + utc_n
    offsets = [
        _Offset(timedelta(seconds=utc), bool(dst), names[i : names.index(b"\0", i)].decode())
        for utc, dst, i in types
    ]
    changes: list[_Change] = []
    before = offsets[0]
    for moment, kind in zip(times, kinds, strict=True):
        if offsets[kind] != before:  # a change of name or offset, not a repeated one
            changes.append(_Change(moment, before, offsets[kind]))
        before = offsets[kind]
    rule = data[at:].strip(b"\n").decode("ascii")
    return _Compiled(changes, offsets[0], rule, times[-1] if times else None)


def _seconds(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    parts = [int(part) for part in text.lstrip("+-").split(":")]
    return sign * sum(part * unit for part, unit in zip(parts, (3600, 60, 1), strict=False))


def _yearly_changes(rule: str) -> tuple[_Yearly, ...]:
    """The changes a POSIX rule makes every year: none for a zone without daylight time."""
    found = _POSIX_RULE.match(rule)
    if found is None:
        raise ValueError(f"a zone rule this feed does not read: {rule!r}")
    std_name, std_west, dst_name, dst_west, *days = found.groups()
    if dst_name is None:
        return ()
    # POSIX counts hours west of Greenwich; daylight time is an hour ahead unless told.
    standard = _Offset(timedelta(seconds=-_seconds(std_west)), False, std_name.strip("<>"))
    ahead = -_seconds(dst_west) if dst_west else standard.utc.total_seconds() + 3600
    daylight = _Offset(timedelta(seconds=ahead), True, dst_name.strip("<>"))
    begins, ends = days[:4], days[4:]
    return tuple(
        _Yearly(int(month), int(week), int(weekday), _seconds(clock or "2"), before, after)
        for (month, week, weekday, clock), before, after in (
            (begins, standard, daylight),
            (ends, daylight, standard),
        )
    )


def _year_of(at: int) -> int:
    return (_EPOCH + timedelta(seconds=at)).year


@cache  # a few zones, each read once per worker; the component is never changed after
def zone_component(name: str) -> Timezone:
    """The VTIMEZONE of the IANA zone `name`: its changes since 1970, then its rule for ever.
    Raises one of `UNREADABLE_ZONE` for a zone it cannot read."""
    return _vtimezone(name, _compiled_zone(name))


def _vtimezone(name: str, compiled: bytes) -> Timezone:
    """The VTIMEZONE of a compiled zone: its changes since 1970, then its rule for ever."""
    zone = _read_compiled(compiled)
    changes, yearly = zone.changes, _yearly_changes(zone.rule)
    kept = _before_the_rule(zone, yearly)
    if kept < len(changes):
        since = changes[kept].at
    else:
        since = _HISTORY_FROM if zone.last_listed is None else zone.last_listed + 1
    since = max(since, _HISTORY_FROM)
    earlier = [change for change in changes if change.at < _HISTORY_FROM]
    opening = earlier[-1].after if earlier else changes[0].before if changes else zone.first

    component = Timezone()
    component.add("tzid", name)
    component.add_component(_observance(opening, opening, _EPOCH))
    history: dict[tuple[_Offset, _Offset], list[datetime]] = {}
    for change in changes[:kept]:
        if change.at >= _HISTORY_FROM:
            history.setdefault((change.before, change.after), []).append(change.onset)
    for (before, after), onsets in history.items():
        component.add_component(_observance(before, after, onsets[0], dates=onsets[1:]))
    for part in yearly:
        year = _year_of(since) - 1
        while (change := part.change(year)).at < since:
            year += 1
        component.add_component(
            _observance(part.before, part.after, change.onset, rrule=part.rrule())
        )
    return component


def _before_the_rule(zone: _Compiled, yearly: Sequence[_Yearly]) -> int:
    """How many of the listed changes come before the rule's: the rest are the rule's own,
    one after another ("fat" files list them up to 2037). A year the rule skipped (Haiti kept
    no daylight time in 2016) ends the run: the changes before it are history. So does a
    change the rule would make before the last listed moment, which zoneinfo does not."""
    changes = zone.changes
    if not (yearly and changes) or zone.last_listed is None:
        return len(changes)
    following = _rule_change_after(yearly, changes[-1].at)
    if following.at <= zone.last_listed:
        return len(changes)
    kept = len(changes)
    while kept and changes[kept - 1].at >= _HISTORY_FROM:
        made = _rule_change_before(yearly, following.at)
        if changes[kept - 1] != made:
            break
        following, kept = made, kept - 1
    return kept


def _rule_change_before(yearly: Sequence[_Yearly], at: int) -> _Change:
    year = _year_of(at)
    made = [part.change(y) for part in yearly for y in (year - 1, year)]
    return max((change for change in made if change.at < at), key=lambda change: change.at)


def _rule_change_after(yearly: Sequence[_Yearly], at: int) -> _Change:
    year = _year_of(at)
    made = [part.change(y) for part in yearly for y in (year, year + 1)]
    return min((change for change in made if change.at > at), key=lambda change: change.at)


def _observance(
    before: _Offset,
    after: _Offset,
    onset: datetime,
    *,
    dates: Sequence[datetime] = (),
    rrule: str | None = None,
) -> TimezoneStandard | TimezoneDaylight:
    part = TimezoneDaylight() if after.daylight else TimezoneStandard()
    part.add("dtstart", onset)
    part.add("tzoffsetfrom", before.utc)
    part.add("tzoffsetto", after.utc)
    part.add("tzname", after.name)
    if rrule is not None:
        part.add("rrule", vRecur.from_ical(rrule))
    for moment in dates:  # one a line: vobject reads only the first of a list
        part.add("rdate", moment)
    return part
