"""Sends what the outbox holds, in every process that runs a scheduler (web workers and
`todo-chatbot reminders`): each claims its own deliveries (backend/notifications/outbox.py),
hands each to its channel's sender, and records the outcomes.

Sends run concurrently (DELIVERY_CONCURRENCY per process) and each yields to the event loop;
their CPU-heavy steps (building an email, encrypting a push) take turns, one per round of the
loop (backend/core/loops.py `CpuTurns`), and a web worker rests after each batch, so a minute
with thousands of reminders due does not hold up the chat turns of the same process. A
process that fires reminders wakes its dispatcher at once; otherwise it looks every interval.
Periodic jobs (queuing the daily digests, pruning old rows) run from the same loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.db import SessionMaker
from backend.core.loops import through_outages, woken_or_waited
from backend.core.timeutil import utcnow
from backend.models import Channel, Delivery, PushSubscription, Reminder, Task, User
from backend.notifications import outbox
from backend.notifications.outbox import Outcome

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Envelope:
    """One delivery with what its sender needs, read in one query for a whole batch."""

    delivery: Delivery
    user: User
    reminder: Reminder | None = None
    subscription: PushSubscription | None = None
    # The reminder's task is done, or the reminder dismissed or snoozed, since it fired.
    moot: bool = False


class ChannelSender(Protocol):
    """Sends one channel's deliveries. `send` never raises for a failed delivery: it says
    what became of it (an exception is taken as a failure to retry)."""

    async def send(self, envelope: Envelope) -> Outcome: ...


# A job the loop runs every so often: (every how many seconds, the job).
PeriodicJob = tuple[float, Callable[[AsyncSession, datetime], Awaitable[int]]]


@dataclass
class _Periodic:
    every: float
    job: Callable[[AsyncSession, datetime], Awaitable[int]]
    last: float = field(default=float("-inf"))


class Dispatcher:
    def __init__(
        self,
        sessionmaker: SessionMaker,
        senders: Mapping[Channel, ChannelSender],
        *,
        interval_seconds: float,
        lease_seconds: float = 60.0,
        max_attempts: int = 8,
        concurrency: int = 32,
        batch: int = 200,
        periodic: Sequence[PeriodicJob] = (),
        loop_share: float = 1.0,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._senders = dict(senders)
        self._interval = interval_seconds
        self._lease = timedelta(seconds=lease_seconds)
        self._max_attempts = max_attempts
        self._slots = asyncio.Semaphore(concurrency)
        self._batch = batch
        self._periodic = [_Periodic(every, job) for every, job in periodic]
        self._wake = asyncio.Event()
        # In a web worker, the part of the event loop's time a due minute may take: after
        # each batch the dispatcher rests in proportion, so chat turns keep their share.
        self._rest_per_busy = (1 - loop_share) / loop_share

    def wake(self) -> None:
        """Something was queued by this process: look now rather than at the next interval."""
        self._wake.set()

    async def run_periodic(self, now: datetime | None = None, *, force: bool = False) -> int:
        """Runs the periodic jobs that are due (all of them with `force`); what they did."""
        done = 0
        clock = time.monotonic()
        for periodic in self._periodic:
            if force or clock - periodic.last >= periodic.every:
                periodic.last = clock
                async with self._sessionmaker() as session:
                    done += await periodic.job(session, now or utcnow())
        if done:
            self.wake()
        return done

    async def sweep(self, now: datetime | None = None) -> int:
        """Sends everything due by `now`, a batch at a time; how many this process sent."""
        sent = 0
        while True:
            started = time.monotonic()
            moment = now or utcnow()
            async with self._sessionmaker() as session:
                claimed = await outbox.claim(
                    session, now=moment, limit=self._batch, lease=self._lease
                )
                if not claimed:
                    return sent
                envelopes = await _envelopes(session, claimed)
            outcomes = await asyncio.gather(*(self._send(envelope) for envelope in envelopes))
            async with self._sessionmaker() as session:
                await outbox.finish(
                    session,
                    outcomes,
                    {row.id: row.attempts for row in claimed if row.id is not None},
                    max_attempts=self._max_attempts,
                    now=now,
                )
            sent += sum(outcome.sent for outcome in outcomes)
            if len(claimed) < self._batch:
                return sent
            if self._rest_per_busy:
                await asyncio.sleep((time.monotonic() - started) * self._rest_per_busy)

    async def _send(self, envelope: Envelope) -> Outcome:
        delivery_id = envelope.delivery.id
        assert delivery_id is not None
        if envelope.moot:
            return Outcome(delivery_id, error="moot: dismissed or done before it was sent")
        sender = self._senders.get(Channel(envelope.delivery.channel))
        if sender is None:
            return Outcome(delivery_id, error=f"no {envelope.delivery.channel} sender is set up")
        async with self._slots:
            try:
                return await sender.send(envelope)
            except Exception as exc:  # a sender's bug or an unforeseen failure: retried
                logger.warning("delivery %s failed: %r", delivery_id, exc)
                return Outcome(delivery_id, error=repr(exc), retry=True)

    async def run(self) -> None:
        """Sends every interval (or when woken) until cancelled; an outage is waited out."""
        while True:
            await woken_or_waited(self._wake, self._interval)
            await through_outages(self._round, logger, "notifications not sent")

    async def _round(self) -> None:
        await self.run_periodic()
        sent = await self.sweep()
        if sent:
            logger.info("delivered %d notification(s)", sent)


async def _envelopes(session: AsyncSession, claimed: Sequence[Delivery]) -> list[Envelope]:
    """The claimed deliveries with their account, reminder and subscription, in one query."""
    ids = [row.id for row in claimed]
    statement = (
        select(Delivery, User, Reminder, PushSubscription)
        .join(User, col(User.id) == col(Delivery.owner_id))
        .outerjoin(Reminder, col(Reminder.id) == col(Delivery.reminder_id))
        .outerjoin(PushSubscription, col(PushSubscription.id) == col(Delivery.subscription_id))
        .where(col(Delivery.id).in_(ids))
        .order_by(col(Delivery.id))
    )
    rows = (await session.exec(statement)).all()
    task_pks = [reminder.task_pk for _, _, reminder, _ in rows if reminder is not None]
    done = (
        set(
            (
                await session.exec(
                    select(Task.pk).where(col(Task.pk).in_(task_pks), col(Task.completed))
                )
            ).all()
        )
        if task_pks
        else set()
    )
    envelopes = []
    for delivery, user, reminder, subscription in rows:
        # Done, dismissed or snoozed on another screen before this went out: nothing to say.
        moot = reminder is not None and (reminder.task_pk in done or reminder.seen_at is not None)
        envelopes.append(Envelope(delivery, user, reminder, subscription, moot))
    return envelopes
