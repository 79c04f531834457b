"""The load generator (`bench.load`, on `bench.lean_http`) and the /proc readings
(`bench.procstat`) behind `bench.run` and `bench.targets`: what they send, how they read
answers, what they count, when they stop. No figure and no timing is asserted: these machines
are busy."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import socket
from typing import Any

import httptools
import pytest
from starlette.types import Receive, Scope, Send

from bench import lean_http, load, procstat
from bench.load import MESSAGES
from bench.server import serve_in_thread

ACCOUNTS: list[dict[str, Any]] = [
    {"token": "token-a", "conversation_id": 7},
    {"token": "token-b", "conversation_id": 8},
    {"token": "token-c", "conversation_id": 9},
]


class _Transport(asyncio.Transport):
    """Records what the connection writes; closing it tells the protocol, as a socket does."""

    def __init__(self, protocol: asyncio.Protocol) -> None:
        super().__init__()
        self.protocol = protocol
        self.written = bytearray()
        self.is_closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def close(self) -> None:
        if not self.is_closed:
            self.is_closed = True
            self.protocol.connection_lost(None)


def _connection() -> tuple[lean_http.Connection, _Transport]:
    connection = lean_http.Connection()
    transport = _Transport(connection)
    connection.connection_made(transport)
    return connection, transport


RESPONSE = (
    b"HTTP/1.1 201 Created\r\ndate: today\r\nserver: uvicorn\r\ncontent-length: 15\r\n"
    b"content-type: application/json\r\n\r\n"
    b'{"response":""}'
)


async def test_a_response_arriving_in_pieces_is_read_whole_and_the_connection_reused() -> None:
    connection, transport = _connection()
    for _ in range(2):
        answer = connection.send(b"GET / HTTP/1.1\r\n\r\n")
        for offset in range(len(RESPONSE) - 1):
            connection.data_received(RESPONSE[offset : offset + 1])
            assert not answer.done()
        connection.data_received(RESPONSE[-1:])
        assert answer.result() == 201
    assert transport.written == b"GET / HTTP/1.1\r\n\r\n" * 2
    assert not connection.closed


async def test_a_response_without_content_length_fails_its_request() -> None:
    connection, transport = _connection()
    answer = connection.send(b"GET / HTTP/1.1\r\n\r\n")
    connection.data_received(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")
    with pytest.raises(lean_http.ProtocolError):
        answer.result()
    assert connection.closed and transport.is_closed


async def test_a_lost_connection_fails_the_request_in_flight() -> None:
    connection, _transport = _connection()
    answer = connection.send(b"GET / HTTP/1.1\r\n\r\n")
    connection.connection_lost(ConnectionResetError())
    with pytest.raises(lean_http.ProtocolError):
        answer.result()
    assert connection.closed


class _ParsedRequest:
    """httptools' callbacks, collected."""

    def __init__(self) -> None:
        self.url = b""
        self.headers: dict[bytes, bytes] = {}
        self.body = b""
        self.complete = False

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.lower()] = value

    def on_body(self, body: bytes) -> None:
        self.body += body

    def on_message_complete(self) -> None:
        self.complete = True


def test_every_prebuilt_request_is_a_complete_chat_post_in_its_account_s_conversation() -> None:
    prebuilt = lean_http.chat_requests("http://127.0.0.1:8123", ACCOUNTS, MESSAGES)
    assert len(prebuilt) == len(ACCOUNTS)
    for account, requests in zip(ACCOUNTS, prebuilt, strict=True):
        assert len(requests) == len(MESSAGES)
        for message, request in zip(MESSAGES, requests, strict=True):
            parsed = _ParsedRequest()
            parser = httptools.HttpRequestParser(parsed)
            parser.feed_data(request)
            assert parsed.complete
            assert parser.get_method() == b"POST" and parsed.url == b"/api/chat"
            assert parser.should_keep_alive()
            assert parsed.headers[b"host"] == b"127.0.0.1:8123"
            assert parsed.headers[b"authorization"] == f"Bearer {account['token']}".encode()
            assert json.loads(parsed.body) == {
                "message": message,
                "conversation_id": account["conversation_id"],
            }


