"""The outbox (backend/notifications/outbox.py) and the dispatcher's bookkeeping, on both
databases: what a firing queues, each delivery sent once by competing dispatchers, retries
with backoff, leases that a stalled sender loses, moot reminders left unsent, subscriptions a
push service calls gone removed. The channels here record what they are handed; the real
senders are tested against a local push service and SMTP server (test_push.py,
test_email.py)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import col, select, update

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.models import (
    Channel,
    Delivery,
    NotificationSettings,
    PushSubscription,
    Reminder,
)
from backend.notifications import outbox
from backend.notifications.dispatcher import Dispatcher, Envelope
from backend.notifications.outbox import Outcome
from backend.reminders import store as reminders
from tests.reminders.due_reminders import account_with_due_reminders, migrated


@pytest.fixture
async def sessionmaker(settings: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings) as maker:
        yield maker


class Recording:
    """A channel that notes each send and answers `owner`'s as scripted (sent unless told;
    the database is shared, and other tests' leftovers are simply sent)."""

    def __init__(
        self, *, owner: int = 0, answers: list[Outcome] | None = None, pause: float = 0
    ) -> None:
        self.sent: list[Envelope] = []
        self._owner = owner
        self._answers = list(answers or [])
        self._pause = pause

    async def send(self, envelope: Envelope) -> Outcome:
        await asyncio.sleep(self._pause)  # lets competing dispatchers interleave
        scripted = envelope.user.id == self._owner and self._answers
        answer = self._answers.pop(0) if scripted else None
        assert envelope.delivery.id is not None
        if answer is None:
            self.sent.append(envelope)
            return Outcome(envelope.delivery.id, sent=True)
        return Outcome(
            envelope.delivery.id,
            error=answer.error,
            retry=answer.retry,
            retry_after=answer.retry_after,
            subscription_gone=(
                envelope.subscription.id
                if answer.subscription_gone is not None and envelope.subscription
                else None
            ),
        )


async def _subscribe(sessionmaker: SessionMaker, owner_id: int, devices: int) -> None:
    async with sessionmaker() as session:
        session.add_all(
            PushSubscription(
                owner_id=owner_id,
                endpoint=f"https://push.example.com/{owner_id}/{device}",
                p256dh="key",
                auth="secret",
            )
            for device in range(devices)
        )
        await session.commit()


async def _email_on(sessionmaker: SessionMaker, owner_id: int) -> None:
    async with sessionmaker() as session:
        session.add(NotificationSettings(user_id=owner_id, email_reminders=True))
        await session.commit()


async def _fire(sessionmaker: SessionMaker) -> list[Reminder]:
    async with sessionmaker() as session:
        return await reminders.fire_due(session)


async def _rows(sessionmaker: SessionMaker, owner_id: int) -> list[Delivery]:
    async with sessionmaker() as session:
        found = await session.exec(
            select(Delivery).where(col(Delivery.owner_id) == owner_id).order_by(col(Delivery.id))
        )
        return list(found.all())


def _dispatcher(sessionmaker: SessionMaker, channel: Recording, **options: object) -> Dispatcher:
    return Dispatcher(
        sessionmaker,
        {Channel.PUSH: channel, Channel.EMAIL: channel},
        interval_seconds=1,
        **options,  # type: ignore[arg-type]
    )


async def test_a_fired_reminder_queues_a_push_per_device_and_an_email_only_when_opted_in(
    sessionmaker: SessionMaker,
) -> None:
    with_both = await account_with_due_reminders(sessionmaker, 2)
    await _subscribe(sessionmaker, with_both, devices=2)
    await _email_on(sessionmaker, with_both)
    page_only = await account_with_due_reminders(sessionmaker, 1)

    fired = await _fire(sessionmaker)
    mine = {r.id for r in fired if r.owner_id == with_both}
    rows = await _rows(sessionmaker, with_both)
    assert Counter(row.channel for row in rows) == {"push": 4, "email": 2}
    assert {row.reminder_id for row in rows} == mine
    assert all(row.sent_at is None and row.attempts == 0 for row in rows)
    # No subscription and no email: the open page (the reminder row itself) is the channel.
    assert await _rows(sessionmaker, page_only) == []


async def test_two_dispatchers_sending_at_once_send_each_delivery_once(
    sessionmaker: SessionMaker, settings: Settings
) -> None:
    owner = await account_with_due_reminders(sessionmaker, 30)
    await _subscribe(sessionmaker, owner, devices=2)
    await _email_on(sessionmaker, owner)
    await _fire(sessionmaker)
    async with migrated(settings) as other_process:
        first, second = Recording(pause=0.001), Recording(pause=0.001)
        sent = await asyncio.gather(
            _dispatcher(sessionmaker, first, batch=7).sweep(),
            _dispatcher(other_process, second, batch=7).sweep(),
        )
    assert sum(sent) >= 90  # the database is shared: other tests' leftovers go out too
    handed = Counter(envelope.delivery.id for envelope in first.sent + second.sent)
    assert set(handed.values()) == {1}
    assert sum(envelope.user.id == owner for envelope in first.sent + second.sent) == 90
    assert all(row.sent_at is not None for row in await _rows(sessionmaker, owner))


