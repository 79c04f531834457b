"""Links that act without signing in: an email's unsubscribe and snooze links, a push
notification's Done and Snooze (the service worker holds no access token). Each is a JWT
signed with SECRET_KEY that names one purpose, one account (its id and key, so a removed
account's link opens nothing of an account given its id since) and, for a reminder, which
one; it expires, and it can do nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

import jwt

from backend.core.config import Settings
from backend.core.timeutil import utcnow

ALGORITHM = "HS256"
# An unsubscribe link works as long as someone keeps the email (RFC 8058 asks for no expiry;
# a year bounds what a leaked one can do). A reminder's actions matter for days at most.
UNSUBSCRIBE_LIFETIME = timedelta(days=365)
REMINDER_ACTION_LIFETIME = timedelta(days=14)

Purpose = Literal["unsubscribe", "reminder"]


class InvalidLinkError(Exception):
    """The link is not one this server signed for this purpose, or it has expired."""


@dataclass(frozen=True)
class LinkClaims:
    user_id: int
    account: str
    # The reminder a "reminder" link acts on; None for unsubscribe.
    reminder_id: int | None


def sign_link(
    settings: Settings,
    purpose: Purpose,
    *,
    user_id: int,
    account: str,
    reminder_id: int | None = None,
) -> str:
    lifetime = UNSUBSCRIBE_LIFETIME if purpose == "unsubscribe" else REMINDER_ACTION_LIFETIME
    now = utcnow()
    payload: dict[str, object] = {
        "sub": str(user_id),
        "acct": account,
        "aud": f"link:{purpose}",
        "iat": now,
        "exp": now + lifetime,
    }
    if reminder_id is not None:
        payload["rid"] = reminder_id
    return jwt.encode(payload, settings.secret_key, algorithm=ALGORITHM)


def read_link(settings: Settings, purpose: Purpose, token: str) -> LinkClaims:
    try:
        payload = jwt.decode(
            token,
            settings.secret_key,
            algorithms=[ALGORITHM],
            audience=f"link:{purpose}",
            options={"require": ["sub", "acct", "exp", "aud"]},
        )
    except jwt.PyJWTError as exc:
        raise InvalidLinkError(str(exc)) from exc
    subject, account, reminder = payload.get("sub"), payload.get("acct"), payload.get("rid")
    if not (isinstance(subject, str) and subject.isascii() and subject.isdigit()):
        raise InvalidLinkError("not a user id")
    if not isinstance(account, str) or not account:
        raise InvalidLinkError("malformed account key")
    if purpose == "reminder" and not (isinstance(reminder, int) and reminder > 0):
        raise InvalidLinkError("names no reminder")
    return LinkClaims(int(subject), account, reminder if purpose == "reminder" else None)
