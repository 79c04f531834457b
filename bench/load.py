"""The load generator of every benchmark that drives a server over HTTP: a closed loop and an
open loop. `bench.run` and `bench.targets` run it as its own process:

    .venv/bin/python -m bench.load --url URL --accounts FILE --connections 16 --duration 10
    .venv/bin/python -m bench.load --url URL --accounts FILE --rate 60 --duration 20
    .venv/bin/python -m bench.load --url URL --accounts FILE --connections 16 --path /healthz

**Closed loop** (`--connections`): each connection sends its next request when the last one's
answer arrives. Connections open one at a time, each after the one before has had its first
answer, as clients arrive; given several worker pids, each worker gets an even share of them
(`balanced_connect`). The window holds the answers that arrive between `--warmup` and
`--warmup + --duration` after the last connection opened; `--requests` stops the loop after
that many requests (the window then ends with it). `ClosedLoop` is the loop itself, for any
client: `bench.noisy_neighbour` runs its noise on it, in-process, with httpx clients.

**Open loop** (`--rate`): request k is due at `start + k / rate` and is sent then, whatever
became of the earlier ones (as many in flight as the server's lag makes), and its latency is
counted from that *intended* time, so time a request spends waiting behind a slow server, or
for a connection, is in its latency (no coordinated omission). Each request goes to an account
with no request in flight (accounts are taken in turn; one user does not type two messages at
once). The window holds the requests due after the warm-up.

Each connection, or open-loop request, is an account of its own (`--accounts`, JSON as
`bench.server.register_accounts` gives), walking the message mix (`MESSAGES`) in order in its
conversation; with `--path` other than /api/chat, each sends `GET path` instead. Requests are
prebuilt and sent by `bench.lean_http`. With `--pids`, the window's CPU (`bench.procstat`:
those worker pids, PostgreSQL's processes, the machine) is read at its start and end.
Percentiles are `bench.stats`'. Prints one JSON object (see `Result`).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import uvloop

from bench import procstat, stats
from bench.lean_http import Connection, chat_requests, connect, exchange, get_requests

# The benchmark's message mix: what each connection, or each open-loop account, says in turn.
MESSAGES = (
    "add buy milk",
    "show my pending tasks",
    "complete task 1",
    "what's left?",
    "delete the milk task",
    "hello",
)

# A client of a closed loop: sends its n-th request and returns the answer's status (or why
# there was none).
Send = Callable[[int], Awaitable[str]]
# Told of every answer of a closed loop: when its request was sent and answered
# (`time.perf_counter()`), and its status.
OnAnswer = Callable[[float, float, str], None]


class ClosedLoop:
    """Clients each sending their next request as soon as the last one is answered, until
    the `deadline` (a `time.perf_counter()` instant; none at first), `budget` requests sent by
    them all, or `stop()`: whichever comes first. A client's request in flight then finishes;
    none is cut short."""

    def __init__(self, on_answer: OnAnswer, *, budget: int | None = None) -> None:
        self.deadline = math.inf
        self.sent = 0
        self._on_answer = on_answer
        self._budget = budget
        self._stopped = False
        self._clients: list[asyncio.Task[None]] = []

    def add(self, send: Send) -> asyncio.Event:
        """Starts a client now; the event is set at its first answer (or when it stops
        without one)."""
        first_answer = asyncio.Event()
        self._clients.append(asyncio.create_task(self._client(send, first_answer)))
        return first_answer

    def stop(self) -> None:
        self._stopped = True

    def _over(self) -> bool:
        spent = self._budget is not None and self.sent >= self._budget
        return self._stopped or spent or time.perf_counter() >= self.deadline

    async def _client(self, send: Send, first_answer: asyncio.Event) -> None:
        n = 0
        try:
            while not self._over():
                self.sent += 1
                sent = time.perf_counter()
                status = await send(n)
                answered = time.perf_counter()
                n += 1
                first_answer.set()
                self._on_answer(sent, answered, status)
        finally:
            first_answer.set()

    async def finished(self, within: float | None = None) -> bool:
        """Waits up to `within` seconds (or for good) for every client to be done; whether
        they are. A client's error is raised here."""
        if not self._clients:
            return True
        done, pending = await asyncio.wait(self._clients, timeout=within)
        for task in done:
            error = None if task.cancelled() else task.exception()
            if error is not None:
                raise error
        return not pending

    def cancel(self) -> None:
        """Abandons the requests still in flight (a server that holds them for minutes)."""
        for task in self._clients:
            task.cancel()


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
        await exchange(connection, probe)
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
    p95_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    # The load generator's own CPU, and (open loop) how late it sent behind its schedule.
    loadgen_cpu_ms_per_request: float = 0.0
    send_lag_p99_ms: float = 0.0
    connections: int = 0
    max_in_flight: int = 0
    cpu: dict[str, float] = field(default_factory=dict)


