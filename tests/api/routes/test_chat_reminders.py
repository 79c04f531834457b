"""Reminders said in chat reach the task (issue 15), through the real endpoint, Runner, MCP
tools and database: an offset, a time, turning it off and undo; then the reminder fires."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlmodel import col, update

from backend.models import Task
from tests.conftest import ChatFn, UserSession


async def _task(client: httpx.AsyncClient, user: UserSession) -> dict[str, Any]:
    [task] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert isinstance(task, dict)
    return task


async def test_a_reminder_said_in_chat_is_set_changed_undone_and_turned_off(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await client.patch("/api/auth/me", json={"timezone": "Europe/London"}, headers=user.headers)
    await chat("add dentist on 4 march 2031 at 10am")
    task = await _task(client, user)
    assert (task["remind_at"], task["remind_before"]) == ("2031-03-04T10:00:00Z", 0)
    body = await chat("remind me 30 minutes before")
    assert (
        body["response"]
        == "I'll remind you about 'dentist' Tue 4 Mar 2031 09:30 (30 minutes before)."
    )
    task = await _task(client, user)
    assert (task["remind_at"], task["remind_before"]) == ("2031-03-04T09:30:00Z", 30)
    await chat("undo")
    task = await _task(client, user)
    assert (task["remind_at"], task["remind_before"]) == ("2031-03-04T10:00:00Z", 0)
    body = await chat("don't remind me about it")
    assert body["response"] == "OK, I won't remind you about 'dentist'."
    task = await _task(client, user)
    assert (task["remind_at"], task["remind_before"]) == (None, None)


async def test_a_time_said_for_a_reminder_is_on_the_users_clock_and_fires(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await client.patch("/api/auth/me", json={"timezone": "Asia/Tokyo"}, headers=user.headers)
    await chat("add renew passport")
    body = await chat("remind me tomorrow at 8am")
    assert body["response"].startswith("I'll remind you about 'renew passport' tomorrow 08:00")
    task = await _task(client, user)
    assert task["remind_before"] is None
    assert datetime.fromisoformat(task["remind_at"]) > datetime.now(UTC)
    # The clock reaches it: the scheduler fires it and the web UI's list shows it.
    async with app.state.sessionmaker() as session:
        await session.exec(
            update(Task)
            .where(col(Task.owner_id) == user.id)
            .values(remind_at=datetime.now(UTC) - timedelta(seconds=1))
        )
        await session.commit()
    await app.state.reminder_scheduler.sweep()
    [fired] = (await client.get("/api/reminders", headers=user.headers)).json()["reminders"]
    assert (fired["task_id"], fired["title"]) == (task["id"], "renew passport")
