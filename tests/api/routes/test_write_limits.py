"""Per-user limits on task changes over REST and /mcp, and a time budget per chat turn."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from fastapi import FastAPI
from mcp import Client

from backend.chat.turns import TOO_SLOW
from backend.core.limits import CountedLimit
from backend.core.limits.window import Limit, MemoryLimitStore
from backend.main import create_app
from mcp_tools.http import write_gate
from mcp_tools.principal import principal_from_meta, principal_meta
from mcp_tools.server import build_task_server
from tests.agent.fake_openai import CallTools, FakeOpenAI, Hang, Reply, serving
from tests.conftest import client_for, make_settings, register, running


@pytest.fixture
async def limited(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    settings = make_settings(database_url, writes_per_minute=3)
    async with running(create_app(settings)) as app, client_for(app) as http:
        yield http


async def test_rest_task_changes_past_the_per_user_budget_get_429_and_others_go_on(
    limited: httpx.AsyncClient,
) -> None:
    user, other = await register(limited), await register(limited)
    for title in ("a", "b"):
        added = await limited.post("/api/tasks", json={"title": title}, headers=user.headers)
        assert added.status_code == 201
    renamed = await limited.patch("/api/tasks/1", json={"title": "c"}, headers=user.headers)
    assert renamed.status_code == 200
    refused = await limited.delete("/api/tasks/1", headers=user.headers)
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert (await limited.get("/api/tasks", headers=user.headers)).status_code == 200  # reads
    theirs = await limited.post("/api/tasks", json={"title": "mine"}, headers=other.headers)
    assert theirs.status_code == 201


async def test_mcp_task_changes_past_the_budget_are_refused_saying_so(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    writes = CountedLimit(Limit("writes", 2, 60), MemoryLimitStore())
    server = build_task_server(
        app.state.sessionmaker, principal_from_meta, before_change=write_gate(writes)
    )
    user = await register(client)
    meta = principal_meta(user.id)
    async with Client(server) as mcp:
        for title in ("a", "b"):
            added = await mcp.call_tool("add_task", {"title": title}, meta=meta)
            assert added.is_error is False
        refused = await mcp.call_tool("complete_task", {"task_id": 1}, meta=meta)
        assert refused.is_error is True
        assert "Too many changes" in str(refused.content[0])
        listed = await mcp.call_tool("list_tasks", {}, meta=meta)  # reading is not limited
        assert listed.structured_content is not None
        assert [t["completed"] for t in listed.structured_content["result"]] == [False, False]


@pytest.fixture
def slow_model() -> Iterator[FakeOpenAI]:
    """A model of its own: its hung request must not take a step another test queued."""
    with serving(FakeOpenAI()) as fake:
        yield fake


async def test_a_turn_past_its_time_budget_stops_and_its_reply_records_what_was_done(
    database_url: str, slow_model: FakeOpenAI
) -> None:
    settings = make_settings(
        database_url,
        agent_brain="compatible",
        openai_base_url=slow_model.url,
        openai_model="fake-model",
        llm_timeout_seconds=60,
        llm_max_retries=0,
        # Its first half for the turn, the rest kept for storing the reply.
        turn_time_budget_seconds=2.0,
    )
    # The model adds a task, then takes far longer than the turn may.
    slow_model.queue(CallTools.of(("add_task", {"title": "buy milk"})), Hang(5, then=Reply("late")))
    async with running(create_app(settings)) as app, client_for(app) as http:
        user = await register(http)
        body = (
            await http.post("/api/chat", json={"message": "add milk"}, headers=user.headers)
        ).json()
        assert body["response"] == TOO_SLOW
        assert [c["name"] for c in body["tool_calls"]] == ["add_task"]
        stored = await http.get(
            f"/api/conversations/{body['conversation_id']}/messages", headers=user.headers
        )
        assert stored.json()[-1]["content"] == TOO_SLOW
        assert stored.json()[-1]["tool_calls"][0]["result"]["title"] == "buy milk"
