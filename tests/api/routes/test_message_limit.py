"""The longest chat message is one setting, MAX_MESSAGE_CHARS: the chat routes refuse a message
one character over it with a 422 naming the limit, the web UI reads it from GET /api/config, and
the schema documents its default."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError

from backend.core.config import MESSAGE_CHARS_CEILING, Settings
from backend.main import create_app
from tests.conftest import UserSession, client_for, make_settings, register, running

LOWERED = 50


@pytest.fixture(scope="module")
async def lowered_app(database_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(database_url, max_message_chars=LOWERED)
    async with running(create_app(settings)) as application:
        yield application


def _chat_paths(user: UserSession) -> list[str]:
    return ["/api/chat", "/api/chat/stream", f"/api/{user.id}/chat"]


def _assert_refused_naming(response: httpx.Response, limit: int) -> None:
    assert response.status_code == 422, response.text
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "message"]
    assert error["type"] == "string_too_long"
    assert error["msg"] == f"String should have at most {limit} characters"
    assert error["ctx"] == {"max_length": limit}


async def test_a_message_one_character_over_the_default_is_refused_naming_the_limit(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    over = "a" * (MESSAGE_CHARS_CEILING + 1)
    for path in _chat_paths(user):
        response = await client.post(path, json={"message": over}, headers=user.headers)
        _assert_refused_naming(response, MESSAGE_CHARS_CEILING)
    longest = await client.post(
        "/api/chat", json={"message": "a" * MESSAGE_CHARS_CEILING}, headers=user.headers
    )
    assert longest.status_code == 200, longest.text


async def test_a_lowered_setting_refuses_one_character_over_it_naming_it(
    lowered_app: FastAPI,
) -> None:
    async with client_for(lowered_app) as http:
        user = await register(http)
        for path in _chat_paths(user):
            response = await http.post(
                path, json={"message": "a" * (LOWERED + 1)}, headers=user.headers
            )
            _assert_refused_naming(response, LOWERED)
        far_over = await http.post(
            "/api/chat", json={"message": "a" * 10_000}, headers=user.headers
        )
        _assert_refused_naming(far_over, LOWERED)
        longest = await http.post(
            "/api/chat", json={"message": "b" * LOWERED}, headers=user.headers
        )
        assert longest.status_code == 200, longest.text


async def test_the_limit_counts_the_message_as_sent_and_stores_it_stripped(
    lowered_app: FastAPI,
) -> None:
    async with client_for(lowered_app) as http:
        user = await register(http)
        padded = await http.post(
            "/api/chat", json={"message": " " + "c" * LOWERED}, headers=user.headers
        )
        _assert_refused_naming(padded, LOWERED)
        fits = await http.post("/api/chat", json={"message": "  hello  "}, headers=user.headers)
        assert fits.status_code == 200, fits.text
        conversation = fits.json()["conversation_id"]
        messages = await http.get(
            f"/api/conversations/{conversation}/messages", headers=user.headers
        )
        assert messages.json()[0]["content"] == "hello"


async def test_an_over_long_message_without_a_token_is_a_401(lowered_app: FastAPI) -> None:
    async with client_for(lowered_app) as http:
        response = await http.post("/api/chat", json={"message": "a" * (LOWERED + 1)})
    assert response.status_code == 401


async def test_the_config_gives_the_limit_to_a_signed_in_client(
    lowered_app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    default = await client.get("/api/config", headers=user.headers)
    assert default.json() == {"max_message_chars": MESSAGE_CHARS_CEILING}
    async with client_for(lowered_app) as http:
        someone = await register(http)
        lowered = await http.get("/api/config", headers=someone.headers)
        assert lowered.json() == {"max_message_chars": LOWERED}
        assert (await http.get("/api/config")).status_code == 401


async def test_the_schema_documents_the_default_limit(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    message = schema["components"]["schemas"]["ChatRequest"]["properties"]["message"]
    assert message["maxLength"] == MESSAGE_CHARS_CEILING
    assert "MAX_MESSAGE_CHARS" in message["description"]


@pytest.mark.parametrize("chars", [0, MESSAGE_CHARS_CEILING + 1])
def test_the_setting_stays_within_one_and_the_ceiling(chars: int) -> None:
    with pytest.raises(ValidationError, match="max_message_chars"):
        Settings(max_message_chars=chars)
