"""An event stream read from the app in this process, over plain ASGI.

httpx's ASGI transport runs a request to its end before it answers, so a stream that never
ends cannot be read through it. This drives the app as a server would: the request goes in,
each body chunk comes out as it is sent, and the client hangs up when the test says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

# Every wait here is a guard against a hang, never a measure: a passing test returns at once.
HANG_GUARD_SECONDS = 30.0


class EventStream:
    def __init__(self, status: int, headers: dict[str, str], sent: asyncio.Queue[Any]) -> None:
        self.status = status
        self.headers = headers
        self._sent = sent
        self._buffer = ""
        self.ended = False
        self.body = b""

    async def next_event(self) -> dict[str, str] | None:
        """The next event with data (keep-alive comments skipped); None once the server ended
        the stream."""
        # One guard for the whole wait: keep-alive pings must not renew it.
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            return await self._next_event()

    async def _next_event(self) -> dict[str, str] | None:
        while True:
            if "\r\n\r\n" in self._buffer or "\n\n" in self._buffer:
                block, self._buffer = _split(self._buffer)
                event = _parse(block)
                if "data" in event:
                    return event
                continue
            if self.ended:
                return None
            message = await self._sent.get()
            if message["type"] != "http.response.body":
                continue
            chunk: bytes = message.get("body", b"")
            self.body += chunk
            self._buffer += chunk.decode()
            self.ended = not message.get("more_body", False)

    async def chunks(self) -> list[bytes]:
        """Each body message's bytes, as the server sent them, until it ends the stream."""
        found = []
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            while not self.ended:
                message = await self._sent.get()
                if message["type"] != "http.response.body":
                    continue
                chunk: bytes = message.get("body", b"")
                self.body += chunk
                found.append(chunk)
                self.ended = not message.get("more_body", False)
        return found

    async def end(self) -> list[dict[str, str]]:
        """Every event left until the server ends the stream (a hang guard fails the test if
        it never does)."""
        left = []
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            while (event := await self._next_event()) is not None:
                left.append(event)
        return left


def _split(buffer: str) -> tuple[str, str]:
    ends = [(buffer.find(sep), sep) for sep in ("\r\n\r\n", "\n\n") if sep in buffer]
    at, sep = min(ends)
    return buffer[:at], buffer[at + len(sep) :]


def _parse(block: str) -> dict[str, str]:
    event: dict[str, str] = {}
    for line in block.splitlines():
        if line and not line.startswith(":"):
            name, _, value = line.partition(":")
            event[name] = value.strip()
    return event


@asynccontextmanager
async def open_stream(
    app: FastAPI, path: str, headers: Mapping[str, str], *, body: bytes | None = None
) -> AsyncIterator[EventStream]:
    """GET `path` on the running app (POST `body`, JSON, when given); the stream is open (or
    refused) when this yields, and the client hangs up when the block ends."""
    sent: asyncio.Queue[Any] = asyncio.Queue()
    hang_up = asyncio.Event()
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": body or b"", "more_body": False}
        await hang_up.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        await sent.put(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET" if body is None else "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"accept", b"text/event-stream"),
            *(
                ()
                if body is None
                else (
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                )
            ),
            *((name.lower().encode(), value.encode()) for name, value in headers.items()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    served = asyncio.create_task(app(scope, receive, send))  # type: ignore[arg-type]
    try:
        start = await asyncio.wait_for(sent.get(), HANG_GUARD_SECONDS)
        assert start["type"] == "http.response.start", start
        response_headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
        yield EventStream(start["status"], response_headers, sent)
    finally:
        hang_up.set()
        await asyncio.wait_for(served, HANG_GUARD_SECONDS)
