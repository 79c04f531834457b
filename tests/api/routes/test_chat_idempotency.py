"""A client's Idempotency-Key: a retried turn is answered from the stored one, never run
twice; a key is the caller's own; a turn still being answered gets a 409 to retry, until it
can no longer be running (a killed worker): then the retry gets a stored interrupted reply."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, func, select, update

from backend.chat.turns import INTERRUPTED
from backend.core.timeutil import utcnow
from backend.models import Message, MessageRole
from backend.services import conversations
from tests.api.routes.test_chat_stream import parse_sse
from tests.conftest import UserSession, register


def _keyed(who: UserSession, key: str) -> dict[str, str]:
    return {**who.headers, "Idempotency-Key": key}


async def _send(
    client: httpx.AsyncClient, who: UserSession, key: str, message: str = "add buy milk"
) -> httpx.Response:
    return await client.post("/api/chat", json={"message": message}, headers=_keyed(who, key))


async def _messages_of(app: FastAPI, who: UserSession) -> int:
    async with app.state.sessionmaker() as session:
        query = select(func.count()).select_from(Message).where(col(Message.owner_id) == who.id)
        return int((await session.exec(query)).one())


async def _titles(client: httpx.AsyncClient, who: UserSession) -> list[str]:
    return [t["title"] for t in (await client.get("/api/tasks", headers=who.headers)).json()]


async def test_a_retried_turn_gets_the_stored_reply_and_runs_nothing_twice(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    first = await _send(client, user, "turn-0001")
    again = await _send(client, user, "turn-0001")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert await _titles(client, user) == ["buy milk"]
    assert await _messages_of(app, user) == 2
    other = await _send(client, user, "turn-0002")
    assert other.json()["conversation_id"] != first.json()["conversation_id"]
    assert await _titles(client, user) == ["buy milk", "buy milk"]


async def test_a_retried_streamed_turn_streams_only_the_stored_answer(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    body = {"message": "add call mom"}
    first = await client.post("/api/chat/stream", json=body, headers=_keyed(user, "s-1"))
    again = await client.post("/api/chat/stream", json=body, headers=_keyed(user, "s-1"))
    done = [data for event, data in parse_sse(first.text) if event == "done"]
    assert parse_sse(again.text) == [("done", done[0])]
    plain = await _send(client, user, "s-1", "add call mom")  # the same turn, either way
    assert plain.json() == done[0]
    assert await _titles(client, user) == ["call mom"]


async def test_a_key_belongs_to_its_user_only(client: httpx.AsyncClient, user: UserSession) -> None:
    someone = await register(client)
    mine = await _send(client, user, "shared-key", "add my secret")
    theirs = await _send(client, someone, "shared-key", "show my tasks")
    assert "secret" not in theirs.text
    assert theirs.json()["conversation_id"] != mine.json()["conversation_id"]
    assert await _titles(client, someone) == []


async def _unanswered(app: FastAPI, who: UserSession, key: str, *, age: timedelta) -> int:
    """A keyed message with no reply, stored `age` ago: a turn in flight, or one whose worker
    was killed before it answered. Returns its conversation's id."""
    async with app.state.sessionmaker() as session:
        conversation = await conversations.create_conversation(
            session, owner_id=who.id, title="busy"
        )
        assert conversation.id is not None
        await conversations.insert_message(
            session,
            conversation_id=conversation.id,
            owner_id=who.id,
            role=MessageRole.USER,
            content="add buy milk",
            client_key=key,
        )
        await session.exec(
            update(Message)
            .where(col(Message.client_key) == key, col(Message.owner_id) == who.id)
            .values(created_at=utcnow() - age)
        )
        await session.commit()
        return conversation.id


async def _replies_to(app: FastAPI, who: UserSession, key: str) -> list[str]:
    async with app.state.sessionmaker() as session:
        query = select(Message.content).where(
            col(Message.owner_id) == who.id,
            col(Message.client_key) == key,
            col(Message.role) == MessageRole.ASSISTANT.value,
        )
        return list((await session.exec(query)).all())


async def test_a_turn_still_being_answered_gets_a_409_to_retry(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    await _unanswered(app, user, "in-flight", age=timedelta(seconds=1))
    for path in ("/api/chat", "/api/chat/stream", f"/api/{user.id}/chat"):
        response = await client.post(
            path, json={"message": "add buy milk"}, headers=_keyed(user, "in-flight")
        )
        assert response.status_code == 409, path
        assert response.headers["retry-after"] == "2"
        assert "still being answered" in response.json()["detail"]
    assert await _titles(client, user) == []


async def test_a_retry_after_its_turn_can_no_longer_be_running_gets_the_interrupted_reply(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    # Older than any turn can live (its time budget, the shutdown grace, storing its reply):
    # its worker was killed with it. Two retries arrive at once.
    conversation_id = await _unanswered(app, user, "killed", age=timedelta(hours=1))
    first, second = await asyncio.gather(
        _send(client, user, "killed"), _send(client, user, "killed")
    )
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert first.json() == {
        "conversation_id": conversation_id,
        "response": INTERRUPTED,
        "tool_calls": [],
        "choices": [],
        "undoable": False,
    }
    streamed = await client.post(
        "/api/chat/stream", json={"message": "add buy milk"}, headers=_keyed(user, "killed")
    )
    assert parse_sse(streamed.text) == [("done", first.json())]
    assert await _replies_to(app, user, "killed") == [INTERRUPTED]  # stored once
    assert await _titles(client, user) == []  # the turn was not run again


@pytest.mark.parametrize("key", ["has space", "x" * 201, "ünïcode"], ids=["space", "long", "8bit"])
async def test_an_unusable_key_is_a_422_naming_the_header(
    client: httpx.AsyncClient, user: UserSession, key: str
) -> None:
    response = await client.post(
        "/api/chat",
        json={"message": "add buy milk"},
        headers=[*user.headers.items(), ("Idempotency-Key", key.encode())],
    )
    assert response.status_code == 422
    detail: list[dict[str, Any]] = response.json()["detail"]
    assert detail[0]["loc"] == ["header", "Idempotency-Key"]
    assert await _titles(client, user) == []
