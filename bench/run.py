"""The benchmark suite: `.venv/bin/python -m bench.run [--quick]`.

Starts real uvicorn servers (deterministic brain) on SQLite and PostgreSQL and measures, with
the load generator `bench.load` in a separate process (its closed loop, no warm-up): chat
turns/s and latency at 1, 16 and 64 connections (each connection its own account) against a
trivial JSON endpoint of the same app; turn latency as a conversation grows to 10,000
messages and a user to 10,000 tasks; worker memory over many turns; one vs two workers on
PostgreSQL. Prints a table, writes results.json and chart.png: into bench/latest/ (the
committed figures) for a full run, into a fresh temporary directory for `--quick`, or into
`--out`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from bench import seed, stats
from bench.report import print_table, write_chart
from bench.server import ROOT, register_accounts, rss_kib, server, started_workers

ADMIN_DSN = os.environ.get("BENCH_POSTGRES_ADMIN_DSN", "postgresql://postgres@127.0.0.1:5432/test")
LATEST = ROOT / "bench" / "latest"
# The last line of the output names the results' directory (a quick run's is new each time).
RESULTS_WRITTEN_TO = "results written to"


def output_directory(out: Path | None, quick: bool) -> Path:
    """Where a run's results go: `--out` when given; otherwise the committed figures for a
    full run, and a fresh temporary directory for a smoke run, whose figures mean nothing and
    must never replace them."""
    if out is not None:
        return out
    if quick:
        return Path(tempfile.mkdtemp(prefix="todo-chatbot-bench-quick-"))
    return LATEST


def python_speed_ms() -> float:
    """A fixed pure-Python loop (best of 3), so that runs on machines of different speed can
    be compared: the machines this suite runs on are not all alike."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for i in range(10_000_000):
            total += i
        best = min(best, time.perf_counter() - started)
    return round(best * 1000, 1)


