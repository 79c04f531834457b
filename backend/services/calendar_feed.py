"""The account's secret calendar feed (issue 15): its token, and the iCalendar it serves.

Calendar apps subscribe to one URL and cannot send a bearer token, so the URL itself is the
secret: 256 random bits, of which only a hash is stored. Rotating replaces it, revoking
removes it; either way the old URL answers 404, like one that never existed. The feed holds
the account's pending tasks that have a due date, as events (all-day or timed, in the
account's zone), with the RRULE of those that repeat and a VALARM for those with a reminder
(`calendar_alarms`); it says nothing else about the account. The zone's VTIMEZONE holds for
every year (`calendar_zones`: icalendar's own zones stop in 2038).

Calendar apps poll, and a large account's document takes seconds to render, so each worker
keeps the documents it rendered (`FeedCache`) under the feed's version (`FeedVersion`), which
a cheap aggregate read tells apart: a change on any worker makes every worker render anew.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from icalendar import Calendar, Event, vRecur
from sqlalchemy import ColumnElement, delete, func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.db import SessionMaker, read_only
from backend.core.timeutil import in_calendar
from backend.domain.due import zone
from backend.domain.repeats import is_valid_rule
from backend.models import CalendarFeed, Task, TaskSeat
from backend.services.calendar_alarms import task_alarm
from backend.services.calendar_zones import UNREADABLE_ZONE, zone_component
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


def _in_feed(user_id: int) -> list[ColumnElement[bool]]:
    """The pending dated tasks the feed's account sees: its own and, through their seats,
    those of lists shared with it (specs/sharing.md), numbered as it numbers them."""
    return [
        col(TaskSeat.user_id) == user_id,
        col(Task.completed).is_(False),
        col(Task.due_date).is_not(None),
    ]


async def version_of(session: AsyncSession, feed: CalendarFeed) -> FeedVersion:
    zone_name = await account_zone(session, feed.owner_id)
    statement = (
        select(
            func.count(),
            func.max(col(Task.updated_at)),
            func.coalesce(func.sum(col(TaskSeat.number)), 0),
        )
        .join(Task, col(Task.pk) == col(TaskSeat.task_pk))
        .where(*_in_feed(feed.owner_id))
    )
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
        statement = (
            select(Task, TaskSeat.number)
            .join(TaskSeat, col(TaskSeat.task_pk) == col(Task.pk))
            .where(*_in_feed(version.owner_id))
            .order_by(col(TaskSeat.number))
        )
        found = [(task, int(number)) for task, number in (await session.exec(statement)).all()]
    return await asyncio.to_thread(_document, found, version)


def _document(tasks: Sequence[tuple[Task, int]], version: FeedVersion) -> bytes:
    document: bytes = _calendar(tasks, version.zone, version.feed_key, version.owner_id).to_ical()
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


def _calendar(
    tasks: Sequence[tuple[Task, int]], zone_name: str, feed_key: str, user_id: int
) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//todo-chatbot//tasks//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", "Tasks")
    calendar.add("x-wr-timezone", zone_name)
    named: set[str] = set()
    for task, number in tasks:
        # A day outside the calendar was stored before it was bounded: its event's end could
        # be past the year 9999, and no calendar app shows it anyway.
        if task.due_date is None or not in_calendar(task.due_date):
            continue
        event = _event(task, number, zone_name, feed_key, user_id)
        named.add(event["dtstart"].params.get("TZID") or "UTC")
        calendar.add_component(event)
    # The zones the events name, found without walking every property of every event (a
    # third of a large feed's rendering): only a timed event's start and end name one. UTC
    # needs no VTIMEZONE.
    for tzid in sorted(named - {"UTC"}):
        # A zone that cannot be read: none, as before; calendar apps know IANA names anyway.
        with suppress(*UNREADABLE_ZONE):
            calendar.subcomponents.insert(len(calendar.timezones), zone_component(tzid))
    return calendar


def _event(task: Task, number: int, zone_name: str, feed_key: str, user_id: int) -> Event:
    """The task as a calendar event; `number` is the feed account's for it."""
    assert task.due_date is not None
    event = Event()
    # Stable for this feed and task, and saying nothing about the account.
    event.add("uid", f"{hashlib.sha256(f'{feed_key}:{number}'.encode()).hexdigest()[:24]}@todo")
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
    # A reminder is its setter's: another member's is no alarm in this account's calendar.
    alarm = (
        task_alarm(task, zone_name, repeats="rrule" in event)
        if (task.remind_user_id or task.owner_id) == user_id
        else None
    )
    if alarm is not None:
        event.add_component(alarm)
    return event