class Window:
    """The measured window: CPU snapshots (this process's and, given pids, the server's and
    PostgreSQL's) at its start and end, and the latencies and statuses inside it."""

    def __init__(self, pids: list[int], database: str | None) -> None:
        self.pids, self.database = pids, database
        self.latencies: list[float] = []
        self.statuses: collections.Counter[str] = collections.Counter()
        self._cpu = 0.0
        self._before: procstat.Snapshot | None = None
        self.cpu: dict[str, float] = {}

    def record(self, latency: float, status: str) -> None:
        self.latencies.append(latency)
        self.statuses[status] += 1

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
        requests = len(self.latencies)
        result = Result(
            mode=mode,
            requests=requests,
            errors=sum(n for status, n in self.statuses.items() if status != "200"),
            statuses=dict(self.statuses),
            seconds=round(seconds, 3),
            rps=round(requests / seconds, 1) if seconds else 0.0,
            loadgen_cpu_ms_per_request=(
                round(self.cpu["loadgen"] / requests * 1000, 4) if requests else 0.0
            ),
            cpu={name: round(value, 4) for name, value in self.cpu.items()},
        )
        if requests:  # a window nothing was answered in keeps its zeros
            ms = stats.summarize(self.latencies).scaled(1000)
            result.p50_ms, result.p90_ms = round(ms.p50, 2), round(ms.p90, 2)
            result.p95_ms, result.p99_ms = round(ms.p95, 2), round(ms.p99, 2)
            result.max_ms = round(ms.max, 2)
        return result


class _Client:
    """A closed-loop client: one account's requests in turn on one connection, opened again
    when the server closed it."""

    def __init__(self, url: str, connection: Connection, requests: list[bytes]) -> None:
        self.url, self.connection, self.requests = url, connection, requests

    async def send(self, n: int) -> str:
        if self.connection.closed:
            self.connection = await connect(self.url)
        return await exchange(self.connection, self.requests[n % len(self.requests)])


