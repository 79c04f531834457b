"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1: real HTTP, real
`openai` client, no network beyond loopback. Each request takes the next scripted step."""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
from collections import deque
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from bench.server import serve_in_thread

USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


@dataclass(frozen=True)
class Reply:
    text: str


@dataclass(frozen=True)
class CallTools:
    """Tool calls in one response; arguments are JSON text (possibly malformed on purpose)."""

    calls: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, *calls: tuple[str, dict[str, Any] | str]) -> CallTools:
        return cls(tuple((n, a if isinstance(a, str) else json.dumps(a)) for n, a in calls))


@dataclass(frozen=True)
class Fail:
    status: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Hang:
    """Answers `then` after `seconds`. What it answers is fixed when queued: a hung request
    outlives its test, and taking the script's next step when it wakes would take a step
    a later test queued."""

    seconds: float
    then: Reply = Reply("too late")


Step = Reply | CallTools | Fail | Hang


@dataclass
class FakeOpenAI:
    script: deque[Step] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""
    # GET /v1/models: how many were asked, and the status they get (200: a model list).
    probes: int = 0
    models_status: int = 200
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def queue(self, *steps: Step) -> None:
        self.script.extend(steps)

    def reset(self) -> None:
        self.script.clear()
        self.requests.clear()
        self.probes = 0
        self.models_status = 200

    def _message(self, step: Reply | CallTools) -> tuple[dict[str, Any], str]:
        if isinstance(step, Reply):
            return {"role": "assistant", "content": step.text}, "stop"
        calls = [
            {
                "id": f"call_{next(self._ids)}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            for name, arguments in step.calls
        ]
        return {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"

    async def _completions(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(body)
        step = self.script.popleft() if self.script else Fail(500, "script exhausted")
        if isinstance(step, Hang):
            await asyncio.sleep(step.seconds)
            step = step.then
        if isinstance(step, Fail):
            error = {"error": {"message": step.message, "type": "server_error", "code": None}}
            return JSONResponse(error, status_code=step.status)
        message, finish = self._message(step)
        model = body.get("model", "fake-model")
        if body.get("stream"):
            return StreamingResponse(
                self._chunks(message, finish, model), media_type="text/event-stream"
            )
        return JSONResponse(
            {
                "id": f"chatcmpl-{next(self._ids)}",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "usage": USAGE,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            }
        )

    async def _chunks(self, message: dict[str, Any], finish: str, model: str) -> AsyncIterator[str]:
        base = {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
        }

        def chunk(delta: dict[str, Any], reason: str | None = None) -> str:
            data = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}
            return f"data: {json.dumps(data)}\n\n"

        yield chunk({"role": "assistant", "content": ""})
        if message.get("content"):
            for word in str(message["content"]).split(" "):
                yield chunk({"content": word + " "})
        for index, call in enumerate(message.get("tool_calls") or []):
            yield chunk({"tool_calls": [{"index": index, **call}]})
        yield chunk({}, finish)
        yield f"data: {json.dumps({**base, 'choices': [], 'usage': USAGE})}\n\n"
        yield "data: [DONE]\n\n"

    async def _models(self, request: Request) -> Response:
        self.probes += 1
        if self.models_status != 200:
            error = {"error": {"message": "scripted failure", "type": "error", "code": None}}
            return JSONResponse(error, status_code=self.models_status)
        model = {"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"}
        return JSONResponse({"object": "list", "data": [model]})

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._completions, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
            ]
        )


Fake = TypeVar("Fake", bound="FakeOpenAI")


@contextmanager
def serving(fake: Fake) -> Iterator[Fake]:
    """Serves `fake` on a loopback port (its `url` set) until the block ends."""
    url, server, thread = serve_in_thread(fake.app())
    fake.url = f"{url}/v1"
    try:
        yield fake
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def closed_url() -> str:
    """The base URL of a loopback port nothing listens on: a model out of reach (connection
    refused), found by binding a free port and closing it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# An upper bound for a gated model's waits, never a speed expectation.
GATE_WAIT = 120.0


@dataclass
class GatedModel(FakeOpenAI):
    """Calls `add_task` with the user's message as its title; after the tool's result, waits
    for the gate, then says so. Holds turns mid-way on purpose, not by timing."""

    gate: threading.Event = field(default_factory=threading.Event)
    held: int = 0  # turns waiting at the gate, their task added

    async def _completions(self, request: Request) -> Response:
        body = await request.json()
        last = body["messages"][-1]
        if last["role"] == "tool":
            self.held += 1
            await asyncio.to_thread(self.gate.wait, GATE_WAIT)
            self.script.append(Reply("Added it."))
        else:
            self.script.append(CallTools.of(("add_task", {"title": last["content"]})))
        # No await between queueing the step and the scripted server taking it.
        return await super()._completions(request)

    def waiting(self) -> int:
        return self.held
