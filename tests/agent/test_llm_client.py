"""The LLM brains' `openai` client: the conversation and the tool schemas skip the client's
request transform (a walk that costs about 0.1 ms a message) while the bytes sent stay those
the stock client sends, streamed or not, with or without the caller's `extra_body`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from openai import AsyncOpenAI

from backend.agent.llm import LeanAsyncOpenAI, bulk_in_extra_body, openai_client
from tests.conftest import make_settings

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "add_task",
            "description": "Add a task",
            "parameters": {
                "type": "object",
                "properties": {
                    "title": {"type": "string", "maxLength": 200},
                    "due": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["title"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "list_tasks",
            "parameters": {"type": "object", "properties": {"status": {"enum": ["all"]}}},
            "strict": False,
        },
    },
]

# Every kind of message the Agents SDK sends, and a content-part list a user may send.
MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You manage one user's todo list. Today is Tuesday."},
    {"role": "developer", "content": "Be brief."},
    {"role": "user", "content": "add buy milk"},
    {"role": "assistant", "content": "I've added 'Buy milk'."},
    {"role": "user", "content": [{"type": "text", "text": "what's ünïcode on my list? 🥛"}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "list_tasks", "arguments": '{"status": "all"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": '{"result": [{"id": 1}]}'},
]

COMPLETION = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "fake-model",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
    ],
}
STREAM = (
    'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"fake-model",'
    '"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\n'
    "data: [DONE]\n\n"
)


class Recorder:
    """A transport that keeps every request body and answers as a chat-completions server."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.bodies.append(request.content)
        if json.loads(request.content).get("stream"):
            return httpx2.Response(
                200, content=STREAM.encode(), headers={"content-type": "text/event-stream"}
            )
        return httpx2.Response(200, json=COMPLETION)


def client(kind: type[AsyncOpenAI], recorder: Recorder) -> AsyncOpenAI:
    transport = httpx2.MockTransport(recorder)
    return kind(
        api_key="key",
        base_url="http://model.test/v1",
        http_client=httpx2.AsyncClient(transport=transport),
    )


async def bodies_sent(kind: type[AsyncOpenAI], **arguments: Any) -> list[bytes]:
    recorder = Recorder()
    completions = client(kind, recorder).chat.completions
    response = await completions.create(model="fake-model", **arguments)
    if arguments.get("stream"):
        async for _chunk in response:
            pass
    return recorder.bodies


REQUESTS: dict[str, dict[str, Any]] = {
    "messages and tools": {"messages": MESSAGES, "tools": TOOLS},
    "messages only": {"messages": MESSAGES[:3]},
    "the SDK's settings": {
        "messages": MESSAGES,
        "tools": TOOLS,
        "temperature": 0.2,
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "extra_headers": {"User-Agent": "Agents/Python 0.24"},
    },
    "streamed": {
        "messages": MESSAGES,
        "tools": TOOLS,
        "stream": True,
        "stream_options": {"include_usage": True},
    },
    "with the caller's extra_body": {
        "messages": MESSAGES,
        "tools": TOOLS,
        "extra_body": {"top_k": 3, "messages": MESSAGES[:1]},
    },
    "messages as a tuple": {"messages": tuple(MESSAGES), "tools": TOOLS},
}


@pytest.mark.parametrize("arguments", REQUESTS.values(), ids=REQUESTS.keys())
async def test_the_lean_client_sends_the_bytes_the_stock_client_sends(
    arguments: dict[str, Any],
) -> None:
    stock = await bodies_sent(AsyncOpenAI, **arguments)
    lean = await bodies_sent(LeanAsyncOpenAI, **arguments)
    assert lean == stock
    assert json.loads(lean[0])["messages"]  # the conversation did go


def test_the_conversation_and_tools_move_to_extra_body_leaving_empty_lists_in_place() -> None:
    moved = bulk_in_extra_body({"model": "m", "messages": MESSAGES, "tools": TOOLS})
    assert moved == {
        "model": "m",
        "messages": [],
        "tools": [],
        "extra_body": {"messages": MESSAGES, "tools": TOOLS},
    }
    assert list(moved)[:3] == ["model", "messages", "tools"]


def test_anything_but_a_list_of_dicts_takes_the_typed_way() -> None:
    def generated() -> Iterator[dict[str, Any]]:
        yield from MESSAGES

    for messages in (tuple(MESSAGES), generated(), [*MESSAGES, "not a dict"]):
        params = {"model": "m", "messages": messages}
        assert bulk_in_extra_body(params) is params


def test_the_brains_client_is_the_lean_one_and_keeps_the_settings() -> None:
    settings = make_settings(
        "sqlite+aiosqlite:///:memory:",
        agent_brain="compatible",
        openai_base_url="http://model.test/v1",
        llm_timeout_seconds=7.5,
        llm_max_retries=1,
    )
    made = openai_client(settings)
    assert isinstance(made, LeanAsyncOpenAI)
    assert (str(made.base_url), made.timeout, made.max_retries) == ("http://model.test/v1/", 7.5, 1)
    # A copy with other options (the SDK makes one to turn retries off) is lean too.
    assert isinstance(
        made.with_options(max_retries=0).chat.completions, type(made.chat.completions)
    )
