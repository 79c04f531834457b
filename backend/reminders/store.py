"""Firing reminders exactly once, and the fired ones a user has yet to dismiss
(specs/reminders.md).

A task's next reminder is `task.remind_at`. Firing claims due tasks in one transaction:
the rows are locked with `FOR UPDATE SKIP LOCKED` on PostgreSQL (so schedulers in several
processes or machines split the work instead of queueing on each other), their `remind_at`
is cleared, and a `reminder` row is written for each. SQLite takes its write lock at BEGIN
(backend/core/db.py), so there one transaction claims at a time. Either way a reminder is
fired by exactly one transaction, and a crash before commit fires nothing and loses nothing.

A snoozed reminder (`reminder.snoozed_until`) is claimed the same way, in the same
transaction, and fires again as a new `reminder` row: a new id, which the stream and the web
UI take as a reminder they have not shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import update
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.domain.errors import NotFoundError, ServiceError
from backend.models import Reminder, Task, TaskSeat, User
from backend.notifications import outbox


class ReminderNotFoundError(NotFoundError):
    def __init__(self) -> None:
        super().__init__("Reminder not found")


class ReminderNotSnoozableError(ServiceError):
    """A reminder there is nothing to snooze of: dismissed, or its task done (a 409)."""


async def fire_due(
    session: AsyncSession, *, now: datetime | None = None, limit: int = 500
) -> list[Reminder]:
    """Fires up to `limit` reminders due by `now` (oldest first), the tasks' and then the
    snoozed ones', and returns them, committed."""
    now = now or utcnow()
    fired = await _claim_tasks(session, now, limit)
    claimed = len(fired)
    if claimed < limit:
        snoozed, claimed_snoozes = await _claim_snoozed(session, now, limit - claimed)
        fired += snoozed
        claimed += claimed_snoozes
    if not claimed:
        await session.rollback()
        return []
    session.add_all(fired)
    await session.flush()
    # Queued with the firing, so a reminder fired is a reminder delivered (or retried).
    await outbox.queue_fired(session, [reminder.id for reminder in fired if reminder.id], now)
    await session.commit()
    return fired


