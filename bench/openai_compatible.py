"""What a turn through the OpenAI-compatible endpoint costs beside the same turn through
/api/chat: `.venv/bin/python -m bench.openai_compatible`.

    .venv/bin/python -m bench.openai_compatible                      # 24 conversations a way
    .venv/bin/python -m bench.openai_compatible --quick              # a smoke run
    .venv/bin/python -m bench.openai_compatible --database postgresql

One real uvicorn server per database (one worker, rules brain, access log off) on a fresh
PostgreSQL database and a fresh SQLite file, driven by one client in another process, one
request at a time. Each conversation is a fresh account with the in-process mix's tasks,
walking that mix's eight messages (`bench.turn_harness`): through /api/chat it sends each
message with the conversation's id; through /v1/chat/completions it sends, as OpenAI clients
do, the whole history so far with each message, and the server finds the conversation by it
(a look-up, and after the turn a write of where the history stands). The two ways alternate
conversation by conversation (which goes first alternating too), so both see the same
machine; then the same again streamed (/api/chat/stream beside `stream: true`).

The measure is the worker's CPU per turn, read from /proc/<pid>/task/*/schedstat (ns, every
thread of the worker) around each conversation, so the client's own work is not in it; the
figure is the median over conversations of CPU per turn, and the verdict compares the two
medians (target: /v1 at most 1.10x /api/chat). The wall time per turn at the client (p50) is
shown beside it.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

import httpx

from bench import stats
from bench.report import markdown_table
from bench.run import Databases, python_speed_ms
from bench.server import server, started_workers
from bench.turn_harness import PASSWORD, TASK_TITLES, TURN_MESSAGES

TARGET_RATIO = 1.10
MODEL = "todo-assistant"
WARM_UP_CONVERSATIONS = 2
QUICK_CONVERSATIONS = 2


def worker_cpu_ns(pid: int) -> int:
    """CPU time of every thread of a process, in ns (the scheduler's own count: finer than
    /proc/<pid>/stat's ticks of 10 ms, which a turn of a few ms would round away)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
    return total


@dataclass
class Way:
    """One way to hold a conversation, and what its conversations cost."""

    label: str
    cpu_ms_per_turn: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)


class _Conversation:
    """A fresh account's conversation through one of the four endpoints."""

    def __init__(self, http: httpx.Client, *, openai: bool, streamed: bool) -> None:
        self.http, self.openai, self.streamed = http, openai, streamed
        email = f"oai-{uuid.uuid4().hex[:12]}@bench.example"
        registered = http.post("/api/auth/register", json={"email": email, "password": PASSWORD})
        registered.raise_for_status()
        self.headers = {"Authorization": f"Bearer {registered.json()['access_token']}"}
        for title in TASK_TITLES:
            http.post("/api/tasks", json={"title": title}, headers=self.headers).raise_for_status()
        self.conversation_id: int | None = None
        self.history: list[dict[str, str]] = []

    def turn(self, message: str) -> str:
        if not self.openai:
            return self._chat(message)
        self.history.append({"role": "user", "content": message})
        body: dict[str, Any] = {"model": MODEL, "messages": self.history}
        if self.streamed:
            body["stream"] = True
            with self.http.stream(
                "POST", "/v1/chat/completions", json=body, headers=self.headers
            ) as response:
                response.raise_for_status()
                reply = "".join(_streamed_text(response.iter_lines()))
        else:
            response = self.http.post("/v1/chat/completions", json=body, headers=self.headers)
            response.raise_for_status()
            reply = response.json()["choices"][0]["message"]["content"]
        self.history.append({"role": "assistant", "content": reply})
        return reply

    def _chat(self, message: str) -> str:
        body = {"message": message, "conversation_id": self.conversation_id}
        if self.streamed:
            with self.http.stream(
                "POST", "/api/chat/stream", json=body, headers=self.headers
            ) as response:
                response.raise_for_status()
                answer = _done_event(response.iter_lines())
        else:
            response = self.http.post("/api/chat", json=body, headers=self.headers)
            response.raise_for_status()
            answer = response.json()
        self.conversation_id = answer["conversation_id"]
        return str(answer["response"])


