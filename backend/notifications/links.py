"""The addresses notifications carry: open the app at a task, act on a reminder without
signing in (a push notification's Done and Snooze, an email's snooze link), unsubscribe from
email (RFC 8058). The acting ones carry a signed token (backend/core/signed_links.py)."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlencode

from backend.core.config import Settings
from backend.core.signed_links import sign_link
from backend.models import User

ReminderAction = Literal["done", "snooze"]

# The route that serves the acting links: GET shows a page with one button (so a mail
# scanner that follows links changes nothing), POST acts (the button, the service worker).
REMINDER_LINK_PATH = "/api/reminder-links"
UNSUBSCRIBE_PATH = "/api/notifications/unsubscribe"


def task_url(settings: Settings, task_number: int) -> str:
    """The web UI opened at the task."""
    return f"{settings.base_url}/?task={task_number}"


def reminder_link_path(action: ReminderAction, token: str, *, minutes: int | None = None) -> str:
    """The path (with its query) of a signed reminder link: what a notification or an email
    carries, and what the link's own page POSTs back."""
    query: dict[str, str | int] = {"token": token}
    if minutes is not None:
        query["minutes"] = minutes
    return f"{REMINDER_LINK_PATH}/{action}?{urlencode(query)}"


def reminder_action_path(
    settings: Settings,
    user: User,
    reminder_id: int,
    action: ReminderAction,
    *,
    minutes: int | None = None,
) -> str:
    """The path (with its query) that does `action` to the reminder, for its account only."""
    assert user.id is not None
    token = sign_link(
        settings, "reminder", user_id=user.id, account=user.account_key, reminder_id=reminder_id
    )
    return reminder_link_path(action, token, minutes=minutes)


def reminder_action_url(
    settings: Settings,
    user: User,
    reminder_id: int,
    action: ReminderAction,
    *,
    minutes: int | None = None,
) -> str:
    path = reminder_action_path(settings, user, reminder_id, action, minutes=minutes)
    return f"{settings.base_url}{path}"


def unsubscribe_url(settings: Settings, user: User) -> str:
    assert user.id is not None
    token = sign_link(settings, "unsubscribe", user_id=user.id, account=user.account_key)
    return f"{settings.base_url}{UNSUBSCRIBE_PATH}?{urlencode({'token': token})}"