async def closed_loop(
    url: str,
    requests: list[list[bytes]],
    connections: int,
    duration: float,
    warmup: float,
    window: Window,
    budget: int | None = None,
) -> Result:
    """`connections` connections (one account each), each sending back to back; the window
    holds the requests answered between `warmup` and `warmup + duration` after the last
    connection opened (its CPU is read at those two instants, so throughput and CPU per
    request are over the same answers), or until `budget` requests have been sent.

    Connections open one at a time, each after the one before has had its first answer, as
    clients arrive, and, given several worker pids, each worker gets an even share of them
    (`balanced_connect`): opened all at once, they would all be accepted by whichever worker
    woke first (they share one listening socket), and stay with it."""
    bounds = [math.inf, math.inf]  # the window's start and end, once all are open

    def answered(sent: float, at: float, status: str) -> None:
        if bounds[0] <= at < bounds[1]:  # throughput: answers in the window
            window.record(at - sent, status)

    loop = ClosedLoop(answered, budget=budget)
    clients: list[_Client] = []
    held: collections.Counter[int] = collections.Counter()
    share = -(-connections // max(1, len(window.pids)))  # each worker's, rounded up
    for index in range(connections):
        if len(window.pids) > 1:
            connection = await balanced_connect(url, window.pids, held, share)
        else:
            connection = await connect(url)
        clients.append(_Client(url, connection, requests[index % len(requests)]))
        await loop.add(clients[-1].send).wait()
    started = time.perf_counter()
    bounds[:] = [started + warmup, started + warmup + duration]
    loop.deadline = bounds[1]
    await asyncio.sleep(warmup)
    window.start()
    await loop.finished(within=max(0.0, bounds[1] - time.perf_counter()))
    seconds = min(duration, time.perf_counter() - bounds[0])  # shorter when the budget ran out
    bounds[1] = min(bounds[1], time.perf_counter())
    window.stop()
    await loop.finished()
    for client in clients:
        client.connection.close()
    result = window.result("closed", seconds)
    result.sent = loop.sent
    result.connections = result.max_in_flight = connections
    return result


async def open_loop(
    url: str,
    requests: list[list[bytes]],
    rate: float,
    duration: float,
    warmup: float,
    window: Window,
    max_connections: int,
) -> Result:
    """Requests due every 1/`rate` s for `warmup + duration` s; the window holds those due
    after the warm-up. Connections are reused when free and opened when none is (up to
    `max_connections`; past that a request waits for one, and the wait is in its latency)."""
    idle_connections: collections.deque[Connection] = collections.deque()
    idle_accounts = collections.deque(range(len(requests)))
    next_request = [0] * len(requests)
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
            request = requests[account][next_request[account] % len(requests[account])]
            next_request[account] += 1
            status = await exchange(connection, request)
        answered = time.perf_counter()
        if connection is None or connection.closed:
            counts["connections"] -= 1
        else:
            idle_connections.append(connection)
        idle_accounts.append(account)
        freed.set()
        counts["in_flight"] -= 1
        if measured:
            window.record(answered - due, status)

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
        await asyncio.wait(tasks)  # each ends within lean_http.REQUEST_TIMEOUT_SECONDS
    window.stop()
    for connection in idle_connections:
        connection.close()
    result = window.result("open", duration)
    result.offered_rps = rate
    result.sent = total
    result.rps = round(result.requests / (time.perf_counter() - window_start), 1)
    result.send_lag_p99_ms = round(stats.percentile(lags, 99) * 1000, 2) if lags else 0.0
    result.connections = counts["connections"]
    result.max_in_flight = counts["max_in_flight"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--accounts", type=Path, required=True, help="JSON, as bench.run's")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--rate", type=float, help="open loop: requests due per second")
    mode.add_argument("--connections", type=int, help="closed loop: connections")
    parser.add_argument("--duration", type=float, default=10.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds before it")
    parser.add_argument("--path", default="/api/chat", help="another path is sent as a GET")
    parser.add_argument("--requests", type=int, help="closed loop: stop after this many")
    parser.add_argument("--max-connections", type=int, default=256, help="open loop")
    parser.add_argument("--pids", default="", help="worker pids whose CPU to read, a,b,c")
    parser.add_argument("--database", help="the PostgreSQL database whose backends to tell")
    args = parser.parse_args()
    if args.rate is not None and args.requests is not None:
        parser.error("--requests is for the closed loop (--connections)")
    accounts = json.loads(args.accounts.read_text())
    if args.path == "/api/chat":
        requests = chat_requests(args.url, accounts, MESSAGES)
    else:
        requests = get_requests(args.url, accounts, args.path)
    pids = [int(pid) for pid in args.pids.split(",") if pid]
    window = Window(pids, args.database)
    if args.rate is not None:
        run = open_loop(
            args.url, requests, args.rate, args.duration, args.warmup, window, args.max_connections
        )
    else:
        run = closed_loop(
            args.url,
            requests,
            args.connections,
            args.duration,
            args.warmup,
            window,
            args.requests,
        )
    result = uvloop.run(run)
    sys.stdout.write(json.dumps(asdict(result)) + "\n")


if __name__ == "__main__":
    main()
