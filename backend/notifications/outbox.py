"""The outbox: what is to be delivered beyond the open page, and the leases that make each
delivery go out once across any number of processes (specs/notifications.md).

A fired reminder queues its deliveries in the transaction that fires it (`queue_fired`):
one push per subscription of its account and one email if the account opted in. A sender
claims due rows (`claim`): on PostgreSQL they are locked with `FOR UPDATE SKIP LOCKED` so
senders split the work; everywhere the claim pushes `next_attempt_at` a lease ahead and
counts the attempt, and commits before anything is sent. Once sent, a row is marked sent
(`finish`). A sender killed between sending and marking leaves the row to come due again when
its lease ends, and another sender sends it again: at most a lease late, maybe twice, never
lost. The notification's tag and the email's Message-ID name the reminder, so the receiving
end collapses such a repeat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import delete, insert, literal, update
from sqlalchemy import select as select_columns
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.models import Channel, Delivery, NotificationSettings, PushSubscription, Reminder

# The first retry waits this long; each next one twice as long, up to the cap.
RETRY_FIRST = timedelta(seconds=30)
RETRY_CAP = timedelta(hours=1)
# Sent and given-up rows are kept this long (for support and the tests), then pruned.
KEEP_FINISHED = timedelta(days=7)
ERROR_MAX_CHARS = 300


async def queue_fired(session: AsyncSession, reminder_ids: Sequence[int], now: datetime) -> None:
    """Queues the push and email deliveries of reminders just fired, in the caller's
    transaction (flushed, so the reminders have their ids)."""
    if not reminder_ids:
        return
    pushes = (
        select_columns(
            col(Reminder.owner_id),
            literal(Channel.PUSH.value),
            col(Reminder.id),
            col(PushSubscription.id),
            literal(now),
            literal(now),
            literal(0),
        )
        .join(PushSubscription, col(PushSubscription.owner_id) == col(Reminder.owner_id))
        .where(col(Reminder.id).in_(reminder_ids))
    )
    emails = (
        select_columns(
            col(Reminder.owner_id),
            literal(Channel.EMAIL.value),
            col(Reminder.id),
            literal(None),
            literal(now),
            literal(now),
            literal(0),
        )
        .join(NotificationSettings, col(NotificationSettings.user_id) == col(Reminder.owner_id))
        .where(col(Reminder.id).in_(reminder_ids), col(NotificationSettings.email_reminders))
    )
    columns = ["owner_id", "channel", "reminder_id", "subscription_id", "created_at"]
    columns += ["next_attempt_at", "attempts"]
    for rows in (pushes, emails):
        await session.exec(insert(Delivery).from_select(columns, rows))


def queue_digest(session: AsyncSession, owner_id: int, day: date, now: datetime) -> None:
    """Queues one account's digest for `day` (its own calendar's), in the caller's transaction."""
    session.add(
        Delivery(
            owner_id=owner_id,
            channel=Channel.DIGEST.value,
            digest_on=day,
            created_at=now,
            next_attempt_at=now,
        )
    )


async def claim(
    session: AsyncSession, *, now: datetime, limit: int, lease: timedelta
) -> list[Delivery]:
    """Leases up to `limit` deliveries due by `now` (oldest first) to this sender and commits:
    no other sender takes them until the lease ends."""
    due = (
        select(Delivery)
        .where(
            col(Delivery.next_attempt_at) <= now,
            col(Delivery.sent_at).is_(None),
            col(Delivery.failed_at).is_(None),
        )
        .order_by(col(Delivery.next_attempt_at), col(Delivery.id))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = (await session.exec(due)).all()
    if not rows:
        await session.rollback()
        return []
    # Leased only where still due: what another sender leased first is not sent twice.
    leased = set(
        (
            await session.exec(
                update(Delivery)
                .where(
                    col(Delivery.id).in_([row.id for row in rows]),
                    col(Delivery.next_attempt_at) <= now,
                    col(Delivery.sent_at).is_(None),
                )
                .values(next_attempt_at=now + lease, attempts=col(Delivery.attempts) + 1)
                .returning(col(Delivery.id))
                .execution_options(synchronize_session=False)
            )
        ).scalars()
    )
    claimed = [row for row in rows if row.id in leased]
    for row in claimed:
        row.attempts += 1
    await session.commit()
    return claimed


@dataclass(frozen=True)
class Outcome:
    """What became of one send."""

    delivery_id: int
    sent: bool = False
    # Not sent: why, and whether to try again (with backoff) or give up now.
    error: str | None = None
    retry: bool = False
    # The push service's Retry-After, when it gave one (a 429).
    retry_after: timedelta | None = None
    # The subscription is gone for good (404 or 410): remove it.
    subscription_gone: int | None = None


def backoff(attempts: int) -> timedelta:
    """How long after its `attempts`-th failed try a delivery is tried again."""
    wait: timedelta = RETRY_FIRST * (2 ** max(attempts - 1, 0))
    return min(wait, RETRY_CAP)


async def finish(
    session: AsyncSession,
    outcomes: Sequence[Outcome],
    attempts: dict[int, int],
    *,
    max_attempts: int,
    now: datetime | None = None,
) -> None:
    """Records what became of a batch's sends, in one transaction: sent rows are marked,
    failed ones wait for their retry or are given up on, and subscriptions the push service
    says are gone are removed (their queued deliveries with them)."""
    now = now or utcnow()
    sent = [outcome.delivery_id for outcome in outcomes if outcome.sent]
    if sent:
        await session.exec(update(Delivery).where(col(Delivery.id).in_(sent)).values(sent_at=now))
    for outcome in outcomes:
        if outcome.sent:
            continue
        error = (outcome.error or "failed")[:ERROR_MAX_CHARS]
        tries = attempts.get(outcome.delivery_id, 1)
        if outcome.retry and tries < max_attempts:
            wait = max(outcome.retry_after or timedelta(0), backoff(tries))
            values: dict[str, object] = {"next_attempt_at": now + wait, "last_error": error}
        else:
            values = {"failed_at": now, "last_error": error}
        await session.exec(
            update(Delivery).where(col(Delivery.id) == outcome.delivery_id).values(**values)
        )
    gone = sorted({o.subscription_gone for o in outcomes if o.subscription_gone is not None})
    if gone:
        await session.exec(delete(PushSubscription).where(col(PushSubscription.id).in_(gone)))
    await session.commit()


async def prune(session: AsyncSession, *, now: datetime | None = None) -> int:
    """Removes rows finished more than KEEP_FINISHED ago; how many."""
    cutoff = (now or utcnow()) - KEEP_FINISHED
    finished = (
        delete(Delivery)
        .where(
            (col(Delivery.sent_at) < cutoff) | (col(Delivery.failed_at) < cutoff),
        )
        .returning(col(Delivery.id))
    )
    count = len((await session.exec(finished)).all())
    await session.commit()
    return count
