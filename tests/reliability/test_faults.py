"""The database going away: friendly replies or 503s, /readyz says so, recovery without a
restart, and no half-written turns."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from backend.agent.rules.replies import SYSTEM_ERROR
from tests.conftest import ADMIN_POSTGRES_DSN
from tests.live_server import live_server


async def postgres_admin(sql: str) -> None:
    connection = await asyncpg.connect(ADMIN_POSTGRES_DSN)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _kill_connections(database: str) -> str:
    return (
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{database}' AND pid <> pg_backend_pid()"
    )


@pytest.fixture(scope="module")
def fault_database(postgresql_url: str) -> Iterator[tuple[str, str]]:
    """A database of its own, so cutting it off disturbs no other test."""
    name = f"todo_fault_{uuid.uuid4().hex[:10]}"
    asyncio.run(postgres_admin(f'CREATE DATABASE "{name}"'))
    url = postgresql_url.rsplit("/", 1)[0] + f"/{name}"
    yield name, url
    asyncio.run(postgres_admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
    asyncio.run(postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="module")
def server(
    fault_database: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    _, url = fault_database
    log = tmp_path_factory.mktemp("faults") / "server.log"
    with live_server(
        url, log, chat_requests_per_minute="100000", login_attempts_per_window="100000"
    ) as base:
        yield base


async def _register(http: httpx.AsyncClient) -> dict[str, str]:
    email = f"fault-{uuid.uuid4().hex[:8]}@example.com"
    response = await http.post(
        "/api/auth/register", json={"email": email, "password": "a long password"}
    )
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


async def test_database_unreachable_gives_503_and_readyz_reports_then_recovers(
    server: str, fault_database: tuple[str, str]
) -> None:
    name, _ = fault_database
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        headers = await _register(http)
        await postgres_admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await postgres_admin(_kill_connections(name))
        try:
            ready = await http.get("/readyz")
            assert ready.status_code == 503
            assert ready.json()["status"] == "unavailable"
            chat = await http.post("/api/chat", json={"message": "add milk"}, headers=headers)
            assert chat.status_code == 503
            assert chat.json() == {"detail": "The service is temporarily unavailable"}
            assert chat.headers["retry-after"]
            assert "Traceback" not in chat.text
        finally:
            await postgres_admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        assert (await http.get("/readyz")).status_code == 200  # no restart needed
        after = await http.post("/api/chat", json={"message": "add milk"}, headers=headers)
        assert after.status_code == 200
        assert after.json()["tool_calls"][0]["result"]["status"] == "created"


async def test_connections_killed_mid_turns_leave_no_half_written_turn(
    server: str, fault_database: tuple[str, str]
) -> None:
    name, _ = fault_database
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        headers = await _register(http)
        start = await http.post("/api/chat", json={"message": "hi"}, headers=headers)
        cid = start.json()["conversation_id"]

        async def killer() -> None:
            for _ in range(8):
                await asyncio.sleep(0.05)
                await postgres_admin(_kill_connections(name))

        turns = [
            http.post(
                "/api/chat",
                json={"message": f"add chore {i}", "conversation_id": cid},
                headers=headers,
            )
            for i in range(30)
        ]
        results: list[Any] = await asyncio.gather(killer(), *turns)
        responses: list[httpx.Response] = results[1:]
        statuses = {r.status_code for r in responses}
        assert statuses <= {200, 503}, statuses
        for response in responses:
            if response.status_code == 200:
                assert "Traceback" not in response.json()["response"]
        messages = (
            await http.get(f"/api/conversations/{cid}/messages?limit=500", headers=headers)
        ).json()
        tasks = (await http.get("/api/tasks", headers=headers)).json()

    acknowledged = {r.json()["response"] for r in responses if r.status_code == 200}
    assert acknowledged <= {m["content"] for m in messages if m["role"] == "assistant"}
    recorded = {
        call["result"]["task_id"]
        for m in messages
        if m["role"] == "assistant"
        for call in m["tool_calls"]
        if call["name"] == "add_task"
        and isinstance(call["result"], dict)
        and "task_id" in call["result"]
    }
    # Every task that exists was created by a turn whose reply records it.
    assert {t["id"] for t in tasks} <= recorded
    failures = sum(1 for m in messages if m["content"] == SYSTEM_ERROR)
    assert failures + len(tasks) >= sum(1 for r in responses if r.status_code == 200)


def _server_pids(port: str) -> list[int]:
    """Processes of the uvicorn server on `port` (read from /proc, no subprocess)."""
    pids = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            arguments = cmdline.read_bytes().split(b"\0")
            if b"uvicorn" in b" ".join(arguments) and port.encode() in arguments:
                pids.append(int(cmdline.parent.name))
    return pids


async def test_a_worker_killed_mid_burst_loses_nothing_acknowledged(
    postgresql_url: str, tmp_path: Path
) -> None:
    email = f"killed-{uuid.uuid4().hex[:8]}@example.com"
    acknowledged: list[str] = []
    with live_server(
        postgresql_url,
        tmp_path / "server.log",
        chat_requests_per_minute="100000",
        login_attempts_per_window="100000",
    ) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            token = (
                await http.post(
                    "/api/auth/register", json={"email": email, "password": "a long password"}
                )
            ).json()["access_token"]
            headers = {"Authorization": f"Bearer {token}"}
            cid = (await http.post("/api/chat", json={"message": "hi"}, headers=headers)).json()[
                "conversation_id"
            ]

            async def turn(i: int) -> str | None:
                try:
                    response = await http.post(
                        "/api/chat",
                        json={"message": f"add keep {i}", "conversation_id": cid},
                        headers=headers,
                    )
                except httpx.TransportError:
                    return None  # the worker died under this request
                return f"add keep {i}" if response.status_code == 200 else None

            pending = [asyncio.create_task(turn(i)) for i in range(40)]
            port = base.rsplit(":", 1)[1]
            for finished in asyncio.as_completed(pending):
                if (message := await finished) is not None:
                    acknowledged.append(message)
                if len(acknowledged) == 5:
                    for pid in _server_pids(port):
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(pid, signal.SIGKILL)
            for task in pending:
                if task.done() and (message := task.result()) and message not in acknowledged:
                    acknowledged.append(message)
    assert 5 <= len(acknowledged) < 40  # the kill cut the burst short
    # A new server on the same database has every acknowledged turn, reply included.
    with (
        live_server(postgresql_url, tmp_path / "again.log") as base,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        token = http.post(
            "/api/auth/login", json={"email": email, "password": "a long password"}
        ).json()
        headers = {"Authorization": f"Bearer {token['access_token']}"}
        messages = http.get(f"/api/conversations/{cid}/messages?limit=500", headers=headers).json()
    stored_user = [m["content"] for m in messages if m["role"] == "user"]
    replies = {
        call["arguments"]["title"]
        for m in messages
        if m["role"] == "assistant"
        for call in m["tool_calls"]
        if call["name"] == "add_task"
    }
    for message in acknowledged:
        assert message in stored_user
        assert message.removeprefix("add ") in replies
