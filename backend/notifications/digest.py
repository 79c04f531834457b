"""The daily digest (specs/notifications.md): once a day, at the local time an account picks,
one email with what is due that day, what is overdue and what repeats that day.

An account's next digest is an instant (`notification_settings.digest_next_at`, UTC) worked
out from its "HH:MM" and its zone, so the clock change moves it: `next_digest_at`. The
periodic job `queue_due` claims the accounts whose instant has come, queues one digest
delivery each for that local day (backend/notifications/outbox.py) and moves the instant to
the next day's, in one transaction. Rows are locked with `FOR UPDATE SKIP LOCKED` on
PostgreSQL (SQLite takes its write lock at BEGIN), and the move is a conditional UPDATE on the
instant read, so of two processes sweeping at once only one queues an account's digest.

The content is read when the digest is sent (`gather`), so it tells the day as it stands; a
day with nothing due, overdue or repeating sends no digest at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, update
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.domain.due import zone
from backend.models import Channel, Delivery, NotificationSettings, Task, User
from backend.notifications.outbox import queue_digest

# "07:30": hours 00-23, minutes 00-59.
DIGEST_TIME = re.compile(r"^(?:[01]\d|2[0-3]):[0-5]\d$")
# Accounts claimed per transaction.
QUEUE_BATCH = 500
# A digest found due this late (the service was down at its time) is not sent: a morning
# summary in the evening is noise. Its next day's is.
LATE_LIMIT = timedelta(hours=6)
# What one digest lists at most per section (the rest are counted).
SECTION_MAX = 50


class DigestTimeError(ValueError):
    """Not a time of day written "HH:MM" (00:00 to 23:59)."""


def read_clock(digest_time: str) -> time:
    if not DIGEST_TIME.fullmatch(digest_time):
        raise DigestTimeError(f'{digest_time!r} is not a time of day written "HH:MM"')
    hours, minutes = digest_time.split(":")
    return time(int(hours), int(minutes))


def occurrence(day: date, clock: time, zone_name: str) -> datetime:
    """The UTC instant the zone's clock reads `clock` on `day`. A time the clocks skip (02:30
    on a spring-forward night) becomes the first instant after the gap (03:00 there); a time
    that happens twice (01:30 on a fall-back night) is the first of the two."""
    tz = zone(zone_name)
    local = datetime.combine(day, clock, tzinfo=tz)  # fold=0: the first of an ambiguous two
    instant = local.astimezone(UTC)
    if instant.astimezone(tz).replace(tzinfo=None) == local.replace(tzinfo=None):
        return instant
    # In a gap. fold=0 reads it with the offset before the change, fold=1 with the one after:
    # the change itself lies between the two instants; find its second.
    before = local.replace(fold=1).astimezone(UTC)
    after = instant
    if before > after:
        before, after = after, before
    offset_after = after.astimezone(tz).utcoffset()
    low, high = before, after
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        middle = middle.replace(microsecond=0)
        if middle <= low:
            break
        if middle.astimezone(tz).utcoffset() == offset_after:
            high = middle
        else:
            low = middle
    return high


def first_after(digest_time: str, zone_name: str, now: datetime, *, not_before: date) -> datetime:
    """The first instant after `now` when the zone's clock reads `digest_time`, on local day
    `not_before` or later."""
    clock = read_clock(digest_time)
    day = max(now.astimezone(zone(zone_name)).date(), not_before)
    while True:
        at = occurrence(day, clock, zone_name)
        if at > now:
            return at
        day += timedelta(days=1)


def next_digest_at(digest_time: str, zone_name: str, now: datetime) -> datetime:
    """The next instant (UTC) after `now` when the zone's clock reads `digest_time` (DST
    included: see `occurrence`)."""
    return first_after(digest_time, zone_name, now, not_before=date.min)


def local_day(instant: datetime, zone_name: str) -> date:
    return instant.astimezone(zone(zone_name)).date()


async def last_digest_day(session: AsyncSession, user_id: int) -> date | None:
    """The latest day a digest was queued for the account (sent or not)."""
    found = (
        await session.exec(
            select(func.max(col(Delivery.digest_on))).where(
                col(Delivery.owner_id) == user_id, col(Delivery.channel) == Channel.DIGEST.value
            )
        )
    ).first()
    return found


async def schedule(
    session: AsyncSession, user_id: int, digest_time: str, zone_name: str, now: datetime
) -> datetime:
    """The account's next digest from `now`, never on a day it has had one queued already
    (a time moved later, or a new zone, on the day of a digest: the next is tomorrow's)."""
    last = await last_digest_day(session, user_id)
    not_before = last + timedelta(days=1) if last is not None else date.min
    return first_after(digest_time, zone_name, now, not_before=not_before)


async def queue_due(session: AsyncSession, now: datetime) -> int:
    """The periodic job: queues the digests due by `now`, one per account and local day, and
    moves each account's next digest to its next day; how many were queued (committed)."""
    queued = 0
    while True:
        due = (
            select(NotificationSettings, User.timezone)
            .join(User, col(User.id) == col(NotificationSettings.user_id))
            .where(
                col(NotificationSettings.digest_next_at) <= now,
                col(NotificationSettings.digest_time).is_not(None),
            )
            .order_by(col(NotificationSettings.digest_next_at))
            .limit(QUEUE_BATCH)
            .with_for_update(skip_locked=True, of=NotificationSettings)
        )
        rows = (await session.exec(due)).all()
        if not rows:
            await session.rollback()
            return queued
        for choices, zone_name in rows:
            queued += await _queue_one(session, choices, str(zone_name), now)
        await session.commit()
        if len(rows) < QUEUE_BATCH:
            return queued


async def _queue_one(
    session: AsyncSession, choices: NotificationSettings, zone_name: str, now: datetime
) -> int:
    """Queues one account's digest (1) unless another process moved it first or it is too
    late to send (0); moves its next one on either way."""
    scheduled, digest_time = choices.digest_next_at, choices.digest_time
    assert scheduled is not None and digest_time is not None  # the query's condition
    day = local_day(scheduled, zone_name)
    upcoming = first_after(digest_time, zone_name, now, not_before=day + timedelta(days=1))
    # Moved only from the instant read: what another process moved first is not queued twice.
    moved = (
        await session.exec(
            update(NotificationSettings)
            .where(
                col(NotificationSettings.user_id) == choices.user_id,
                col(NotificationSettings.digest_next_at) == scheduled,
            )
            .values(digest_next_at=upcoming)
            .returning(col(NotificationSettings.user_id))
            .execution_options(synchronize_session=False)
        )
    ).first()
    if moved is None or now - scheduled > LATE_LIMIT:
        return 0
    queue_digest(session, choices.user_id, day, now)
    return 1


@dataclass(frozen=True)
class DigestItem:
    number: int
    title: str
    due_date: date
    due_time: time | None
    # "every week on Monday", for a repeating task.
    repeat_text: str | None


@dataclass(frozen=True)
class Section:
    items: Sequence[DigestItem]
    # How many there are in all (more than listed when over SECTION_MAX).
    total: int

    @property
    def more(self) -> int:
        return self.total - len(self.items)


@dataclass(frozen=True)
class DigestContent:
    day: date
    zone_name: str
    due_today: Section
    repeats_today: Section
    overdue: Section

    @property
    def empty(self) -> bool:
        return not (self.due_today.total or self.repeats_today.total or self.overdue.total)


async def gather(session: AsyncSession, user: User, day: date) -> DigestContent:
    """What the account's digest for `day` (its own calendar's) tells: its pending tasks due
    that day (those that repeat apart) and those overdue (due on an earlier day)."""
    assert user.id is not None
    pending = [col(Task.owner_id) == user.id, col(Task.completed).is_(False)]
    today = [*pending, col(Task.due_date) == day]
    overdue = [*pending, col(Task.due_date) < day]
    in_order: list[Any] = [col(Task.due_time).is_not(None), col(Task.due_time), col(Task.number)]
    return DigestContent(
        day=day,
        zone_name=user.timezone,
        due_today=await _section(session, [*today, col(Task.repeat_rule).is_(None)], in_order),
        repeats_today=await _section(
            session, [*today, col(Task.repeat_rule).is_not(None)], in_order
        ),
        # The most recently due first: the long-forgotten ones are counted, not listed.
        overdue=await _section(session, overdue, [col(Task.due_date).desc(), *in_order]),
    )


async def _section(
    session: AsyncSession, where: Sequence[ColumnElement[bool]], order: Sequence[Any]
) -> Section:
    found = (
        await session.exec(select(Task).where(*where).order_by(*order).limit(SECTION_MAX))
    ).all()
    total = len(found)
    if total >= SECTION_MAX:
        total = int(
            (await session.exec(select(func.count()).select_from(Task).where(*where))).one()
        )
    items = [
        DigestItem(task.number, task.title, task.due_date, task.due_time, task.repeat_text)
        for task in found
        if task.due_date is not None
    ]
    return Section(items, total)
