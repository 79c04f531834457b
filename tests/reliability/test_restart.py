"""A graceful restart (SIGTERM of `todo-chatbot serve`) during turns, streamed and not: turns in
flight finish and store their replies; turns still running when the grace period ends store a
reply recording what they did and answer their clients (a 503 with Retry-After, or an SSE
`error` event), never a plain 500 or a silent close. Never a task that no stored reply records.

The turns are held mid-way on purpose, not by timing: an LLM brain talks to a local scripted
model that calls `add_task` at once, then answers only when the test opens a gate. The busy
case runs the rule brain's many-task messages and signals once they are all under way.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.chat.turns import INTERRUPTED
from tests.agent.fake_openai import GatedModel, serving
from tests.live_server import cli_server

STREAMED, PLAIN = 3, 3
TURNS = STREAMED + PLAIN
WAIT = 120.0  # an upper bound for waits on events, never a speed expectation
# uvicorn re-raises the signal it shut down for, once shutdown is complete.
STOPPED_BY_SIGTERM = (0, -signal.SIGTERM)


@pytest.fixture
def model() -> Iterator[GatedModel]:
    with serving(GatedModel()) as fake:
        yield fake
        fake.gate.set()


def _server(
    database: Path, log: Path, model: GatedModel, grace: str
) -> Any:  # the context manager of tests.live_server.cli_server
    return cli_server(
        f"sqlite+aiosqlite:///{database}",
        log,
        agent_brain="compatible",
        openai_base_url=model.url,
        openai_model="fake-model",
        llm_timeout_seconds=str(WAIT),
        llm_max_retries="0",
        shutdown_grace_seconds=grace,
    )


async def _stream_turn(http: httpx.AsyncClient, headers: dict[str, str], text: str) -> str:
    """How the stream ended: its last event other than `tool_call` and `delta`, "silent" if
    it closed with none, or "broken"."""
    names: list[str] = []
    try:
        async with http.stream(
            "POST", "/api/chat/stream", json={"message": text}, headers=headers
        ) as response:
            if response.status_code != 200:
                return f"status {response.status_code}"
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    names.append(line.removeprefix("event:").strip())
    except httpx.HTTPError:
        return "broken"
    ends = [name for name in names if name not in ("tool_call", "delta")]
    return ends[-1] if ends else "silent"


async def _plain_turn(http: httpx.AsyncClient, headers: dict[str, str], text: str) -> str:
    """The status the client got, with "retry" when it came with a usable Retry-After."""
    try:
        response = await http.post("/api/chat", json={"message": text}, headers=headers)
    except httpx.HTTPError:
        return "broken"
    retry = int(response.headers.get("retry-after", "0")) >= 1
    return f"{response.status_code}{' retry' if retry else ''}"


async def _register(http: httpx.AsyncClient, email: str) -> dict[str, str]:
    registered = await http.post(
        "/api/auth/register", json={"email": email, "password": "a long password"}
    )
    return {"Authorization": f"Bearer {registered.json()['access_token']}"}


async def _start_held_turns(
    url: str,
) -> tuple[list[asyncio.Task[str]], list[asyncio.Task[str]], httpx.AsyncClient]:
    http = httpx.AsyncClient(base_url=url, timeout=WAIT)
    headers = await _register(http, "restart@example.com")
    streamed = [
        asyncio.create_task(_stream_turn(http, headers, f"errand {i}")) for i in range(STREAMED)
    ]
    plain = [
        asyncio.create_task(_plain_turn(http, headers, f"errand {i}"))
        for i in range(STREAMED, TURNS)
    ]
    return streamed, plain, http


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
        streamed, plain, http = await _start_held_turns(url)
        await _until(lambda: model.waiting() == TURNS, "every turn has added its task")
        _stop(process)
        await _until(lambda: process.poll() is None and _refuses(url), "new requests refused")
        model.gate.set()
        ends = await asyncio.wait_for(asyncio.gather(*streamed, *plain), WAIT)
        await http.aclose()
        assert await asyncio.to_thread(process.wait, WAIT) in STOPPED_BY_SIGTERM
    assert ends == ["done"] * STREAMED + ["200"] * PLAIN
    titles, replies = _stored(database)
    assert titles == sorted(f"errand {i}" for i in range(TURNS))
    assert [content.strip() for content, _ in replies] == ["Added it."] * TURNS
    assert _recorded_titles(replies) == titles


async def test_turns_cut_by_the_end_of_the_grace_period_answer_and_record_what_they_did(
    tmp_path: Path, model: GatedModel
) -> None:
    database = tmp_path / "todo.db"
    with _server(database, tmp_path / "server.log", model, grace="1") as (url, process):
        streamed, plain, http = await _start_held_turns(url)
        await _until(lambda: model.waiting() == TURNS, "every turn has added its task")
        _stop(process)  # the gate stays shut: no turn can finish
        assert await asyncio.to_thread(process.wait, WAIT) in STOPPED_BY_SIGTERM
        ends = await asyncio.wait_for(asyncio.gather(*streamed, *plain), WAIT)
        await http.aclose()
    assert ends == ["error"] * STREAMED + ["503 retry"] * PLAIN
    titles, replies = _stored(database)
    assert titles == sorted(f"errand {i}" for i in range(TURNS))
    assert [content for content, _ in replies] == [INTERRUPTED] * TURNS
    assert _recorded_titles(replies) == titles


BUSY_USERS = 30
SHOPPING = "add " + ", ".join(
    "milk eggs bread butter cheese apples pears rice beans flour "
    "salt sugar tea coffee jam honey oats pasta lentils yogurt".split()
)


async def test_a_restart_during_busy_many_task_turns_answers_every_client_and_records_every_task(
    tmp_path: Path,
) -> None:
    """The rule brain, a streamed and a plain turn per user, each adding 20 tasks on SQLite's
    one writer; SIGTERM once every turn is under way, with a 1 s grace. However far each had
    got, every client is answered and every task is recorded by a stored reply."""
    database = tmp_path / "todo.db"
    with cli_server(
        f"sqlite+aiosqlite:///{database}", tmp_path / "server.log", shutdown_grace_seconds="1"
    ) as (url, process):
        async with httpx.AsyncClient(base_url=url, timeout=WAIT) as http:
            users = [await _register(http, f"busy-{i}@example.com") for i in range(BUSY_USERS)]
            turns = [
                asyncio.create_task(turn(http, headers, SHOPPING))
                for headers in users
                for turn in (_stream_turn, _plain_turn)
            ]
            await _until(
                lambda: (
                    _count(database, "message WHERE role = 'user'") == len(turns)
                    and _count(database, "task") >= BUSY_USERS
                ),
                "every turn is under way",
            )
            _stop(process)
            ends = await asyncio.wait_for(asyncio.gather(*turns), WAIT)
        assert await asyncio.to_thread(process.wait, WAIT) in STOPPED_BY_SIGTERM
    assert set(ends) <= {"done", "error", "200", "503 retry"}, ends
    with sqlite3.connect(database) as connection:
        unanswered = connection.execute(
            "SELECT count(*) FROM message AS m WHERE role = 'user' AND NOT EXISTS ("
            "SELECT 1 FROM message AS r WHERE r.conversation_id = m.conversation_id"
            " AND r.role = 'assistant' AND r.id > m.id)"
        ).fetchone()[0]
        made = set(connection.execute("SELECT owner_id, number FROM task"))
        recorded = {
            (owner, call["result"]["task_id"])
            for owner, calls in connection.execute(
                "SELECT owner_id, tool_calls FROM message WHERE role = 'assistant'"
            )
            for call in json.loads(calls or "[]")
            if call["name"] == "add_task" and "task_id" in call["result"]
        }
    assert unanswered == 0
    assert made == recorded


def _count(database: Path, rows: str) -> int:
    with sqlite3.connect(database) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {rows}").fetchone()[0])


def _refuses(url: str) -> bool:
    try:
        httpx.get(f"{url}/healthz", timeout=1)
    except httpx.TransportError:
        return True
    return False
