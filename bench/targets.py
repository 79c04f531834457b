"""Issue 16's targets, each beside its figure from one run: `python -m bench.targets`.

    .venv/bin/python -m bench.targets           # ~4 minutes; writes bench/latest/targets.json
    .venv/bin/python -m bench.targets --quick   # a smoke run, into a new temporary directory

Real uvicorn servers (deterministic brain, access log off; `bench.server`) on a fresh SQLite
file and a fresh PostgreSQL database, driven from another process by the load generator
`bench.load` (each connection or request its own account and conversation, walking the
benchmark's message mix), with CPU read from /proc (`bench.procstat`):

1. **Floor vs turn.** `bench.floors.measure()` (the Agents SDK's Runner with one MCP tool call,
   and the turn's SQL as raw asyncpg statements), beside the worker CPU of a real turn: one
   connection sending turns back to back, the worker process's utime + stime over the window
   divided by the turns answered in it. Target: the turn <= 1.3x the floor, both databases.
2. **Closed loop**, 16 connections, 1, 2 and 3 workers on one PostgreSQL: turns/s, errors,
   p50/p99, and per turn the workers', PostgreSQL's and the load generator's CPU and the
   machine's idle share (where the cores went). Target: 1 worker >= 150 turns/s with no
   errors; 2 workers >= 1.7x one.
3. **Open loop**: turns due on a fixed schedule whatever the answers, latency from each
   turn's intended send time. 60 turns/s to one worker: p99 < 50 ms; then 25, 50 and 75% of
   the 1-worker closed-loop maximum.
4. **Statements and transactions per turn** on PostgreSQL: counted in-process on the app's
   engine (SQLAlchemy events) over rounds of the mix, and transactions and connections
   opened as PostgreSQL counts them (`pg_stat_database`, read after the server stopped);
   the pool a worker holds.
5. **LLM overhead**: `bench.llm_overhead`, run as its own command, its two rows copied here.

Then the capacity model (specs/capacity.md): turns/s predicted for N workers
from the measured CPU per turn, beside the measured 1, 2 and 3 workers. Prints the tables and
writes targets.json: into bench/latest/ for a full run, a new temporary directory for
`--quick` (its last line names it), or `--out`.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import uvloop
from sqlalchemy import event

from backend.main import create_app
from bench import floors, procstat
from bench.load import MESSAGES
from bench.report import markdown_rows, markdown_table
from bench.run import ADMIN_DSN, RESULTS_WRITTEN_TO, Databases, output_directory, python_speed_ms
from bench.server import ROOT, register_accounts, server, started_workers
from bench.turn_harness import bench_settings, in_process_chat

TURN_FLOOR_RATIO = 1.3
ONE_WORKER_TURNS = 150.0
TWO_WORKER_SCALING = 1.7
CONNECTIONS = 16
OPEN_RATE = 60.0
OPEN_P99_MS = 50.0
FRACTIONS = (0.25, 0.5, 0.75)
WORKER_COUNTS = (1, 2, 3)


@dataclass(frozen=True)
class Sizes:
    """How long each part runs: a full run (figures) or a quick one (the code path only)."""

    floor_runs: int
    sequential_seconds: float
    closed_seconds: float
    open_seconds: float
    fraction_seconds: float
    warmup: float
    accounts: int
    statement_rounds: int
    llm_args: tuple[str, ...]


FULL = Sizes(
    floor_runs=2000,
    sequential_seconds=10,
    closed_seconds=10,
    open_seconds=20,
    fraction_seconds=12,
    warmup=2,
    accounts=64,
    statement_rounds=10,
    llm_args=("--turns", "40"),
)
QUICK = Sizes(
    floor_runs=30,
    sequential_seconds=0.5,
    closed_seconds=0.5,
    open_seconds=0.5,
    fraction_seconds=0.3,
    warmup=0.2,
    accounts=CONNECTIONS,
    statement_rounds=1,
    llm_args=("--quick",),
)


# --- driving a server -------------------------------------------------------------------


def _database_name(database_url: str) -> str | None:
    return None if database_url.startswith("sqlite") else database_url.rsplit("/", 1)[1]


_STARTED = time.monotonic()


def _progress(step: str) -> None:
    """A line on stderr per step, so a long run shows where it is."""
    print(f"[{time.monotonic() - _STARTED:6.1f} s] {step}", file=sys.stderr, flush=True)


def drive(
    url: str, accounts: Path, mode: list[str], pids: list[int], database: str | None
) -> dict[str, Any]:
    """One `bench.load` run in its own process: its result, with the most backends of
    `database` seen while it ran (read from /proc twice a second: the pools' size in use) and
    the client connections each worker held (when the most were open)."""
    command = [sys.executable, "-m", "bench.load", "--url", url, "--accounts", str(accounts)]
    command += [*mode, "--pids", ",".join(map(str, pids))]
    command += ["--database", database] if database else []
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    _progress(f"bench.load {' '.join(mode)}")
    port = int(url.rsplit(":", 1)[1])
    held, spread = 0, dict.fromkeys(pids, 0)
    while True:
        try:
            out, err = process.communicate(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            if database:
                held = max(held, len(procstat.backends(database)))
            now = procstat.connections_by_process(pids, port)
            if sum(now.values()) > sum(spread.values()):
                spread = now
    if process.returncode:
        raise RuntimeError(f"bench.load failed: {err[-4000:]}")
    result: dict[str, Any] = json.loads(out)
    result["backends_held_max"] = held
    result["connections_per_worker"] = sorted(spread.values(), reverse=True)
    return result


def per_turn(run: dict[str, Any]) -> dict[str, float]:
    """A run's CPU per turn answered (ms) and the machine's cores by who used them."""
    cpu, turns = run["cpu"], max(run["requests"], 1)
    postgres = cpu.get("postgres:db", 0.0) + cpu.get("postgres:shared", 0.0)
    wall = cpu.get("wall") or run["seconds"]
    ours = cpu.get("workers", 0.0) + postgres + cpu["loadgen"]
    busy = cpu.get("machine_busy", ours)
    return {
        "worker_ms": round(cpu.get("workers", 0.0) / turns * 1000, 3),
        "postgres_ms": round(postgres / turns * 1000, 3),
        "loadgen_ms": round(cpu["loadgen"] / turns * 1000, 3),
        "cores_workers": round(cpu.get("workers", 0.0) / wall, 3),
        "cores_postgres": round(postgres / wall, 3),
        "cores_loadgen": round(cpu["loadgen"] / wall, 3),
        "cores_other": round(max(0.0, busy - ours) / wall, 3),
        "cores_idle": round(cpu.get("machine_idle_share", 0.0) * cpu.get("cores", 0.0), 3),
        "cores_kernel": round(cpu.get("machine_kernel", 0.0) / wall, 3),
        # A worker preempted mid-turn (by PostgreSQL's backends, other workers, the load
        # generator) pays for it in cold caches: these grow when they share the cores.
        "worker_preemptions": round(cpu.get("workers_involuntary_switches", 0.0) / turns, 2),
    }


async def _counters(database: str) -> dict[str, int]:
    connection = await asyncpg.connect(ADMIN_DSN)
    try:
        row = await connection.fetchrow(
            "SELECT xact_commit, xact_rollback, sessions FROM pg_stat_database WHERE datname = $1",
            database,
        )
    finally:
        await connection.close()
    assert row is not None
    return {"transactions": row["xact_commit"] + row["xact_rollback"], "sessions": row["sessions"]}


def database_counters(database: str) -> dict[str, int]:
    """PostgreSQL's own count of the database's transactions and sessions, once none of its
    backends is left (a backend's counts reach pg_stat_database when it exits, at the latest;
    read while it lives, they may lag by seconds)."""
    deadline = time.monotonic() + 20
    while procstat.backends(database) and time.monotonic() < deadline:
        time.sleep(0.05)
    return asyncio.run(_counters(database))


# --- the parts --------------------------------------------------------------------------


def sequential(
    database_url: str, work: Path, sizes: Sizes, accounts_file: Path | None = None
) -> tuple[dict[str, Any], Path]:
    """Target 1's turn: one connection, turns back to back, on one worker. Registers the
    run's accounts first when `accounts_file` is not given."""
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    _progress(f"one connection, {kind}")
    with server(database_url, 1, work / f"sequential-{kind}.log") as (url, process):
        pids = started_workers(process, 1)
        if accounts_file is None:
            accounts_file = work / f"accounts-{kind}.json"
            count = sizes.accounts if kind == "postgresql" else 1
            accounts_file.write_text(json.dumps(register_accounts(url, count, "targets")))
        mode = ["--connections", "1", "--duration", str(sizes.sequential_seconds)]
        mode += ["--warmup", str(sizes.warmup)]
        run = drive(url, accounts_file, mode, pids, _database_name(database_url))
    run["per_turn"] = per_turn(run)
    return run, accounts_file


def closed_and_open(
    database_url: str, work: Path, accounts: Path, sizes: Sizes
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Targets 2 and 3 on one PostgreSQL: 16 connections to 1, 2 and 3 workers; the open
    loop on the 1-worker server, after its closed loop has found the maximum."""
    database = _database_name(database_url)
    assert database is not None
    closed: dict[str, Any] = {}
    opened: dict[str, Any] = {}
    closed_mode = ["--connections", str(CONNECTIONS), "--duration", str(sizes.closed_seconds)]
    closed_mode += ["--warmup", str(sizes.warmup)]
    for workers in WORKER_COUNTS:
        before = database_counters(database)
        log = work / f"closed-{workers}.log"
        _progress(f"{workers} worker(s), PostgreSQL")
        with server(database_url, workers, log) as (url, process):
            pids = started_workers(process, workers)
            run = drive(url, accounts, closed_mode, pids, database)
            run["per_turn"] = per_turn(run)
            sent = run["sent"]
            if workers == 1:
                rates = [("60/s", OPEN_RATE, sizes.open_seconds)] + [
                    (f"{fraction:.0%} of max", fraction * run["rps"], sizes.fraction_seconds)
                    for fraction in FRACTIONS
                ]
                for label, rate, seconds in rates:
                    mode = ["--rate", f"{max(rate, 1.0):.2f}", "--duration", str(seconds)]
                    mode += ["--warmup", str(sizes.warmup)]
                    opened[label] = drive(url, accounts, mode, pids, database)
                    opened[label]["per_turn"] = per_turn(opened[label])
                    sent += opened[label]["sent"]
        after = database_counters(database)
        run["server_turns"] = sent
        run["transactions_per_turn"] = round(
            (after["transactions"] - before["transactions"]) / max(sent, 1), 3
        )
        run["connections_opened"] = after["sessions"] - before["sessions"]
        closed[str(workers)] = run
    return closed, opened


async def _count_statements(database_url: str, rounds: int) -> dict[str, Any]:
    """Statements, transactions and round trips a turn sends, by message of the mix, counted
    on the app's own engine (in this process, `bench.turn_harness`). A transaction is counted
    when its first statement goes out (asyncpg sends BEGIN then) and not on an AUTOCOMMIT
    connection, whose statements each stand alone: no BEGIN, no COMMIT."""
    settings = bench_settings(
        database_url, reminder_scheduler=False, reminder_check_seconds=300, tune_gc=False
    )
    app = create_app(settings)
    counts: collections.Counter[str] = collections.Counter()

    def begin(connection: Any) -> None:
        connection.info["begun"] = True

    def statement(connection: Any, *_args: Any) -> None:
        counts["statements"] += 1
        if getattr(connection.connection.dbapi_connection, "autocommit", False):
            counts["alone"] += 1
        elif connection.info.pop("begun", False):
            counts["transactions"] += 1

    engine = app.state.engine.sync_engine  # its read-only variant shares its events
    event.listen(engine, "begin", begin)
    event.listen(engine, "before_cursor_execute", statement)
    by_message: dict[str, collections.Counter[str]] = {m: collections.Counter() for m in MESSAGES}
    async with in_process_chat(app, email="statements@bench.example") as chat:
        for index in range((rounds + 1) * len(MESSAGES)):  # the first round warms up
            message = MESSAGES[index % len(MESSAGES)]
            counts.clear()
            await chat.turn(message)
            if index >= len(MESSAGES):
                by_message[message].update(counts)

    def per_turn(c: collections.Counter[str], turns: int) -> dict[str, float]:
        return {
            "statements": round(c["statements"] / turns, 2),
            "statements_alone": round(c["alone"] / turns, 2),
            "transactions": round(c["transactions"] / turns, 2),
            # Each statement is one; each transaction adds its BEGIN and its COMMIT.
            "round_trips": round((c["statements"] + 2 * c["transactions"]) / turns, 2),
        }

    total: collections.Counter[str] = collections.Counter()
    for message_counts in by_message.values():
        total.update(message_counts)
    return {
        "turns": rounds * len(MESSAGES),
        **per_turn(total, rounds * len(MESSAGES)),
        "by_message": {message: per_turn(c, rounds) for message, c in by_message.items()},
        "pool_size": settings.db_pool_size,
        "max_overflow": settings.db_max_overflow,
    }


def llm_overhead(args: tuple[str, ...]) -> dict[str, Any]:
    """Target 5 from `bench.llm_overhead`, run as its own command (TODO: call its measuring
    function instead once it has one; today it measures and prints in `main`): its table's
    two rows, or why there are none."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.llm_overhead", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    rows: dict[str, dict[str, str]] = {}
    for measure, cells in markdown_rows(done.stdout).items():
        for key, prefix in (("added", "server time added"), ("first_text", "first text byte")):
            if measure.startswith(prefix) and len(cells) >= 3:
                rows[key] = {"measure": measure, "figure": cells[0], "met": cells[-1]}
    if done.returncode or len(rows) != 2:
        return {"todo": f"bench.llm_overhead gave no table (exit {done.returncode})"}
    return rows


# --- the model and the tables -----------------------------------------------------------


def predicted_turns(workers: int, cores: float, worker_ms: float, shared_ms: float) -> float:
    """Turns/s for `workers` single-threaded workers on `cores` cores: each worker can do at
    most 1 / worker_ms; the cores at most cores / (CPU every turn costs on them)."""
    return round(min(workers / worker_ms, cores / shared_ms) * 1000, 1)


def capacity_model(
    sequential_pg: dict[str, Any], closed: dict[str, Any], cores: int
) -> dict[str, Any]:
    """Predicted turns/s for 1-3 workers from CPU per turn, beside the measured: costs from
    the one-connection run (independent of the loaded runs) and from the 1-worker loaded run;
    PostgreSQL on this machine, and on its own."""
    quiet, loaded = sequential_pg["per_turn"], closed["1"]["per_turn"]
    loadgen = loaded["loadgen_ms"]
    rows = []
    for workers in WORKER_COUNTS:
        rows.append(
            {
                "workers": workers,
                "measured": closed[str(workers)]["rps"],
                "quiet_costs": predicted_turns(
                    workers,
                    cores,
                    quiet["worker_ms"],
                    quiet["worker_ms"] + quiet["postgres_ms"] + loadgen,
                ),
                "loaded_costs": predicted_turns(
                    workers,
                    cores,
                    loaded["worker_ms"],
                    loaded["worker_ms"] + loaded["postgres_ms"] + loadgen,
                ),
                "postgres_elsewhere": predicted_turns(
                    workers, cores, loaded["worker_ms"], loaded["worker_ms"] + loadgen
                ),
                "other_cores": closed[str(workers)]["per_turn"]["cores_other"],
            }
        )
    return {"cores": cores, "inputs": {"quiet": quiet, "loaded": loaded}, "rows": rows}


def _met(condition: bool) -> str:
    return "yes" if condition else "no"


def target_rows(results: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(target, figure, met) for every target of the issue."""
    floor = results["floor"]["floor_before_http_ms"]
    rows = []
    for kind, label in (("postgresql", "PostgreSQL"), ("sqlite", "SQLite")):
        cost = results["turn_cpu"][kind]["per_turn"]["worker_ms"]
        ratio = cost / floor
        rows.append(
            (
                f"1. turn worker CPU <= {TURN_FLOOR_RATIO}x the floor, {label}",
                f"{cost:.2f} ms vs floor {floor:.2f} ms: {ratio:.2f}x",
                _met(ratio <= TURN_FLOOR_RATIO),
            )
        )
    closed = results["closed_loop"]
    one = closed["1"]
    rows.append(
        (
            f"2. 1 worker, {CONNECTIONS} connections: >= {ONE_WORKER_TURNS:.0f} turns/s, no errors",
            f"{one['rps']:.1f} turns/s, {one['errors']} errors"
            f" (p50 {one['p50_ms']:.1f} / p99 {one['p99_ms']:.1f} ms)",
            _met(one["rps"] >= ONE_WORKER_TURNS and one["errors"] == 0),
        )
    )
    for workers in WORKER_COUNTS[1:]:
        run = closed[str(workers)]
        scale = run["rps"] / one["rps"] if one["rps"] else 0.0
        target = f">= {TWO_WORKER_SCALING}x one" if workers == 2 else "(capacity model check)"
        rows.append(
            (
                f"2. {workers} workers, {CONNECTIONS} connections: {target}",
                f"{run['rps']:.1f} turns/s, {scale:.2f}x, {run['errors']} errors"
                f" (p50 {run['p50_ms']:.1f} / p99 {run['p99_ms']:.1f} ms)",
                _met(scale >= TWO_WORKER_SCALING and run["errors"] == 0) if workers == 2 else "",
            )
        )
    for label, run in results["open_loop"].items():
        figure = (
            f"p50 {run['p50_ms']:.1f} / p99 {run['p99_ms']:.1f} ms at"
            f" {run['offered_rps']:.1f} turns/s, {run['errors']} errors"
        )
        if label == "60/s":
            rows.append(
                (
                    f"3. open loop {OPEN_RATE:.0f} turns/s, 1 worker: p99 < {OPEN_P99_MS:.0f} ms",
                    figure,
                    _met(run["p99_ms"] < OPEN_P99_MS and run["errors"] == 0),
                )
            )
        else:
            rows.append((f"3. open loop at {label}, 1 worker: p50 / p99", figure, ""))
    statements = results["statements"]
    server_side = one["transactions_per_turn"]
    rows.append(
        (
            "4. statements / transactions per turn, PostgreSQL",
            f"{statements['statements']} statements ({statements['statements_alone']} alone),"
            f" {statements['transactions']} transactions, {statements['round_trips']} round"
            f" trips (PostgreSQL counted {server_side} transactions)",
            "",
        )
    )
    rows.append(
        (
            "4. connections a worker holds, PostgreSQL",
            f"pool {statements['pool_size']} + overflow {statements['max_overflow']};"
            f" up to {one['backends_held_max']} held at {CONNECTIONS} connections,"
            f" {one['connections_opened']} opened over {one['server_turns']} turns",
            "",
        )
    )
    llm = results["llm_overhead"]
    if "todo" in llm:
        rows.append(("5. LLM brains (bench.llm_overhead)", f"TODO: {llm['todo']}", ""))
    else:
        for key, target in (("added", "server time added a turn"), ("first_text", "first text")):
            row = llm[key]
            rows.append(
                (
                    f"5. LLM {target} <= 5 ms (median / p95 / max)",
                    f"{row['figure']} ms",
                    row["met"].lower(),
                )
            )
    return rows


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    print(markdown_table(header, rows))
    print()


def print_tables(results: dict[str, Any]) -> None:
    machine = results["machine"]
    print(
        f"machine: {machine['cpus']} cpus, python loop {machine['python_loop_ms']} ms,"
        f" load {machine['loadavg_before']} -> {machine['loadavg_after']}\n"
    )
    _table(("target", "figure", "met"), results["targets"])
    cores_rows = []
    runs = [(f"closed, {w} worker(s)", results["closed_loop"][w]) for w in results["closed_loop"]]
    runs += [(f"open, {label}", run) for label, run in results["open_loop"].items()]
    runs += [(f"one connection, {k}", run) for k, run in results["turn_cpu"].items()]
    for label, run in runs:
        cost = run["per_turn"]
        cores_rows.append(
            (
                label,
                f"{run['rps']:.1f}",
                f"{cost['worker_ms']:.2f} / {cost['postgres_ms']:.2f} / {cost['loadgen_ms']:.3f}",
                f"{cost['cores_workers']:.2f} / {cost['cores_postgres']:.2f} /"
                f" {cost['cores_loadgen']:.2f} / {cost['cores_other']:.2f} /"
                f" {cost['cores_idle']:.2f}",
                f"{cost['worker_preemptions']:.1f}",
            )
        )
    _table(
        (
            "run",
            "turns/s",
            "CPU ms per turn: workers / PostgreSQL / load generator",
            "cores: workers / PostgreSQL / load generator / other / idle",
            "worker preemptions per turn",
        ),
        cores_rows,
    )
    model = results["capacity_model"]
    _table(
        (
            "workers",
            "measured turns/s",
            "predicted, one-connection costs",
            "predicted, 1-worker loaded costs",
            "predicted, PostgreSQL on its own machine",
            "cores other work took",
        ),
        [
            (
                str(row["workers"]),
                f"{row['measured']:.1f}",
                f"{row['quiet_costs']:.1f}",
                f"{row['loaded_costs']:.1f}",
                f"{row['postgres_elsewhere']:.1f}",
                f"{row['other_cores']:.2f}",
            )
            for row in model["rows"]
        ],
    )


def _loadavg() -> str:
    return " / ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.targets", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a seconds-long smoke run")
    parser.add_argument(
        "--out",
        type=Path,
        help="directory for targets.json (default: bench/latest, or a temporary one with --quick)",
    )
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    cores = os.cpu_count() or 1
    results: dict[str, Any] = {
        "machine": {
            "cpus": cores,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "python_loop_ms": python_speed_ms(),
            "loadavg_before": _loadavg(),
        },
        "quick": args.quick,
    }
    _progress("the floor (bench.floors)")
    results["floor"] = uvloop.run(floors.measure(sizes.floor_runs))  # as the workers run
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        databases = Databases(work)
        try:
            sqlite_run, _ = sequential(databases.url("sqlite"), work, sizes)
            postgresql = databases.url("postgresql")
            postgresql_run, accounts = sequential(postgresql, work, sizes)
            results["turn_cpu"] = {"postgresql": postgresql_run, "sqlite": sqlite_run}
            closed, opened = closed_and_open(postgresql, work, accounts, sizes)
            results["closed_loop"], results["open_loop"] = closed, opened
            _progress("statements per turn, in-process")
            results["statements"] = asyncio.run(
                _count_statements(postgresql, sizes.statement_rounds)
            )
        finally:
            databases.drop()
    _progress("bench.llm_overhead")
    results["llm_overhead"] = llm_overhead(sizes.llm_args)
    results["capacity_model"] = capacity_model(postgresql_run, closed, cores)
    results["machine"]["loadavg_after"] = _loadavg()
    results["targets"] = target_rows(results)
    out = output_directory(args.out, args.quick)
    out.mkdir(parents=True, exist_ok=True)
    (out / "targets.json").write_text(json.dumps(results, indent=2) + "\n")
    print_tables(results)
    print(f"{RESULTS_WRITTEN_TO} {out}")


if __name__ == "__main__":
    main()
