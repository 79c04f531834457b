"""Personal access tokens over REST (specs/access-tokens.md), on both databases: made, listed
and revoked by a signed-in account; shown once and stored as a hash; the bearer of REST
requests and chat turns, a `read` one changing nothing on any path; stopped at once when
revoked, expired or its account removed; wrong ones throttled like wrong passwords."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, update
from sqlmodel import col, select

from backend.core.db import SessionMaker
from backend.core.timeutil import utcnow
from backend.main import create_app
from backend.models import PersonalAccessToken, User
from tests.conftest import UserSession, client_for, make_settings, register, running


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def make_token(
    client: httpx.AsyncClient, user: UserSession, scope: str = "write", **extra: Any
) -> dict[str, Any]:
    response = await client.post(
        "/api/tokens",
        json={"name": f"{scope} script", "scope": scope, **extra},
        headers=user.headers,
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def sessionmaker_of(app: FastAPI) -> SessionMaker:
    maker: SessionMaker = app.state.sessionmaker
    return maker


async def test_a_token_is_shown_once_with_its_prefix_and_only_its_hash_is_stored(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    made = await make_token(client, user, expires_in_days=30)
    token = made["token"]
    assert token.startswith("tdc_") and len(token) >= 4 + 43
    assert set(made) == {
        "id",
        "name",
        "scope",
        "token",
        "prefix",
        "created_at",
        "last_used_at",
        "expires_at",
    }
    assert made["prefix"] == token[:12] and made["scope"] == "write"
    assert made["expires_at"] is not None
    listed = await client.get("/api/tokens", headers=user.headers)
    assert listed.status_code == 200
    [shown] = listed.json()
    assert "token" not in shown and shown["id"] == made["id"] and shown["prefix"] == made["prefix"]
    async with sessionmaker_of(app)() as session:
        row = await session.get(PersonalAccessToken, made["id"])
    assert row is not None
    assert row.secret_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {row.name, row.prefix, row.secret_hash}


async def test_two_tokens_are_never_alike_and_each_account_sees_only_its_own(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    first, second = await make_token(client, user), await make_token(client, user)
    assert first["token"] != second["token"]
    theirs = await make_token(client, other_user)
    listed = (await client.get("/api/tokens", headers=user.headers)).json()
    assert [row["id"] for row in listed] == [first["id"], second["id"]]
    refused = await client.delete(f"/api/tokens/{theirs['id']}", headers=user.headers)
    assert refused.status_code == 404
    still = await client.get("/api/tasks", headers=bearer(theirs["token"]))
    assert still.status_code == 200


async def test_a_write_token_manages_tasks_like_the_account_does(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    token = (await make_token(client, user))["token"]
    added = await client.post("/api/tasks", json={"title": "buy milk"}, headers=bearer(token))
    assert added.status_code == 201, added.text
    mine = await client.get("/api/tasks", headers=user.headers)
    assert [task["title"] for task in mine.json()] == ["buy milk"]
    done = await client.patch(
        f"/api/tasks/{added.json()['id']}", json={"completed": True}, headers=bearer(token)
    )
    assert done.status_code == 200


async def test_a_read_token_reads_but_every_change_is_a_403(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    added = await client.post("/api/tasks", json={"title": "pay rent"}, headers=user.headers)
    number = added.json()["id"]
    token = (await make_token(client, user, "read"))["token"]
    assert (await client.get("/api/tasks", headers=bearer(token))).status_code == 200
    assert (await client.get("/api/lists", headers=bearer(token))).status_code == 200
    assert (await client.get("/api/conversations", headers=bearer(token))).status_code == 200
    changes = [
        client.post("/api/tasks", json={"title": "x"}, headers=bearer(token)),
        client.patch(f"/api/tasks/{number}", json={"title": "y"}, headers=bearer(token)),
        client.delete(f"/api/tasks/{number}", headers=bearer(token)),
        client.post("/api/lists", json={"name": "Work"}, headers=bearer(token)),
        client.post("/api/calendar/feed", headers=bearer(token)),
    ]
    for change in changes:
        response = await change
        assert response.status_code == 403, response.text
        assert "read scope" in response.json()["detail"]
    [task] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert task["title"] == "pay rent" and task["completed"] is False


async def test_a_read_token_chats_but_its_turn_changes_nothing_and_says_why(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await client.post("/api/tasks", json={"title": "call mom"}, headers=user.headers)
    token = (await make_token(client, user, "read"))["token"]

    async def say(message: str, conversation: int | None = None) -> dict[str, Any]:
        response = await client.post(
            "/api/chat",
            json={"message": message, "conversation_id": conversation},
            headers=bearer(token),
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    listed = await say("what's on my list?")
    assert "call mom" in listed["response"]
    refused = await say("add buy milk", listed["conversation_id"])
    assert "read-only" in refused["response"]
    deleted = await say("delete task 1", listed["conversation_id"])
    assert "read-only" in deleted["response"] or "?" in deleted["response"]
    tasks = (await client.get("/api/tasks", headers=user.headers)).json()
    assert [(task["title"], task["completed"]) for task in tasks] == [("call mom", False)]


async def test_a_token_cannot_manage_tokens_or_the_account(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    made = await make_token(client, user)
    token = made["token"]
    for response in (
        await client.post(
            "/api/tokens", json={"name": "more", "scope": "write"}, headers=bearer(token)
        ),
        await client.get("/api/tokens", headers=bearer(token)),
        await client.delete(f"/api/tokens/{made['id']}", headers=bearer(token)),
        await client.patch(
            "/api/auth/me", json={"timezone": "Europe/Paris"}, headers=bearer(token)
        ),
    ):
        assert response.status_code == 403, response.text
        assert "sign" in response.json()["detail"].lower()
    assert (await client.get("/api/auth/me", headers=bearer(token))).status_code == 200


async def test_revoking_a_token_stops_it_at_once(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    made = await make_token(client, user)
    assert (await client.get("/api/tasks", headers=bearer(made["token"]))).status_code == 200
    revoked = await client.delete(f"/api/tokens/{made['id']}", headers=user.headers)
    assert revoked.status_code == 204
    refused = await client.get("/api/tasks", headers=bearer(made["token"]))
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"] == "Bearer"
    again = await client.delete(f"/api/tokens/{made['id']}", headers=user.headers)
    assert again.status_code == 404


async def test_an_expired_unknown_or_orphaned_token_is_a_401(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await register(client)
    made = await make_token(client, owner, expires_in_days=1)
    async with sessionmaker_of(app)() as session:
        await session.exec(
            update(PersonalAccessToken)
            .where(col(PersonalAccessToken.id) == made["id"])
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
        await session.commit()
    assert (await client.get("/api/tasks", headers=bearer(made["token"]))).status_code == 401
    unknown = "tdc_" + "A" * 43
    assert (await client.get("/api/tasks", headers=bearer(unknown))).status_code == 401
    gone = await make_token(client, owner)
    async with sessionmaker_of(app)() as session:
        await session.exec(delete(User).where(col(User.id) == owner.id))
        await session.commit()
        left = await session.exec(
            select(PersonalAccessToken).where(col(PersonalAccessToken.owner_id) == owner.id)
        )
        assert left.all() == []
    assert (await client.get("/api/tasks", headers=bearer(gone["token"]))).status_code == 401


async def test_use_is_recorded_as_last_used(client: httpx.AsyncClient, user: UserSession) -> None:
    made = await make_token(client, user)
    assert made["last_used_at"] is None
    await client.get("/api/tasks", headers=bearer(made["token"]))
    [row] = (await client.get("/api/tokens", headers=user.headers)).json()
    assert row["last_used_at"] is not None


@pytest.mark.parametrize(
    "body",
    [
        {"name": "", "scope": "read"},
        {"name": "   ", "scope": "read"},
        {"name": "x" * 101, "scope": "read"},
        {"name": "ok", "scope": "admin"},
        {"name": "ok"},
        {"name": "ok", "scope": "read", "expires_in_days": 0},
        {"name": "ok", "scope": "read", "expires_in_days": 10_000},
    ],
)
async def test_a_bad_token_request_is_a_422(
    client: httpx.AsyncClient, user: UserSession, body: dict[str, Any]
) -> None:
    response = await client.post("/api/tokens", json=body, headers=user.headers)
    assert response.status_code == 422, response.text


@pytest.fixture
async def throttled(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    # A database of its own: the throttle counts in the database, where other tests' sign-ups
    # and wrong passwords from this address would spend the same budget.
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"
    settings = make_settings(database_url, login_attempts_per_window=3)
    async with running(create_app(settings)) as app, client_for(app) as http:
        yield http


async def test_guessing_tokens_is_throttled_like_sign_in_but_a_right_token_still_works(
    throttled: httpx.AsyncClient,
) -> None:
    owner = await register(throttled)
    token = (await make_token(throttled, owner))["token"]
    answers = [
        (await throttled.get("/api/tasks", headers=bearer(f"tdc_guess{n:040d}"))).status_code
        for n in range(6)
    ]
    assert answers[:3] == [401, 401, 401]
    assert answers[3:] == [429, 429, 429]
    limited = await throttled.get("/api/tasks", headers=bearer("tdc_" + "B" * 43))
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
    assert (await throttled.get("/api/tasks", headers=bearer(token))).status_code == 200
