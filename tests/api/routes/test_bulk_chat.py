"""Bulk changes through chat on a long list: every task, one statement behind one tool call,
and a reply whose size does not grow with the list."""

from __future__ import annotations

import json

import httpx
from fastapi import FastAPI
from sqlalchemy import insert

from backend.core.timeutil import utcnow
from backend.models import Task, User
from tests.conftest import ChatFn, UserSession, every_task

LONG_LIST = 1006  # past the 1,000 a single look-up returns


async def _seed(app: FastAPI, owner: UserSession, count: int) -> None:
    now = utcnow()
    rows = [
        {
            "owner_id": owner.id,
            "number": n,
            "title": f"errand {n}",
            "completed": False,
            "created_at": now,
            "updated_at": now,
        }
        for n in range(1, count + 1)
    ]
    async with app.state.sessionmaker() as session:
        await session.exec(insert(Task), params=rows)  # type: ignore[call-overload]
        user = await session.get(User, owner.id)
        assert user is not None
        user.last_task_number = count
        await session.commit()


async def _states(client: httpx.AsyncClient, who: UserSession) -> list[bool]:
    return [task["completed"] for task in await every_task(client, who)]


async def test_complete_all_completes_a_long_list_in_one_call_with_a_small_reply(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await _seed(app, user, LONG_LIST)
    body = await chat("mark everything as done")
    assert body["response"] == f"Great job! I've marked all {LONG_LIST} pending tasks as complete."
    [call] = body["tool_calls"]
    assert (call["name"], call["arguments"]) == ("complete_task", {"every": "pending"})
    assert call["result"]["count"] == LONG_LIST
    assert len(json.dumps(body)) < 16_000  # task numbers, and titles of the first few only
    assert await _states(client, user) == [True] * LONG_LIST


async def test_clearing_a_long_list_after_yes_leaves_nothing(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await _seed(app, user, LONG_LIST)
    asked = await chat("delete all my tasks")
    assert "1,000 or more" in asked["response"]
    assert await _states(client, user) == [False] * LONG_LIST  # a question changes nothing
    done = await chat("yes")
    assert [c["name"] for c in done["tool_calls"]] == ["delete_task"]
    assert done["tool_calls"][0]["arguments"] == {"every": "all"}
    assert f"deleted {LONG_LIST} tasks" in done["response"]
    assert await _states(client, user) == []


async def test_clearing_a_short_list_deletes_only_what_the_question_counted(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    for title in ("a", "b", "c"):
        await chat(f"add {title}")
    await chat("clear my list")
    # Added from another device between the question and the yes: kept.
    await client.post("/api/tasks", json={"title": "new"}, headers=user.headers)
    done = await chat("yes")
    assert done["tool_calls"][0]["arguments"] == {"task_ids": [1, 2, 3]}
    response = await client.get("/api/tasks", headers=user.headers)
    assert [task["title"] for task in response.json()] == ["new"]


async def test_a_rest_add_past_the_task_cap_is_a_409_saying_why(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    cap = app.state.settings.max_tasks_per_user
    await _seed(app, user, cap)
    refused = await client.post("/api/tasks", json={"title": "one more"}, headers=user.headers)
    assert refused.status_code == 409
    assert f"limit of {cap:,} tasks" in refused.json()["detail"]
