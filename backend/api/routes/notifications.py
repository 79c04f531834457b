"""An account's email choices (reminders by email, the daily digest), and the one-click
unsubscribe link every email carries (RFC 8058), which works without signing in
(backend/notifications/preferences.py)."""

from __future__ import annotations

import html
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.api.deps import CurrentUser, ReadSessionDep, SessionDep, SettingsDep
from backend.api.errors import AUTHENTICATED, ErrorDetail, Responses
from backend.core.config import Settings
from backend.core.signed_links import InvalidLinkError, read_link
from backend.models import User
from backend.notifications import preferences
from backend.notifications.digest import DIGEST_TIME, DigestTimeError, read_clock
from backend.notifications.links import UNSUBSCRIBE_PATH
from backend.notifications.preferences import EmailNotSetUpError
from backend.services import users

router = APIRouter(prefix="/api/notifications", tags=["notifications"])


class NotificationSettingsPublic(BaseModel):
    email_reminders: bool = Field(description="Fired reminders are emailed too")
    digest_time: str | None = Field(
        description="The daily digest's time on the account's clock (\"HH:MM\"), or null for none"
    )
    email: str = Field(description="Where emails go: the account's address")
    email_available: bool = Field(
        description="Whether this server can send email (SMTP is set up); if not, neither "
        "choice can be turned on"
    )


class NotificationSettingsChange(BaseModel):
    """What to change; what is left out stays as it is."""

    model_config = ConfigDict(extra="forbid")

    email_reminders: StrictBool | None = Field(
        default=None, description="Email each reminder as it fires (null: leave it)"
    )
    digest_time: str | None = Field(
        default=None,
        description=(
            'Send a daily digest at this time on the account\'s clock ("HH:MM", 00:00 to 23:59);'
            " null turns the digest off"
        ),
        json_schema_extra={"pattern": DIGEST_TIME.pattern, "examples": ["07:30"]},
    )

    @field_validator("digest_time")
    @classmethod
    def _a_time_of_day(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                read_clock(value)
            except DigestTimeError as exc:
                raise ValueError(
                    'must be a time of day written "HH:MM", from 00:00 to 23:59 (or null for '
                    "no digest)"
                ) from exc
        return value


EMAIL_NOT_SET_UP: Responses = {
    409: {
        "model": ErrorDetail,
        "description": "Email is not set up on this server: it cannot be turned on",
    }
}


def _public(
    user: User, choices: preferences.EmailChoices, available: bool
) -> NotificationSettingsPublic:
    return NotificationSettingsPublic(
        email_reminders=choices.email_reminders,
        digest_time=choices.digest_time,
        email=user.email,
        email_available=available,
    )


@router.get("/settings", responses=AUTHENTICATED)
async def read_settings(
    user: CurrentUser, session: ReadSessionDep, settings: SettingsDep
) -> NotificationSettingsPublic:
    """The account's email choices, where emails go, and whether the server can send any."""
    assert user.id is not None
    choices = await preferences.read_choices(session, user.id)
    return _public(user, choices, settings.email_enabled)


@router.patch("/settings", responses={**AUTHENTICATED, **EMAIL_NOT_SET_UP})
async def change_settings(
    body: NotificationSettingsChange, user: CurrentUser, session: SessionDep, settings: SettingsDep
) -> NotificationSettingsPublic:
    """Turn reminders by email on or off, and set the daily digest's time (or null for none).
    The digest comes once a day at that time on the account's clock, daylight saving time
    included; a day with nothing due, overdue or repeating sends none. Turning either on on
    a server with no email set up is a 409."""
    assert user.id is not None
    given = body.model_fields_set
    try:
        choices = await preferences.update_choices(
            session,
            settings,
            user_id=user.id,
            email_reminders=body.email_reminders,
            digest_time=body.digest_time if "digest_time" in given else preferences.KEEP,
        )
    except EmailNotSetUpError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return _public(user, choices, settings.email_enabled)


def html_page(title: str, body: str, *, status_code: int = 200) -> HTMLResponse:
    """A small page of plain markup (no script, no style: the site's CSP holds)."""
    document = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex">\n'
        f"<title>{html.escape(title)}</title>\n</head>\n<body>\n<main>\n"
        f"<h1>{html.escape(title)}</h1>\n{body}"
        '<p><a href="/">Open Todo Chatbot</a></p>\n</main>\n</body>\n</html>\n'
    )
    return HTMLResponse(document, status_code=status_code)


def post_button(action: str, label: str, fields: dict[str, str] | None = None) -> str:
    """A form that POSTs to `action` (a path of this site) with one button."""
    hidden = "".join(
        f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">\n'
        for name, value in (fields or {}).items()
    )
    return (
        f'<form method="post" action="{html.escape(action, quote=True)}">\n{hidden}'
        f'<button type="submit">{html.escape(label)}</button>\n</form>\n'
    )


def _html(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"text/html": {}}}


UNSUBSCRIBE_ANSWERS: Responses = {
    200: _html("A page: the button to unsubscribe (GET), or that it is done (POST)"),
    400: _html("A page saying the link is not valid: altered, expired, or its account removed"),
}

Token = Annotated[str, Query(max_length=2000, description="The signed token from the email's link")]


async def _link_account(session: AsyncSession, settings: Settings, token: str) -> User | None:
    """The account an unsubscribe link names, if the link is good and the account is the
    one it was made for."""
    try:
        claims = read_link(settings, "unsubscribe", token)
    except InvalidLinkError:
        return None
    user = await users.get_user(session, user_id=claims.user_id)
    if user is None or user.account_key != claims.account:
        return None
    return user


def _bad_link() -> HTMLResponse:
    return html_page(
        "This link does not work",
        "<p>This unsubscribe link is not valid: it may have been altered or have expired, or "
        "its account has been removed. Sign in and turn email off in Settings instead.</p>\n",
        status_code=status.HTTP_400_BAD_REQUEST,
    )


@router.get("/unsubscribe", response_class=HTMLResponse, responses=UNSUBSCRIBE_ANSWERS)
async def unsubscribe_page(
    settings: SettingsDep, session: ReadSessionDep, token: Token = ""
) -> HTMLResponse:
    """The page an email's unsubscribe link opens: one button that unsubscribes. Opening it
    changes nothing (mail scanners follow links)."""
    user = await _link_account(session, settings, token)
    if user is None:
        return _bad_link()
    body = (
        f"<p>Stop all emails to {html.escape(user.email)}: reminders by email and the daily "
        "digest. Reminders still show in the app.</p>\n"
        + post_button(
            f"{UNSUBSCRIBE_PATH}?{urlencode({'token': token})}",
            "Unsubscribe",
            {"List-Unsubscribe": "One-Click"},
        )
    )
    return html_page("Unsubscribe from emails?", body)


@router.post("/unsubscribe", response_class=HTMLResponse, responses=UNSUBSCRIBE_ANSWERS)
async def unsubscribe(
    settings: SettingsDep, session: SessionDep, token: Token = ""
) -> HTMLResponse:
    """One-click unsubscribe (RFC 8058; the body `List-Unsubscribe=One-Click` a mail client
    posts is not needed): reminders by email and the daily digest are turned off, and what
    they queued is not sent. No sign-in: the signed token names the account."""
    user = await _link_account(session, settings, token)
    if user is None:
        return _bad_link()
    assert user.id is not None
    await preferences.unsubscribe(session, user_id=user.id)
    return html_page(
        "You're unsubscribed",
        f"<p>No more reminder emails or daily digests will be sent to "
        f"{html.escape(user.email)}. You can turn them on again in Settings.</p>\n",
    )
