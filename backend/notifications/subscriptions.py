"""The browsers an account receives Web Push on (specs/notifications.md): added when a
browser subscribes, listed in Settings, removed when the user turns one off or its push
service says it is gone (backend/notifications/outbox.py `finish`).

One browser is one subscription, whoever signed in on it last: subscribing with an endpoint
another account holds takes it over, and that account's pushes still queued for it go with
the old row (they would show its reminders to the new account).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from datetime import datetime

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.models import Delivery, PushSubscription
from backend.notifications.vapid import b64url, b64url_decode

# Browsers one account may receive pushes on: far more devices than anyone owns, and a bound
# on the pushes one reminder makes.
MAX_SUBSCRIPTIONS_PER_ACCOUNT = 20
DEVICE_MAX_LENGTH = 120


class SubscriptionKeyError(ValueError):
    """A subscription's key is not what RFC 8291 asks for; `field` names which."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class TooManySubscriptionsError(Exception):
    pass


def _decode(field: str, value: str) -> bytes:
    stripped = value.strip()
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=")
    if not stripped or not set(stripped) <= allowed:
        raise SubscriptionKeyError(field, f"{field} is not base64url")
    try:
        return b64url_decode(stripped)
    except (binascii.Error, ValueError) as exc:
        raise SubscriptionKeyError(field, f"{field} is not base64url") from exc


def normalize_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The keys as stored (base64url, no padding), once found usable: `p256dh` an
    uncompressed P-256 point on the curve, `auth` 16 bytes."""
    point = _decode("p256dh", p256dh)
    if len(point) != 65 or point[0] != 4:
        raise SubscriptionKeyError("p256dh", "p256dh is not an uncompressed P-256 public key")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as exc:
        raise SubscriptionKeyError("p256dh", "p256dh is not a point on the P-256 curve") from exc
    secret = _decode("auth", auth)
    if len(secret) != 16:
        raise SubscriptionKeyError("auth", "auth is not a 16-byte authentication secret")
    return b64url(point), b64url(secret)


# Checked in order: each browser's User-Agent also names the ones it grew from
# (Edge says "Chrome" and "Safari", Chrome says "Safari").
_BROWSERS = (
    ("Edg", "Edge"),
    ("OPR/", "Opera"),
    ("Opera", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("YaBrowser", "Yandex Browser"),
    ("Vivaldi", "Vivaldi"),
    ("FxiOS", "Firefox"),
    ("Firefox/", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chromium", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str | None) -> str:
    """What Settings calls the browser: "Chrome on Android", "Firefox on Windows"."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    if browser or system:
        return f"{browser or 'A browser'}{f' on {system}' if system else ''}"
    return "Unknown browser"


@dataclass(frozen=True)
class Listed:
    subscription: PushSubscription
    # The last push it was sent (from the outbox, which keeps a week), else the stored one.
    last_sent_at: datetime | None


async def _count(session: AsyncSession, owner_id: int) -> int:
    statement = select(func.count()).where(col(PushSubscription.owner_id) == owner_id)
    return int((await session.exec(statement)).one())


async def add(
    session: AsyncSession,
    *,
    owner_id: int,
    endpoint: str,
    p256dh: str,
    auth: str,
    device: str,
    limit: int = MAX_SUBSCRIPTIONS_PER_ACCOUNT,
) -> PushSubscription:
    """Adds the browser's subscription to the account (or renews its keys), committed. The
    caller has checked the endpoint (backend/notifications/push_endpoints.py)."""
    p256dh, auth = normalize_keys(p256dh, auth)
    device = device[:DEVICE_MAX_LENGTH]
    # Twice at most: a browser subscribing on two requests at once finds the other's row.
    for attempt in range(2):
        existing = (
            await session.exec(
                select(PushSubscription).where(col(PushSubscription.endpoint) == endpoint)
            )
        ).first()
        if existing is not None and existing.owner_id == owner_id:
            existing.p256dh, existing.auth, existing.device = p256dh, auth, device
            await session.commit()
            return existing
        if await _count(session, owner_id) >= limit:
            await session.rollback()
            raise TooManySubscriptionsError(
                f"This account already receives notifications on {limit} browsers; "
                "turn one off in Settings first"
            )
        if existing is not None:
            # Explicitly, not only by the foreign key's cascade: they are another account's.
            await session.exec(delete(Delivery).where(col(Delivery.subscription_id) == existing.id))
            await session.exec(
                delete(PushSubscription).where(col(PushSubscription.id) == existing.id)
            )
        added = PushSubscription(
            owner_id=owner_id,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            device=device,
            created_at=utcnow(),
        )
        session.add(added)
        try:
            await session.commit()
        except IntegrityError:
            await session.rollback()
            if attempt:
                raise
            continue
        return added
    raise AssertionError("unreachable")  # pragma: no cover


async def listed(session: AsyncSession, *, owner_id: int) -> list[Listed]:
    """The account's subscriptions, oldest first, with when each was last sent a push."""
    last_sent = (
        select(func.max(Delivery.sent_at))
        .where(col(Delivery.subscription_id) == col(PushSubscription.id))
        .correlate(PushSubscription)
        .scalar_subquery()
    )
    rows = await session.exec(
        select(PushSubscription, last_sent)
        .where(col(PushSubscription.owner_id) == owner_id)
        .order_by(col(PushSubscription.created_at), col(PushSubscription.id))
    )
    return [Listed(row, sent or row.last_sent_at) for row, sent in rows.all()]


async def remove(session: AsyncSession, *, owner_id: int, subscription_id: int) -> bool:
    """Removes one of the account's subscriptions (its queued pushes with it); False if the
    account has none by that id."""
    await session.exec(
        delete(Delivery).where(
            col(Delivery.subscription_id) == subscription_id,
            col(Delivery.owner_id) == owner_id,
        )
    )
    gone = await session.exec(
        delete(PushSubscription)
        .where(
            col(PushSubscription.id) == subscription_id,
            col(PushSubscription.owner_id) == owner_id,
        )
        .returning(col(PushSubscription.id))
    )
    found = gone.first() is not None
    await session.commit()
    return found
