"""Sign-in bursts and an exhausted connection pool end cleanly: password hashing runs in a
thread of its own with no pooled connection held, and a request that cannot get a connection
(or a turn at the password hasher) is a 503 with Retry-After, never a plain 500. On both
databases; timeouts here only guard against hangs."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pwdlib import PasswordHash
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from backend.core import security
from backend.main import create_app
from tests.conftest import client_for, make_settings, running, unique_email

PASSWORD = "correct horse battery"
HANG_GUARD_SECONDS = 60


@dataclass
class HashingSeen:
    """Where each argon2 hash or check ran: on the event loop or not, and how many pooled
    connections were checked out meanwhile."""

    engine: AsyncEngine | None = None
    calls: list[tuple[str, bool, int]] = field(default_factory=list)

    def record(self, what: str) -> None:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        assert self.engine is not None
        self.calls.append((what, on_loop, self.engine.pool.checkedout()))  # type: ignore[attr-defined]


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> HashingSeen:
    spy = HashingSeen()
    real_hash, real_verify = PasswordHash.hash, PasswordHash.verify

    def hash_(self: PasswordHash, password: str | bytes, **kwargs: Any) -> str:
        spy.record("hash")
        return real_hash(self, password, **kwargs)

    def verify(self: PasswordHash, password: str | bytes, hashed: str | bytes) -> bool:
        spy.record("verify")
        return real_verify(self, password, hashed)

    monkeypatch.setattr(PasswordHash, "hash", hash_)
    monkeypatch.setattr(PasswordHash, "verify", verify)
    return spy


def _app(database_url: str, **settings: Any) -> FastAPI:
    # No reminder sweeps or stream polls: nothing else takes a connection during a test.
    return create_app(make_settings(database_url, reminder_check_seconds=300, **settings))


@pytest.fixture
async def quiet_app(database_url: str) -> AsyncIterator[FastAPI]:
    async with running(_app(database_url)) as app:
        yield app


async def test_a_sign_up_hashes_off_the_event_loop_with_no_connection_held(
    quiet_app: FastAPI, seen: HashingSeen
) -> None:
    seen.engine = quiet_app.state.engine
    async with client_for(quiet_app) as http:
        response = await http.post(
            "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
        )
    assert response.status_code == 201, response.text
    assert seen.calls == [("hash", False, 0)]


@pytest.mark.parametrize("known", [True, False], ids=["known email", "unknown email"])
async def test_a_sign_in_checks_the_password_off_the_event_loop_with_no_connection_held(
    quiet_app: FastAPI, seen: HashingSeen, known: bool
) -> None:
    email = unique_email()
    seen.engine = quiet_app.state.engine
    async with client_for(quiet_app) as http:
        await http.post("/api/auth/register", json={"email": email, "password": PASSWORD})
        seen.calls.clear()
        response = await http.post(
            "/api/auth/login",
            json={"email": email if known else unique_email(), "password": PASSWORD},
        )
    assert response.status_code == (200 if known else 401), response.text
    # An unknown email is checked against a dummy hash, so it costs what a known one does.
    assert seen.calls == [("verify", False, 0)]


async def _hold_every_connection(engine: AsyncEngine) -> list[AsyncConnection]:
    """Checks out connections until the pool has none left (its timeout says when)."""
    held: list[AsyncConnection] = []
    while True:
        try:
            held.append(await engine.connect())
        except TimeoutError:
            return held
        except Exception as exc:  # sqlalchemy.exc.TimeoutError is not the built-in one
            if type(exc).__name__ != "TimeoutError":
                raise
            return held


async def test_a_request_that_gets_no_pooled_connection_is_a_503_with_retry_after(
    database_url: str,
) -> None:
    app = _app(database_url, db_pool_size=1, db_max_overflow=0, db_pool_timeout_seconds=0.2)
    async with running(app), client_for(app) as http:
        token = (
            await http.post(
                "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
            )
        ).json()["access_token"]
        held = await _hold_every_connection(app.state.engine)
        try:
            response = await http.get("/api/tasks", headers={"Authorization": f"Bearer {token}"})
        finally:
            for connection in held:
                await connection.close()
        after = await http.get("/api/tasks", headers={"Authorization": f"Bearer {token}"})
    assert held
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"].isdigit()
    assert response.json() == {"detail": "The service is temporarily unavailable"}
    assert after.status_code == 200


async def test_an_mcp_request_that_gets_no_pooled_connection_is_a_503_with_retry_after(
    database_url: str,
) -> None:
    app = _app(database_url, db_pool_size=1, db_max_overflow=0, db_pool_timeout_seconds=0.2)
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    async with running(app), client_for(app) as http:
        token = (
            await http.post(
                "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
            )
        ).json()["access_token"]
        headers = {
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        }
        held = await _hold_every_connection(app.state.engine)
        try:
            response = await http.post("/mcp", json=call, headers=headers)
        finally:
            for connection in held:
                await connection.close()
        after = await http.post("/mcp", json=call, headers=headers)
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"].isdigit()
    assert response.json() == {"detail": "The service is temporarily unavailable"}
    assert after.status_code == 200, after.text


async def _burst(http: httpx.AsyncClient, send: Callable[[], Any], count: int) -> list[int]:
    """`count` requests at once: each one's status (500 for an exception the app let out)."""
    results = await asyncio.wait_for(
        asyncio.gather(*(send() for _ in range(count)), return_exceptions=True),
        HANG_GUARD_SECONDS,
    )
    statuses = []
    for result in results:
        if isinstance(result, httpx.Response):
            if result.status_code == 503:
                assert result.headers["Retry-After"].isdigit()
            statuses.append(result.status_code)
        else:
            statuses.append(500)
    return statuses


