"""Web Push (RFC 8030, 8291, 8292): one fired reminder to one browser.

The payload is JSON, encrypted for the browser with `aes128gcm` (pywebpush), signed for the
push service with the server's VAPID key (backend/notifications/vapid.py), and POSTed to the
subscription's endpoint; the service worker (`/sw.js`) shows it. The push service's answer
decides what becomes of the delivery (backend/notifications/outbox.py `finish`):

- 200, 201, 202: sent;
- 404, 410: the subscription is gone for good: removed, not retried;
- 429, 5xx, a timeout or a broken connection: retried with backoff (after Retry-After if given);
- any other answer (400, 401, 403, 413, ...), or an endpoint refused by the address check:
  given up on, since sending the same request again would be refused the same way.

Redirects are not followed (a redirect could point anywhere), and connections go through
`GuardedResolver`, so a push can reach only public addresses or the allow-list.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver
from pywebpush import WebPusher  # type: ignore[import-untyped]

from backend.core.config import Settings
from backend.core.loops import CpuTurns
from backend.core.timeutil import utcnow
from backend.domain.due import on_clock
from backend.models import Reminder, User
from backend.notifications.dispatcher import Envelope
from backend.notifications.links import reminder_action_path, task_url
from backend.notifications.outbox import Outcome
from backend.notifications.push_endpoints import (
    EndpointRefusedError,
    GuardedResolver,
    PrivateAddressError,
    check_endpoint_form,
    origin,
)
from backend.notifications.vapid import VapidKeys

logger = logging.getLogger(__name__)

# How long a push service keeps a push for a browser that is offline: a day-old reminder
# still says something; an older one the web UI shows anyway.
TTL_SECONDS = 24 * 60 * 60
SEND_TIMEOUT_SECONDS = 15.0
SNOOZE_MINUTES = 10
# RFC 8291 fits a push in one 4,096-byte record; this leaves room for the encryption's own
# bytes and for push services that allow less.
PAYLOAD_MAX_BYTES = 3000
# A Retry-After beyond this is taken as this.
RETRY_AFTER_CAP = timedelta(hours=6)
SENT = frozenset({200, 201, 202})
GONE = frozenset({404, 410})


def reminder_tag(reminder_id: int) -> str:
    """The notification's tag, and the push's Topic: a repeat of the same reminder (sent
    twice after a crash) replaces the first rather than showing twice."""
    return f"reminder-{reminder_id}"


def due_text(due_at: datetime | None, user: User, *, now: datetime | None = None) -> str:
    """The notification's body: when the task is due, on the account's clock. An all-day
    task's instant is its day's midnight, which is shown as the day alone."""
    if due_at is None:
        return "Reminder"
    due = on_clock(due_at, user.timezone)
    today = on_clock(now or utcnow(), user.timezone).date()
    clock = "" if (due.hour, due.minute) == (0, 0) else f" at {due.strftime('%H:%M')}"
    if due.date() == today:
        return f"Due today{clock}"
    if due.date() == today + timedelta(days=1):
        return f"Due tomorrow{clock}"
    if due.date() < today:
        return f"Was due {due.strftime('%a')} {due.day} {due.strftime('%b')}{clock}"
    return f"Due {due.strftime('%a')} {due.day} {due.strftime('%b')}{clock}"


def _path(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path or '/'}?{parts.query}" if parts.query else parts.path or "/"


def payload(settings: Settings, user: User, reminder: Reminder) -> bytes:
    """The JSON the service worker receives (specs/notifications.md), within
    PAYLOAD_MAX_BYTES: a long title is cut to fit."""
    assert reminder.id is not None
    done = reminder_action_path(settings, user, reminder.id, "done")
    snooze = reminder_action_path(settings, user, reminder.id, "snooze", minutes=SNOOZE_MINUTES)
    body: dict[str, Any] = {
        "title": reminder.title,
        "body": due_text(reminder.due_at, user),
        "tag": reminder_tag(reminder.id),
        # Same-origin paths: the service worker opens and posts to its own origin, whatever
        # PUBLIC_URL says.
        "url": _path(task_url(settings, reminder.task_number)),
        "reminder_id": reminder.id,
        "task_id": reminder.task_number,
        "actions": [
            {"action": "done", "title": "Done", "url": done},
            {"action": "snooze", "title": f"Snooze {SNOOZE_MINUTES} min", "url": snooze},
        ],
    }
    encoded = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    while len(encoded) > PAYLOAD_MAX_BYTES and body["title"]:
        title = body["title"].removesuffix("…").encode()
        # Cut by bytes (3 for the ellipsis), never inside a character.
        keep = max(len(title) - (len(encoded) - PAYLOAD_MAX_BYTES) - 3, 0)
        cut = title[:keep].decode(errors="ignore").rstrip()
        body["title"] = f"{cut}…" if cut else ""
        encoded = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return encoded


def retry_after(value: str | None, *, now: datetime | None = None) -> timedelta | None:
    """A Retry-After header (seconds, or an HTTP date) as a wait, capped."""
    if not value:
        return None
    value = value.strip()
    wait: timedelta | None = None
    if value.isdigit():
        wait = timedelta(seconds=int(value))
    else:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        wait = max(when - (now or utcnow()), timedelta(0))
    return min(wait, RETRY_AFTER_CAP)


class PushSender:
    """Sends the outbox's push deliveries (a ChannelSender for Channel.PUSH), over one HTTP
    session per process. `close()` when done."""

    def __init__(
        self,
        settings: Settings,
        keys: VapidKeys,
        *,
        resolver: AbstractResolver | None = None,
        timeout_seconds: float = SEND_TIMEOUT_SECONDS,
        ttl_seconds: int = TTL_SECONDS,
        turns: CpuTurns | None = None,
    ) -> None:
        self._keys = keys
        self._turns = turns or CpuTurns()
        self._settings = settings
        self._allow = list(settings.push_endpoint_allow)
        self._resolver = resolver
        self._timeout = aiohttp.ClientTimeout(total=timeout_seconds)
        self._ttl = ttl_seconds
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        # Made on first use: a session belongs to the event loop it is made on.
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                resolver=GuardedResolver(self._allow, self._resolver), limit=100
            )
            self._session = aiohttp.ClientSession(connector=connector, timeout=self._timeout)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def send(self, envelope: Envelope) -> Outcome:
        delivery_id = envelope.delivery.id
        assert delivery_id is not None
        subscription, reminder = envelope.subscription, envelope.reminder
        if subscription is None or reminder is None:
            return Outcome(delivery_id, error="nothing to push: no subscription or reminder")
        assert subscription.id is not None
        endpoint = subscription.endpoint
        try:
            check_endpoint_form(endpoint, self._allow)
        except EndpointRefusedError as exc:
            return Outcome(delivery_id, error=f"endpoint refused: {exc}")
        async with self._turns.turn():
            data = payload(self._settings, envelope.user, reminder)
            pusher = WebPusher(
                {
                    "endpoint": endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                }
            )
            # An ECDH key pair per push: a fraction of a millisecond, taken in turn.
            body: bytes = pusher.encode(data, "aes128gcm")["body"]
            authorization = self._keys.authorization(origin(endpoint), self._settings.vapid_subject)
        headers = {
            "Authorization": authorization,
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(self._ttl),
            "Urgency": "high",
            "Topic": reminder_tag(reminder.id or 0),
        }
        try:
            async with self._http().post(
                endpoint, data=body, headers=headers, allow_redirects=False
            ) as response:
                status = response.status
                waited = retry_after(response.headers.get("Retry-After"))
                # A push service says little; a body larger than this is not waited for.
                await response.content.read(4096)
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, PrivateAddressError):
                return Outcome(delivery_id, error=f"endpoint refused: {exc.os_error}")
            return Outcome(delivery_id, error=f"push service unreachable: {exc}", retry=True)
        except (aiohttp.ClientError, TimeoutError) as exc:
            return Outcome(delivery_id, error=f"push failed: {exc!r}", retry=True)
        if status in SENT:
            return Outcome(delivery_id, sent=True)
        error = f"push service answered {status}"
        if status in GONE:
            return Outcome(
                delivery_id, error=f"{error}: subscription gone", subscription_gone=subscription.id
            )
        if status == 429 or status >= 500:
            return Outcome(delivery_id, error=error, retry=True, retry_after=waited)
        logger.warning("push %s refused by %s: %s", delivery_id, origin(endpoint), status)
        return Outcome(delivery_id, error=error)
