"""Dates, lists, priorities and tags said in chat reach the task (issue 14), through the real
endpoint, Runner, MCP tools and database, for a user far from the server's zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx

from tests.conftest import ChatFn, UserSession

ZONE = "Pacific/Kiritimati"  # UTC+14


async def _tasks(client: httpx.AsyncClient, user: UserSession) -> list[dict[str, object]]:
    response = await client.get("/api/tasks", headers=user.headers)
    assert response.status_code == 200
    tasks: list[dict[str, object]] = response.json()
    return tasks


async def test_a_reminder_with_a_day_and_time_is_stored_on_the_users_clock(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await client.patch("/api/auth/me", json={"timezone": ZONE}, headers=user.headers)
    before = datetime.now(UTC).astimezone(ZoneInfo(ZONE)).date()
    body = await chat("remind me to pay rent tomorrow at 9")
    after = datetime.now(UTC).astimezone(ZoneInfo(ZONE)).date()
    [task] = await _tasks(client, user)
    assert task["title"] == "pay rent"
    assert task["due_time"] == "09:00"
    # the turn ran between `before` and `after` (a local midnight may separate them)
    assert task["due_date"] in {(d + timedelta(days=1)).isoformat() for d in (before, after)}
    assert "'Pay rent'" in body["response"] or "'pay rent'" in body["response"]
    assert "due tomorrow (" in body["response"] and "at 09:00" in body["response"]


async def test_items_for_the_shopping_list_go_on_it_with_tags_and_priority(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add milk and eggs to my shopping list")
    assert "Shopping list" in body["response"]
    await chat("urgent: call the bank #money")
    tasks = await _tasks(client, user)
    assert [(t["title"], t["list"]) for t in tasks[:2]] == [
        ("milk", "Shopping"),
        ("eggs", "Shopping"),
    ]
    bank = tasks[2]
    assert (bank["title"], bank["priority"], bank["tags"]) == ("call the bank", "high", ["money"])


async def test_quoted_words_and_date_lookalikes_stay_in_the_title(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add 'call Mark on Monday'")
    await chat("add buy a monitor")
    await chat("add march in the parade")
    tasks = await _tasks(client, user)
    assert [t["title"] for t in tasks] == [
        "call Mark on Monday",
        "buy a monitor",
        "march in the parade",
    ]
    assert all(t["due_date"] is None for t in tasks)
