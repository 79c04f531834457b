"""An account's email choices over REST (GET/PATCH /api/notifications/settings), on both
databases: what a new account has, partial changes, the digest's time checked and its next
instant worked out on the account's clock (and again when the zone changes), and no email
turned on where the server has no SMTP set up."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from backend.main import create_app
from backend.models import NotificationSettings
from backend.notifications import preferences
from backend.notifications.digest import next_digest_at
from tests.conftest import UserSession, client_for, make_settings, register, running

SETTINGS = "/api/notifications/settings"


@pytest.fixture(scope="module")
async def mail_app(database_url: str) -> AsyncIterator[FastAPI]:
    """An app whose server has SMTP set up (nothing is sent in these tests)."""
    settings = make_settings(database_url, smtp_host="127.0.0.1", smtp_port=2525, smtp_tls="none")
    async with running(create_app(settings)) as application:
        yield application


@pytest.fixture
async def http(mail_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(mail_app) as client:
        yield client


async def _patch(http: httpx.AsyncClient, who: UserSession, body: Any) -> httpx.Response:
    return await http.patch(SETTINGS, json=body, headers=who.headers)


async def _choices(app: FastAPI, user_id: int) -> NotificationSettings | None:
    async with app.state.sessionmaker() as session:
        found: NotificationSettings | None = await session.get(NotificationSettings, user_id)
        return found


async def test_a_new_account_has_email_off_and_is_told_where_email_would_go(
    http: httpx.AsyncClient,
) -> None:
    who = await register(http)
    response = await http.get(SETTINGS, headers=who.headers)
    assert response.status_code == 200
    assert response.json() == {
        "email_reminders": False,
        "digest_time": None,
        "email": who.email,
        "email_available": True,
    }


async def test_changes_are_partial_and_the_digest_comes_at_the_accounts_local_time(
    mail_app: FastAPI, http: httpx.AsyncClient
) -> None:
    who = await register(http)
    zone = await http.patch("/api/auth/me", json={"timezone": "Asia/Tokyo"}, headers=who.headers)
    assert zone.status_code == 200, zone.text
    before = datetime.now(UTC)
    response = await _patch(http, who, {"digest_time": "07:30"})
    assert response.status_code == 200, response.text
    assert response.json()["digest_time"] == "07:30"
    assert response.json()["email_reminders"] is False
    row = await _choices(mail_app, who.id)
    assert row is not None and row.digest_next_at is not None
    assert row.digest_next_at in {
        next_digest_at("07:30", "Asia/Tokyo", before),
        next_digest_at("07:30", "Asia/Tokyo", datetime.now(UTC)),
    }
    assert row.digest_next_at - before <= timedelta(days=1)

    both = await _patch(http, who, {"email_reminders": True})
    assert (both.json()["email_reminders"], both.json()["digest_time"]) == (True, "07:30")
    assert (await http.get(SETTINGS, headers=who.headers)).json() == both.json()
    # The same time again moves nothing.
    again = await _patch(http, who, {"digest_time": "07:30"})
    assert again.status_code == 200
    unchanged = await _choices(mail_app, who.id)
    assert unchanged is not None and unchanged.digest_next_at == row.digest_next_at

    off = await _patch(http, who, {"digest_time": None})
    assert (off.json()["email_reminders"], off.json()["digest_time"]) == (True, None)
    row = await _choices(mail_app, who.id)
    assert row is not None and row.digest_next_at is None
    nothing = await _patch(http, who, {})
    assert nothing.status_code == 200 and nothing.json() == off.json()


async def test_a_new_zone_moves_the_digest_to_the_same_local_time_there(
    mail_app: FastAPI, http: httpx.AsyncClient
) -> None:
    who = await register(http)
    assert (await _patch(http, who, {"digest_time": "08:00"})).status_code == 200
    moved = await http.patch(
        "/api/auth/me", json={"timezone": "America/Los_Angeles"}, headers=who.headers
    )
    assert moved.status_code == 200
    now = datetime.now(UTC)
    async with mail_app.state.sessionmaker() as session:
        await preferences.rezone(session, who.id, "America/Los_Angeles", now=now)
    row = await _choices(mail_app, who.id)
    assert row is not None
    assert row.digest_next_at == next_digest_at("08:00", "America/Los_Angeles", now)


@pytest.mark.parametrize(
    "value", ["7:30", "24:00", "07:60", "0730", "07:30:00", "", " 07:30", 730, True, ["07:30"]]
)
async def test_a_digest_time_must_be_hh_mm(http: httpx.AsyncClient, value: object) -> None:
    who = await register(http)
    response = await _patch(http, who, {"digest_time": value})
    assert response.status_code == 422, response.text
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "digest_time"]
    if isinstance(value, str):
        assert "HH:MM" in error["msg"]


@pytest.mark.parametrize(
    "body", [{"email_reminders": "yes"}, {"email_reminders": 1}, {"digestTime": "07:00"}, []]
)
async def test_other_bodies_are_refused(http: httpx.AsyncClient, body: Any) -> None:
    who = await register(http)
    assert (await _patch(http, who, body)).status_code == 422


async def test_the_bounds_of_the_day_are_accepted(http: httpx.AsyncClient) -> None:
    who = await register(http)
    for value in ("00:00", "23:59"):
        response = await _patch(http, who, {"digest_time": value})
        assert response.status_code == 200 and response.json()["digest_time"] == value


async def test_email_cannot_be_turned_on_where_the_server_has_no_smtp(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await client.get(SETTINGS, headers=user.headers)
    assert shown.json()["email_available"] is False
    for body in ({"email_reminders": True}, {"digest_time": "07:00"}):
        refused = await client.patch(SETTINGS, json=body, headers=user.headers)
        assert refused.status_code == 409, refused.text
        assert "SMTP" in refused.json()["detail"]
    # Turning off is always allowed.
    off = await client.patch(
        SETTINGS, json={"email_reminders": False, "digest_time": None}, headers=user.headers
    )
    assert off.status_code == 200
    assert (await client.get(SETTINGS, headers=user.headers)).json()["email_reminders"] is False


async def test_the_settings_are_the_accounts_own(client: httpx.AsyncClient) -> None:
    assert (await client.get(SETTINGS)).status_code == 401
    assert (await client.patch(SETTINGS, json={"digest_time": None})).status_code == 401
