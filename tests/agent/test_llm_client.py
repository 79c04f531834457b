"""The LLM brains' `openai` client: the conversation and the tool schemas skip the client's
request transform (a walk that costs about 0.1 ms a message) while the bytes sent stay those
the stock client sends, streamed or not, with or without the caller's `extra_body`. And what
is known of whether the model answers (`ModelWatch`), and how a failed call is read."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx2
import pytest
from openai import APIConnectionError, AsyncOpenAI, AuthenticationError
from openai.types.chat import ChatCompletionMessageParam

from backend.agent.llm import (
    UNCHECKED,
    LeanAsyncOpenAI,
    ModelFailure,
    ModelProblem,
    ModelWatch,
    bulk_in_extra_body,
    failure_reply,
    model_failure,
    openai_client,
)
from backend.agent.rules.replies import SYSTEM_ERROR
from tests.agent.fake_openai import Fail, FakeOpenAI, closed_url, serving
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


# What is known of whether the model answers: `ModelWatch` and `model_failure`, over real
# HTTP to the scripted server (tests/agent/fake_openai.py) or to a closed loopback port.


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with serving(FakeOpenAI()) as server:
        yield server


@pytest.fixture(autouse=True)
def fresh_script(fake: FakeOpenAI) -> None:
    fake.reset()


HELLO: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hello"}]


class Clock:
    """A clock the test moves: the watch's findings age only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


ClientOf = Callable[..., AsyncOpenAI]


@pytest.fixture
async def client_of() -> AsyncIterator[ClientOf]:
    """Makes clients without retries, closed after the test (an open pooled connection is a
    warning, and warnings fail)."""
    made: list[AsyncOpenAI] = []

    def make(url: str, key: str = "key") -> AsyncOpenAI:
        made.append(AsyncOpenAI(api_key=key, base_url=url, max_retries=0))
        return made[-1]

    yield make
    for client in made:
        await client.close()


def watch_of(client: AsyncOpenAI, clock: Clock | None = None) -> ModelWatch:
    return ModelWatch(client, max_age=30.0, probe_timeout=2.0, clock=clock or Clock())


async def test_the_probe_asks_the_model_list_at_most_once_per_interval(
    fake: FakeOpenAI, client_of: ClientOf
) -> None:
    clock = Clock()
    watch = watch_of(client_of(fake.url), clock)
    assert watch.state == UNCHECKED
    assert [await watch.status(wait=5.0) for _ in range(5)] == ["ok"] * 5
    assert fake.probes == 1
    clock.now += 29.0
    assert await watch.status(wait=5.0) == "ok"
    assert fake.probes == 1  # still fresh: no request
    clock.now += 2.0
    assert await watch.status(wait=5.0) == "ok"
    assert fake.probes == 2


async def test_a_turns_answer_counts_as_a_probe(fake: FakeOpenAI, client_of: ClientOf) -> None:
    watch = watch_of(client_of(fake.url))
    watch.observe(None)
    assert await watch.status(wait=5.0) == "ok"
    assert fake.probes == 0


async def test_concurrent_readiness_checks_share_one_probe(
    fake: FakeOpenAI, client_of: ClientOf
) -> None:
    watch = watch_of(client_of(fake.url))
    states = await asyncio.gather(*[watch.status(wait=5.0) for _ in range(10)])
    assert states == ["ok"] * 10
    assert fake.probes == 1


async def test_a_probe_finds_a_closed_port_unreachable_and_says_so_in_one_log_line(
    caplog: pytest.LogCaptureFixture, client_of: ClientOf
) -> None:
    url = closed_url()
    watch = watch_of(client_of(url))
    with caplog.at_level(logging.INFO):
        assert await watch.status(wait=5.0) == "unreachable"
    assert watch.down()
    [line] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert f"{url}/models" in line.getMessage()
    assert "APIConnectionError" in line.getMessage()
    assert line.exc_info is None


@pytest.mark.parametrize(
    ("status", "state"),
    [(401, "key_refused"), (403, "key_refused"), (404, "ok"), (429, "failing"), (500, "failing")],
)
async def test_a_probe_reads_the_servers_answer(
    fake: FakeOpenAI, client_of: ClientOf, status: int, state: str
) -> None:
    # A server without a model list (404) answers all the same, which is what is asked.
    fake.models_status = status
    assert await watch_of(client_of(fake.url)).status(wait=5.0) == state


