"""A turn cut at shutdown (past the grace period) answers its client properly: a 503 with
Retry-After, or an SSE `error` event before the stream closes; never a plain 500 or a silent
close. Its reply, recording the tool calls it made, is stored first.

The turns are held mid-way by a gated scripted model (tests/agent/fake_openai.py), not by
timing; the app shuts down with a grace period of 0 while they wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest

from backend.chat.turns import INTERRUPTED
from backend.main import create_app
from tests.agent.fake_openai import GATE_WAIT, GatedModel, serving
from tests.api.routes.test_chat_stream import parse_sse
from tests.conftest import client_for, make_settings, register, running


@pytest.fixture
def model() -> Iterator[GatedModel]:
    with serving(GatedModel()) as fake:
        yield fake
        fake.gate.set()


async def _until(check: Callable[[], bool], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + GATE_WAIT
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        await asyncio.sleep(0.02)


async def test_turns_cut_at_shutdown_answer_503_or_an_error_event_and_store_their_replies(
    database_url: str, model: GatedModel
) -> None:
    settings = make_settings(
        database_url,
        agent_brain="compatible",
        openai_base_url=model.url,
        openai_model="fake-model",
        llm_timeout_seconds=GATE_WAIT,
        llm_max_retries=0,
        shutdown_grace_seconds=0,
    )
    app = create_app(settings)
    lifespan = AsyncExitStack()
    await lifespan.enter_async_context(running(app))
    http = client_for(app)
    user = await register(http)
    plain = asyncio.create_task(
        http.post("/api/chat", json={"message": "errand plain"}, headers=user.headers)
    )
    streamed = asyncio.create_task(
        http.post("/api/chat/stream", json={"message": "errand streamed"}, headers=user.headers)
    )
    await _until(lambda: model.waiting() == 2, "both turns have added their task")
    await asyncio.wait_for(lifespan.aclose(), GATE_WAIT)  # shutdown, the gate shut

    answered: httpx.Response = await asyncio.wait_for(plain, GATE_WAIT)
    assert answered.status_code == 503
    assert int(answered.headers["retry-after"]) >= 1
    assert "restart" in answered.json()["detail"]
    events = parse_sse((await asyncio.wait_for(streamed, GATE_WAIT)).text)
    await http.aclose()
    assert [kind for kind, _ in events] == ["tool_call", "error"]
    assert "restart" in events[-1][1]["detail"]

    # A new app on the same database has both replies, each recording its task.
    async with running(create_app(make_settings(database_url))) as again, client_for(again) as h:
        stored: list[dict[str, Any]] = []
        for conversation in (await h.get("/api/conversations", headers=user.headers)).json():
            stored += (
                await h.get(
                    f"/api/conversations/{conversation['id']}/messages", headers=user.headers
                )
            ).json()
        titles = sorted(
            t["title"] for t in (await h.get("/api/tasks", headers=user.headers)).json()
        )
    replies = [m for m in stored if m["role"] == "assistant"]
    assert [m["content"] for m in replies] == [INTERRUPTED, INTERRUPTED]
    recorded = sorted(call["result"]["title"] for m in replies for call in m["tool_calls"])
    assert titles == recorded == ["errand plain", "errand streamed"]
