"""Snoozing a fired reminder from chat (issue 34, item 4), through POST /api/chat, the Runner,
the MCP tools and the database, on both databases: the card the user is looking at moves to
its new time and goes, and "undo" puts the old reminder back (the card shown again, the task's
reminder as it was)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from tests.api.routes.reminder_clock import reminders_due_now
from tests.conftest import ChatFn, UserSession


async def _task(client: httpx.AsyncClient, user: UserSession, number: int) -> dict[str, Any]:
    response = await client.get(f"/api/tasks/{number}", headers=user.headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def _shown(client: httpx.AsyncClient, user: UserSession) -> list[dict[str, Any]]:
    response = await client.get("/api/reminders", headers=user.headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["reminders"]
    return found


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_snooze_that_moves_the_fired_reminder_and_undo_puts_it_back(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await client.patch("/api/auth/me", json={"timezone": "Europe/London"}, headers=user.headers)
    await chat("add call mom")
    await chat("remind me tomorrow at 8am")
    await chat("add water the plants")
    # A fresh conversation's worth of context: the card, not the chat, says which reminder.
    await reminders_due_now(app, user.id, 1)
    [card] = await _shown(client, user)
    assert card["title"] == "call mom"
    before = await _task(client, user, 1)
    assert before["remind_at"] is None  # fired: the task holds no reminder to come

    asked = datetime.now(UTC)
    body = await chat("snooze that for 10 minutes")
    assert body["response"].startswith("Snoozed 'call mom' for 10 minutes, until ")
    assert body["response"].endswith("Say 'undo' to put it back.")
    assert body["undoable"] is True
    assert [call["name"] for call in body["tool_calls"]] == ["list_tasks", "update_task"]
    assert body["tool_calls"][0]["arguments"]["reminder"] == "fired"
    snoozed = await _task(client, user, 1)
    remind_at = _instant(snoozed["remind_at"])
    # To the minute, as every reminder time is: ten minutes from now, at most a minute less.
    assert asked + timedelta(minutes=9) <= remind_at <= datetime.now(UTC) + timedelta(minutes=10)
    assert await _shown(client, user) == []  # the card is superseded: it goes
    assert (await _task(client, user, 2))["remind_at"] is None  # nothing else changed

    undone = await chat("undo")
    assert undone["response"] == "Undone: the reminder for 'call mom' is back the way it was."
    assert [card["id"] for card in await _shown(client, user)] == [card["id"]]
    restored = await _task(client, user, 1)
    assert (restored["remind_at"], restored["remind_before"]) == (
        before["remind_at"],
        before["remind_before"],
    )


async def test_remind_me_again_in_an_hour_snoozes_the_newest_card_and_adds_nothing(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add pay the rent")
    await chat("add book the dentist")
    await reminders_due_now(app, user.id, 1)
    await reminders_due_now(app, user.id, 2)  # fired last: the one the user is looking at
    body = await chat("remind me again in an hour")
    assert body["response"].startswith("OK, I'll remind you about 'book the dentist' again in")
    tasks = (await client.get("/api/tasks", headers=user.headers)).json()
    assert [task["title"] for task in tasks] == ["pay the rent", "book the dentist"]
    assert [card["title"] for card in await _shown(client, user)] == ["pay the rent"]
    later = _instant(tasks[1]["remind_at"]) - datetime.now(UTC)
    assert timedelta(minutes=58) < later <= timedelta(hours=1)


async def test_a_snooze_with_no_reminder_shown_and_no_task_talked_about_asks_which(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await client.post("/api/tasks", json={"title": "file taxes"}, headers=user.headers)
    body = await chat("snooze it")
    assert body["response"].startswith("There's no reminder showing right now. Which task")
    assert body["undoable"] is False
    assert body["choices"] == [{"label": "file taxes (task 1)", "message": "task 1"}]
    assert (await _task(client, user, 1))["remind_at"] is None
