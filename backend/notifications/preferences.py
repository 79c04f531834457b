"""An account's email choices (specs/notifications.md): reminders by email, and a daily
digest at a local time. An account without a `notification_settings` row has both off; the
row is made on the first change.

The next digest's instant is worked out here whenever the time or the account's zone changes
(`rezone`), never for a day that has had its digest already. Turning a choice off also
cancels what it queued and has not sent; one-click unsubscribe (RFC 8058) turns off both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Literal

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings
from backend.core.timeutil import utcnow
from backend.domain.errors import AccountGoneError, ServiceError
from backend.models import Channel, Delivery, NotificationSettings, User
from backend.notifications.digest import read_clock, schedule

# Why a queued email is not sent once its choice is turned off.
CANCELLED = "cancelled: turned off before it was sent"


class EmailNotSetUpError(ServiceError):
    """Email asked for on a server with no SMTP set up (a 409)."""

    def __init__(self) -> None:
        super().__init__(
            "Email is not set up on this server (SMTP_HOST is not set): reminders by email and "
            "the daily digest cannot be turned on"
        )


@dataclass(frozen=True)
class EmailChoices:
    email_reminders: bool = False
    # "HH:MM" on the account's clock, or None for no digest.
    digest_time: str | None = None
    # When the next digest is queued (UTC).
    digest_next_at: datetime | None = None

    @classmethod
    def of(cls, row: NotificationSettings | None) -> EmailChoices:
        if row is None:
            return cls()
        return cls(row.email_reminders, row.digest_time, row.digest_next_at)


class _Keep(Enum):
    KEEP = "keep"


# For `update_choices`: leave the field as it is.
KEEP = _Keep.KEEP


async def read_choices(session: AsyncSession, user_id: int) -> EmailChoices:
    return EmailChoices.of(await session.get(NotificationSettings, user_id))


async def update_choices(
    session: AsyncSession,
    settings: Settings,
    *,
    user_id: int,
    email_reminders: bool | None = None,
    digest_time: str | None | Literal[_Keep.KEEP] = KEEP,
    now: datetime | None = None,
) -> EmailChoices:
    """Changes what is given (None for `email_reminders` and KEEP for `digest_time` leave
    them be); `digest_time` None turns the digest off. EmailNotSetUpError when asked to turn
    either on with no SMTP set up; DigestTimeError for a time not written "HH:MM"."""
    now = now or utcnow()
    new_time = digest_time if isinstance(digest_time, str) else None
    if new_time is not None:
        read_clock(new_time)
    if not settings.email_enabled and (email_reminders or new_time is not None):
        raise EmailNotSetUpError()
    row, zone_name = await _row_for_update(session, user_id)
    if email_reminders is not None and email_reminders != row.email_reminders:
        row.email_reminders = email_reminders
        if not email_reminders:
            await _cancel(session, user_id, Channel.EMAIL, now)
    if digest_time is not KEEP and new_time != row.digest_time:
        row.digest_time = new_time
        if new_time is None:
            row.digest_next_at = None
            await _cancel(session, user_id, Channel.DIGEST, now)
        else:
            row.digest_next_at = await schedule(session, user_id, new_time, zone_name, now)
    row.updated_at = now
    session.add(row)
    choices = EmailChoices.of(row)
    await session.commit()
    return choices


async def unsubscribe(session: AsyncSession, *, user_id: int, now: datetime | None = None) -> None:
    """One-click unsubscribe: no more reminder emails and no digest, and nothing queued for
    either is sent (committed). Harmless when both are off already."""
    now = now or utcnow()
    row = await _locked(session, user_id)
    if row is not None:
        row.email_reminders, row.digest_time, row.digest_next_at = False, None, None
        row.updated_at = now
        session.add(row)
    for channel in (Channel.EMAIL, Channel.DIGEST):
        await _cancel(session, user_id, channel, now)
    await session.commit()


async def rezone(
    session: AsyncSession, user_id: int, zone: str, *, now: datetime | None = None
) -> None:
    """The account moved to `zone`: its digest comes at the same local time there, from its
    next day without one (committed). Call it once the account's zone has changed."""
    now = now or utcnow()
    row = await _locked(session, user_id)
    if row is None or row.digest_time is None:
        await session.rollback()
        return
    row.digest_next_at = await schedule(session, user_id, row.digest_time, zone, now)
    row.updated_at = now
    session.add(row)
    await session.commit()


async def _locked(session: AsyncSession, user_id: int) -> NotificationSettings | None:
    """The account's row, locked for this transaction, if it has one."""
    found: NotificationSettings | None = (
        await session.exec(
            select(NotificationSettings)
            .where(col(NotificationSettings.user_id) == user_id)
            .with_for_update()
        )
    ).first()
    return found


async def _row_for_update(session: AsyncSession, user_id: int) -> tuple[NotificationSettings, str]:
    """The account's row, locked (made if it has none), and the account's zone."""
    for _ in range(2):
        found = (
            await session.exec(
                select(NotificationSettings, User.timezone)
                .join(User, col(User.id) == col(NotificationSettings.user_id))
                .where(col(NotificationSettings.user_id) == user_id)
                .with_for_update(of=NotificationSettings)
            )
        ).first()
        if found is not None:
            row, zone_name = found
            return row, str(zone_name)
        user = await session.get(User, user_id)
        if user is None:
            await session.rollback()
            raise AccountGoneError(user_id)
        row = NotificationSettings(user_id=user_id)
        session.add(row)
        try:
            await session.flush()
        except IntegrityError:
            # Another request made it first: lock theirs.
            await session.rollback()
            continue
        return row, user.timezone
    raise AccountGoneError(user_id)  # pragma: no cover - made and gone in one breath


async def _cancel(session: AsyncSession, user_id: int, channel: Channel, now: datetime) -> None:
    """Gives up on the account's unsent deliveries of `channel` (one being sent right now
    goes out: it cannot be called back)."""
    await session.exec(
        update(Delivery)
        .where(
            col(Delivery.owner_id) == user_id,
            col(Delivery.channel) == channel.value,
            col(Delivery.sent_at).is_(None),
            col(Delivery.failed_at).is_(None),
        )
        .values(failed_at=now, last_error=CANCELLED)
    )