async def _claim_tasks(session: AsyncSession, now: datetime, limit: int) -> list[Reminder]:
    """The tasks' reminders due by `now`, claimed in the session's transaction."""
    due = (
        select(Task)
        .where(col(Task.remind_at) <= now, col(Task.completed).is_(False))
        .order_by(col(Task.remind_at))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = (await session.exec(due)).all()
    if not rows:
        return []
    # Cleared only where still set: what another process claimed first is not fired twice.
    claimed = set(
        (
            await session.exec(
                update(Task)
                .where(
                    col(Task.pk).in_([task.pk for task in rows]), col(Task.remind_at).is_not(None)
                )
                .values(remind_at=None)
                .returning(col(Task.pk))
                .execution_options(synchronize_session=False)
            )
        ).scalars()
    )
    kept = [
        task
        for task in rows
        if task.pk in claimed and task.remind_at is not None and task.pk is not None
    ]
    numbers = await _numbers(session, [(task.pk or 0, _recipient(task)) for task in kept])
    return [
        _fired(task, task.remind_at, now, _recipient(task), numbers[task.pk or 0, _recipient(task)])
        for task in kept
        if task.remind_at is not None and (task.pk or 0, _recipient(task)) in numbers
    ]


def _recipient(task: Task) -> int:
    """Whom a task's reminder is for: whoever set it (on a shared list, a member may have);
    the owner for one set before lists were shared."""
    return task.remind_user_id or task.owner_id


async def _numbers(
    session: AsyncSession, wanted: Sequence[tuple[int, int]]
) -> dict[tuple[int, int], int]:
    """(task row id, user id) -> that user's number for the task, for those who still see
    it: a reminder whose user has left the task's list fires for nobody."""
    if not wanted:
        return {}
    rows = await session.exec(
        select(TaskSeat.task_pk, TaskSeat.user_id, TaskSeat.number).where(
            col(TaskSeat.task_pk).in_({pk for pk, _ in wanted})
        )
    )
    asked = set(wanted)
    return {(int(pk), int(user)): int(n) for pk, user, n in rows.all() if (pk, user) in asked}


def _fired(task: Task, remind_at: datetime, now: datetime, user_id: int, number: int) -> Reminder:
    """The reminder `task` fires at `now` for `user_id` (their number for it), with its title
    and due as they are now."""
    assert task.pk is not None  # a task read from the database (the callers keep only those)
    return Reminder(
        owner_id=user_id,
        task_pk=task.pk,
        task_number=number,
        title=task.title,
        due_at=task.due_at,
        remind_at=remind_at,
        fired_at=now,
    )


async def _claim_snoozed(
    session: AsyncSession, now: datetime, limit: int
) -> tuple[list[Reminder], int]:
    """The snoozed reminders due by `now`, claimed in the session's transaction: each fires
    again as a new reminder (with its task's title and due as they are now), unless its task
    is done, when the snooze just ends. Which fire, and how many were claimed."""
    due = (
        select(Reminder, Task)
        .join(Task, col(Task.pk) == col(Reminder.task_pk))
        .where(col(Reminder.snoozed_until) <= now)
        .order_by(col(Reminder.snoozed_until))
        .limit(limit)
        # Both rows: a task being deleted (which takes its reminders) is left to its
        # transaction, never waited for while that one waits for this.
        .with_for_update(skip_locked=True)
    )
    rows = (await session.exec(due)).all()
    if not rows:
        return [], 0
    claimed = set(
        (
            await session.exec(
                update(Reminder)
                .where(
                    col(Reminder.id).in_([reminder.id for reminder, _ in rows]),
                    col(Reminder.snoozed_until).is_not(None),
                )
                .values(snoozed_until=None)
                .returning(col(Reminder.id))
                .execution_options(synchronize_session=False)
            )
        ).scalars()
    )
    kept = [
        (snoozed, task)
        for snoozed, task in rows
        if snoozed.id in claimed
        and snoozed.snoozed_until is not None
        and task.pk is not None
        and not task.completed
    ]
    numbers = await _numbers(session, [(task.pk or 0, snoozed.owner_id) for snoozed, task in kept])
    fired = [
        _fired(task, snoozed.snoozed_until, now, snoozed.owner_id, numbers[key])
        for snoozed, task in kept
        if snoozed.snoozed_until is not None
        and (key := (task.pk or 0, snoozed.owner_id)) in numbers
    ]
    return fired, len(claimed)


async def unseen(
    session: AsyncSession, *, owner_id: int, after: int = 0, limit: int = 100
) -> Sequence[Reminder]:
    """Fired reminders the user has not dismissed, oldest first (after id `after`); those of
    tasks done since are moot, and left out."""
    statement = (
        select(Reminder)
        .join(Task, col(Task.pk) == col(Reminder.task_pk))
        .where(
            col(Reminder.owner_id) == owner_id,
            col(Reminder.id) > after,
            col(Reminder.seen_at).is_(None),
            col(Task.completed).is_(False),
        )
        .order_by(col(Reminder.id))
        .limit(limit)
    )
    return (await session.exec(statement)).all()


async def dismiss(session: AsyncSession, *, owner_id: int, reminder_id: int) -> None:
    statement = (
        update(Reminder)
        .where(
            col(Reminder.owner_id) == owner_id,
            col(Reminder.id) == reminder_id,
        )
        .values(seen_at=func.coalesce(col(Reminder.seen_at), utcnow()))
        .returning(col(Reminder.id))
    )
    if (await session.exec(statement)).first() is None:
        await session.rollback()
        raise ReminderNotFoundError()
    await session.commit()


async def snooze(
    session: AsyncSession, *, owner_id: int, reminder_id: int, until: datetime
) -> Reminder:
    """Dismisses the reminder and has it fire again at `until`, once; the reminder as it now
    stands. One shown, or one snoozed already and still to fire again (its time changes), may
    be snoozed; one dismissed, or whose task is done, may not."""
    task_pending = (
        select(Task.pk)
        .where(col(Task.pk) == col(Reminder.task_pk), col(Task.completed).is_(False))
        .exists()
    )
    statement = (
        update(Reminder)
        .where(
            col(Reminder.owner_id) == owner_id,
            col(Reminder.id) == reminder_id,
            col(Reminder.seen_at).is_(None) | col(Reminder.snoozed_until).is_not(None),
            task_pending,
        )
        .values(seen_at=func.coalesce(col(Reminder.seen_at), utcnow()), snoozed_until=until)
        .returning(Reminder)
        .execution_options(populate_existing=True)
    )
    snoozed: Reminder | None = (await session.exec(statement)).scalars().first()
    if snoozed is not None:
        await session.commit()
        return snoozed
    found = (
        await session.exec(
            select(Task.completed)
            .join(Reminder, col(Reminder.task_pk) == col(Task.pk))
            .where(col(Reminder.owner_id) == owner_id, col(Reminder.id) == reminder_id)
        )
    ).first()
    await session.rollback()
    if found is None:
        raise ReminderNotFoundError()
    if found:
        raise ReminderNotSnoozableError("The reminder's task is done: there is nothing to snooze")
    raise ReminderNotSnoozableError(
        "The reminder is dismissed (or has fired again since it was snoozed): snooze the one shown"
    )


async def unsnooze(session: AsyncSession, *, owner_id: int, reminder_id: int) -> Reminder:
    """Undoes a snooze still to fire: the reminder is shown again, as it was before it was
    snoozed. One that has fired again since (a new reminder now) has no snooze to undo."""
    statement = (
        update(Reminder)
        .where(
            col(Reminder.owner_id) == owner_id,
            col(Reminder.id) == reminder_id,
            col(Reminder.snoozed_until).is_not(None),
        )
        .values(seen_at=None, snoozed_until=None)
        .returning(Reminder)
        .execution_options(populate_existing=True)
    )
    restored: Reminder | None = (await session.exec(statement)).scalars().first()
    if restored is not None:
        await session.commit()
        return restored
    exists = (
        await session.exec(
            select(Reminder.id).where(
                col(Reminder.owner_id) == owner_id, col(Reminder.id) == reminder_id
            )
        )
    ).first()
    await session.rollback()
    if exists is None:
        raise ReminderNotFoundError()
    raise ReminderNotSnoozableError(
        "The reminder is not snoozed (or has fired again since): there is no snooze to undo"
    )


async def dismiss_all(session: AsyncSession, *, owner_id: int, through: int | None = None) -> int:
    """Dismisses every fired reminder (up to id `through`, so one fired since the user
    looked stays); how many were."""
    scope = [col(Reminder.owner_id) == owner_id, col(Reminder.seen_at).is_(None)]
    if through is not None:
        scope.append(col(Reminder.id) <= through)
    statement = update(Reminder).where(*scope).values(seen_at=utcnow()).returning(col(Reminder.id))
    count = len((await session.exec(statement)).all())
    await session.commit()
    return count


async def newest_id(session: AsyncSession) -> int:
    found = (await session.exec(select(func.max(col(Reminder.id))))).first()
    return int(found or 0)


async def fired_since(
    session: AsyncSession, *, after: int, owners: Sequence[int], limit: int = 1000
) -> Sequence[tuple[Reminder, str]]:
    """Reminders fired after id `after` for any of `owners` (the users with a stream open
    on this process), in order, each with the key of the account it was fired for. Those
    dismissed already (on another screen, or before any stream was open) and those of
    tasks done since are left out, as `unseen` leaves them out: they are never streamed."""
    statement = (
        select(Reminder, User.account_key)
        .join(Task, col(Task.pk) == col(Reminder.task_pk))
        .join(User, col(User.id) == col(Reminder.owner_id))
        .where(
            col(Reminder.id) > after,
            col(Reminder.owner_id).in_(owners),
            col(Reminder.seen_at).is_(None),
            col(Task.completed).is_(False),
        )
        .order_by(col(Reminder.id))
        .limit(limit)
    )
    return [(reminder, str(key)) for reminder, key in (await session.exec(statement)).all()]
