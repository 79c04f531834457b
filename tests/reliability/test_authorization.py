"""OWASP API1 (BOLA) and API2 (broken authentication), endpoint by endpoint."""

from __future__ import annotations

from datetime import timedelta

import httpx
import jwt
import pytest

from backend.core.timeutil import utcnow
from tests.conftest import TEST_SECRET, ChatFn, UserSession

AUTHENTICATED = [
    ("GET", "/api/auth/me", None),
    ("GET", "/api/tasks", None),
    ("POST", "/api/tasks", {"title": "x"}),
    ("GET", "/api/tasks/1", None),
    ("PATCH", "/api/tasks/1", {"title": "x"}),
    ("DELETE", "/api/tasks/1", None),
    ("GET", "/api/conversations", None),
    ("GET", "/api/conversations/1/messages", None),
    ("DELETE", "/api/conversations/1", None),
    ("POST", "/api/chat", {"message": "hi"}),
    ("POST", "/api/chat/stream", {"message": "hi"}),
    ("POST", "/api/1/chat", {"message": "hi"}),
]


def _token(**overrides: object) -> str:
    claims = {"sub": "1", "exp": utcnow() + timedelta(minutes=5), "type": "access", **overrides}
    return jwt.encode(claims, TEST_SECRET, algorithm="HS256")


BAD_TOKENS = {
    "missing": None,
    "malformed": "not-a-token",
    "expired": _token(exp=utcnow() - timedelta(seconds=5)),
    "unsigned (alg none)": jwt.encode(
        {"sub": "1", "exp": utcnow() + timedelta(minutes=5), "type": "access"},
        None,
        algorithm="none",
    ),
    "wrong secret": jwt.encode(
        {"sub": "1", "exp": utcnow() + timedelta(minutes=5), "type": "access"},
        "another-secret-that-is-long-enough-000000",
        algorithm="HS256",
    ),
    "unknown user": _token(sub="999999999"),
    "basic scheme": "Basic dXNlcjpwYXNz",
}


@pytest.mark.parametrize("token_kind", list(BAD_TOKENS))
async def test_every_endpoint_refuses_bad_tokens_with_401(
    client: httpx.AsyncClient, token_kind: str
) -> None:
    token = BAD_TOKENS[token_kind]
    headers = {}
    if token is not None:
        headers["Authorization"] = token if token.startswith("Basic") else f"Bearer {token}"
    for method, path, body in AUTHENTICATED:
        response = await client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (token_kind, method, path, response.text)


async def test_another_users_ids_change_nothing_anywhere(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add private plan")
    conversation = body["conversation_id"]
    attacks = [
        ("GET", "/api/tasks/1", None, 404),
        ("PATCH", "/api/tasks/1", {"title": "pwned", "completed": True}, 404),
        ("DELETE", "/api/tasks/1", None, 404),
        ("GET", f"/api/conversations/{conversation}/messages", None, 404),
        ("DELETE", f"/api/conversations/{conversation}", None, 404),
        ("POST", "/api/chat", {"message": "delete task 1", "conversation_id": conversation}, 404),
        ("POST", "/api/chat/stream", {"message": "hi", "conversation_id": conversation}, 404),
        ("POST", f"/api/{user.id}/chat", {"message": "show my tasks"}, 403),
    ]
    for method, path, payload, expected in attacks:
        response = await client.request(method, path, json=payload, headers=other_user.headers)
        assert response.status_code == expected, (method, path, response.text)
    tasks = (await client.get("/api/tasks", headers=user.headers)).json()
    assert [(t["id"], t["title"], t["completed"]) for t in tasks] == [(1, "private plan", False)]
    messages = (
        await client.get(f"/api/conversations/{conversation}/messages", headers=user.headers)
    ).json()
    assert len(messages) == 2
