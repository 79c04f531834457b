"""The task list in pages (issue 30), on both databases: one bounded page unless asked for
more (never every task of a large account at once), the next page named in a Link header,
and every task reached exactly once by following it, filters and order kept. The list only
reads: on SQLite it neither waits for the write lock nor holds it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, update

from backend.main import create_app
from backend.models import Task, User
from backend.services.tasks import TASK_PAGE, TASK_PAGE_MAX
from tests.conftest import UserSession, client_for, make_settings, register, running


async def _tasks(app: FastAPI, owner_id: int, count: int) -> None:
    """`count` tasks written straight to the database (every third one done)."""
    async with app.state.sessionmaker() as session:
        session.add_all(
            Task(owner_id=owner_id, number=n, title=f"task {n:04}", completed=n % 3 == 0)
            for n in range(1, count + 1)
        )
        await session.exec(
            update(User).where(col(User.id) == owner_id).values(last_task_number=count)
        )
        await session.commit()


def _next(response: httpx.Response) -> str | None:
    """The next page's URL from the Link header (RFC 8288), if there is one."""
    link = response.headers.get("link")
    if link is None:
        return None
    target, _, relation = link.partition(";")
    assert relation.strip() == 'rel="next"', link
    return target.strip().removeprefix("<").removesuffix(">")


