"""A graceful restart (SIGTERM) during streamed turns: turns in flight finish and store their
replies; turns still running when the grace period ends store a reply recording what they did.
Never a task that no stored reply records.

The turns are held mid-way on purpose, not by timing: an LLM brain talks to a local scripted
model that calls `add_task` at once, then answers only when the test opens a gate.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import Response

from backend.services.chat import INTERRUPTED
from bench.server import server
from tests.agent.fake_openai import CallTools, FakeOpenAI, Reply, start
from tests.conftest import TEST_SECRET

TURNS = 6
WAIT = 120.0  # an upper bound for waits on events, never a speed expectation
# uvicorn re-raises the signal it shut down for, once shutdown is complete.
STOPPED_BY_SIGTERM = (0, -signal.SIGTERM)


@dataclass
class GatedModel(FakeOpenAI):
    """Calls `add_task` with the user's message as its title; after the tool's result, waits
    for the gate, then says so."""

    gate: threading.Event = field(default_factory=threading.Event)
    held: int = 0  # turns waiting at the gate, their task added

    async def _completions(self, request: Request) -> Response:
        body = await request.json()
        last = body["messages"][-1]
        if last["role"] == "tool":
            self.held += 1
            await asyncio.to_thread(self.gate.wait, WAIT)
            self.script.append(Reply("Added it."))
        else:
            self.script.append(CallTools.of(("add_task", {"title": last["content"]})))
        # No await between queueing the step and the scripted server taking it.
        return await super()._completions(request)

    def waiting(self) -> int:
        return self.held


@pytest.fixture
def model() -> Iterator[GatedModel]:
    fake = GatedModel()
    uvicorn_server, thread = start(fake)
    yield fake
    fake.gate.set()
    uvicorn_server.should_exit = True
    thread.join(timeout=10)


def _server(
    database: Path, log: Path, model: GatedModel, grace: str
) -> Any:  # the context manager of bench.server.server
    return server(
        f"sqlite+aiosqlite:///{database}",
        1,
        log,
        secret=TEST_SECRET,
        agent_brain="compatible",
        openai_base_url=model.url,
        openai_model="fake-model",
        llm_timeout_seconds=str(WAIT),
        llm_max_retries="0",
        shutdown_grace_seconds=grace,
    )


async def _stream_turn(http: httpx.AsyncClient, headers: dict[str, str], text: str) -> list[str]:
    """The SSE event names the client received before the stream ended (or broke)."""
    names: list[str] = []
    try:
        async with http.stream(
            "POST", "/api/chat/stream", json={"message": text}, headers=headers
        ) as response:
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    names.append(line.removeprefix("event:").strip())
    except httpx.HTTPError:
        names.append("broken")
    return names


async def _start_held_turns(url: str) -> tuple[list[asyncio.Task[list[str]]], httpx.AsyncClient]:
    http = httpx.AsyncClient(base_url=url, timeout=WAIT)
    registered = await http.post(
        "/api/auth/register", json={"email": "restart@example.com", "password": "a long password"}
    )
    headers = {"Authorization": f"Bearer {registered.json()['access_token']}"}
    turns = [asyncio.create_task(_stream_turn(http, headers, f"errand {i}")) for i in range(TURNS)]
    return turns, http


async def _until(check: Any, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        await asyncio.sleep(0.05)


def _stored(database: Path) -> tuple[list[str], list[tuple[str, list[dict[str, Any]]]]]:
    with sqlite3.connect(database) as connection:
        titles = [row[0] for row in connection.execute("SELECT title FROM task ORDER BY title")]
        replies = [
            (content, json.loads(calls or "[]"))
            for content, calls in connection.execute(
                "SELECT content, tool_calls FROM message WHERE role = 'assistant'"
            )
        ]
        users = connection.execute("SELECT count(*) FROM message WHERE role = 'user'").fetchone()
    assert users == (TURNS,)
    return titles, replies


def _recorded_titles(replies: list[tuple[str, list[dict[str, Any]]]]) -> list[str]:
    return sorted(
        call["result"]["title"]
        for _, calls in replies
        for call in calls
        if call["name"] == "add_task" and "task_id" in call["result"]
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)


async def test_turns_in_flight_at_a_graceful_restart_finish_and_are_stored(
    tmp_path: Path, model: GatedModel
) -> None:
    database = tmp_path / "todo.db"
    with _server(database, tmp_path / "server.log", model, grace="60") as (url, process):
        turns, http = await _start_held_turns(url)
        await _until(lambda: model.waiting() == TURNS, "every turn has added its task")
        _stop(process)
        await _until(lambda: process.poll() is None and _refuses(url), "new requests refused")
        model.gate.set()
        received = await asyncio.wait_for(asyncio.gather(*turns), WAIT)
        await http.aclose()
        assert await asyncio.to_thread(process.wait, WAIT) in STOPPED_BY_SIGTERM
    assert all(events[-1] == "done" for events in received), received
    titles, replies = _stored(database)
    assert titles == sorted(f"errand {i}" for i in range(TURNS))
    assert [content.strip() for content, _ in replies] == ["Added it."] * TURNS
    assert _recorded_titles(replies) == titles


async def test_turns_cut_by_the_end_of_the_grace_period_still_record_what_they_did(
    tmp_path: Path, model: GatedModel
) -> None:
    database = tmp_path / "todo.db"
    with _server(database, tmp_path / "server.log", model, grace="1") as (url, process):
        turns, http = await _start_held_turns(url)
        await _until(lambda: model.waiting() == TURNS, "every turn has added its task")
        _stop(process)  # the gate stays shut: no turn can finish
        assert await asyncio.to_thread(process.wait, WAIT) in STOPPED_BY_SIGTERM
        await asyncio.wait_for(asyncio.gather(*turns), WAIT)
        await http.aclose()
    titles, replies = _stored(database)
    assert titles == sorted(f"errand {i}" for i in range(TURNS))
    assert [content for content, _ in replies] == [INTERRUPTED] * TURNS
    assert _recorded_titles(replies) == titles


def _refuses(url: str) -> bool:
    try:
        httpx.get(f"{url}/healthz", timeout=1)
    except httpx.TransportError:
        return True
    return False
