"""The daily digest (backend/notifications/digest.py), on both databases, through the real
dispatcher and sender to a local SMTP server: at the account's local time in two zones across
their 2026 clock changes, exactly once per local day; two workers queueing at once queue one;
what it tells; and no email for a day with nothing to tell."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, time, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import col, select

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.models import Channel, Delivery, NotificationSettings, Task, User
from backend.notifications import digest
from backend.notifications.digest import gather, next_digest_at, queue_due
from backend.notifications.dispatcher import Dispatcher
from backend.notifications.email import NOTHING_DUE, EmailSender, digest_message
from backend.notifications.preferences import update_choices
from bench.peers.smtp_server import SmtpServer, smtp_server
from tests.conftest import make_settings
from tests.reminders.due_reminders import migrated


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    with smtp_server() as server:
        yield server


@pytest.fixture
def settings_with_smtp(database_url: str, smtp: SmtpServer) -> Settings:
    return make_settings(
        database_url,
        smtp_host=smtp.host,
        smtp_port=smtp.port,
        smtp_tls="none",
        public_url="https://todo.example.com",
    )


@pytest.fixture
async def sessionmaker(settings_with_smtp: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings_with_smtp) as maker:
        yield maker


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("clock", "zone", "now", "expected"),
    [
        # New York springs forward at 02:00 on 8 March 2026: 08:00 EST is 13:00Z, EDT 12:00Z.
        ("08:00", "America/New_York", utc(2026, 3, 7, 12), utc(2026, 3, 7, 13)),
        ("08:00", "America/New_York", utc(2026, 3, 7, 13), utc(2026, 3, 8, 12)),
        # 02:30 does not happen that night: the first instant after the gap, 03:00 EDT.
        ("02:30", "America/New_York", utc(2026, 3, 7, 12), utc(2026, 3, 8, 7)),
        ("02:30", "America/New_York", utc(2026, 3, 8, 7), utc(2026, 3, 9, 6, 30)),
        # It falls back on 1 November: 01:30 happens twice, and the first (EDT) is taken.
        ("01:30", "America/New_York", utc(2026, 11, 1, 0), utc(2026, 11, 1, 5, 30)),
        ("01:30", "America/New_York", utc(2026, 11, 1, 5, 30), utc(2026, 11, 2, 6, 30)),
        # Berlin: 29 March (02:00 CET -> 03:00 CEST) and 25 October (03:00 -> 02:00).
        ("08:00", "Europe/Berlin", utc(2026, 3, 28, 12), utc(2026, 3, 29, 6)),
        ("02:30", "Europe/Berlin", utc(2026, 3, 28, 12), utc(2026, 3, 29, 1)),
        ("02:30", "Europe/Berlin", utc(2026, 10, 24, 12), utc(2026, 10, 25, 0, 30)),
        ("02:30", "Europe/Berlin", utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30)),
        ("00:00", "UTC", utc(2026, 12, 31, 23, 59), utc(2027, 1, 1)),
        ("23:59", "Pacific/Kiritimati", utc(2026, 6, 1), utc(2026, 6, 1, 9, 59)),
    ],
)
def test_the_next_digest_is_the_next_time_the_local_clock_reads_its_time(
    clock: str, zone: str, now: datetime, expected: datetime
) -> None:
    assert next_digest_at(clock, zone, now) == expected


async def _account(
    maker: SessionMaker, settings: Settings, zone: str, clock: str, now: datetime
) -> User:
    """An account in `zone` with one task long overdue (so every digest has something to
    say) and a digest at `clock`, chosen at `now`."""
    async with maker() as session:
        user = User(
            email=f"digest-{uuid.uuid4().hex[:10]}@example.com",
            hashed_password="not a hash: this account never signs in",
            timezone=zone,
            last_task_number=1,
        )
        session.add(user)
        await session.flush()
        assert user.id is not None
        session.add(Task(owner_id=user.id, number=1, title="file taxes", due_date=date(2026, 1, 2)))
        await session.commit()
        await session.refresh(user)
    async with maker() as session:
        await update_choices(session, settings, user_id=user.id, digest_time=clock, now=now)
    return user


async def _digests(maker: SessionMaker, owner: int) -> list[Delivery]:
    async with maker() as session:
        found = await session.exec(
            select(Delivery)
            .where(col(Delivery.owner_id) == owner, col(Delivery.channel) == Channel.DIGEST.value)
            .order_by(col(Delivery.id))
        )
        return list(found.all())


def _local_instants(clock: time, zone: str, first: date, last: date) -> list[datetime]:
    days = (last - first).days + 1
    return [
        datetime.combine(first + timedelta(days=n), clock, tzinfo=ZoneInfo(zone)).astimezone(UTC)
        for n in range(days)
    ]


async def _run_clock(maker: SessionMaker, sender: EmailSender, ticks: list[datetime]) -> None:
    """The periodic job and the dispatcher at each tick, as the clock passes them."""
    dispatcher = Dispatcher(
        maker, {Channel.EMAIL: sender, Channel.DIGEST: sender}, interval_seconds=1
    )
    for tick in ticks:
        async with maker() as session:
            queued = await queue_due(session, tick)
        if queued:
            await dispatcher.sweep(tick)


def _ticks(
    start: datetime, end: datetime, step: timedelta, extra: list[datetime]
) -> list[datetime]:
    regular = [start + step * n for n in range(int((end - start) / step) + 1)]
    return sorted(set(regular) | set(extra))


async def test_a_digest_comes_at_local_time_once_a_day_across_the_spring_clock_changes(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    start, end = utc(2026, 3, 5), utc(2026, 4, 1)
    zones = ["America/New_York", "Europe/Berlin"]
    users = [
        await _account(sessionmaker, settings_with_smtp, zone, "08:00", start) for zone in zones
    ]
    expected = {
        zone: _local_instants(time(8), zone, date(2026, 3, 5), date(2026, 3, 31)) for zone in zones
    }
    # Before and after each change, in UTC.
    new_york, berlin = expected["America/New_York"], expected["Europe/Berlin"]
    assert (new_york[2], new_york[4]) == (utc(2026, 3, 7, 13), utc(2026, 3, 9, 12))
    assert (berlin[23], berlin[25]) == (utc(2026, 3, 28, 7), utc(2026, 3, 30, 6))
    # Every six hours, a minute before each digest is due (when none may have gone) and the
    # instant it is.
    around = [
        at + timedelta(minutes=shift)
        for times in expected.values()
        for at in times
        for shift in (-1, 0)
    ]
    ticks = _ticks(start, end, timedelta(hours=6), around)
    await _run_clock(sessionmaker, EmailSender(settings_with_smtp, sessionmaker), ticks)

    for user, zone in zip(users, zones, strict=True):
        rows = await _digests(sessionmaker, user.id or 0)
        days = [date(2026, 3, 5) + timedelta(days=n) for n in range(27)]
        assert [row.digest_on for row in rows] == days
        assert [row.created_at for row in rows] == expected[zone]
        assert all(row.sent_at is not None for row in rows)
        mails = smtp.to(user.email)
        assert [mail.message["Message-ID"] for mail in mails] == [
            f"<digest-{day.isoformat()}.{user.id}@todo.example.com>" for day in days
        ]
        assert all(mail.message["List-Unsubscribe"] for mail in mails)


async def test_an_hour_that_happens_twice_sends_one_digest(
    sessionmaker: SessionMaker, settings_with_smtp: Settings
) -> None:
    """Autumn: 01:30 in New York and 02:30 in Berlin come round twice on the night the clocks
    go back; the digest comes at the first, once."""
    start, end = utc(2026, 10, 23), utc(2026, 11, 4)
    cases = {"America/New_York": "01:30", "Europe/Berlin": "02:30"}
    users = {
        zone: await _account(sessionmaker, settings_with_smtp, zone, clock, start)
        for zone, clock in cases.items()
    }
    ticks = _ticks(start, end, timedelta(minutes=30), [])
    await _run_clock(sessionmaker, EmailSender(settings_with_smtp, sessionmaker), ticks)
    for zone, clock in cases.items():
        rows = await _digests(sessionmaker, users[zone].id or 0)
        hour, minute = map(int, clock.split(":"))
        first = date(2026, 10, 23)
        days = [first + timedelta(days=n) for n in range(12)]
        assert [row.digest_on for row in rows] == days
        assert [row.created_at for row in rows] == _local_instants(
            time(hour, minute), zone, days[0], days[-1]
        )
    new_york = {
        row.digest_on: row.created_at
        for row in await _digests(sessionmaker, users["America/New_York"].id or 0)
    }
    berlin = {
        row.digest_on: row.created_at
        for row in await _digests(sessionmaker, users["Europe/Berlin"].id or 0)
    }
    assert new_york[date(2026, 11, 1)] == utc(2026, 11, 1, 5, 30)  # 01:30 EDT, not EST
    assert berlin[date(2026, 10, 25)] == utc(2026, 10, 25, 0, 30)  # 02:30 CEST, not CET


async def test_two_workers_sweeping_at_once_queue_one_digest_per_account(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small batches, so the two interleave over many transactions.
    monkeypatch.setattr(digest, "QUEUE_BATCH", 3)
    due = utc(2026, 6, 3, 12)
    zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Pacific/Auckland"]
    users = []
    for n in range(30):
        zone = zones[n % len(zones)]
        # Each one's digest came due an hour ago, on its own clock.
        clock = f"{(due - timedelta(hours=1)).astimezone(ZoneInfo(zone)):%H:%M}"
        start = due - timedelta(hours=20)
        users.append(await _account(sessionmaker, settings_with_smtp, zone, clock, start))
    async with migrated(settings_with_smtp) as other:

        async def worker(maker: SessionMaker) -> int:
            async with maker() as session:
                return await queue_due(session, due)

        counts = await asyncio.wait_for(
            asyncio.gather(worker(sessionmaker), worker(other)), timeout=120
        )
    assert sum(counts) >= len(users)  # other tests' accounts due by then are queued too
    for user in users:
        rows = await _digests(sessionmaker, user.id or 0)
        assert len(rows) == 1, user.timezone
        async with sessionmaker() as session:
            choices = await session.get(NotificationSettings, user.id)
        assert choices is not None and choices.digest_next_at is not None
        assert choices.digest_next_at > due


async def test_an_account_another_worker_moved_on_meanwhile_is_not_queued_again(
    sessionmaker: SessionMaker, settings_with_smtp: Settings
) -> None:
    """The conditional UPDATE: a worker holding a stale read of an account (read before
    another worker queued its digest) queues nothing."""
    user = await _account(sessionmaker, settings_with_smtp, "UTC", "07:00", utc(2026, 7, 10))
    async with sessionmaker() as session:
        stale = await session.get(NotificationSettings, user.id)
    assert stale is not None and stale.digest_next_at == utc(2026, 7, 10, 7)
    async with sessionmaker() as session:
        assert await queue_due(session, utc(2026, 7, 10, 7)) >= 1
    async with sessionmaker() as session:
        assert await digest._queue_one(session, stale, "UTC", utc(2026, 7, 10, 7)) == 0
        await session.commit()
    assert len(await _digests(sessionmaker, user.id or 0)) == 1


async def test_a_digest_found_long_after_its_time_waits_for_the_next_day(
    sessionmaker: SessionMaker, settings_with_smtp: Settings
) -> None:
    """A service down across a digest's time sends no evening "good morning": the next day's
    comes as usual."""
    user = await _account(sessionmaker, settings_with_smtp, "UTC", "07:00", utc(2026, 7, 1))
    async with sessionmaker() as session:
        await queue_due(session, utc(2026, 7, 1, 20))
    assert await _digests(sessionmaker, user.id or 0) == []
    async with sessionmaker() as session:
        await queue_due(session, utc(2026, 7, 2, 7, 1))
    assert [row.digest_on for row in await _digests(sessionmaker, user.id or 0)] == [
        date(2026, 7, 2)
    ]


async def test_a_new_time_on_a_day_that_had_its_digest_starts_tomorrow(
    sessionmaker: SessionMaker, settings_with_smtp: Settings
) -> None:
    user = await _account(sessionmaker, settings_with_smtp, "UTC", "07:00", utc(2026, 8, 1))
    async with sessionmaker() as session:
        assert await queue_due(session, utc(2026, 8, 1, 7)) >= 1
    async with sessionmaker() as session:
        later = await update_choices(
            session,
            settings_with_smtp,
            user_id=user.id or 0,
            digest_time="09:00",
            now=utc(2026, 8, 1, 8),
        )
    assert later.digest_next_at == utc(2026, 8, 2, 9)


async def _tasks(maker: SessionMaker, owner: int, tasks: list[dict[str, object]]) -> None:
    async with maker() as session:
        session.add_all(
            Task(owner_id=owner, number=number, **fields)  # type: ignore[arg-type]
            for number, fields in enumerate(tasks, start=2)
        )
        await session.commit()


async def test_the_digest_tells_what_is_due_repeats_and_is_overdue_that_day(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    zone, day = "Asia/Tokyo", date(2026, 9, 15)
    user = await _account(sessionmaker, settings_with_smtp, zone, "07:00", utc(2026, 9, 14))
    other = await _account(sessionmaker, settings_with_smtp, zone, "07:00", utc(2026, 9, 14))
    await _tasks(
        sessionmaker,
        user.id or 0,
        [
            {"title": "standup", "due_date": day, "due_time": time(9, 30)},
            {"title": "buy milk", "due_date": day},
            {"title": "water plants", "due_date": day, "repeat_rule": "FREQ=WEEKLY"},
            {"title": "pay rent", "due_date": day - timedelta(days=1), "due_time": time(18)},
            {"title": "done already", "due_date": day, "completed": True},
            {"title": "tomorrow's", "due_date": day + timedelta(days=1)},
            {"title": "someday"},
        ],
    )
    await _tasks(sessionmaker, other.id or 0, [{"title": "not mine", "due_date": day}])
    async with sessionmaker() as session:
        content = await gather(session, user, day)
    assert [item.title for item in content.due_today.items] == ["buy milk", "standup"]
    assert [item.title for item in content.repeats_today.items] == ["water plants"]
    assert [item.title for item in content.overdue.items] == ["pay rent", "file taxes"]
    assert (content.due_today.total, content.repeats_today.total, content.overdue.total) == (
        2,
        1,
        2,
    )

    email = digest_message(settings_with_smtp, user, content, now=utc(2026, 9, 14, 22))
    message = message_from_bytes(email.raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    assert message["Subject"] == "Your day, Tuesday 15 September: 2 due, 1 repeating, 2 overdue"
    text = message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    text = text.replace("\r\n", "\n")
    assert "Due today (2)\n- buy milk\n" in text
    assert "- 09:30 standup\n  https://todo.example.com/?task=2\n" in text
    assert "Repeats today (1)\n- water plants (every week)\n" in text
    assert "Overdue (2)\n- pay rent (due Mon 14 Sep 18:00)\n" in text
    assert "- file taxes (due Fri 2 Jan)\n" in text
    assert "done already" not in text and "tomorrow's" not in text and "someday" not in text

    # Sent at 07:00 in Tokyo (22:00Z the day before), through SMTP.
    sender = EmailSender(settings_with_smtp, sessionmaker)
    await _run_clock(sessionmaker, sender, [utc(2026, 9, 14, 21, 59), utc(2026, 9, 14, 22)])
    [mail] = smtp.to(user.email)
    assert mail.message["Message-ID"] == f"<digest-2026-09-15.{user.id}@todo.example.com>"
    assert "water plants" in mail.part("html")


async def test_a_day_with_nothing_to_tell_sends_no_digest(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    user = await _account(sessionmaker, settings_with_smtp, "UTC", "07:00", utc(2026, 5, 1))
    async with sessionmaker() as session:
        task = (await session.exec(select(Task).where(col(Task.owner_id) == user.id))).one()
        task.completed = True
        session.add(task)
        await session.commit()
    await _run_clock(
        sessionmaker, EmailSender(settings_with_smtp, sessionmaker), [utc(2026, 5, 1, 7)]
    )
    [row] = await _digests(sessionmaker, user.id or 0)
    assert row.digest_on == date(2026, 5, 1)
    assert row.sent_at is None and row.failed_at is not None and row.last_error == NOTHING_DUE
    assert smtp.to(user.email) == []