async def test_the_probe_and_turns_take_turns_in_telling_the_state(
    fake: FakeOpenAI, client_of: ClientOf
) -> None:
    clock = Clock()
    watch = watch_of(client_of(fake.url), clock)
    failure = ModelFailure(ModelProblem.UNREACHABLE, fake.url, "APIConnectionError: x")
    watch.observe(failure)
    assert watch.down()
    assert await watch.status(wait=5.0) == "unreachable"  # a turn's finding is fresh
    assert fake.probes == 0
    clock.now += 31.0
    assert not watch.down()  # an old finding no longer keeps the hybrid off the LLM
    assert await watch.status(wait=5.0) == "ok"
    assert fake.probes == 1
    # A 500 in one turn says little about the model as a whole: only a probe records it.
    watch.observe(ModelFailure(ModelProblem.FAILING, fake.url, "InternalServerError: x"))
    assert watch.state == "ok"


async def test_a_slow_probe_does_not_hold_the_readiness_check(client_of: ClientOf) -> None:
    # A port that accepts and never answers: the probe waits for its own timeout, the
    # readiness check only for `wait`.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        host, port = silent.getsockname()
        watch = ModelWatch(client_of(f"http://{host}:{port}/v1"), probe_timeout=0.5)
        assert await watch.status(wait=0.05) == UNCHECKED
        await asyncio.sleep(1.0)
        assert await watch.status(wait=0.05) == "unreachable"


async def test_a_model_failure_names_the_url_and_cause_and_never_the_key(
    fake: FakeOpenAI, client_of: ClientOf
) -> None:
    key = "sk-secret-0123456789"
    client = client_of(fake.url, key)
    fake.queue(Fail(401, f"Incorrect API key provided: {key}"))
    with pytest.raises(AuthenticationError) as refused:
        await client.chat.completions.create(model="fake-model", messages=HELLO)
    failure = model_failure(refused.value)
    assert failure is not None
    assert failure.problem is ModelProblem.KEY_REFUSED
    assert failure.url == f"{fake.url}/chat/completions"
    assert "AuthenticationError: HTTP 401: Incorrect API key provided: [key]" in failure.error
    assert key not in failure.describe()

    url = closed_url()
    closed = client_of(url, key)
    with pytest.raises(APIConnectionError) as unreachable:
        await closed.chat.completions.create(model="fake-model", messages=HELLO)
    wrapped = RuntimeError("the run failed")
    wrapped.__cause__ = unreachable.value
    found = model_failure(wrapped)  # found through the causes, however it is wrapped
    assert found is not None
    assert found.problem is ModelProblem.UNREACHABLE
    assert found.describe().startswith(
        f"model unreachable: {url}/chat/completions: APIConnectionError: Connection error. ("
    )
    assert "Connect" in found.error  # the transport's own reason: refused
    assert model_failure(RuntimeError("a bug")) is None


def test_the_reply_to_a_model_out_of_reach_says_what_was_done_and_never_the_url() -> None:
    url = "http://10.0.3.7:11434/v1/chat/completions"
    unreachable = ModelFailure(ModelProblem.UNREACHABLE, url, "APIConnectionError: x")
    refused = ModelFailure(ModelProblem.KEY_REFUSED, url, "AuthenticationError: x")
    failing = ModelFailure(ModelProblem.FAILING, url, "InternalServerError: x")
    assert failure_reply(unreachable, 0) == (
        "I can't reach the language model right now, so I couldn't do that. Nothing was "
        "changed. Please try again in a little while."
    )
    assert failure_reply(unreachable, 2) == (
        "I can't reach the language model right now, so I couldn't finish that. I had made 2 "
        "changes before it stopped answering: please check your list, then try again in a "
        "little while."
    )
    assert failure_reply(refused, 1).startswith(
        "The language model refused this service's key, so I couldn't finish that. I had made "
        "1 change before"
    )
    assert failure_reply(failing, 0) == SYSTEM_ERROR  # a passing trouble: the retry reply
    assert all("10.0.3.7" not in failure_reply(f, 0) for f in (unreachable, refused))
