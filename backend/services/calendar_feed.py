"""The account's secret calendar feed (issue 15): its token, and the iCalendar it serves.

Calendar apps subscribe to one URL and cannot send a bearer token, so the URL itself is the
secret: 256 random bits, of which only a hash is stored. Rotating replaces it, revoking
removes it; either way the old URL answers 404, like one that never existed. The feed holds
the account's pending tasks that have a due date, as events (all-day or timed, in the
account's zone), with the RRULE of those that repeat and a VALARM for those with a reminder;
it says nothing else about the account. The zone's VTIMEZONE holds for every year: the rule
the compiled zone ends with becomes an RRULE (icalendar's own zones stop in 2038).

Calendar apps poll, and a large account's document takes seconds to render, so each worker
keeps the documents it rendered (`FeedCache`) under the feed's version (`FeedVersion`), which
a cheap aggregate read tells apart: a change on any worker makes every worker render anew.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import struct
from calendar import monthrange
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from zoneinfo import TZPATH

from icalendar import (
    Alarm,
    Calendar,
    Event,
    Timezone,
    TimezoneDaylight,
    TimezoneStandard,
    vDuration,
    vRecur,
)
from sqlalchemy import ColumnElement, delete, func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.db import SessionMaker, read_only
from backend.core.timeutil import in_calendar
from backend.domain.due import due_instant, is_known_zone, on_clock, zone
from backend.domain.reminder_times import Due, relative
from backend.domain.repeats import is_valid_rule
from backend.models import CalendarFeed, Task
from backend.services.tasks import account_zone

TOKEN_BYTES = 32
# How long a timed task's event lasts in a calendar: a mark at its time, not a booking.
TIMED_EVENT = timedelta(minutes=30)
_PRIORITY = {"high": 1, "medium": 5, "low": 9}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def open_feed(session: AsyncSession, *, owner_id: int) -> tuple[str, CalendarFeed]:
    """A new feed token for the account, replacing any it had (the old URL stops working)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    await session.exec(delete(CalendarFeed).where(col(CalendarFeed.owner_id) == owner_id))
    feed = CalendarFeed(owner_id=owner_id, token_hash=token_hash(token))
    session.add(feed)
    await session.commit()
    return token, feed


async def close_feed(session: AsyncSession, *, owner_id: int) -> None:
    await session.exec(delete(CalendarFeed).where(col(CalendarFeed.owner_id) == owner_id))
    await session.commit()


async def feed_of(session: AsyncSession, *, owner_id: int) -> CalendarFeed | None:
    statement = select(CalendarFeed).where(col(CalendarFeed.owner_id) == owner_id)
    return (await session.exec(statement)).first()


async def feed_by_token(session: AsyncSession, token: str) -> CalendarFeed | None:
    statement = select(CalendarFeed).where(col(CalendarFeed.token_hash) == token_hash(token))
    return (await session.exec(statement)).first()


@dataclass(frozen=True)
class FeedVersion:
    """What a feed's document is made of, read in one cheap aggregate instead of the tasks:
    the feed (its token names the events), the account's zone, and how many pending dated
    tasks there are, their latest change and the sum of their numbers. Every change to a task
    stamps `updated_at`; one that takes a task out of the feed (done, deleted, undated)
    changes the count and the sum, and one that brings one in stamps the latest change. So a
    worker that rendered the feed knows from these alone whether its copy still holds, though
    the change was made on another worker."""

    feed_key: str
    owner_id: int
    zone: str
    tasks: int
    latest_change: datetime | None
    number_sum: int

    @property
    def etag(self) -> str:
        """Weak: the same version renders an equivalent document on any worker."""
        said = f"{FORMAT}|{self.feed_key}|{self.zone}|{self.tasks}|{self.latest_change}|"
        return f'W/"{hashlib.sha256(f"{said}{self.number_sum}".encode()).hexdigest()[:32]}"'


# Bumped when the document's layout changes, so no client keeps a copy of the old one.
# 2: reminders as VALARMs, and zones that hold past 2038.
FORMAT = 2


def _in_feed(owner_id: int) -> list[ColumnElement[bool]]:
    return [
        col(Task.owner_id) == owner_id,
        col(Task.completed).is_(False),
        col(Task.due_date).is_not(None),
    ]


async def version_of(session: AsyncSession, feed: CalendarFeed) -> FeedVersion:
    zone_name = await account_zone(session, feed.owner_id)
    statement = select(
        func.count(),
        func.max(col(Task.updated_at)),
        func.coalesce(func.sum(col(Task.number)), 0),
    ).where(*_in_feed(feed.owner_id))
    tasks, latest, number_sum = (await session.exec(statement)).one()
    return FeedVersion(
        feed.token_hash, feed.owner_id, zone_name, int(tasks), latest, int(number_sum)
    )


