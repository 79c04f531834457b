"""The reminder stream's lifetime (issue 30), on both databases: an account holds a bounded
number of streams, and each one ends once its token expires or its account is gone, even
when the account's id comes back for someone else; a dismissed reminder is never streamed."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, delete

from backend.core.timeutil import utcnow
from backend.main import create_app
from backend.models import Task, User
from backend.reminders import fanout as fanout_module
from backend.reminders.fanout import ReminderFanout
from tests.api.routes.reminder_clock import reminders_due_now
from tests.asgi_stream import open_stream
from tests.conftest import UserSession, client_for, make_settings, register, running

STREAM = "/api/reminders/stream"


async def _task(client: httpx.AsyncClient, who: UserSession, title: str) -> None:
    body = {"title": title, "due_date": "2031-03-04", "due_time": "10:00"}
    response = await client.post("/api/tasks", json=body, headers=who.headers)
    assert response.status_code == 201, response.text


async def _remove_account(app: FastAPI, user_id: int) -> None:
    """An operator removes the account (its tasks and reminders go with it)."""
    async with app.state.sessionmaker() as session:
        await session.exec(delete(User).where(col(User.id) == user_id))
        await session.commit()


def _fanout(app: FastAPI) -> ReminderFanout:
    fanout: ReminderFanout = app.state.reminder_fanout
    return fanout


def _title(event: dict[str, str] | None) -> Any:
    assert event is not None, "the stream ended"
    return json.loads(event["data"])["title"]


@pytest.fixture(scope="module")
async def capped_app(database_url: str) -> AsyncIterator[FastAPI]:
    """An app that allows two streams per account."""
    settings = make_settings(database_url, reminder_streams_per_account=2)
    async with running(create_app(settings)) as application:
        yield application


async def test_an_account_gets_the_streams_allowed_and_a_429_past_them_until_one_closes(
    capped_app: FastAPI,
) -> None:
    async with client_for(capped_app) as http:
        user, other = await register(http), await register(http)
    async with (
        open_stream(capped_app, STREAM, user.headers) as first,
        open_stream(capped_app, STREAM, user.headers) as second,
    ):
        assert (first.status, second.status) == (200, 200)
        async with open_stream(capped_app, STREAM, user.headers) as third:
            assert third.status == 429
            assert int(third.headers["retry-after"]) >= 1
            assert await third.end() == []
            assert "streams" in json.loads(third.body)["detail"]
        # The cap is the account's: another account is not held back by it.
        async with open_stream(capped_app, STREAM, other.headers) as others:
            assert others.status == 200
    # The streams that ended gave their places back.
    async with open_stream(capped_app, STREAM, user.headers) as again:
        assert again.status == 200


async def test_a_stream_ends_at_the_first_check_after_its_token_expires(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _task(client, user, "after the token expired")
    async with open_stream(app, STREAM, user.headers) as stream:
        assert stream.status == 200
        lifetime = timedelta(minutes=app.state.settings.access_token_expire_minutes)
        later = utcnow() + lifetime + timedelta(seconds=1)
        # The fanout's clock passes the token's expiry (raising=False: a fanout that never
        # looks at the clock fails below, not here).
        monkeypatch.setattr(fanout_module, "utcnow", lambda: later, raising=False)
        await reminders_due_now(app, user.id, 1)
        await _fanout(app).poll()
        assert await stream.end() == []  # ended, and the reminder was not handed to it


async def test_a_removed_accounts_stream_is_closed_at_the_next_check(
    app: FastAPI, user: UserSession
) -> None:
    async with open_stream(app, STREAM, user.headers) as stream:
        assert stream.status == 200
        await _remove_account(app, user.id)
        await _fanout(app).poll()
        assert await stream.end() == []


async def test_a_removed_accounts_stream_never_gets_the_reminders_of_the_next_owner_of_its_id(
    app: FastAPI, user: UserSession
) -> None:
    """SQLite hands a removed newest account's id to the next sign-up; the new account is
    given the same id here on either database."""
    async with open_stream(app, STREAM, user.headers) as stream:
        assert stream.status == 200
        await _remove_account(app, user.id)
        async with app.state.sessionmaker() as session:
            session.add(
                User(
                    id=user.id,
                    email=f"next-{uuid.uuid4().hex[:10]}@example.com",
                    hashed_password="not a hash: this account never signs in",
                    last_task_number=1,
                )
            )
            await session.flush()
            session.add(
                Task(
                    owner_id=user.id,
                    number=1,
                    title="the next owner's",
                    remind_at=datetime.now(UTC) - timedelta(seconds=1),
                )
            )
            await session.commit()
        await app.state.reminder_scheduler.sweep()
        await _fanout(app).poll()
        assert await stream.next_event() is None  # ended, with nothing of the next owner's


async def test_a_reminder_dismissed_while_no_stream_was_open_is_never_streamed(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    fanout = _fanout(app)
    await fanout.poll()  # the fanout has looked before: it reads on from the newest reminder
    for title in ("dismissed", "live"):
        await _task(client, user, title)
    await reminders_due_now(app, user.id, 1)  # nobody is connected
    [shown] = (await client.get("/api/reminders", headers=user.headers)).json()["reminders"]
    gone = await client.delete(f"/api/reminders/{shown['id']}", headers=user.headers)
    assert gone.status_code == 204
    async with open_stream(app, STREAM, user.headers) as stream:
        assert stream.status == 200
        await fanout.poll()
        await reminders_due_now(app, user.id, 2)
        await fanout.poll()
        assert _title(await stream.next_event()) == "live"
