"""What one chat turn costs the worker, in-process: the before/after measure for a change.

    .venv/bin/python -m bench.turn_cost                          # ms of wall and CPU per turn
    .venv/bin/python -m bench.turn_cost --instructions           # instructions per turn
    .venv/bin/python -m bench.turn_cost --database sqlite --turns 300

Runs the real app (deterministic brain, MCP tools in memory) against a fresh PostgreSQL
database (or SQLite file) through an in-process HTTP client, on uvloop as the server's workers
run, warms it up, then times `--turns`
turns of the benchmark's message mix in one growing conversation. Milliseconds move with
whatever else the machine is doing; `--instructions` re-runs the same turns under valgrind's
callgrind and counts the worker's instructions (PostgreSQL's own work is another process and
not counted), which repeats to within about 1% and so shows changes of a few percent.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import uvloop

from backend.core.config import Settings
from backend.main import create_app
from bench.agent_decision import TURN_MESSAGES
from bench.run import ADMIN_DSN

_UNDER_CALLGRIND = "BENCH_TURN_COST_CALLGRIND"
WARM_UP_TURNS = 16
TITLES = ("buy groceries", "call mom", "finish report", "walk the dog")


def _callgrind(command: str) -> None:
    """Zeroes (`-z`) or dumps (`-d`) this process's counters, when running under callgrind."""
    if os.environ.get(_UNDER_CALLGRIND):
        subprocess.run(
            ["callgrind_control", command, str(os.getpid())], check=True, capture_output=True
        )


async def _turns(database_url: str, turns: int) -> tuple[float, float]:
    settings = Settings(
        database_url=database_url,
        secret_key="benchmark-secret-key-0123456789abcdef",
        chat_requests_per_minute=10**9,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            registered = await client.post(
                "/api/auth/register",
                json={"email": "cost@example.com", "password": "benchmark-password"},
            )
            headers = {"Authorization": f"Bearer {registered.json()['access_token']}"}
            for title in TITLES:
                await client.post("/api/tasks", json={"title": title}, headers=headers)
            conversation_id = None

            async def turn(index: int) -> None:
                nonlocal conversation_id
                response = await client.post(
                    "/api/chat",
                    json={
                        "message": TURN_MESSAGES[index % len(TURN_MESSAGES)],
                        "conversation_id": conversation_id,
                    },
                    headers=headers,
                )
                response.raise_for_status()
                conversation_id = response.json()["conversation_id"]

            for index in range(WARM_UP_TURNS):
                await turn(index)
            _callgrind("-z")
            wall, cpu = time.perf_counter(), time.process_time()
            for index in range(turns):
                await turn(index)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            _callgrind("-d")
    return wall / turns, cpu / turns


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(ADMIN_DSN)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _measure(database: str, turns: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as directory:
        if database == "sqlite":
            return uvloop.run(_turns(f"sqlite+aiosqlite:///{directory}/cost.db", turns))
        name = f"bench_cost_{uuid.uuid4().hex[:10]}"
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
        base = ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        try:
            return uvloop.run(_turns(f"{base}/{name}", turns))
        finally:
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _instructions(database: str, turns: int) -> int:
    """Runs this module under callgrind and reads the counters of the measured turns."""
    with tempfile.TemporaryDirectory() as directory:
        output = Path(directory) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={output}",
                "--dump-line=no",
                sys.executable,
                "-m",
                "bench.turn_cost",
                "--database",
                database,
                "--turns",
                str(turns),
            ],
            env={**os.environ, _UNDER_CALLGRIND: "1"},
            check=True,
            capture_output=True,
        )
        dumps = sorted(Path(directory).glob("callgrind.out.*"))  # the -d dump: measured turns
        for line in dumps[0].read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1]) // turns
    raise RuntimeError("callgrind wrote no totals")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--turns", type=int, default=None, help="300, or 40 with --instructions")
    parser.add_argument("--instructions", action="store_true", help="count with callgrind")
    args = parser.parse_args()
    if args.instructions:
        turns = args.turns or 40
        count = _instructions(args.database, turns)
        print(f"{args.database}: {count:,} instructions per turn (mean of {turns})")
        return
    turns = args.turns or 300
    wall, cpu = _measure(args.database, turns)
    if not os.environ.get(_UNDER_CALLGRIND):
        per_turn = f"{wall * 1000:.2f} ms wall, {cpu * 1000:.2f} ms CPU per turn ({turns})"
        print(f"{args.database}: {per_turn}")


if __name__ == "__main__":
    main()
