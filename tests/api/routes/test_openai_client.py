"""The official `openai` Python client against a real server (uvicorn in a subprocess) on
both databases: the assistant as a model, completions streamed and not, a conversation the
client resends whole each time acting on one stored conversation, personal access tokens as
the API key, and errors raised as the client's own exception types."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import openai
import pytest
from openai import AsyncOpenAI

from backend.agent.rules.replies import READ_ONLY
from tests.conftest import UserSession, register
from tests.live_server import served_on_each_database

MODEL = "todo-assistant"
# Turns one account may start a minute on this server: every test stays under it but the one
# that goes past it.
CHAT_LIMIT = 6


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    for url, _database_url in served_on_each_database(
        request,
        tmp_path_factory,
        "openai-client",
        chat_requests_per_minute=str(CHAT_LIMIT),
        login_attempts_per_window="100000",
    ):
        yield url


@pytest.fixture
async def rest(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        yield http


@pytest.fixture
async def account(rest: httpx.AsyncClient) -> UserSession:
    return await register(rest)


def openai_client(base_url: str, key: str, **options: Any) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{base_url}/v1", api_key=key, timeout=60, **options)


@pytest.fixture
async def client(base_url: str, account: UserSession) -> AsyncIterator[AsyncOpenAI]:
    async with openai_client(base_url, account.token) as connected:
        yield connected


async def personal_token(rest: httpx.AsyncClient, who: UserSession, scope: str) -> str:
    made = await rest.post(
        "/api/tokens", json={"name": f"{scope} client", "scope": scope}, headers=who.headers
    )
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


async def titles(rest: httpx.AsyncClient, who: UserSession) -> list[str]:
    response = await rest.get("/api/tasks", headers=who.headers)
    assert response.status_code == 200, response.text
    return [task["title"] for task in response.json()]


async def test_the_client_lists_the_assistant_as_its_one_model(client: AsyncOpenAI) -> None:
    listed = await client.models.list()
    assert [model.id for model in listed.data] == [MODEL]
    found = await client.models.retrieve(MODEL)
    assert (found.id, found.object, found.owned_by) == (MODEL, "model", "todo-chatbot")


async def test_a_completion_answers_and_its_changes_are_made(
    client: AsyncOpenAI, rest: httpx.AsyncClient, account: UserSession
) -> None:
    completion = await client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "add buy milk"},
        ],
        temperature=0.7,
    )
    [choice] = completion.choices
    assert choice.message.content == "I've added 'buy milk' to your list."
    assert choice.finish_reason == "stop"
    assert completion.usage is not None and completion.usage.total_tokens == 0
    assert await titles(rest, account) == ["buy milk"]


async def test_a_streamed_completion_arrives_in_pieces_with_its_usage_last(
    client: AsyncOpenAI,
) -> None:
    stream = await client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "add call mom"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    pieces, finish, usage = [], None, None
    async for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for choice in chunk.choices:
            pieces.append(choice.delta.content or "")
            finish = choice.finish_reason or finish
    assert "".join(pieces) == "I've added 'call mom' to your list."
    assert len([piece for piece in pieces if piece]) > 1
    assert finish == "stop"
    assert usage is not None and usage.total_tokens == 0


async def test_a_conversation_resent_whole_each_turn_acts_on_one_stored_conversation(
    client: AsyncOpenAI, rest: httpx.AsyncClient, account: UserSession
) -> None:
    messages: list[Any] = [{"role": "system", "content": "Keep it short."}]
    conversations = set()
    for said, streamed in (
        ("add buy milk", False),
        ("add call mom", True),
        ("delete that one", False),
    ):
        messages.append({"role": "user", "content": said})
        raw = await client.chat.completions.with_raw_response.create(
            model=MODEL, messages=messages, stream=streamed
        )
        conversations.add(raw.headers["x-conversation-id"])
        answer = raw.parse()
        if streamed:
            reply = "".join(
                [c.delta.content or "" async for chunk in answer for c in chunk.choices]
            )
        else:
            reply = answer.choices[0].message.content or ""
        messages.append({"role": "assistant", "content": reply})
    assert messages[-1]["content"] == "I've deleted 'call mom' from your list."
    assert await titles(rest, account) == ["buy milk"]
    [conversation] = conversations
    stored = await rest.get(f"/api/conversations/{conversation}/messages", headers=account.headers)
    assert [m["content"] for m in stored.json()] == [m["content"] for m in messages[1:]]


async def test_a_personal_access_token_is_the_api_key_and_its_scope_holds(
    base_url: str, rest: httpx.AsyncClient, account: UserSession
) -> None:
    ask = [{"role": "user", "content": "add buy milk"}]
    read = await personal_token(rest, account, "read")
    async with openai_client(base_url, read) as reader:
        assert [model.id for model in (await reader.models.list()).data] == [MODEL]
        answered = await reader.chat.completions.create(model=MODEL, messages=ask)
        assert answered.choices[0].message.content == READ_ONLY
        streamed = await reader.chat.completions.create(model=MODEL, messages=ask, stream=True)
        text = "".join([c.delta.content or "" async for chunk in streamed for c in chunk.choices])
        assert text == READ_ONLY
    assert await titles(rest, account) == []
    write = await personal_token(rest, account, "write")
    async with openai_client(base_url, write) as writer:
        done = await writer.chat.completions.create(model=MODEL, messages=ask)
    assert done.choices[0].message.content == "I've added 'buy milk' to your list."
    assert await titles(rest, account) == ["buy milk"]


async def test_errors_surface_as_the_clients_own_exception_types(
    base_url: str, client: AsyncOpenAI, account: UserSession
) -> None:
    ask = [{"role": "user", "content": "hello"}]
    async with openai_client(base_url, "tdc_not-a-real-token", max_retries=0) as stranger:
        with pytest.raises(openai.AuthenticationError) as refused:
            await stranger.chat.completions.create(model=MODEL, messages=ask)
    assert refused.value.status_code == 401
    with pytest.raises(openai.NotFoundError) as unknown:
        await client.chat.completions.create(model="gpt-4o", messages=ask)
    assert unknown.value.code == "model_not_found"
    with pytest.raises(openai.BadRequestError) as bad:
        await client.chat.completions.create(
            model=MODEL,
            messages=[
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
                    ],
                }
            ],
        )
    assert bad.value.param == "messages[0].content[0]"
    with pytest.raises(openai.BadRequestError) as required:
        await client.chat.completions.create(
            model=MODEL,
            messages=ask,
            tools=[{"type": "function", "function": {"name": "lookup", "parameters": {}}}],
            tool_choice="required",
        )
    assert required.value.param == "tool_choice"


async def test_past_the_chat_limit_the_client_raises_a_rate_limit_error(
    base_url: str, account: UserSession
) -> None:
    ask = [{"role": "user", "content": "hello"}]
    async with openai_client(base_url, account.token, max_retries=0) as hurried:
        for _ in range(CHAT_LIMIT):
            await hurried.chat.completions.create(model=MODEL, messages=ask)
        with pytest.raises(openai.RateLimitError) as limited:
            await hurried.chat.completions.create(model=MODEL, messages=ask)
    assert int(limited.value.response.headers["retry-after"]) > 0
