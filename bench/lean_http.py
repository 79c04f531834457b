"""A lean HTTP/1.1 client for load generation (`bench.load`): prebuilt requests written on
keep-alive connections, one request at a time each, answers read as far as their status line
and Content-Length body.

Why not httpx: it costs about 0.5-0.7 ms of CPU a request, and the load generator shares the
machine's two cores with the server and PostgreSQL. Here a request is bytes built once,
written on an asyncio protocol (under uvloop): tens of microseconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast
from urllib.parse import urlsplit

import orjson

# A connection is given up on (and the request counted an error) after this long.
REQUEST_TIMEOUT_SECONDS = 60.0


class ProtocolError(Exception):
    """A response this client does not read (no Content-Length), or a lost connection."""


def _head(method: bytes, path: str, url: str, token: object) -> bytes:
    host = urlsplit(url).netloc.encode()
    return (
        method + b" " + path.encode() + b" HTTP/1.1\r\nHost: " + host + b"\r\n"
        b"Authorization: Bearer " + str(token).encode() + b"\r\n"
    )


def chat_requests(
    url: str, accounts: Sequence[dict[str, Any]], messages: Sequence[str]
) -> list[list[bytes]]:
    """Per account, one `POST /api/chat` per message, in that account's conversation."""
    prebuilt = []
    for account in accounts:
        head = _head(b"POST", "/api/chat", url, account["token"])
        head += b"Content-Type: application/json\r\n"
        per_message = []
        for message in messages:
            body = orjson.dumps({"message": message, "conversation_id": account["conversation_id"]})
            per_message.append(head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        prebuilt.append(per_message)
    return prebuilt


def get_requests(url: str, accounts: Sequence[dict[str, Any]], path: str) -> list[list[bytes]]:
    """Per account, one `GET path` signed in as it."""
    return [[_head(b"GET", path, url, account["token"]) + b"\r\n"] for account in accounts]


class Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection, one request at a time: `send` writes a prebuilt
    request and returns a future for the response's status code."""

    def __init__(self) -> None:
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._waiter: asyncio.Future[int] | None = None
        self.closed = False
        self.local_port = 0  # this end's port, once connected

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        sockname = transport.get_extra_info("sockname")
        self.local_port = int(sockname[1]) if sockname else 0

    def send(self, request: bytes) -> asyncio.Future[int]:
        assert self._transport is not None and self._waiter is None
        self._waiter = asyncio.get_running_loop().create_future()
        self._transport.write(request)
        return self._waiter

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self._buffer[:end]).lower()
        length_at = head.find(b"\r\ncontent-length:")
        if length_at < 0:
            self._fail(ProtocolError(f"no Content-Length: {head[:200]!r}"))
            return
        line_end = head.find(b"\r\n", length_at + 2)
        length = int(head[length_at + 17 : line_end if line_end >= 0 else None])
        if len(self._buffer) < end + 4 + length:
            return  # the body is still coming
        del self._buffer[: end + 4 + length]
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(int(head[9:12]))  # b"http/1.1 200 ok"
        self._waiter = None

    def _fail(self, error: Exception) -> None:
        self.closed = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(error)
        self._waiter = None
        if self._transport is not None:
            self._transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(ProtocolError(f"connection lost: {exc}"))

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


async def connect(url: str) -> Connection:
    parts = urlsplit(url)
    _, protocol = await asyncio.get_running_loop().create_connection(
        Connection, parts.hostname or "127.0.0.1", parts.port or 80
    )
    return protocol


async def exchange(connection: Connection, request: bytes) -> str:
    """Sends one request and waits for its answer: the status, or why there was none (the
    connection is then closed)."""
    try:
        return str(await asyncio.wait_for(connection.send(request), REQUEST_TIMEOUT_SECONDS))
    except (ProtocolError, TimeoutError, OSError) as error:
        connection.close()
        return type(error).__name__
