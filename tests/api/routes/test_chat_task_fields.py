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


async def test_a_task_is_rescheduled_found_by_its_due_date_and_cleared_in_chat(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add pay rent on 2030-01-04")
    await chat("add water the plants")
    moved = await chat("push pay rent to 2030-01-07 at 10:00")
    assert moved["tool_calls"][-1]["arguments"] == {"task_id": 1, "due": "2030-01-07T10:00"}
    assert moved["response"] == "Done: 'pay rent' is now due Mon 7 Jan 2030 10:00."
    [rent, plants] = await _tasks(client, user)
    assert (rent["due_date"], rent["due_time"], plants["due_date"]) == ("2030-01-07", "10:00", None)
    undone = await chat("undo")
    assert undone["response"] == "Undone: 'pay rent' is back the way it was."
    assert (await _tasks(client, user))[0]["due_date"] == "2030-01-04"
    await chat("push pay rent to 2030-01-07 at 10:00")
    undated = await chat("show my tasks with no due date")
    assert undated["response"] == "Here are your tasks without a due date:\n2. water the plants"
    both = await chat("make pay rent high priority and tag it #home")
    assert [c["arguments"] for c in both["tool_calls"] if c["name"] == "update_task"] == [
        {"task_id": 1, "priority": "high"},
        {"task_id": 1, "add_tags": ["home"]},
    ], both
    important = await chat("what's important?")
    assert important["response"] == (
        "Here are your high-priority tasks:\n1. pay rent (due Mon 7 Jan 2030 10:00, high priority)"
    )
    await chat("remove the date from task 1")
    [rent, _] = await _tasks(client, user)
    assert (rent["due_date"], rent["priority"], rent["tags"]) == (None, "high", ["home"])


async def test_a_date_question_shows_only_the_tasks_due_that_day(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add water the ferns in 3 days")
    await chat("add buy stamps tomorrow")
    ferns = next(t for t in await _tasks(client, user) if t["title"] == "water the ferns")
    weekday = f"{datetime.fromisoformat(str(ferns['due_date'])):%A}"
    body = await chat(f"what's on {weekday}?")
    assert "water the ferns" in body["response"]
    assert "stamps" not in body["response"]


async def test_taking_a_tag_off_a_task_keeps_the_task(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add call the bank #money #home")
    body = await chat("take the money tag off the bank task")
    [task] = await _tasks(client, user)
    assert (task["title"], task["tags"]) == ("call the bank", ["home"])
    assert "deleted" not in body["response"]
