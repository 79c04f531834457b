"""Fired reminders over REST (issue 15), on both databases: listed until dismissed, only
to their owner; and the live stream over real HTTP."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.routes.reminder_clock import reminders_due_now
from tests.conftest import UserSession, register
from tests.live_server import live_server


async def _task(client: httpx.AsyncClient, who: UserSession, title: str) -> dict[str, Any]:
    body = {"title": title, "due_date": "2031-03-04", "due_time": "10:00"}
    response = await client.post("/api/tasks", json=body, headers=who.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def _listed(client: httpx.AsyncClient, who: UserSession) -> list[dict[str, Any]]:
    response = await client.get("/api/reminders", headers=who.headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["reminders"]
    return found


async def test_a_fired_reminder_is_listed_until_dismissed(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    await _task(client, user, "dentist")
    await reminders_due_now(app, user.id, 1)
    [reminder] = await _listed(client, user)
    assert (reminder["task_id"], reminder["title"], reminder["due_at"]) == (
        1,
        "dentist",
        "2031-03-04T10:00:00Z",
    )
    assert set(reminder) == {"id", "task_id", "title", "due_at", "remind_at", "fired_at"}
    task = (await client.get("/api/tasks/1", headers=user.headers)).json()
    assert (task["remind_at"], task["remind_before"]) == (None, 0)  # fired: none to come
    gone = await client.delete(f"/api/reminders/{reminder['id']}", headers=user.headers)
    assert gone.status_code == 204
    again = await client.delete(f"/api/reminders/{reminder['id']}", headers=user.headers)
    assert again.status_code == 204  # dismissing twice is harmless
    assert await _listed(client, user) == []


async def test_dismiss_all_stops_at_the_last_one_shown(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    for title in ("one", "two", "three"):
        await _task(client, user, title)
    await reminders_due_now(app, user.id, 1, 2)
    shown = await _listed(client, user)
    await reminders_due_now(app, user.id, 3)  # fires after the user looked
    response = await client.delete(
        "/api/reminders", params={"through": shown[-1]["id"]}, headers=user.headers
    )
    assert response.json() == {"dismissed": 2}
    assert [r["title"] for r in await _listed(client, user)] == ["three"]
    assert (await client.delete("/api/reminders", headers=user.headers)).json() == {"dismissed": 1}


async def test_nobody_sees_or_dismisses_another_users_reminders(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await _task(client, user, "mine")
    await reminders_due_now(app, user.id, 1)
    [mine] = await _listed(client, user)
    assert await _listed(client, other_user) == []
    theirs = await client.delete(f"/api/reminders/{mine['id']}", headers=other_user.headers)
    assert (theirs.status_code, theirs.json()) == (404, {"detail": "Reminder not found"})
    everything = await client.delete("/api/reminders", headers=other_user.headers)
    assert everything.json() == {"dismissed": 0}
    assert len(await _listed(client, user)) == 1


@pytest.mark.parametrize("path", ["/api/reminders", "/api/reminders/stream"])
async def test_reminders_need_a_token(client: httpx.AsyncClient, path: str) -> None:
    assert (await client.get(path)).status_code == 401


async def test_a_reminder_id_out_of_range_or_not_a_number_is_a_422(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    for bad in ("0", str(2**31), str(2**63)):
        response = await client.delete(f"/api/reminders/{bad}", headers=user.headers)
        assert response.status_code == 422, bad
    # The schema says integer: a word is refused as one, like a task id (IntegerParams).
    word = await client.delete("/api/reminders/abc", headers=user.headers)
    assert word.status_code == 422
    assert word.json()["detail"][0]["loc"] == ["path", "reminder_id"]
    stream = await client.delete("/api/reminders/stream", headers=user.headers)
    assert stream.status_code == 405
    through = await client.delete("/api/reminders", params={"through": 2**31}, headers=user.headers)
    assert through.status_code == 422


# The stream, over real HTTP: a real server sweeping every second on its own SQLite file.


@pytest.fixture(scope="module")
def stream_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[str, Path]]:
    directory = tmp_path_factory.mktemp("reminder-stream")
    database = directory / "todo.db"
    with live_server(
        f"sqlite+aiosqlite:///{database}",
        directory / "server.log",
        REMINDER_CHECK_SECONDS="1",
        CHAT_REQUESTS_PER_MINUTE="100000",
    ) as url:
        yield url, database


def _reach(database: Path, owner_id: int, number: int) -> None:
    """The clock reaches a task's reminder, written behind the server's back."""
    past = (datetime.now(UTC) - timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(database) as connection:
        connection.execute(
            "UPDATE task SET remind_at = ? WHERE owner_id = ? AND number = ?",
            (past, owner_id, number),
        )


async def _next_event(lines: AsyncIterator[str]) -> dict[str, str]:
    event: dict[str, str] = {}
    async for line in lines:
        if not line:
            if "data" in event:
                return event
            event = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            event[name] = value.strip()
    raise AssertionError("the stream ended")


async def test_the_stream_sends_missed_reminders_then_each_one_as_it_fires(
    stream_server: tuple[str, Path],
) -> None:
    url, database = stream_server
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        user = await register(http)
        for title in ("missed", "live"):
            body = {"title": title, "due_date": "2031-03-04", "due_time": "10:00"}
            assert (await http.post("/api/tasks", json=body, headers=user.headers)).is_success
        _reach(database, user.id, 1)
        # Fired while nobody was connected: waits in the list for the next visit.
        for _ in range(600):
            if (await http.get("/api/reminders", headers=user.headers)).json()["reminders"]:
                break
            await asyncio.sleep(0.1)
        async with http.stream("GET", "/api/reminders/stream", headers=user.headers) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.aiter_lines()
            first = await asyncio.wait_for(_next_event(lines), 60)
            assert first["event"] == "reminder"
            assert json.loads(first["data"])["title"] == "missed"
            _reach(database, user.id, 2)
            second = await asyncio.wait_for(_next_event(lines), 60)
            body = json.loads(second["data"])
            assert (body["title"], second["id"]) == ("live", str(body["id"]))


def _snooze_ends(database: Path, owner_id: int) -> None:
    """The clock reaches the account's snoozes, written behind the server's back."""
    past = (datetime.now(UTC) - timedelta(seconds=1)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(database) as connection:
        connection.execute(
            "UPDATE reminder SET snoozed_until = ? "
            "WHERE owner_id = ? AND snoozed_until IS NOT NULL",
            (past, owner_id),
        )


async def test_a_snoozed_reminder_comes_back_on_the_stream_as_a_new_one(
    stream_server: tuple[str, Path],
) -> None:
    """The server's own scheduler fires the snooze again; an open stream hands it on."""
    url, database = stream_server
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        user = await register(http)
        body = {"title": "snoozed", "due_date": "2031-03-04", "due_time": "10:00"}
        assert (await http.post("/api/tasks", json=body, headers=user.headers)).is_success
        async with http.stream("GET", "/api/reminders/stream", headers=user.headers) as stream:
            lines = stream.aiter_lines()
            _reach(database, user.id, 1)
            first = await asyncio.wait_for(_next_event(lines), 60)
            snoozed = await http.post(
                f"/api/reminders/{first['id']}/snooze", json={"minutes": 10}, headers=user.headers
            )
            assert snoozed.status_code == 200, snoozed.text
            assert (await http.get("/api/reminders", headers=user.headers)).json() == {
                "reminders": []
            }
            _snooze_ends(database, user.id)
            again = await asyncio.wait_for(_next_event(lines), 60)
            assert json.loads(again["data"])["title"] == "snoozed"
            assert int(again["id"]) > int(first["id"])


async def test_a_reminder_of_a_task_done_since_is_not_shown_again(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    for title in ("done since", "still to do"):
        await _task(client, user, title)
    await reminders_due_now(app, user.id, 1, 2)
    await client.patch("/api/tasks/1", json={"completed": True}, headers=user.headers)
    assert [r["title"] for r in await _listed(client, user)] == ["still to do"]