def test_every_prebuilt_get_asks_for_its_path_signed_in_as_its_account() -> None:
    prebuilt = lean_http.get_requests("http://127.0.0.1:8123", ACCOUNTS, "/healthz")
    assert [len(requests) for requests in prebuilt] == [1] * len(ACCOUNTS)
    for account, (request,) in zip(ACCOUNTS, prebuilt, strict=True):
        parsed = _ParsedRequest()
        parser = httptools.HttpRequestParser(parsed)
        parser.feed_data(request)
        assert parsed.complete and parsed.body == b""
        assert parser.get_method() == b"GET" and parsed.url == b"/healthz"
        assert parser.should_keep_alive()
        assert parsed.headers[b"authorization"] == f"Bearer {account['token']}".encode()


class _StubChat:
    """Answers every request after a pause, recording each account's messages in order and
    how many of its requests were in flight at once."""

    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.messages: dict[str, list[str]] = collections.defaultdict(list)
        self.in_flight: collections.Counter[str] = collections.Counter()
        self.most_in_flight: collections.Counter[str] = collections.Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "http"
        token = dict(scope["headers"])[b"authorization"].decode()
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        self.messages[token].append(json.loads(body)["message"])
        self.in_flight[token] += 1
        self.most_in_flight[token] = max(self.most_in_flight[token], self.in_flight[token])
        await asyncio.sleep(self.pause)
        self.in_flight[token] -= 1
        answer = b'{"response":"ok"}'
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(answer)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": answer})


def _served(app: _StubChat) -> tuple[str, Any]:
    url, served, _thread = serve_in_thread(app)
    return url, served


def _walks_the_mix(app: _StubChat) -> None:
    for token, said in app.messages.items():
        assert said == [MESSAGES[n % len(MESSAGES)] for n in range(len(said))], token


async def test_the_open_loop_sends_its_whole_schedule_one_request_per_account_at_a_time() -> None:
    # Requests fall due faster than the stub answers them, with three accounts: most wait
    # for an account, none is dropped, and no account has two in flight.
    app = _StubChat(pause=0.05)
    url, served = _served(app)
    try:
        window = load.Window([], None)
        result = await load.open_loop(
            url,
            lean_http.chat_requests(url, ACCOUNTS, MESSAGES),
            rate=200,
            duration=0.2,
            warmup=0.05,
            window=window,
            max_connections=8,
        )
    finally:
        served.should_exit = True
    assert result.mode == "open" and result.offered_rps == 200
    assert result.sent == 50  # (0.05 + 0.2) s at 200/s
    assert result.requests == 40 and result.statuses == {"200": 40} and result.errors == 0
    assert sum(len(said) for said in app.messages.values()) == 50
    assert set(app.most_in_flight.values()) == {1}
    assert result.connections <= len(ACCOUNTS)
    assert result.p50_ms <= result.p99_ms <= result.max_ms
    assert result.cpu["loadgen"] >= 0
    _walks_the_mix(app)


async def test_the_closed_loop_keeps_one_request_per_connection_and_counts_its_window() -> None:
    app = _StubChat(pause=0.0)
    url, served = _served(app)
    try:
        window = load.Window([], None)
        result = await load.closed_loop(
            url,
            lean_http.chat_requests(url, ACCOUNTS, MESSAGES),
            connections=3,
            duration=0.2,
            warmup=0.05,
            window=window,
        )
    finally:
        served.should_exit = True
    assert result.mode == "closed" and result.connections == 3
    assert result.sent >= 3  # each connection had its first answer before the next opened
    assert result.requests <= result.sent
    assert set(result.statuses) <= {"200"} and result.errors == 0
    assert set(app.most_in_flight.values()) == {1}
    _walks_the_mix(app)


@pytest.mark.parametrize("budget", [2, 20])
async def test_a_closed_loop_with_a_budget_sends_that_many_and_ends_before_its_deadline(
    budget: int,
) -> None:
    # Three connections: with a budget of 2 the third never sends, and the loop still ends.
    app = _StubChat(pause=0.0)
    url, served = _served(app)
    try:
        run = load.closed_loop(
            url,
            lean_http.chat_requests(url, ACCOUNTS, MESSAGES),
            connections=3,
            duration=3600,
            warmup=0,
            window=load.Window([], None),
            budget=budget,
        )
        result = await asyncio.wait_for(run, timeout=60)
    finally:
        served.should_exit = True
    assert result.sent == budget
    assert sum(len(said) for said in app.messages.values()) == budget
    assert result.seconds < 3600 and result.errors == 0
    _walks_the_mix(app)


