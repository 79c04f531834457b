"""Many chat turns at once on PostgreSQL behind two workers: nothing lost, nothing doubled,
numbers unique, no deadlock, no 5xx."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live_server import live_server

TURNS = 50


@pytest.fixture(scope="module")
def two_workers(postgresql_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("concurrency") / "server.log"
    with live_server(
        postgresql_url,
        log,
        workers=2,
        chat_requests_per_minute="100000",
        login_attempts_per_window="100000",
    ) as url:
        yield url


async def _register(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await http.post(
        "/api/auth/register", json={"email": f"{name}@example.com", "password": "a long password"}
    )
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


async def _messages(http: httpx.AsyncClient, headers: dict[str, str], cid: int) -> list[Any]:
    response = await http.get(f"/api/conversations/{cid}/messages?limit=500", headers=headers)
    return list(response.json())


async def test_fifty_concurrent_turns_in_one_conversation_are_each_stored_once(
    two_workers: str, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=two_workers, timeout=60) as http:
        headers = await _register(http, f"one-conversation-{tmp_path.name}")
        first = await http.post("/api/chat", json={"message": "hello"}, headers=headers)
        cid = first.json()["conversation_id"]
        responses = await asyncio.gather(
            *(
                http.post(
                    "/api/chat",
                    json={"message": f"add errand {i}", "conversation_id": cid},
                    headers=headers,
                )
                for i in range(TURNS)
            )
        )
        assert [r.status_code for r in responses] == [200] * TURNS
        messages = await _messages(http, headers, cid)
        tasks = (await http.get("/api/tasks", headers=headers)).json()

    user_texts = [m["content"] for m in messages if m["role"] == "user"]
    assert sorted(user_texts[1:]) == sorted(f"add errand {i}" for i in range(TURNS))
    assert len(messages) == 2 * (TURNS + 1)
    ids = [m["id"] for m in messages]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # Every reply comes after the message it answers.
    for number, task in enumerate(sorted(tasks, key=lambda t: t["id"]), start=1):
        assert task["id"] == number  # unique, consecutive per-user numbers
    replied = {
        m["tool_calls"][0]["arguments"]["title"]: m["id"]
        for m in messages
        if m["role"] == "assistant" and m["tool_calls"]
    }
    asked = {m["content"].removeprefix("add "): m["id"] for m in messages if m["role"] == "user"}
    assert all(replied[title] > asked[title] for title in replied)
    assert len(replied) == TURNS


async def test_fifty_users_chatting_at_once_each_get_their_own_turn(
    two_workers: str, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=two_workers, timeout=60) as http:
        users = await asyncio.gather(
            *(_register(http, f"crowd-{tmp_path.name}-{i}") for i in range(TURNS))
        )
        responses = await asyncio.gather(
            *(
                http.post("/api/chat", json={"message": f"add my own thing {i}"}, headers=headers)
                for i, headers in enumerate(users)
            )
        )
        assert [r.status_code for r in responses] == [200] * TURNS
        lists = await asyncio.gather(*(http.get("/api/tasks", headers=h) for h in users))
    for i, listed in enumerate(lists):
        assert [(t["id"], t["title"]) for t in listed.json()] == [(1, f"my own thing {i}")]