async def test_the_task_list_answers_one_bounded_page_unless_asked_for_more(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    await _tasks(app, user.id, TASK_PAGE + 5)
    response = await client.get("/api/tasks", headers=user.headers)
    assert response.status_code == 200
    assert [t["id"] for t in response.json()] == list(range(1, TASK_PAGE + 1))
    assert _next(response) == f"/api/tasks?limit={TASK_PAGE}&offset={TASK_PAGE}"
    rest = await client.get(str(_next(response)), headers=user.headers)
    assert [t["id"] for t in rest.json()] == list(range(TASK_PAGE + 1, TASK_PAGE + 6))
    assert _next(rest) is None  # the last page
    everything = await client.get("/api/tasks", params={"limit": 1000}, headers=user.headers)
    assert len(everything.json()) == TASK_PAGE + 5
    assert _next(everything) is None


async def test_following_the_pages_reaches_every_task_once_with_filters_and_order_kept(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    await _tasks(app, user.id, 50)
    asked: dict[str, Any] = {"status": "pending", "sort": "title", "q": "task"}
    whole = await client.get("/api/tasks", params={**asked, "limit": 1000}, headers=user.headers)
    expected = [t["id"] for t in whole.json()]
    assert len(expected) == 34  # 50 less the 16 done
    seen: list[int] = []
    url: str | None = "/api/tasks"
    params: dict[str, Any] | None = {**asked, "limit": 7}
    while url is not None:
        page = await client.get(url, params=params, headers=user.headers)
        assert page.status_code == 200, page.text
        assert len(page.json()) <= 7
        seen += [t["id"] for t in page.json()]
        url, params = _next(page), None  # the link carries the filters
    assert seen == expected


async def test_every_page_counts_the_tasks_that_pass_the_filters(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    await _tasks(app, user.id, 50)
    pending = {"status": "pending", "sort": "title"}
    pages = [
        await client.get(
            "/api/tasks", params={**pending, "limit": 7, "offset": offset}, headers=user.headers
        )
        for offset in (0, 7, 28, 34, 40)  # first, middle, last, just past the end, far past it
    ]
    assert [len(page.json()) for page in pages] == [7, 7, 6, 0, 0]
    assert [page.headers["x-total-count"] for page in pages] == ["34"] * 5
    everything = await client.get("/api/tasks", params={"limit": 1000}, headers=user.headers)
    assert everything.headers["x-total-count"] == "50"
    done = await client.get("/api/tasks", params={"status": "completed"}, headers=user.headers)
    assert done.headers["x-total-count"] == "16"


async def test_an_account_without_tasks_counts_none(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await client.get("/api/tasks", headers=user.headers)
    assert response.json() == []
    assert response.headers["x-total-count"] == "0"


async def test_the_total_counts_only_the_callers_tasks(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await _tasks(app, user.id, 12)
    theirs = await client.get("/api/tasks", params={"limit": 5}, headers=other_user.headers)
    assert theirs.headers["x-total-count"] == "0"
    mine = await client.get("/api/tasks", params={"limit": 5}, headers=user.headers)
    assert mine.headers["x-total-count"] == "12"


async def test_a_page_of_another_origin_may_read_its_total_and_next_link(
    database_url: str,
) -> None:
    settings = make_settings(database_url, cors_origins="https://app.example.com")
    async with running(create_app(settings)) as app, client_for(app) as http:
        user = await register(http)
        await _tasks(app, user.id, 3)
        origin = {"Origin": "https://app.example.com"}
        page = await http.get("/api/tasks", params={"limit": 2}, headers={**user.headers, **origin})
        exposed = {
            h.strip().lower() for h in page.headers["access-control-expose-headers"].split(",")
        }
        assert {"x-total-count", "link"} <= exposed
        assert page.headers["x-total-count"] == "3"


@pytest.mark.parametrize(
    "params",
    [{"limit": TASK_PAGE_MAX + 1}, {"limit": 0}, {"offset": -1}, {"limit": "all"}],
)
async def test_a_page_past_the_bounds_is_a_422(
    client: httpx.AsyncClient, user: UserSession, params: dict[str, Any]
) -> None:
    response = await client.get("/api/tasks", params=params, headers=user.headers)
    assert response.status_code == 422, response.text


async def test_the_page_bounds_are_documented(client: httpx.AsyncClient) -> None:
    operation = (await client.get("/openapi.json")).json()["paths"]["/api/tasks"]["get"]
    parameters = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert parameters["limit"]["default"] == TASK_PAGE
    assert parameters["limit"]["maximum"] == TASK_PAGE_MAX
    assert parameters["offset"]["default"] == 0
    headers = operation["responses"]["200"]["headers"]
    assert headers["X-Total-Count"]["schema"]["type"] == "integer"
    assert 'rel="next"' in headers["Link"]["description"]


@pytest.fixture(scope="module")
async def impatient_sqlite_app(sqlite_url: str) -> AsyncIterator[FastAPI]:
    """Gives up on SQLite's write lock after 200 ms (instead of 30 s)."""
    settings = make_settings(sqlite_url, sqlite_busy_timeout_ms=200)
    async with running(create_app(settings)) as application:
        yield application


async def test_the_task_list_is_read_while_another_writer_holds_sqlites_lock(
    impatient_sqlite_app: FastAPI, sqlite_url: str
) -> None:
    async with client_for(impatient_sqlite_app) as http:
        user = await register(http)
        await http.post("/api/tasks", json={"title": "read me"}, headers=user.headers)
        writer = sqlite3.connect(Path(sqlite_url.removeprefix("sqlite+aiosqlite:///")))
        writer.isolation_level = None
        try:
            writer.execute("BEGIN IMMEDIATE")  # another process's write, in flight
            listed = await http.get("/api/tasks", headers=user.headers)
            one = await http.get("/api/tasks/1", headers=user.headers)
        finally:
            writer.execute("ROLLBACK")
            writer.close()
        assert listed.status_code == 200, listed.text
        assert [t["title"] for t in listed.json()] == ["read me"]
        assert one.status_code == 200, one.text


async def test_task_list_reads_past_the_per_user_budget_get_429_and_others_go_on(
    database_url: str,
) -> None:
    settings = make_settings(database_url, task_reads_per_minute=2)
    async with running(create_app(settings)) as app, client_for(app) as http:
        user, other = await register(http), await register(http)
        for _ in range(2):
            assert (await http.get("/api/tasks", headers=user.headers)).status_code == 200
        refused = await http.get("/api/tasks", params={"limit": 1000}, headers=user.headers)
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) >= 1
        # The budget is the reader's own, and only the list's: one task and writes still go.
        assert (await http.get("/api/tasks", headers=other.headers)).status_code == 200
        added = await http.post("/api/tasks", json={"title": "still"}, headers=user.headers)
        assert added.status_code == 201
        assert (await http.get("/api/tasks/1", headers=user.headers)).status_code == 200
