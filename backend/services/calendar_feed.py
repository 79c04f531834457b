"""The account's secret calendar feed (issue 15): its token, and the iCalendar it serves.

Calendar apps subscribe to one URL and cannot send a bearer token, so the URL itself is the
secret: 256 random bits, of which only a hash is stored. Rotating replaces it, revoking
removes it; either way the old URL answers 404, like one that never existed. The feed holds
the account's pending tasks that have a due date, as events (all-day or timed, in the
account's zone), with the RRULE of those that repeat; it says nothing else about the account.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from icalendar import Calendar, Event, vRecur
from sqlalchemy import delete
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import in_calendar
from backend.models import CalendarFeed, Task
from backend.services.due import zone
from backend.services.repeats import is_valid_rule
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


async def calendar_of(session: AsyncSession, feed: CalendarFeed) -> bytes:
    """The feed's iCalendar document: the owner's pending tasks that have a due date."""
    zone_name = await account_zone(session, feed.owner_id)
    statement = (
        select(Task)
        .where(
            col(Task.owner_id) == feed.owner_id,
            col(Task.completed).is_(False),
            col(Task.due_date).is_not(None),
        )
        .order_by(col(Task.number))
    )
    tasks = (await session.exec(statement)).all()
    document: bytes = _calendar(tasks, zone_name, feed.token_hash).to_ical()
    return document


def _calendar(tasks: Sequence[Task], zone_name: str, feed_key: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//todo-chatbot//tasks//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", "Tasks")
    calendar.add("x-wr-timezone", zone_name)
    for task in tasks:
        # A day outside the calendar was stored before it was bounded: its event's end could
        # be past the year 9999, and no calendar app shows it anyway.
        if task.due_date is not None and in_calendar(task.due_date):
            calendar.add_component(_event(task, zone_name, feed_key))
    calendar.add_missing_timezones()
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
    return event
