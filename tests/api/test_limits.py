"""Abuse limits: per-user chat rate, sign-in throttling, body size, headers, CORS."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from backend.core.limits import SlidingWindowLimiter
from backend.main import create_app
from tests.conftest import client_for, make_settings, register, running, unique_email


@pytest.fixture
async def strict_app(sqlite_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(
        sqlite_url,
        chat_requests_per_minute=3,
        login_attempts_per_window=4,
        max_request_bytes=2048,
        cors_origins="https://app.example.com",
    )
    async with running(create_app(settings)) as app:
        yield app


@pytest.fixture
async def strict(strict_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(strict_app) as http:
        yield http


async def test_chat_is_rate_limited_per_user_with_retry_after(strict: httpx.AsyncClient) -> None:
    alice = await register(strict)
    bob = await register(strict)
    statuses = [
        (await strict.post("/api/chat", json={"message": "hi"}, headers=alice.headers)).status_code
        for _ in range(4)
    ]
    assert statuses == [200, 200, 200, 429]
    limited = await strict.post("/api/chat/stream", json={"message": "hi"}, headers=alice.headers)
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["retry-after"]) <= 60
    assert limited.json()["detail"] == "Too many requests; please slow down"
    other = await strict.post("/api/chat", json={"message": "hi"}, headers=bob.headers)
    assert other.status_code == 200  # limits are per user


async def test_login_attempts_are_throttled_per_account(strict: httpx.AsyncClient) -> None:
    account = await register(strict)
    wrong = {"email": account.email, "password": "wrong password"}
    statuses = [(await strict.post("/api/auth/login", json=wrong)).status_code for _ in range(5)]
    assert statuses == [401, 401, 401, 401, 429]
    right = {"email": account.email, "password": "correct horse battery"}
    blocked = await strict.post("/api/auth/login", json=right)
    assert blocked.status_code == 429  # even the right password waits: no guessing race
    assert "retry-after" in blocked.headers
    fresh = await strict.post("/api/auth/login", json={"email": unique_email(), "password": "x"})
    assert fresh.status_code == 401  # another account is not affected


async def test_request_bodies_over_the_limit_get_413(strict: httpx.AsyncClient) -> None:
    account = await register(strict)
    big = await strict.post(
        "/api/tasks",
        content=b'{"title": "' + b"x" * 5000 + b'"}',
        headers={**account.headers, "content-type": "application/json"},
    )
    assert big.status_code == 413
    assert "too large" in big.json()["detail"]

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"title": "'
        for _ in range(10):
            yield b"y" * 500
        yield b'"}'

    streamed = await strict.post(
        "/api/tasks",
        content=chunks(),
        headers={**account.headers, "content-type": "application/json"},
    )
    assert streamed.status_code == 413


async def test_security_headers_on_api_and_ui_responses(strict: httpx.AsyncClient) -> None:
    for path in ("/healthz", "/"):
        headers = (await strict.get(path)).headers
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
    docs = await strict.get("/docs")
    assert "content-security-policy" not in docs.headers  # Swagger UI loads from its CDN


async def test_cors_allows_only_configured_origins(strict: httpx.AsyncClient) -> None:
    def preflight(origin: str) -> dict[str, str]:
        return {
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        }

    allowed = await strict.options("/api/chat", headers=preflight("https://app.example.com"))
    assert allowed.headers["access-control-allow-origin"] == "https://app.example.com"
    denied = await strict.options("/api/chat", headers=preflight("https://evil.example"))
    assert "access-control-allow-origin" not in denied.headers


def test_the_sliding_window_frees_slots_as_time_passes() -> None:
    now = [0.0]
    limiter = SlidingWindowLimiter(2, 10, clock=lambda: now[0])
    assert limiter.hit("k") is None
    now[0] = 4
    assert limiter.hit("k") is None
    assert limiter.hit("k") == 6  # the first hit leaves the window at t=10
    now[0] = 10.5
    assert limiter.hit("k") is None


def test_the_limiter_forgets_idle_keys_to_bound_memory() -> None:
    now = [0.0]
    limiter = SlidingWindowLimiter(1, 1, clock=lambda: now[0], max_keys=3)
    for key in "abc":
        limiter.hit(key)
    now[0] = 5
    limiter.hit("d")
    assert limiter.retry_after("a") is None
    assert len(limiter._hits) <= 3
