"""A client's Idempotency-Key: a retried turn is answered from the stored one, never run
twice; a key is the caller's own; a turn still being answered gets a 409 to retry."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, func, select

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


async def test_a_turn_still_being_answered_gets_a_409_to_retry(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    async with app.state.sessionmaker() as session:
        conversation = await conversations.create_conversation(
            session, owner_id=user.id, title="busy"
        )
        assert conversation.id is not None
        await conversations.insert_message(
            session,
            conversation_id=conversation.id,
            owner_id=user.id,
            role=MessageRole.USER,
            content="add buy milk",
            client_key="in-flight",
        )
        await session.commit()
    for path in ("/api/chat", "/api/chat/stream", f"/api/{user.id}/chat"):
        response = await client.post(
            path, json={"message": "add buy milk"}, headers=_keyed(user, "in-flight")
        )
        assert response.status_code == 409, path
        assert response.headers["retry-after"] == "2"
        assert "still being answered" in response.json()["detail"]
    assert await _titles(client, user) == []


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
