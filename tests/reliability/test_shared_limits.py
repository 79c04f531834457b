"""Abuse limits over real HTTP: counted once for all workers, and keyed by an address a client
cannot make up (uvicorn's own X-Forwarded-For handling is part of what is tested)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import postgres_admin
from tests.live_server import live_server

PASSWORD = "correct horse battery"
CHAT_LIMIT = 5
LOGIN_LIMIT = 3


@pytest.fixture(scope="module")
def own_postgresql_url(postgresql_url: str) -> Iterator[str]:
    """A database of this module's own: every test client signs in from 127.0.0.1, and the
    shared database already counts other tests' wrong passwords against that address."""
    name = f"todo_limits_{uuid.uuid4().hex[:12]}"
    asyncio.run(postgres_admin(f'CREATE DATABASE "{name}"'))
    yield f"{postgresql_url.rsplit('/', 1)[0]}/{name}"
    asyncio.run(postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="module")
def two_postgres_workers(
    own_postgresql_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    log = tmp_path_factory.mktemp("shared-limits") / "server.log"
    with live_server(
        own_postgresql_url,
        log,
        workers=2,
        chat_requests_per_minute=str(CHAT_LIMIT),
        login_attempts_per_window=str(LOGIN_LIMIT),
    ) as url:
        yield url


def _each_request_on_a_new_connection(url: str) -> httpx.AsyncClient:
    """New connections are spread over the workers; one kept-alive connection stays on one."""
    return httpx.AsyncClient(
        base_url=url, timeout=60, limits=httpx.Limits(max_keepalive_connections=0)
    )


def _email(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:10]}@example.com"


async def _register(http: httpx.AsyncClient, email: str) -> dict[str, str]:
    response = await http.post("/api/auth/register", json={"email": email, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


async def test_the_chat_limit_holds_exactly_across_two_workers(two_postgres_workers: str) -> None:
    async with _each_request_on_a_new_connection(two_postgres_workers) as http:
        headers = await _register(http, _email("chatty"))
        # The whole burst fits easily in the limit's 60-second window.
        responses = await asyncio.gather(
            *(http.post("/api/chat", json={"message": "hi"}, headers=headers) for _ in range(20))
        )
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200] * CHAT_LIMIT + [429] * (20 - CHAT_LIMIT)


async def test_password_guesses_are_counted_once_across_two_workers(
    two_postgres_workers: str,
) -> None:
    async with _each_request_on_a_new_connection(two_postgres_workers) as http:
        email = _email("target")
        await _register(http, email)
        responses = await asyncio.gather(
            *(
                http.post("/api/auth/login", json={"email": email, "password": f"guess {i}"})
                for i in range(12)
            )
        )
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [401] * LOGIN_LIMIT + [429] * (12 - LOGIN_LIMIT)


async def _guesses_with_made_up_addresses(url: str) -> list[int]:
    """Wrong passwords for unknown accounts, each claiming another X-Forwarded-For."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        return [
            (
                await http.post(
                    "/api/auth/login",
                    json={"email": _email("nobody"), "password": "guess"},
                    headers={"X-Forwarded-For": f"203.0.113.{i}"},
                )
            ).status_code
            for i in range(LOGIN_LIMIT + 2)
        ]


def _own_sqlite_file(tmp_path: Path) -> str:
    """Counts start from nothing: the session's database counts other tests' sign-ins."""
    return f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"


def test_a_made_up_forwarded_for_from_loopback_gets_no_fresh_budget(tmp_path: Path) -> None:
    # A plain `uvicorn backend.main:app`, as deployed without FORWARDED_ALLOW_IPS: uvicorn on
    # its own would believe X-Forwarded-For from 127.0.0.1.
    with live_server(
        _own_sqlite_file(tmp_path),
        tmp_path / "server.log",
        login_attempts_per_window=str(LOGIN_LIMIT),
    ) as url:
        statuses = asyncio.run(_guesses_with_made_up_addresses(url))
    assert statuses == [401] * LOGIN_LIMIT + [429, 429]


def test_clients_named_by_a_trusted_proxy_get_budgets_of_their_own(tmp_path: Path) -> None:
    # The proxy (here: anything on loopback) is configured, so its X-Forwarded-For counts.
    with live_server(
        _own_sqlite_file(tmp_path),
        tmp_path / "server.log",
        login_attempts_per_window=str(LOGIN_LIMIT),
        forwarded_allow_ips="127.0.0.1",
    ) as url:
        statuses = asyncio.run(_guesses_with_made_up_addresses(url))
    assert statuses == [401] * (LOGIN_LIMIT + 2)
