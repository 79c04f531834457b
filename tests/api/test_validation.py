"""422 bodies (backend/api/validation.py): FastAPI's shape, nothing of the input echoed."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.conftest import UserSession

LONE_SURROGATE = '"a\\ud800b"'  # valid JSON text, but no UTF-8 string can carry it


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/tasks", '{"title": ' + LONE_SURROGATE + "}"),
        ("PATCH", "/api/tasks/1", '{"title": ' + LONE_SURROGATE + "}"),
        ("POST", "/api/chat", '{"message": ' + LONE_SURROGATE + "}"),
    ],
)
async def test_a_lone_surrogate_is_a_422_not_a_server_error(
    client: httpx.AsyncClient, user: UserSession, method: str, path: str, body: str
) -> None:
    await client.post("/api/tasks", json={"title": "seed"}, headers=user.headers)
    response = await client.request(
        method,
        path,
        content=body.encode(),
        headers={**user.headers, "content-type": "application/json"},
    )
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"][0] == "body"


async def test_a_lone_surrogate_in_a_sign_up_is_a_422(client: httpx.AsyncClient) -> None:
    body = '{"email": "x@example.com", "password": ' + LONE_SURROGATE + "}"
    response = await client.post(
        "/api/auth/register", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 422


async def test_a_rejected_password_is_not_echoed_back(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/api/auth/register", json={"email": "x@example.com", "password": "pw-4321"}
    )
    assert response.status_code == 422
    assert "pw-4321" not in response.text
    error = response.json()["detail"][0]
    assert error["loc"] == ["body", "password"]
    assert {"type", "loc", "msg"} <= set(error)
    assert "input" not in error


async def test_a_field_name_with_a_lone_surrogate_is_reported_safely(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    body = '{"title": "ok", ' + LONE_SURROGATE + ": 1}"
    response = await client.post(
        "/api/tasks",
        content=body.encode(),
        headers={**user.headers, "content-type": "application/json"},
    )
    assert response.status_code in (201, 422)
    json.loads(response.text)
