"""An OpenAI-compatible chat-completions server with a fixed latency, for `bench.llm_overhead`.

Every turn is two model calls, as a real one about tasks is: the first asks for
`list_tasks`, the second (once a tool result is in the conversation) answers in text. Each
response's first byte comes `first_token_seconds` after the request, then the rest of the
text in `chunks` pieces `chunk_gap_seconds` apart (or all at once, unstreamed, after the
whole time). It records, for each request, how long the model server spent on it and, for
streamed text, the wall-clock moment its first text token was written: what the benchmark
subtracts.

"Spent" is taken at the server's ASGI boundary: from when the request reaches the app to
when the last byte of the response has been handed to the connection. So the model server's
own HTTP work (routing, reading and parsing the request body, encoding and writing the
response) counts as the model's time, as it would for a real model API; only the loopback
hops and the caller's work are left to the caller.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

REPLY = "Here are your tasks: buy milk, call mom and finish the report."
USAGE = {"prompt_tokens": 120, "completion_tokens": 14, "total_tokens": 134}


@dataclass
class Served:
    """What one model request cost, as the model server saw it."""

    seconds: float = 0.0
    first_text_at: float | None = None  # time.time() of the first text token sent


@dataclass
class FakeModel:
    first_token_seconds: float = 0.2
    chunks: int = 5
    chunk_gap_seconds: float = 0.01
    served: list[Served] = field(default_factory=list)

    def model_seconds(self) -> float:
        """A response's whole time: first token, then the other chunks."""
        return self.first_token_seconds + (self.chunks - 1) * self.chunk_gap_seconds

    @staticmethod
    def _wants_text(body: dict[str, Any]) -> bool:
        return any(message.get("role") == "tool" for message in body.get("messages", []))

    async def _completions(self, request: Request) -> Response:
        served: Served = request.scope["served"]
        body = await request.json()
        text = self._wants_text(body)
        if body.get("stream"):
            return StreamingResponse(
                self._stream(text, body.get("model", "fake"), served),
                media_type="text/event-stream",
            )
        await asyncio.sleep(self.model_seconds())
        message: dict[str, Any] = {"role": "assistant", "content": REPLY if text else None}
        if not text:
            message["tool_calls"] = [_list_call()]
        return JSONResponse(
            {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "stop" if text else "tool_calls",
                    }
                ],
                "usage": USAGE,
            }
        )

    async def _stream(self, text: bool, model: str, served: Served) -> AsyncIterator[str]:
        def chunk(delta: dict[str, Any], reason: str | None = None) -> str:
            body = {
                "id": "chatcmpl-bench",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
            }
            return f"data: {json.dumps(body)}\n\n"

        await asyncio.sleep(self.first_token_seconds)
        if text:
            words = REPLY.split(" ")
            step = max(1, len(words) // self.chunks)
            pieces = [" ".join(words[i : i + step]) for i in range(0, len(words), step)]
            for index, piece in enumerate(pieces):
                if index:
                    await asyncio.sleep(self.chunk_gap_seconds)
                    piece = " " + piece
                else:
                    served.first_text_at = time.time()
                yield chunk(
                    {"role": "assistant", "content": piece} if not index else {"content": piece}
                )
            yield chunk({}, "stop")
        else:
            call = {"index": 0, **_list_call()}
            yield chunk({"role": "assistant", "tool_calls": [call]})
            yield chunk({}, "tool_calls")
        final = {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [],
            "usage": USAGE,
        }
        yield f"data: {json.dumps(final)}\n\ndata: [DONE]\n\n"

    def app(self) -> ASGIApp:
        routes = Starlette(
            routes=[Route("/v1/chat/completions", self._completions, methods=["POST"])]
        )

        async def timed(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await routes(scope, receive, send)
                return
            started = time.perf_counter()
            served = Served()
            self.served.append(served)
            # When the app returns, the server has written the whole response (uvicorn
            # hands each part to the connection as it is sent).
            await routes({**scope, "served": served}, receive, send)
            served.seconds = time.perf_counter() - started

        return timed


def _list_call() -> dict[str, Any]:
    return {
        "id": f"call_{time.perf_counter_ns()}",
        "type": "function",
        "function": {"name": "list_tasks", "arguments": json.dumps({"status": "all"})},
    }
