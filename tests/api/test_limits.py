"""Abuse limits: per-user chat rate, sign-in throttling, sign-up budget, body size, headers, CORS.

Sign-in and sign-up are counted in the database, which the whole test session shares, so
each test signs in from addresses of its own (`from_address`) and for accounts of its own.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from backend.main import create_app
from tests.conftest import make_settings, register, running, unique_email

LIMIT = 4
PASSWORD = "correct horse battery"


@pytest.fixture
async def strict_app(database_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(
        database_url,
        chat_requests_per_minute=3,
        login_attempts_per_window=LIMIT,
        max_request_bytes=2048,
        cors_origins="https://app.example.com",
    )
    async with running(create_app(settings)) as app:
        yield app


@pytest.fixture
async def strict(strict_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with from_address(strict_app) as http:
        yield http


def fresh_address() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def from_address(app: FastAPI, address: str | None = None) -> httpx.AsyncClient:
    """A client whose requests come from `address` (a fresh one by default)."""
    transport = httpx.ASGITransport(app=app, client=(address or fresh_address(), 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def _sign_in(http: httpx.AsyncClient, email: str, password: str) -> int:
    response = await http.post("/api/auth/login", json={"email": email, "password": password})
    return response.status_code


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


async def test_an_attackers_address_is_throttled_and_the_owner_still_signs_in(
    strict_app: FastAPI,
) -> None:
    async with from_address(strict_app) as owner, from_address(strict_app) as attacker:
        account = await register(owner)
        guesses = [await _sign_in(attacker, account.email, f"guess {i}") for i in range(LIMIT + 1)]
        assert guesses == [401] * LIMIT + [429]
        # Even the right password waits at the guessing address: no race to the answer ...
        blocked = await attacker.post(
            "/api/auth/login", json={"email": account.email, "password": PASSWORD}
        )
        assert blocked.status_code == 429
        assert 1 <= int(blocked.headers["retry-after"]) <= 300
        # ... while the owner, who has not been failing, signs in from elsewhere.
        assert await _sign_in(owner, account.email, PASSWORD) == 200


async def test_one_address_guessing_at_many_accounts_is_throttled(strict_app: FastAPI) -> None:
    async with from_address(strict_app) as attacker:
        statuses = [await _sign_in(attacker, unique_email(), "guess") for _ in range(LIMIT + 1)]
    assert statuses == [401] * LIMIT + [429]


async def test_an_account_under_attack_gives_each_new_address_one_try_but_the_owner_gets_in(
    strict_app: FastAPI,
) -> None:
    async with from_address(strict_app) as owner:
        account = await register(owner)
    for i in range(LIMIT):  # a botnet: each address stays under its own budget
        async with from_address(strict_app) as bot:
            assert await _sign_in(bot, account.email, f"guess {i}") == 401
    async with from_address(strict_app) as bot:
        tries = [await _sign_in(bot, account.email, f"more {i}") for i in range(3)]
    assert tries == [401, 429, 429]
    async with from_address(strict_app) as owner_on_the_road:
        assert await _sign_in(owner_on_the_road, account.email, PASSWORD) == 200


async def test_only_wrong_passwords_count_against_sign_in(strict_app: FastAPI) -> None:
    async with from_address(strict_app) as owner:
        account = await register(owner)
        statuses = [await _sign_in(owner, account.email, PASSWORD) for _ in range(LIMIT * 2)]
    assert statuses == [200] * (LIMIT * 2)


async def test_sign_in_and_sign_up_budgets_are_separate(strict_app: FastAPI) -> None:
    async with from_address(strict_app) as http:
        # An account named "register" once shared the sign-up budget's key.
        assert [await _sign_in(http, "register", "guess") for _ in range(LIMIT)] == [401] * LIMIT
        await register(http)  # sign-up still open
        for _ in range(LIMIT - 1):
            await register(http)
        refused = await http.post(
            "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
        )
        assert refused.status_code == 429
        assert "retry-after" in refused.headers
    async with from_address(strict_app) as http:
        account = await register(http)
        for _ in range(LIMIT):  # the sign-up budget is spent here ...
            await http.post(
                "/api/auth/register", json={"email": unique_email(), "password": PASSWORD}
            )
        assert await _sign_in(http, account.email, PASSWORD) == 200  # ... sign-in is not


async def test_a_made_up_forwarded_for_header_buys_no_fresh_sign_in_budget(
    strict_app: FastAPI,
) -> None:
    async with from_address(strict_app) as http:
        statuses = [
            (
                await http.post(
                    "/api/auth/login",
                    json={"email": unique_email(), "password": "guess"},
                    headers={"X-Forwarded-For": fresh_address()},
                )
            ).status_code
            for _ in range(LIMIT + 1)
        ]
    assert statuses[-1] == 429


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
