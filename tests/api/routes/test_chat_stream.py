"""POST /api/chat/stream: Server-Sent Events of one chat turn."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi import FastAPI

from backend.chat import turns as chat_service
from backend.services.conversations import recent_messages
from tests.conftest import UserSession


def parse_sse(text: str) -> list[tuple[str, Any]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(
            line.split(": ", 1)
            for line in block.splitlines()
            if ": " in line and not line.startswith(":")
        )
        if "event" in fields:
            events.append((fields["event"], json.loads(fields["data"])))
    return events


async def stream(
    client: httpx.AsyncClient, user: UserSession, message: str, **extra: Any
) -> httpx.Response:
    return await client.post(
        "/api/chat/stream", json={"message": message, **extra}, headers=user.headers
    )


async def test_a_turn_streams_tool_calls_then_text_then_the_full_body(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await stream(client, user, "add buy milk")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = parse_sse(response.text)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "tool_call"
    assert kinds[-1] == "done"
    assert set(kinds[1:-1]) == {"delta"}
    assert events[0][1]["name"] == "add_task"
    assert events[0][1]["result"]["status"] == "created"
    done = events[-1][1]
    assert "".join(data["text"] for kind, data in events if kind == "delta") == done["response"]
    assert done["response"] == "I've added 'buy milk' to your list."
    assert done["tool_calls"] == [events[0][1]]
    assert isinstance(done["conversation_id"], int)


async def test_a_streamed_turn_is_stored_like_any_other(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    first = parse_sse((await stream(client, user, "add call mom")).text)[-1][1]
    second = parse_sse(
        (
            await stream(client, user, "mark it as done", conversation_id=first["conversation_id"])
        ).text
    )[-1][1]
    assert second["response"] == "Great job! I've marked 'call mom' as complete."
    messages = (
        await client.get(
            f"/api/conversations/{first['conversation_id']}/messages", headers=user.headers
        )
    ).json()
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]


async def test_stream_errors_before_the_turn_are_plain_http_errors(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    first = parse_sse((await stream(client, user, "hello")).text)[-1][1]
    foreign = await stream(client, other_user, "hi", conversation_id=first["conversation_id"])
    assert foreign.status_code == 404
    assert (await stream(client, user, "   ")).status_code == 422
    unauthenticated = await client.post("/api/chat/stream", json={"message": "hi"})
    assert unauthenticated.status_code == 401


async def test_a_client_that_disconnects_does_not_lose_the_turn(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    opened = await chat_service.open_turn(
        app.state.sessionmaker,
        user_id=user.id,
        message="add water plants",
        conversation_id=None,
        window=50,
    )
    events = app.state.turns.stream(app.state.assistant, opened)
    await anext(events)  # the first event arrives, then the client goes away
    await events.aclose()
    await app.state.turns.wait_for_turns()
    async with app.state.sessionmaker() as session:
        stored = await recent_messages(session, conversation_id=opened.conversation_id, limit=5)
    assert [m.content for m in stored] == [
        "add water plants",
        "I've added 'water plants' to your list.",
    ]
    assert [t["title"] for t in (await client.get("/api/tasks", headers=user.headers)).json()] == [
        "water plants"
    ]
