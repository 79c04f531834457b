"""What one chat turn may do, for any brain: add at most MAX_TASKS_PER_MESSAGE tasks, spend the
user's write budget (the one REST and /mcp spend), and stop at its time budget wherever it is.
A turn that stops at a limit stores a reply that records every change it made and says why
it stopped; the reply is stored before the budget ends, through SQLite's write lock."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from backend.chat.turns import TOO_SLOW
from backend.main import create_app
from backend.services import tasks
from tests.agent.fake_openai import CallTools, FakeOpenAI, Reply, serving
from tests.api.routes.test_chat_stream import parse_sse
from tests.conftest import UserSession, client_for, make_settings, register, running

HANG_GUARD = 60.0  # an upper bound, never a speed expectation
GROCERIES = ["apples", "bread", "cheese", "dates", "eggs", "figs", "grapes", "honey"]
ADD_GROCERIES = "add " + ", ".join(GROCERIES)


async def _chat(http: httpx.AsyncClient, who: UserSession, message: str) -> dict[str, Any]:
    response = await asyncio.wait_for(
        http.post("/api/chat", json={"message": message}, headers=who.headers), HANG_GUARD
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _titles(http: httpx.AsyncClient, who: UserSession) -> list[str]:
    response = await http.get("/api/tasks", headers=who.headers)
    return [task["title"] for task in response.json()]


def _added(tool_calls: list[dict[str, Any]]) -> list[str]:
    """The titles of the tasks a reply records as created."""
    return [
        call["result"]["title"]
        for call in tool_calls
        if call["name"] == "add_task"
        and isinstance(call["result"], dict)
        and call["result"].get("status") == "created"
    ]


async def _stored_reply(
    http: httpx.AsyncClient, who: UserSession, conversation_id: int
) -> dict[str, Any]:
    messages = (
        await http.get(f"/api/conversations/{conversation_id}/messages", headers=who.headers)
    ).json()
    assert [m["role"] for m in messages] == ["user", "assistant"]
    reply: dict[str, Any] = messages[-1]
    return reply


@pytest.fixture
async def capped(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    settings = make_settings(database_url, max_tasks_per_message=5)
    async with running(create_app(settings)) as app, client_for(app) as http:
        yield http


async def test_one_message_adds_at_most_its_cap_and_the_reply_says_to_send_the_rest(
    capped: httpx.AsyncClient,
) -> None:
    user = await register(capped)
    body = await _chat(capped, user, ADD_GROCERIES)
    assert await _titles(capped, user) == GROCERIES[:5]
    assert _added(body["tool_calls"]) == GROCERIES[:5]
    assert "first 5" in body["response"]
    assert "eggs" in body["response"]  # where to pick up
    assert "another message" in body["response"]
    stored = await _stored_reply(capped, user, body["conversation_id"])
    assert (stored["content"], stored["tool_calls"]) == (body["response"], body["tool_calls"])
    # The cap is per message: the rest fit in the next one.
    rest = await _chat(capped, user, "add " + ", ".join(GROCERIES[5:]))
    assert _added(rest["tool_calls"]) == GROCERIES[5:]
    streamed = await capped.post(
        "/api/chat/stream", json={"message": ADD_GROCERIES}, headers=user.headers
    )
    events = parse_sse(streamed.text)
    kinds = [kind for kind, _ in events]
    assert kinds[:5] == ["tool_call"] * 5
    assert set(kinds[5:-1]) == {"delta"}
    assert kinds[-1] == "done"
    assert (
        "".join(data["text"] for kind, data in events if kind == "delta")
        == (events[-1][1]["response"])
    )
    assert "first 5" in events[-1][1]["response"]
    assert len(await _titles(capped, user)) == len(GROCERIES) + 5


@pytest.fixture
def model() -> Iterator[FakeOpenAI]:
    with serving(FakeOpenAI()) as fake:
        yield fake


async def test_an_llms_adds_stop_at_the_cap_and_at_the_write_budget_too(
    database_url: str, model: FakeOpenAI
) -> None:
    settings = make_settings(
        database_url,
        agent_brain="compatible",
        openai_base_url=model.url,
        openai_model="fake-model",
        llm_max_retries=0,
        max_tasks_per_message=3,
        writes_per_minute=5,
    )
    adds = CallTools.of(*(("add_task", {"title": title}) for title in GROCERIES))
    model.queue(adds, adds, Reply("never asked"))
    async with running(create_app(settings)) as app, client_for(app) as http:
        user = await register(http)
        capped = await _chat(http, user, "add my groceries")
        spent = await _chat(http, user, "add my groceries")
        made = await _titles(http, user)
    assert _added(capped["tool_calls"]) == GROCERIES[:3]
    assert "first 3" in capped["response"]
    assert _added(spent["tool_calls"]) == GROCERIES[:2]  # 3 + 2 writes of 5 a minute
    assert "too many changes" in spent["response"]
    assert made == GROCERIES[:3] + GROCERIES[:2]
    assert len(model.requests) == 2  # each run ended at the refusal: no model call after it


@pytest.fixture
async def limited(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    settings = make_settings(database_url, writes_per_minute=3)
    async with running(create_app(settings)) as app, client_for(app) as http:
        yield http


async def test_chat_changes_spend_the_users_write_budget_and_the_reply_says_why(
    limited: httpx.AsyncClient,
) -> None:
    user, other = await register(limited), await register(limited)
    body = await _chat(limited, user, ADD_GROCERIES)
    assert await _titles(limited, user) == GROCERIES[:3]
    assert _added(body["tool_calls"]) == GROCERIES[:3]
    assert "too many changes" in body["response"]
    assert "seconds" in body["response"]
    refused = await limited.post("/api/tasks", json={"title": "one more"}, headers=user.headers)
    assert refused.status_code == 429  # chat spent the budget REST spends
    theirs = await _chat(limited, other, "add milk")  # a budget per user
    assert _added(theirs["tool_calls"]) == ["milk"]


async def test_a_list_made_by_chat_needs_the_write_budget_too(
    limited: httpx.AsyncClient,
) -> None:
    user = await register(limited)
    for title in ("a", "b", "c"):
        made = await limited.post("/api/tasks", json={"title": title}, headers=user.headers)
        assert made.status_code == 201
    body = await _chat(limited, user, "add tent to my camping list")
    assert "too many changes" in body["response"]
    assert await _titles(limited, user) == ["a", "b", "c"]
    lists = (await limited.get("/api/lists", headers=user.headers)).json()
    assert "camping" not in [found["name"].lower() for found in lists]


async def test_complete_all_through_chat_is_one_write(limited: httpx.AsyncClient) -> None:
    user = await register(limited)
    for title in ("a", "b"):
        made = await limited.post("/api/tasks", json={"title": title}, headers=user.headers)
        assert made.status_code == 201
    done = await _chat(limited, user, "mark everything as done")
    assert [call["result"]["count"] for call in done["tool_calls"]] == [2]
    states = (await limited.get("/api/tasks", headers=user.headers)).json()
    assert [task["completed"] for task in states] == [True, True]
    refused = await _chat(limited, user, "add c")  # the third write was the bulk one
    assert "too many changes" in refused["response"]
    assert await _titles(limited, user) == ["a", "b"]


async def test_a_turn_stops_at_its_budget_inside_a_long_multi_add_and_records_every_task(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    budget = 1.0
    real_create = tasks.create_task
    creates = 0

    async def fourth_outlasts_the_budget(*args: Any, **kwargs: Any) -> Any:
        nonlocal creates
        creates += 1
        task = await real_create(*args, **kwargs)
        if creates == 4:
            # In flight, its task made, until past the whole budget (sleeping longer than the
            # budget is past it on any machine).
            await asyncio.sleep(budget * 2)
        return task

    monkeypatch.setattr(tasks, "create_task", fourth_outlasts_the_budget)
    settings = make_settings(database_url, turn_time_budget_seconds=budget)
    async with running(create_app(settings)) as app, client_for(app) as http:
        user = await register(http)
        body = await _chat(http, user, ADD_GROCERIES)
        made = await _titles(http, user)
        stored = await _stored_reply(http, user, body["conversation_id"])
    assert body["response"] == TOO_SLOW
    assert len(made) < len(GROCERIES)  # it stopped part way (after 4, unless far slower)
    # Every task it made, the one in flight at the budget's end included, is recorded.
    assert _added(body["tool_calls"]) == made
    assert _added(stored["tool_calls"]) == made
    assert creates == len(made)  # and it started nothing after the budget


async def test_a_reply_store_that_meets_a_locked_sqlite_database_retries_within_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "todo.db"
    # A lock wait as long as the connection's timeout would outlast the hang guard.
    settings = make_settings(
        f"sqlite+aiosqlite:///{database}",
        turn_time_budget_seconds=6.0,
        sqlite_busy_timeout_ms=600_000,
    )
    holder = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    real_create = tasks.create_task
    met_the_lock: list[str] = []

    async def then_lock(*args: Any, **kwargs: Any) -> Any:
        task = await real_create(*args, **kwargs)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds SQLite's lock
        return task

    def release_on_locked(context: Any) -> None:
        if "locked" in str(context.original_exception) and holder.in_transaction:
            met_the_lock.append(str(context.original_exception))
            holder.execute("ROLLBACK")

    monkeypatch.setattr(tasks, "create_task", then_lock)
    async with running(create_app(settings)) as app, client_for(app) as http:
        event.listen(app.state.engine.sync_engine, "handle_error", release_on_locked)
        try:
            user = await register(http)
            body = await _chat(http, user, "add milk")
            stored = await _stored_reply(http, user, body["conversation_id"])
        finally:  # before the app shuts down: a turn still waiting for the lock must end
            if holder.in_transaction:
                holder.execute("ROLLBACK")
    holder.close()
    assert met_the_lock  # the first try met the lock, and gave up within the budget
    assert _added(body["tool_calls"]) == ["milk"]
    assert (stored["content"], stored["tool_calls"]) == (body["response"], body["tool_calls"])