def load(
    url: str,
    path: str,
    accounts: Path,
    concurrency: int,
    duration: float,
    pids: list[int],
    requests: int | None = None,
) -> dict[str, Any]:
    """`bench.load`'s closed loop, `concurrency` connections (an even share to each of the
    worker `pids`) for `duration` seconds or `requests` requests; the figures this suite
    reports of it."""
    command = [sys.executable, "-m", "bench.load", "--url", url, "--path", path]
    command += ["--accounts", str(accounts), "--connections", str(concurrency)]
    command += ["--duration", str(duration), "--warmup", "0", "--pids", ",".join(map(str, pids))]
    if requests:
        command += ["--requests", str(requests)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    keys = ("requests", "errors", "seconds", "rps", "p50_ms", "p95_ms", "p99_ms")
    return {key: result[key] for key in keys}


class Databases:
    """Fresh databases for one run: SQLite files and PostgreSQL databases, dropped after."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.created: list[str] = []

    def url(self, kind: str) -> str:
        name = f"bench_{uuid.uuid4().hex[:10]}"
        if kind == "sqlite":
            return f"sqlite+aiosqlite:///{self.directory / name}.db"
        asyncio.run(self._admin(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return (
            ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
            + "/"
            + name
        )

    async def _admin(self, sql: str) -> None:
        connection = await asyncpg.connect(ADMIN_DSN)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    def drop(self) -> None:
        for name in self.created:
            asyncio.run(self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def throughput(
    url: str, pids: list[int], work: Path, connections: list[int], duration: float
) -> list[dict[str, Any]]:
    accounts = register_accounts(url, max(connections), "load")
    (work / "accounts.json").write_text(json.dumps(accounts))
    rows = []
    for c in connections:
        chat = load(url, "/api/chat", work / "accounts.json", c, duration, pids)
        trivial = load(url, "/healthz", work / "accounts.json", c, duration, pids)
        rows.append(
            {
                "connections": c,
                "chat": chat,
                "trivial": trivial,
                "ratio": round(chat["rps"] / trivial["rps"], 4) if trivial["rps"] else 0,
            }
        )
    return rows


def sequential_turns(
    url: str, token: str, conversation_id: int, message: str, turns: int, before_each: Any = None
) -> float:
    """Median milliseconds of `turns` turns, one at a time (after one warm-up turn)."""
    headers = {"Authorization": f"Bearer {token}"}
    samples = []
    with httpx.Client(base_url=url, timeout=60) as http:
        for i in range(turns + 1):
            if before_each:
                before_each(http, headers)
            started = time.perf_counter()
            response = http.post(
                "/api/chat",
                json={"message": message, "conversation_id": conversation_id},
                headers=headers,
            )
            elapsed = time.perf_counter() - started
            response.raise_for_status()
            if i:
                samples.append(elapsed * 1000)
    return round(stats.median(samples), 2)


def _me(url: str, token: str) -> int:
    me = httpx.get(f"{url}/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    return int(me.json()["id"])


def scaling(url: str, database_url: str, sizes: tuple[int, int], turns: int) -> dict[str, Any]:
    small, large = sizes
    result: dict[str, Any] = {}
    accounts = register_accounts(url, 4, "scale")
    # Conversation length: only the last 50 messages are read, whatever the length.
    for size, account in zip(sizes, accounts[:2], strict=True):
        seed.messages(
            database_url,
            user_id=_me(url, str(account["token"])),
            conversation_id=int(account["conversation_id"]),
            count=size,
        )
        result[f"messages_{size}_ms"] = sequential_turns(
            url, str(account["token"]), int(account["conversation_id"]), "show my tasks", turns
        )
    # Task count: resolving a title narrows in SQL; long lists are capped in the reply.
    for size, account in zip(sizes, accounts[2:], strict=True):
        token, cid = str(account["token"]), int(account["conversation_id"])
        seed.tasks(database_url, user_id=_me(url, token), count=size, first_number=1)

        def groceries(http: httpx.Client, headers: dict[str, str]) -> None:
            http.post("/api/tasks", json={"title": "buy groceries"}, headers=headers)

        result[f"delete_by_title_{size}_tasks_ms"] = sequential_turns(
            url, token, cid, "delete the groceries task", turns, before_each=groceries
        )
        result[f"pending_list_{size}_tasks_ms"] = sequential_turns(
            url, token, cid, "show pending tasks", turns
        )
    result["messages_ratio"] = round(
        result[f"messages_{large}_ms"] / result[f"messages_{small}_ms"], 3
    )
    return result


def memory(url: str, pid: int, work: Path, turns: int) -> dict[str, Any]:
    warm = max(turns // 10, 50)
    load(url, "/api/chat", work / "accounts.json", 16, 3600, [pid], requests=warm)
    after_warmup, _ = rss_kib(pid)
    load(url, "/api/chat", work / "accounts.json", 16, 3600, [pid], requests=turns - warm)
    end, peak = rss_kib(pid)
    return {
        "turns": turns,
        "rss_after_warmup_mib": round(after_warmup / 1024, 1),
        "rss_end_mib": round(end / 1024, 1),
        "peak_rss_mib": round(peak / 1024, 1),
        "growth_pct": round((end - after_warmup) / after_warmup * 100, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a seconds-long smoke run")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument(
        "--out",
        type=Path,
        help="directory for results.json and chart.png"
        " (default: bench/latest, or a new temporary directory with --quick)",
    )
    args = parser.parse_args()
    quick = args.quick
    connections = [1, 2] if quick else [1, 16, 64]
    duration = 0.5 if quick else 10.0
    sizes = (10, 100) if quick else (10, 10_000)
    turns = 3 if quick else 50
    memory_turns = 100 if quick else 10_000

    results: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "python_loop_ms": python_speed_ms(),
        },
        "quick": quick,
        "databases": {},
    }
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        databases = Databases(work)
        try:
            for kind in args.databases.split(","):
                database_url = databases.url(kind)
                entry: dict[str, Any] = {}
                with server(database_url, 1, work / f"{kind}.log") as (url, process):
                    pids = started_workers(process, 1)
                    entry["throughput"] = throughput(url, pids, work, connections, duration)
                    entry["scaling"] = scaling(url, database_url, sizes, turns)
                    entry["memory"] = memory(url, pids[0], work, memory_turns)
                if kind == "postgresql":
                    with server(database_url, 2, work / "two.log") as (url, process):
                        pids = started_workers(process, 2)
                        entry["two_workers"] = throughput(
                            url, pids, work, connections[1:], duration
                        )
                results["databases"][kind] = entry
        finally:
            databases.drop()
    out = output_directory(args.out, quick)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    write_chart(results, out / "chart.png")
    print_table(results)
    print(f"{RESULTS_WRITTEN_TO} {out}")


if __name__ == "__main__":
    main()
