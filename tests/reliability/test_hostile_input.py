"""Odd and hostile input is stored intact (as text) or refused with a clear 4xx."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import ChatFn, UserSession

STORED_INTACT = [
    "'; DROP TABLE task; --",
    "Robert'); DELETE FROM \"user\" WHERE ('1'='1",
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>",
    "\u202etxt.exe\u202c right-to-left override",
    "Zalgo t̶̢̛e̵x̷t̸",
    "emoji 👩‍👩‍👧‍👦🏳️‍🌈",
    "日本語のタスク",
    "%s %d {0} ${jndi:ldap://x}",
    'back\\slash and "quotes"',
]


@pytest.mark.parametrize("title", STORED_INTACT)
async def test_hostile_titles_are_stored_and_returned_exactly(
    client: httpx.AsyncClient, user: UserSession, title: str
) -> None:
    created = await client.post("/api/tasks", json={"title": title}, headers=user.headers)
    assert created.status_code == 201
    fetched = await client.get(f"/api/tasks/{created.json()['id']}", headers=user.headers)
    assert fetched.json()["title"] == title
    assert fetched.headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    "payload",
    [
        {"title": "nul\x00byte"},
        {"title": "x" * 10_000},
        {"title": ["a", "list"]},
        {"title": {"an": "object"}},
        {"title": None},
        {"title": True},
        {"title": "ok", "description": "d" * 10_000},
    ],
    ids=["nul", "10k", "list", "object", "null", "bool", "10k-description"],
)
async def test_malformed_task_input_is_a_422(
    client: httpx.AsyncClient, user: UserSession, payload: dict[str, object]
) -> None:
    response = await client.post("/api/tasks", json=payload, headers=user.headers)
    assert response.status_code == 422
    assert response.json()["detail"]


async def test_a_body_that_is_not_json_is_a_4xx(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await client.post(
        "/api/tasks",
        content=b"{not json",
        headers={**user.headers, "content-type": "application/json"},
    )
    assert response.status_code in (400, 422)


@pytest.mark.parametrize("text", STORED_INTACT)
async def test_hostile_chat_messages_are_stored_as_text(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn, text: str
) -> None:
    body = await chat(text)
    messages = (
        await client.get(
            f"/api/conversations/{body['conversation_id']}/messages", headers=user.headers
        )
    ).json()
    assert messages[-2]["content"] == text.strip()
    assert "Traceback" not in body["response"]


async def test_a_10kb_message_is_refused_clearly(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await client.post("/api/chat", json={"message": "a" * 10_240}, headers=user.headers)
    assert response.status_code == 422
    assert "4000" in response.text