def _done_event(lines: Iterator[str]) -> dict[str, Any]:
    """The body of /api/chat/stream's `done` event."""
    event = ""
    for line in lines:
        if line.startswith("event: "):
            event = line.removeprefix("event: ").strip()
        elif line.startswith("data: ") and event == "done":
            done: dict[str, Any] = json.loads(line.removeprefix("data: "))
            return done
    raise RuntimeError("the stream ended without its done event")


def _streamed_text(lines: Iterator[str]) -> Iterator[str]:
    for line in lines:
        if line.startswith("data: {"):
            for choice in json.loads(line.removeprefix("data: "))["choices"]:
                yield choice["delta"].get("content") or ""


def _converse(
    http: httpx.Client, pid: int, way: Way | None, *, openai: bool, streamed: bool
) -> None:
    """One conversation of the mix; its cost into `way` (None: a warm-up)."""
    conversation = _Conversation(http, openai=openai, streamed=streamed)
    walls = []
    before = worker_cpu_ns(pid)
    for message in TURN_MESSAGES:
        started = perf_counter()
        conversation.turn(message)
        walls.append((perf_counter() - started) * 1000)
    spent_ms = (worker_cpu_ns(pid) - before) / 1e6
    if way is not None:
        way.cpu_ms_per_turn.append(spent_ms / len(TURN_MESSAGES))
        way.wall_ms += walls


def _compare(
    http: httpx.Client, pid: int, conversations: int, *, streamed: bool
) -> tuple[Way, Way]:
    suffix = " (streamed)" if streamed else ""
    chat, openai = Way(f"/api/chat{suffix}"), Way(f"/v1/chat/completions{suffix}")
    for _ in range(WARM_UP_CONVERSATIONS):
        _converse(http, pid, None, openai=False, streamed=streamed)
        _converse(http, pid, None, openai=True, streamed=streamed)
    for index in range(conversations):
        order = [(chat, False), (openai, True)]
        for way, is_openai in order if index % 2 == 0 else reversed(order):
            _converse(http, pid, way, openai=is_openai, streamed=streamed)
    return chat, openai


@contextmanager
def _served(url: str, directory: Path) -> Iterator[tuple[httpx.Client, int]]:
    with server(url, 1, directory / "server.log") as (base, process):
        [pid] = started_workers(process, 1)
        with httpx.Client(base_url=base, timeout=60) as http:
            yield http, pid


def _rows(database: str, chat: Way, openai: Way) -> list[tuple[str, str, str, str, str]]:
    chat_cpu, openai_cpu = (stats.median(way.cpu_ms_per_turn) for way in (chat, openai))
    ratio = openai_cpu / chat_cpu
    met = "yes" if ratio <= TARGET_RATIO else "NO"
    return [
        (
            f"{database}: worker CPU per turn, {chat.label}",
            f"{chat_cpu:.2f} ms",
            f"{stats.median(chat.wall_ms):.2f} ms",
            "",
            "",
        ),
        (
            f"{database}: worker CPU per turn, {openai.label}",
            f"{openai_cpu:.2f} ms",
            f"{stats.median(openai.wall_ms):.2f} ms",
            "",
            "",
        ),
        (
            f"{database}: {openai.label} over {chat.label}",
            f"{ratio:.3f}x",
            "",
            f"<= {TARGET_RATIO:.2f}x",
            met,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.openai_compatible", description=__doc__)
    parser.add_argument("--conversations", type=int, default=24, help="per way and database")
    parser.add_argument("--database", choices=["postgresql", "sqlite", "both"], default="both")
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_CONVERSATIONS} conversations a way"
    )
    args = parser.parse_args()
    conversations = QUICK_CONVERSATIONS if args.quick else args.conversations
    kinds = ["postgresql", "sqlite"] if args.database == "both" else [args.database]
    print(f"python speed: {python_speed_ms()} ms (a fixed loop; lower is faster)")
    print(f"{conversations} conversations of {len(TURN_MESSAGES)} turns a way, one at a time\n")
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        databases = Databases(Path(directory))
        try:
            for kind in kinds:
                with _served(databases.url(kind), Path(directory)) as (http, pid):
                    for streamed in (False, True):
                        rows += _rows(kind, *_compare(http, pid, conversations, streamed=streamed))
        finally:
            databases.drop()
    header = ("measure", "figure (median)", "wall per turn (p50)", "target", "met")
    print(markdown_table(header, rows))


if __name__ == "__main__":
    main()