async def render(sessionmaker: SessionMaker, version: FeedVersion) -> bytes:
    """The feed's iCalendar document: the owner's pending tasks that have a due date.

    Read in a read-only session of its own, closed before rendering (no lock nor transaction
    is held while the document is built), and built in a worker thread: a large account's
    feed takes long enough to hold up every other request on the event loop. The version is
    read before the tasks, so a change between the two can only make a copy look older than
    it is (and be rendered again), never newer."""
    async with sessionmaker() as session:
        await read_only(session)
        statement = select(Task).where(*_in_feed(version.owner_id)).order_by(col(Task.number))
        tasks = (await session.exec(statement)).all()
    return await asyncio.to_thread(_document, tasks, version.zone, version.feed_key)


def _document(tasks: Sequence[Task], zone_name: str, feed_key: str) -> bytes:
    document: bytes = _calendar(tasks, zone_name, feed_key).to_ical()
    return document


@dataclass(frozen=True)
class _Copy:
    version: FeedVersion
    document: bytes


class FeedCache:
    """Each worker's rendered feeds, the most recently served kept up to `max_bytes`. A copy
    serves only the version it was rendered from; requests for a version being rendered wait
    for that one rendering instead of starting their own, and the worker renders one feed at
    a time."""

    def __init__(self, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self._bytes = 0
        self._copies: OrderedDict[str, _Copy] = OrderedDict()
        self._rendering: dict[FeedVersion, asyncio.Future[bytes]] = {}
        self._one_at_a_time = asyncio.Lock()

    async def document(self, version: FeedVersion, render: Callable[[], Awaitable[bytes]]) -> bytes:
        copy = self._copies.get(version.feed_key)
        if copy is not None and copy.version == version:
            self._copies.move_to_end(version.feed_key)
            return copy.document
        pending = self._rendering.get(version)
        if pending is None:
            pending = asyncio.ensure_future(self._render(version, render))
            self._rendering[version] = pending
            pending.add_done_callback(lambda _: self._rendering.pop(version, None))
        # Shielded: a client that hangs up does not cancel the rendering others wait for.
        return await asyncio.shield(pending)

    async def _render(self, version: FeedVersion, render: Callable[[], Awaitable[bytes]]) -> bytes:
        # One rendering at a time: a thread still contends for the GIL, and however many
        # feeds change at once the event loop keeps at least half of it.
        async with self._one_at_a_time:
            document = await render()
        self._keep(_Copy(version, document))
        return document

    def _keep(self, copy: _Copy) -> None:
        old = self._copies.pop(copy.version.feed_key, None)
        if old is not None:
            self._bytes -= len(old.document)
        if len(copy.document) > self._max_bytes:
            return
        self._copies[copy.version.feed_key] = copy
        self._bytes += len(copy.document)
        while self._bytes > self._max_bytes:
            _, evicted = self._copies.popitem(last=False)
            self._bytes -= len(evicted.document)

    @property
    def size_bytes(self) -> int:
        return self._bytes


def _calendar(tasks: Sequence[Task], zone_name: str, feed_key: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//todo-chatbot//tasks//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", "Tasks")
    calendar.add("x-wr-timezone", zone_name)
    named: set[str] = set()
    for task in tasks:
        # A day outside the calendar was stored before it was bounded: its event's end could
        # be past the year 9999, and no calendar app shows it anyway.
        if task.due_date is None or not in_calendar(task.due_date):
            continue
        event = _event(task, zone_name, feed_key)
        named.add(event["dtstart"].params.get("TZID") or "UTC")
        calendar.add_component(event)
    # The zones the events name, found without walking every property of every event (a
    # third of a large feed's rendering): only a timed event's start and end name one. UTC
    # needs no VTIMEZONE.
    for tzid in sorted(named - {"UTC"}):
        # A zone that cannot be read: none, as before; calendar apps know IANA names anyway.
        with suppress(ValueError, OSError, ImportError, OverflowError, struct.error):
            calendar.subcomponents.insert(len(calendar.timezones), _zone_component(tzid))
    return calendar


def _event(task: Task, zone_name: str, feed_key: str) -> Event:
    assert task.due_date is not None
    event = Event()
    # Stable for this feed and task, and saying nothing about the account.
    event.add(
        "uid", f"{hashlib.sha256(f'{feed_key}:{task.number}'.encode()).hexdigest()[:24]}@todo"
    )
    event.add("summary", task.title)
    if task.description:
        event.add("description", task.description)
    event.add("dtstamp", task.updated_at)
    if task.due_time is None:
        event.add("dtstart", task.due_date)
        event.add("dtend", task.due_date + timedelta(days=1))
    else:
        start = datetime.combine(task.due_date, task.due_time, tzinfo=zone(zone_name))
        event.add("dtstart", start)
        event.add("dtend", start + TIMED_EVENT)
    # Only a rule this service keeps: one stored before rules were checked (INTERVAL=0) could
    # hang a subscriber's calendar as it did this service; such an event shows its day once.
    if task.repeat_rule and is_valid_rule(task.repeat_rule):
        event.add("rrule", vRecur.from_ical(task.repeat_rule))
    if task.priority in _PRIORITY:
        event.add("priority", _PRIORITY[task.priority])
    if task.tag_list:
        event.add("categories", task.tag_list)
    alarm = _alarm(task, zone_name, repeats="rrule" in event)
    if alarm is not None:
        event.add_component(alarm)
    return event


# -- Reminders as alarms -------------------------------------------------------------------

# Before any reminder: `relative` then gives its instant whether or not it has passed.
_DAWN = datetime.min.replace(tzinfo=UTC)


def _alarm(task: Task, zone_name: str, *, repeats: bool) -> Alarm | None:
    """The task's reminder as calendar apps alert (specs/api.md, "Calendar feed").

    An offset ("30 minutes before") is a trigger relative to the event's start, so it comes
    with every occurrence of a repeating task, as the service's own does; it stays after it
    fired (the next occurrence needs it, and apps do not alert for a time gone by). A fixed
    instant is an absolute trigger, which RFC 5545 fires once even on a repeating event, as
    the service does; once fired the task no longer has it, nor does the feed."""
    assert task.due_date is not None
    if task.remind_before is not None:
        due = Due(task.due_date, task.due_time, zone_name)
        fires = relative(due, task.remind_before, _DAWN).at
        start = due_instant(task.due_date, task.due_time, zone_name)
        reference = due.reference()
        assert fires is not None and start is not None and reference is not None
        # From the start an app counts from: the time, or an all-day event's midnight while
        # the domain counts from 09:00 that day ("PT9H" for "at its time"). Exact for this
        # occurrence; a repeating all-day event's later ones take 09:00 on the wall clock, so
        # only those on a day the clocks change are an hour off, not all of them.
        trigger: _ExactDuration | datetime = _ExactDuration(fires - start)
        if task.due_time is None and repeats:
            clock = on_clock(reference, zone_name)
            since_midnight = timedelta(hours=clock.hour, minutes=clock.minute)
            trigger = _ExactDuration(since_midnight - (reference - fires))
    elif task.remind_at is not None:
        trigger = task.remind_at.astimezone(UTC)
    else:
        return None
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", task.title)
    if isinstance(trigger, datetime):
        alarm.add("trigger", trigger, parameters={"VALUE": "DATE-TIME"})
    else:
        alarm.add("trigger", trigger)
    return alarm


class _ExactDuration(vDuration):
    """A duration in hours, minutes and seconds only ("-PT24H30M"). RFC 5545 counts a day
    ("-P1D") on the wall clock, 23 or 25 hours across a change of clocks, while a reminder's
    offset is exact: the domain takes its minutes from an instant."""

    def to_ical(self) -> bytes:
        total = int(self.td.total_seconds())
        hours, rest = divmod(abs(total), 3600)
        minutes, seconds = divmod(rest, 60)
        text = f"{hours}H" if hours else ""
        if minutes or (hours and seconds):  # "1H0M5S": RFC 5545 has no "1H5S"
            text += f"{minutes}M"
        if seconds or not text:
            text += f"{seconds}S"
        return f"{'-' if total < 0 else ''}PT{text}".encode()


# -- The zone: a VTIMEZONE that does not expire --------------------------------------------
#
# icalendar's Timezone.from_tzid() lists each change of offset from 1970 to 2038 (and says so
# in a COMMENT); past its last one an app keeps that offset, an hour off half of every year.
# A compiled zone (TZif, RFC 8536) ends with the POSIX rule that holds after the changes it
# lists ("EST5EDT,M3.2.0,M11.1.0"). That rule is written as yearly RRULEs from the first
# listed change that it makes anyway, as Outlook and Google write zones; the changes before
# it are dates (RDATE). A zone without daylight time has no rule: its last offset holds on.

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
def _zone_component(name: str) -> Timezone:
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
