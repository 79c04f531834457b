"""A lean load generator for the chat endpoint, open loop or closed loop, run as its own
process by `bench.targets`:

    .venv/bin/python -m bench.openloop --url URL --accounts FILE --rate 60 --duration 20
    .venv/bin/python -m bench.openloop --url URL --accounts FILE --connections 16 --duration 10

**Open loop** (`--rate`): request k is due at `start + k / rate` and is sent then, whatever
became of the earlier ones (as many in flight as the server's lag makes), and its latency is
counted from that *intended* time, so time a request spends waiting behind a slow server, or
for a connection, is in its latency (no coordinated omission). Each request goes to an account
with no request in flight (accounts are taken in turn; one user does not type two messages at
once), and each account walks the benchmark's message mix (`bench.loadgen.MESSAGES`) in order.
**Closed loop** (`--connections`): each connection sends its next request when the last one's
answer arrives, as `bench.loadgen` does.

Why not httpx (`bench.loadgen`): it costs about 0.5 ms of CPU a request, and the load
generator shares the machine's two cores with the server and PostgreSQL. Here every request is
prebuilt bytes (HTTP/1.1, keep-alive) written on an asyncio protocol under uvloop, and a
response is read as far as its status line and Content-Length body: tens of microseconds.

With `--pids`, the window's CPU (`bench.procstat`: those worker pids, PostgreSQL's processes,
the machine) is read at its start and end. Prints one JSON object (see `Result`).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import orjson
import uvloop

from bench import procstat
from bench.loadgen import MESSAGES

# A connection is given up on (and the request counted an error) after this long.
REQUEST_TIMEOUT_SECONDS = 60.0


class ProtocolError(Exception):
    """A response this client does not read (no Content-Length), or a lost connection."""


def chat_requests(url: str, accounts: list[dict[str, Any]]) -> list[list[bytes]]:
    """Every request the run can send, built once: per account, one POST /api/chat per
    message of the mix, in that account's conversation."""
    host = urlsplit(url).netloc.encode()
    prebuilt = []
    for account in accounts:
        head = (
            b"POST /api/chat HTTP/1.1\r\nHost: " + host + b"\r\n"
            b"Authorization: Bearer " + str(account["token"]).encode() + b"\r\n"
            b"Content-Type: application/json\r\n"
        )
        per_message = []
        for message in MESSAGES:
            body = orjson.dumps({"message": message, "conversation_id": account["conversation_id"]})
            per_message.append(head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        prebuilt.append(per_message)
    return prebuilt


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


async def balanced_connect(
    url: str, workers: list[int], held: collections.Counter[int], share: int
) -> Connection:
    """A connection held by a worker that holds fewer than `share` of this run's, as a load
    balancer in front of the workers would hand them out; the kernel gives a connection to
    whichever worker accepts first, so a connection that lands on a worker with its share
    already is closed and opened again (up to 30 times). A /healthz exchange first makes sure
    a worker has accepted it."""
    parts = urlsplit(url)
    probe = b"GET /healthz HTTP/1.1\r\nHost: " + parts.netloc.encode() + b"\r\n\r\n"
    for attempt in range(30):
        connection = await connect(url)
        await _exchange(connection, probe)
        owner = procstat.process_holding(workers, parts.port or 80, connection.local_port)
        if owner is None or held[owner] < share or attempt == 29:
            if owner is not None:
                held[owner] += 1
            return connection
        connection.close()
    raise AssertionError("unreachable")


@dataclass
class Result:
    """What one run measured, over its window (requests due, or answered, inside it)."""

    mode: str
    requests: int = 0
    # Every request sent, warm-up and the window's alike (the server's whole load).
    sent: int = 0
    errors: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    rps: float = 0.0
    offered_rps: float | None = None
    p50_ms: float = 0.0
    p90_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    # The load generator's own CPU, and (open loop) how late it sent behind its schedule.
    loadgen_cpu_ms_per_request: float = 0.0
    send_lag_p99_ms: float = 0.0
    connections: int = 0
    max_in_flight: int = 0
    cpu: dict[str, float] = field(default_factory=dict)


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank q-quantile (0 < q <= 1) of sorted values."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.5) - 1))]


class _Window:
    """The measured window: CPU snapshots (this process's and, given pids, the server's and
    PostgreSQL's) at its start and end, and the latencies and statuses inside it."""

    def __init__(self, pids: list[int], database: str | None) -> None:
        self.pids, self.database = pids, database
        self.latencies: list[float] = []
        self.statuses: collections.Counter[str] = collections.Counter()
        self._cpu = 0.0
        self._before: procstat.Snapshot | None = None
        self.cpu: dict[str, float] = {}

    def start(self) -> None:
        if self.pids:
            self._before = procstat.snapshot(self.pids, self.database)
        self._cpu = time.process_time()

    def stop(self) -> None:
        loadgen = time.process_time() - self._cpu
        if self._before is not None:
            self.cpu = procstat.cpu_between(
                self._before, procstat.snapshot(self.pids, self.database)
            )
        self.cpu["loadgen"] = loadgen

    def result(self, mode: str, seconds: float) -> Result:
        ordered = sorted(self.latencies)
        requests = len(ordered)
        return Result(
            mode=mode,
            requests=requests,
            errors=sum(n for status, n in self.statuses.items() if status != "200"),
            statuses=dict(self.statuses),
            seconds=round(seconds, 3),
            rps=round(requests / seconds, 1) if seconds else 0.0,
            p50_ms=round(percentile(ordered, 0.50) * 1000, 2),
            p90_ms=round(percentile(ordered, 0.90) * 1000, 2),
            p99_ms=round(percentile(ordered, 0.99) * 1000, 2),
            max_ms=round(ordered[-1] * 1000, 2) if ordered else 0.0,
            loadgen_cpu_ms_per_request=(
                round(self.cpu["loadgen"] / requests * 1000, 4) if requests else 0.0
            ),
            cpu={name: round(value, 4) for name, value in self.cpu.items()},
        )


async def _exchange(connection: Connection, request: bytes) -> str:
    """Sends one request and waits for its answer: the status, or why there was none."""
    try:
        return str(await asyncio.wait_for(connection.send(request), REQUEST_TIMEOUT_SECONDS))
    except (ProtocolError, TimeoutError, OSError) as error:
        connection.close()
        return type(error).__name__


async def closed_loop(
    url: str,
    requests: list[list[bytes]],
    connections: int,
    duration: float,
    warmup: float,
    window: _Window,
) -> Result:
    """`connections` connections (one account each), each sending back to back; the window
    holds the requests answered between `warmup` and `warmup + duration` after the last
    connection opened (its CPU is read at those two instants, so throughput and CPU per
    request are over the same answers).

    Connections open one at a time, each after the one before has had its first answer, as
    clients arrive, and, given several worker pids, each worker gets an even share of them
    (`balanced_connect`): opened all at once, they would all be accepted by whichever worker
    woke first (they share one listening socket), and stay with it."""
    loop = asyncio.get_running_loop()
    opened: list[Connection] = []
    total_sent = [0]
    bounds = [float("inf"), float("inf")]  # the window's start and end, once all are open

    async def one(index: int, first_answer: asyncio.Event) -> None:
        account, n = requests[index % len(requests)], 0
        while time.perf_counter() < bounds[1]:
            if opened[index].closed:
                opened[index] = await connect(url)
            sent = time.perf_counter()
            status = await _exchange(opened[index], account[n % len(account)])
            n += 1
            total_sent[0] += 1
            first_answer.set()
            answered = time.perf_counter()
            if bounds[0] <= answered < bounds[1]:  # throughput: answers in the window
                window.latencies.append(answered - sent)
                window.statuses[status] += 1

    running = []
    held: collections.Counter[int] = collections.Counter()
    share = -(-connections // max(1, len(window.pids)))  # each worker's, rounded up
    for index in range(connections):
        if len(window.pids) > 1:
            opened.append(await balanced_connect(url, window.pids, held, share))
        else:
            opened.append(await connect(url))
        first_answer = asyncio.Event()
        running.append(loop.create_task(one(index, first_answer)))
        await first_answer.wait()
    started = time.perf_counter()
    bounds[:] = [started + warmup, started + warmup + duration]
    await asyncio.sleep(warmup)
    window.start()
    await asyncio.sleep(max(0.0, bounds[1] - time.perf_counter()))
    window.stop()
    await asyncio.gather(*running)
    for connection in opened:
        connection.close()
    result = window.result("closed", duration)
    result.sent = total_sent[0]
    result.connections = result.max_in_flight = connections
    return result


async def open_loop(
    url: str,
    requests: list[list[bytes]],
    rate: float,
    duration: float,
    warmup: float,
    window: _Window,
    max_connections: int,
) -> Result:
    """Requests due every 1/`rate` s for `warmup + duration` s; the window holds those due
    after the warm-up. Connections are reused when free and opened when none is (up to
    `max_connections`; past that a request waits for one, and the wait is in its latency)."""
    idle_connections: collections.deque[Connection] = collections.deque()
    idle_accounts = collections.deque(range(len(requests)))
    next_message = [0] * len(requests)
    freed = asyncio.Event()  # set when a connection or an account is handed back
    counts = {"connections": 0, "in_flight": 0, "max_in_flight": 0}
    lags: list[float] = []

    async def one(due: float, measured: bool) -> None:
        counts["in_flight"] += 1
        counts["max_in_flight"] = max(counts["max_in_flight"], counts["in_flight"])
        while not idle_accounts or (
            not idle_connections and counts["connections"] >= max_connections
        ):
            freed.clear()
            await freed.wait()
        account = idle_accounts.popleft()
        connection: Connection | None = None
        if idle_connections:
            connection = idle_connections.popleft()
        else:
            counts["connections"] += 1
            try:
                connection = await connect(url)
            except OSError as error:  # refused: an error answer, the account handed back
                status = type(error).__name__
        if connection is not None:
            if measured:
                lags.append(time.perf_counter() - due)
            request = requests[account][next_message[account] % len(MESSAGES)]
            next_message[account] += 1
            status = await _exchange(connection, request)
        answered = time.perf_counter()
        if connection is None or connection.closed:
            counts["connections"] -= 1
        else:
            idle_connections.append(connection)
        idle_accounts.append(account)
        freed.set()
        counts["in_flight"] -= 1
        if measured:
            window.latencies.append(answered - due)
            window.statuses[status] += 1

    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()
    started = time.perf_counter()
    window_start = started + warmup
    total = int((warmup + duration) * rate)
    window_open = False
    for k in range(total):
        due = started + k / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        measured = due >= window_start
        if measured and not window_open:
            window_open = True
            window.start()
        task = loop.create_task(one(due, measured))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(tasks)  # each ends within REQUEST_TIMEOUT_SECONDS
    window.stop()
    for connection in idle_connections:
        connection.close()
    result = window.result("open", duration)
    result.offered_rps = rate
    result.sent = total
    result.rps = round(result.requests / (time.perf_counter() - window_start), 1)
    result.send_lag_p99_ms = round(percentile(sorted(lags), 0.99) * 1000, 2)
    result.connections = counts["connections"]
    result.max_in_flight = counts["max_in_flight"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.openloop", description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--accounts", type=Path, required=True, help="JSON, as bench.run's")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--rate", type=float, help="open loop: requests due per second")
    mode.add_argument("--connections", type=int, help="closed loop: connections")
    parser.add_argument("--duration", type=float, default=10.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds before it")
    parser.add_argument("--max-connections", type=int, default=256, help="open loop")
    parser.add_argument("--pids", default="", help="worker pids whose CPU to read, a,b,c")
    parser.add_argument("--database", help="the PostgreSQL database whose backends to tell")
    args = parser.parse_args()
    accounts = json.loads(args.accounts.read_text())
    requests = chat_requests(args.url, accounts)
    pids = [int(pid) for pid in args.pids.split(",") if pid]
    window = _Window(pids, args.database)
    if args.rate is not None:
        run = open_loop(
            args.url, requests, args.rate, args.duration, args.warmup, window, args.max_connections
        )
    else:
        run = closed_loop(args.url, requests, args.connections, args.duration, args.warmup, window)
    result = uvloop.run(run)
    sys.stdout.write(json.dumps(asdict(result)) + "\n")


if __name__ == "__main__":
    main()
