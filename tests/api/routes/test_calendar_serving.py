"""Serving the calendar feed cheaply (issue 30), on both databases: each worker keeps the
rendered document and its ETag, revalidated with If-None-Match, rendered again once the
account's tasks change (whichever worker changed them), throttled per feed, never cached by
clients past a revocation, and never rendered under SQLite's write lock or on the event loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from fastapi import FastAPI

from backend.main import create_app
from backend.services import calendar_feed
from tests.conftest import UserSession, client_for, make_settings, register, running


async def _open(client: httpx.AsyncClient, who: UserSession) -> str:
    response = await client.post("/api/calendar/feed", headers=who.headers)
    assert response.status_code == 201, response.text
    url: str = response.json()["url"]
    return urlparse(url).path


async def _task(client: httpx.AsyncClient, who: UserSession, **body: Any) -> None:
    response = await client.post("/api/tasks", json=body, headers=who.headers)
    assert response.status_code == 201, response.text


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events each rendering of a feed held, in order."""
    seen: list[int] = []
    real = calendar_feed._calendar

    def counting(tasks: Any, *args: Any) -> Any:
        seen.append(len(tasks))
        return real(tasks, *args)

    monkeypatch.setattr(calendar_feed, "_calendar", counting)
    return seen


async def test_the_feed_is_served_for_revalidation_every_time_with_an_etag(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _task(client, user, title="Dentist", due_date="2030-07-02")
    response = await client.get(await _open(client, user))
    assert response.status_code == 200
    # no-cache: a calendar app asks every time, so a revoked feed stops at once
    assert response.headers["cache-control"] == "no-cache, private"
    assert response.headers["etag"]


async def test_an_unchanged_feed_answers_its_etag_with_a_304(
    client: httpx.AsyncClient, user: UserSession, renders: list[int]
) -> None:
    await _task(client, user, title="Dentist", due_date="2030-07-02")
    path = await _open(client, user)
    first = await client.get(path)
    etag = first.headers["etag"]
    again = await client.get(path, headers={"If-None-Match": etag})
    assert (again.status_code, again.content) == (304, b"")
    assert again.headers["etag"] == etag
    assert again.headers["cache-control"] == "no-cache, private"
    listed = await client.get(path, headers={"If-None-Match": f'"other", {etag}'})
    assert listed.status_code == 304
    other = await client.get(path, headers={"If-None-Match": '"not-this-one"'})
    assert (other.status_code, other.content) == (200, first.content)
    assert renders == [1]  # rendered once: the 304s and the last 200 were not rendered


async def test_a_feed_is_rendered_again_only_once_its_tasks_change(
    client: httpx.AsyncClient, user: UserSession, renders: list[int]
) -> None:
    await _task(client, user, title="Dentist", due_date="2030-07-02")
    path = await _open(client, user)
    first = await client.get(path)
    assert (await client.get(path)).content == first.content
    assert renders == [1]
    await client.patch("/api/tasks/1", json={"title": "Orthodontist"}, headers=user.headers)
    changed = await client.get(path)
    assert b"Orthodontist" in changed.content
    assert changed.headers["etag"] != first.headers["etag"]
    assert renders == [1, 1]


@pytest.fixture(scope="module")
async def second_worker(database_url: str) -> AsyncIterator[FastAPI]:
    """Another worker on the same database, with a cache of its own."""
    async with running(create_app(make_settings(database_url))) as application:
        yield application


async def test_every_change_to_the_tasks_reaches_a_worker_that_cached_the_feed(
    client: httpx.AsyncClient, user: UserSession, second_worker: FastAPI
) -> None:
    path = await _open(client, user)
    etags: list[str] = []

    async def served_here() -> bytes:
        response = await client.get(path)
        assert response.status_code == 200
        etags.append(response.headers["etag"])
        if len(etags) > 1:  # a stale ETag is refused: the client gets the new document
            stale = await client.get(path, headers={"If-None-Match": etags[-2]})
            assert stale.status_code == 200
        return response.content

    async with client_for(second_worker) as there:
        changes: list[tuple[str, str, dict[str, Any] | None, Callable[[bytes], bool]]] = [
            ("POST", "/api/tasks", {"title": "Dentist", "due_date": "2030-07-02"}, _has(b"Dent")),
            ("POST", "/api/tasks", {"title": "Rent", "due_date": "2030-08-01"}, _has(b"Rent")),
            ("PATCH", "/api/tasks/1", {"title": "Orthodontist"}, _has(b"Orthodontist")),
            ("PATCH", "/api/tasks/1", {"due_date": "2030-07-09"}, _has(b"20300709")),
            ("PATCH", "/api/tasks/2", {"completed": True}, _lacks(b"Rent")),
            ("PATCH", "/api/tasks/2", {"completed": False}, _has(b"Rent")),
            ("DELETE", "/api/tasks/2", None, _lacks(b"Rent")),
            ("PATCH", "/api/auth/me", {"timezone": "Asia/Tokyo"}, _has(b"Asia/Tokyo")),
        ]
        await served_here()
        for method, url, body, holds in changes:
            response = await there.request(method, url, json=body, headers=user.headers)
            assert response.is_success, response.text
            assert holds(await served_here()), (method, url, body)
    # Each change changed the version (the same tasks again may well have the same one).
    assert all(before != after for before, after in zip(etags, etags[1:], strict=False))


def _has(text: bytes) -> Callable[[bytes], bool]:
    return lambda document: text in document


def _lacks(text: bytes) -> Callable[[bytes], bool]:
    return lambda document: text not in document


@pytest.fixture(scope="module")
async def throttled_app(database_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(database_url, calendar_feed_requests_per_minute=2)
    async with running(create_app(settings)) as application:
        yield application


async def test_a_feed_fetched_past_its_rate_gets_a_429_with_retry_after(
    throttled_app: FastAPI,
) -> None:
    async with client_for(throttled_app) as http:
        user, other = await register(http), await register(http)
        path, others = await _open(http, user), await _open(http, other)
        assert [(await http.get(path)).status_code for _ in range(2)] == [200, 200]
        refused = await http.get(path)
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        # The budget is the feed's: another feed is served.
        assert (await http.get(others)).status_code == 200


@pytest.fixture(scope="module")
async def impatient_sqlite_app(sqlite_url: str) -> AsyncIterator[FastAPI]:
    """Gives up on SQLite's write lock after 200 ms (instead of 30 s)."""
    settings = make_settings(sqlite_url, sqlite_busy_timeout_ms=200)
    async with running(create_app(settings)) as application:
        yield application


async def test_the_feed_is_served_while_another_writer_holds_sqlites_lock(
    impatient_sqlite_app: FastAPI, sqlite_url: str
) -> None:
    """Serving a feed only reads: it neither waits for SQLite's write lock nor holds it
    (holding it while rendering held up every writer)."""
    async with client_for(impatient_sqlite_app) as http:
        user = await register(http)
        await _task(http, user, title="Dentist", due_date="2030-07-02")
        path = await _open(http, user)
        writer = sqlite3.connect(Path(sqlite_url.removeprefix("sqlite+aiosqlite:///")))
        writer.isolation_level = None
        try:
            writer.execute("BEGIN IMMEDIATE")  # another process's write, in flight
            response = await http.get(path)
        finally:
            writer.execute("ROLLBACK")
            writer.close()
        assert response.status_code == 200, response.text
        assert b"Dentist" in response.content


async def test_rendering_a_feed_does_not_hold_up_other_requests(
    client: httpx.AsyncClient, user: UserSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _task(client, user, title="Dentist", due_date="2030-07-02")
    path = await _open(client, user)
    started, released = threading.Event(), threading.Event()
    waited: list[bool] = []
    real = calendar_feed._calendar

    def slow(*args: Any) -> Any:
        started.set()
        # Released by the test once another request was answered: if this ran on the event
        # loop, none could be, and the wait would run out instead.
        waited.append(released.wait(10))
        return real(*args)

    monkeypatch.setattr(calendar_feed, "_calendar", slow)
    feed = asyncio.create_task(client.get(path))
    assert await asyncio.to_thread(started.wait, 30)
    assert (await client.get("/healthz")).status_code == 200
    released.set()
    assert (await feed).status_code == 200
    assert waited == [True]