async def test_a_failed_send_is_tried_again_after_a_growing_wait_then_given_up(
    sessionmaker: SessionMaker,
) -> None:
    owner = await account_with_due_reminders(sessionmaker, 1)
    await _email_on(sessionmaker, owner)
    await _fire(sessionmaker)
    failure = Outcome(0, error="451 try later", retry=True)
    channel = Recording(owner=owner, answers=[failure, failure, failure])
    dispatcher = _dispatcher(sessionmaker, channel, max_attempts=3)
    now = datetime.now(UTC)

    await dispatcher.sweep(now)
    [row] = await _rows(sessionmaker, owner)
    assert (row.attempts, row.last_error) == (1, "451 try later")
    assert row.next_attempt_at == now + timedelta(seconds=30)
    await dispatcher.sweep(now + timedelta(seconds=29))  # not yet
    assert (await _rows(sessionmaker, owner))[0].attempts == 1

    await dispatcher.sweep(now + timedelta(seconds=30))
    [row] = await _rows(sessionmaker, owner)
    assert row.next_attempt_at == now + timedelta(seconds=30 + 60)  # twice as long
    await dispatcher.sweep(now + timedelta(seconds=90))
    [row] = await _rows(sessionmaker, owner)
    assert row.failed_at is not None and row.attempts == 3  # out of attempts: given up
    await dispatcher.sweep(now + timedelta(days=1))
    assert [envelope for envelope in channel.sent if envelope.user.id == owner] == []


async def test_a_retry_after_longer_than_the_backoff_is_honoured(
    sessionmaker: SessionMaker,
) -> None:
    owner = await account_with_due_reminders(sessionmaker, 1)
    await _subscribe(sessionmaker, owner, devices=1)
    await _fire(sessionmaker)
    busy = Outcome(0, error="429", retry=True, retry_after=timedelta(minutes=10))
    dispatcher = _dispatcher(sessionmaker, Recording(owner=owner, answers=[busy]))
    now = datetime.now(UTC)
    await dispatcher.sweep(now)
    [row] = await _rows(sessionmaker, owner)
    assert row.next_attempt_at == now + timedelta(minutes=10)
    await dispatcher.sweep(now + timedelta(minutes=10))
    assert (await _rows(sessionmaker, owner))[0].sent_at is not None


async def test_a_sender_that_stalls_loses_its_lease_to_another(
    sessionmaker: SessionMaker,
) -> None:
    owner = await account_with_due_reminders(sessionmaker, 3)
    await _subscribe(sessionmaker, owner, devices=1)
    await _fire(sessionmaker)
    now = datetime.now(UTC)
    # A sender claims the rows, then dies before sending or marking anything.
    async with sessionmaker() as session:
        leased = await outbox.claim(session, now=now, limit=10, lease=timedelta(seconds=60))
    assert len(leased) == 3
    other = Recording()
    dispatcher = _dispatcher(sessionmaker, other, lease_seconds=60)
    await dispatcher.sweep(now + timedelta(seconds=59))  # still leased
    assert all(row.sent_at is None for row in await _rows(sessionmaker, owner))
    await dispatcher.sweep(now + timedelta(seconds=60))
    assert all(row.sent_at is not None for row in await _rows(sessionmaker, owner))
    assert [row.attempts for row in await _rows(sessionmaker, owner)] == [2, 2, 2]


async def test_a_reminder_dismissed_or_done_before_sending_is_not_sent(
    sessionmaker: SessionMaker,
) -> None:
    owner = await account_with_due_reminders(sessionmaker, 2)
    await _subscribe(sessionmaker, owner, devices=1)
    first, second = sorted(await _fire(sessionmaker), key=lambda r: r.id or 0)
    async with sessionmaker() as session:
        await reminders.dismiss(session, owner_id=owner, reminder_id=first.id or 0)
    channel = Recording()
    await _dispatcher(sessionmaker, channel).sweep()
    mine = [envelope for envelope in channel.sent if envelope.user.id == owner]
    assert [envelope.reminder.id for envelope in mine if envelope.reminder] == [second.id]
    moot = [row for row in await _rows(sessionmaker, owner) if row.reminder_id == first.id]
    assert moot[0].sent_at is None and moot[0].failed_at is not None
    assert moot[0].last_error is not None and moot[0].last_error.startswith("moot")


async def test_a_subscription_the_push_service_calls_gone_is_removed(
    sessionmaker: SessionMaker,
) -> None:
    owner = await account_with_due_reminders(sessionmaker, 1)
    await _subscribe(sessionmaker, owner, devices=1)
    await _fire(sessionmaker)
    gone = Outcome(0, error="410 Gone", subscription_gone=1)
    await _dispatcher(sessionmaker, Recording(owner=owner, answers=[gone])).sweep()
    async with sessionmaker() as session:
        left = await session.exec(
            select(PushSubscription).where(col(PushSubscription.owner_id) == owner)
        )
        assert left.all() == []
    # Its deliveries went with it.
    assert await _rows(sessionmaker, owner) == []


async def test_finished_deliveries_are_pruned_after_a_week(sessionmaker: SessionMaker) -> None:
    owner = await account_with_due_reminders(sessionmaker, 2)
    await _subscribe(sessionmaker, owner, devices=1)
    await _fire(sessionmaker)
    await _dispatcher(sessionmaker, Recording()).sweep()
    rows = await _rows(sessionmaker, owner)
    async with sessionmaker() as session:
        await session.exec(
            update(Delivery)
            .where(col(Delivery.id) == rows[0].id)
            .values(sent_at=datetime.now(UTC) - timedelta(days=8))
        )
        await session.commit()
        assert await outbox.prune(session) >= 1
    assert [row.id for row in await _rows(sessionmaker, owner)] == [rows[1].id]