async def test_a_burst_of_sign_ins_on_a_tiny_pool_gets_200s_and_503s_never_500s(
    database_url: str,
) -> None:
    app = _app(database_url, db_pool_size=1, db_max_overflow=0, db_pool_timeout_seconds=0.5)
    email = unique_email()
    async with running(app), client_for(app) as http:
        await http.post("/api/auth/register", json={"email": email, "password": PASSWORD})

        def sign_in() -> Any:
            return http.post("/api/auth/login", json={"email": email, "password": PASSWORD})

        statuses = await _burst(http, sign_in, 24)
    assert set(statuses) <= {200, 503}, statuses
    assert 200 in statuses


async def test_a_burst_of_sign_ups_on_a_tiny_pool_gets_201s_and_503s_never_500s(
    database_url: str,
) -> None:
    app = _app(database_url, db_pool_size=1, db_max_overflow=0, db_pool_timeout_seconds=0.5)
    async with running(app), client_for(app) as http:

        def sign_up() -> Any:
            return http.post(
                "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
            )

        statuses = await _burst(http, sign_up, 24)
    assert set(statuses) <= {201, 503}, statuses
    assert 201 in statuses


async def test_past_the_waiting_room_of_the_password_hasher_a_sign_up_is_a_503(
    quiet_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    started = threading.Event()
    real_hash = PasswordHash.hash

    def held_hash(self: PasswordHash, password: str | bytes, **kwargs: Any) -> str:
        started.set()
        assert release.wait(HANG_GUARD_SECONDS)
        return real_hash(self, password, **kwargs)

    monkeypatch.setattr(PasswordHash, "hash", held_hash)
    monkeypatch.setattr(security, "MAX_PENDING_HASHES", 1)
    async with client_for(quiet_app) as http:
        first = asyncio.create_task(
            http.post("/api/auth/register", json={"email": unique_email(), "password": PASSWORD})
        )
        assert await asyncio.to_thread(started.wait, HANG_GUARD_SECONDS)
        second = await http.post(
            "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
        )
        release.set()
        first_response = await asyncio.wait_for(first, HANG_GUARD_SECONDS)
    assert second.status_code == 503, second.text
    assert second.headers["Retry-After"].isdigit()
    assert first_response.status_code == 201