async def test_a_closed_loop_told_to_stop_lets_each_request_in_flight_finish() -> None:
    answers: list[str] = []
    in_flight = 0

    async def send(n: int) -> str:
        nonlocal in_flight
        in_flight += 1
        await asyncio.sleep(0.01)
        in_flight -= 1
        return str(200 + n)

    loop = load.ClosedLoop(lambda sent, answered, status: answers.append(status))
    for _ in range(3):
        loop.add(send)
    await asyncio.sleep(0.05)
    loop.stop()
    at_stop = len(answers)
    assert await loop.finished(within=5)
    assert in_flight == 0 and at_stop <= len(answers) <= at_stop + 3
    assert answers[:3] == ["200", "200", "200"]  # each client's first request is its 0th
    assert loop.sent == len(answers)


async def test_a_closed_loop_client_that_never_answers_is_abandoned_when_cancelled() -> None:
    async def hangs(n: int) -> str:
        await asyncio.Event().wait()
        return "never"

    loop = load.ClosedLoop(lambda *_: None)
    loop.add(hangs)
    await asyncio.sleep(0.01)  # its first request is in flight
    loop.stop()
    assert not await loop.finished(within=0.05)
    loop.cancel()
    assert await loop.finished(within=5)


async def test_a_closed_loop_client_s_error_is_raised_by_the_wait_for_the_loop() -> None:
    async def fails(n: int) -> str:
        raise RuntimeError("the client broke")

    loop = load.ClosedLoop(lambda *_: None)
    loop.add(fails)
    with pytest.raises(RuntimeError, match="the client broke"):
        await loop.finished(within=5)


@pytest.mark.parametrize(
    ("title", "group"),
    [
        ("postgres: 15/main: postgres bench_1 127.0.0.1(5432) idle", "postgres:db"),
        ("postgres: 15/main: postgres bench_1 [local] idle in transaction", "postgres:db"),
        ("postgres: 15/main: postgres todo_test 127.0.0.1(41000) SELECT", "postgres:other"),
        ("postgres: 15/main: checkpointer", "postgres:shared"),
        ("postgres: 15/main: autovacuum worker bench_1", "postgres:shared"),
        ("/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main", "postgres:shared"),
    ],
)
def test_postgres_processes_are_grouped_by_their_title(title: str, group: str) -> None:
    assert procstat.postgres_group(title, "bench_1") == group


def test_a_window_s_cpu_is_split_by_group_and_never_negative() -> None:
    pid = os.getpid()
    before = procstat.snapshot([pid])
    sum(range(200_000))
    split = procstat.cpu_between(before, procstat.snapshot([pid]))
    assert {"workers", "postgres:db", "postgres:shared", "postgres:other"} <= set(split)
    assert all(value >= 0 for value in split.values())
    assert 0 <= split["machine_idle_share"] <= 1


def test_the_connections_a_process_holds_to_a_port_are_counted_and_found() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            accepted, _ = listener.accept()
            with accepted:
                # The accepted end is on the port; the client's end is not (its port is its own).
                assert procstat.connections_by_process([os.getpid()], port) == {os.getpid(): 1}
                client_port = client.getsockname()[1]
                assert procstat.process_holding([os.getpid()], port, client_port) == os.getpid()
                assert procstat.process_holding([os.getpid()], port, port) is None


async def test_an_open_loop_to_a_closed_port_counts_every_request_an_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # free again once closed: nothing listens there
    url = f"http://127.0.0.1:{port}"
    result = await load.open_loop(
        url,
        lean_http.chat_requests(url, ACCOUNTS, MESSAGES),
        rate=100,
        duration=0.1,
        warmup=0,
        window=load.Window([], None),
        max_connections=8,
    )
    assert result.sent == result.requests == result.errors == 10
    assert set(result.statuses) == {"ConnectionRefusedError"}
