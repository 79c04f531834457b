"""What one chat turn costs the worker, in-process: the before/after measure for a change.

    .venv/bin/python -m bench.turn_cost                          # ms of wall and CPU per turn
    .venv/bin/python -m bench.turn_cost --instructions           # instructions per turn
    .venv/bin/python -m bench.turn_cost --database sqlite --turns 300

Runs the real app (deterministic brain, MCP tools in memory) against a fresh PostgreSQL
database (or SQLite file) through an in-process HTTP client (`bench.turn_harness`), on uvloop
as the server's workers run, warms it up, then times `--turns` turns of the in-process
message mix in one growing conversation. Milliseconds move with whatever else the machine is
doing; `--instructions` re-runs the same turns under valgrind's callgrind and counts the
worker's instructions (PostgreSQL's own work is another process and not counted), which
repeats to within about 1% and so shows changes of a few percent.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop

from backend.main import create_app
from bench.run import Databases
from bench.turn_harness import TASK_TITLES, TURN_MESSAGES, bench_settings, in_process_chat

_UNDER_CALLGRIND = "BENCH_TURN_COST_CALLGRIND"
WARM_UP_TURNS = 16


def _callgrind(command: str) -> None:
    """Zeroes (`-z`) or dumps (`-d`) this process's counters, when running under callgrind."""
    if os.environ.get(_UNDER_CALLGRIND):
        subprocess.run(
            ["callgrind_control", command, str(os.getpid())], check=True, capture_output=True
        )


async def _turns(database_url: str, turns: int) -> tuple[float, float]:
    app = create_app(bench_settings(database_url))
    async with in_process_chat(app, email="cost@example.com", task_titles=TASK_TITLES) as chat:
        for index in range(WARM_UP_TURNS):
            await chat.turn(TURN_MESSAGES[index % len(TURN_MESSAGES)])
        _callgrind("-z")
        wall, cpu = time.perf_counter(), time.process_time()
        for index in range(turns):
            await chat.turn(TURN_MESSAGES[index % len(TURN_MESSAGES)])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        _callgrind("-d")
    return wall / turns, cpu / turns


def _measure(database: str, turns: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as directory:
        databases = Databases(Path(directory))
        try:
            return uvloop.run(_turns(databases.url(database), turns))
        finally:
            databases.drop()


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
