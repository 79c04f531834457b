"""The reminder scheduler's cost at 10,000 pending reminders (issue 15):
`.venv/bin/python -m bench.reminders`.

    .venv/bin/python -m bench.reminders                 # both databases, 10,000 reminders
    .venv/bin/python -m bench.reminders --quick         # a seconds-long smoke run

On a fresh SQLite file and a fresh PostgreSQL database (migrated as the app does), 100
accounts hold `--reminders` tasks whose reminders are spread over the next 30 days. In this
process, as a web worker runs it (backend/reminders/), it times:

- an idle sweep: the scheduler's probe every `REMINDER_CHECK_SECONDS` when nothing is due
  (its wall time and this process's CPU), and what that costs a day at the default 5 s;
- a stream poll: the fan-out's one query for the users with the web UI open (100 of them);
- firing: a tenth of the reminders made due at once, then all the rest, fired in batches of
  500 (claimed with FOR UPDATE SKIP LOCKED on PostgreSQL), as reminders a second;

then prints the probe's query plan. Prints a Markdown table with the targets.

The same table holds delivery (issue 34, `bench.delivery`, on a fresh database of each kind):
pushes a second to a local push service and emails a second to a local SMTP server at
`--accounts` subscribed users (10,000), this process's CPU per delivery, and a quiet user's
chat p50 / p99 before and during a due minute in which every one of those accounts' reminders
fires and is delivered by the same process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import text

from backend.core.config import Settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.core.security import AccessClaims
from backend.models import Task, User
from backend.reminders.fanout import ReminderFanout
from backend.reminders.scheduler import ReminderScheduler
from bench import delivery, stats
from bench.report import markdown_table
from bench.run import Databases, python_speed_ms
from bench.server import SECRET

KINDS = ("sqlite", "postgresql")
COLUMN_TITLES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
ACCOUNTS = 100
DEFAULT_INTERVAL_SECONDS = 5.0
SWEEPS_A_DAY = 24 * 3600 / DEFAULT_INTERVAL_SECONDS
# What the figures must meet: the probe is an index look-up, and firing is bulk work.
TARGET_IDLE_SWEEP_MS = 2.0
TARGET_POLL_MS = 5.0
TARGET_FIRED_PER_SECOND = 1000.0
PROBE = (
    "SELECT pk FROM task WHERE remind_at <= :now AND completed = false ORDER BY remind_at LIMIT 500"
)


@dataclass(frozen=True)
class Timing:
    median_ms: float
    p99_ms: float
    cpu_ms: float  # this process's CPU per call, on average


@dataclass(frozen=True)
class Figures:
    idle_sweep: Timing
    stream_poll: Timing
    fired_burst: int
    burst_per_second: float
    fired_rest: int
    rest_per_second: float
    plan: list[str]


async def _timed(call: Callable[[], Awaitable[object]], times: int) -> Timing:
    walls = []
    cpu_started = time.process_time()
    for _ in range(times):
        started = time.perf_counter()
        await call()
        walls.append((time.perf_counter() - started) * 1000)
    cpu = (time.process_time() - cpu_started) * 1000 / times
    summary = stats.summarize(walls)
    return Timing(round(summary.median, 3), round(summary.p99, 3), round(cpu, 3))


async def _seed(sessionmaker: SessionMaker, reminders: int) -> list[AccessClaims]:
    """`reminders` pending tasks over `ACCOUNTS` accounts, reminding over the next 30 days."""
    now = datetime.now(UTC)
    owners = []
    per_account = max(1, reminders // ACCOUNTS)
    spacing = 30 * 24 * 60 / (per_account * ACCOUNTS)  # minutes: 30 days, evenly
    async with sessionmaker() as session:
        for account in range(ACCOUNTS):
            user = User(
                email=f"bench-{uuid.uuid4().hex[:8]}-{account}@example.com",
                hashed_password="not a hash: never signs in",
                last_task_number=per_account,
            )
            session.add(user)
            await session.flush()
            assert user.id is not None
            # A stream is opened with a token's claims: the account's id and key.
            owners.append(AccessClaims(user.id, account=user.account_key))
            session.add_all(
                Task(
                    owner_id=user.id,
                    number=number,
                    title=f"task {number}",
                    remind_at=now
                    + timedelta(minutes=5 + (account * per_account + number) * spacing),
                )
                for number in range(1, per_account + 1)
            )
        await session.commit()
    return owners


async def _fire(scheduler: ReminderScheduler, days_ahead: float) -> tuple[int, float]:
    """The clock moved on `days_ahead`: one sweep fires what fell due meanwhile."""
    started = time.perf_counter()
    fired = await scheduler.sweep(now=datetime.now(UTC) + timedelta(days=days_ahead))
    return fired, round(fired / max(time.perf_counter() - started, 1e-9), 1)


async def _plan(sessionmaker: SessionMaker, kind: str) -> list[str]:
    now = datetime.now(UTC)
    explain = "EXPLAIN QUERY PLAN " if kind == "sqlite" else "EXPLAIN "
    async with sessionmaker() as session:
        rows = (await session.exec(text(explain + PROBE).bindparams(now=now))).all()  # type: ignore[call-overload]
    return [str(row[-1] if kind == "sqlite" else row[0]) for row in rows]


async def measure(url: str, kind: str, reminders: int, repeats: int) -> Figures:
    engine = create_engine(Settings(database_url=url, secret_key=SECRET, tune_gc=False))
    try:
        await migrate(engine)
        sessionmaker = create_sessionmaker(engine)
        owners = await _seed(sessionmaker, reminders)
        if kind == "postgresql":
            async with engine.begin() as connection:
                await connection.execute(text("ANALYZE task"))
        scheduler = ReminderScheduler(sessionmaker, interval_seconds=DEFAULT_INTERVAL_SECONDS)
        await scheduler.sweep()  # warm: connections, statements
        idle = await _timed(scheduler.sweep, repeats)
        fanout = ReminderFanout(sessionmaker, interval_seconds=DEFAULT_INTERVAL_SECONDS)
        streams = contextlib.AsyncExitStack()
        for owner in owners:
            await streams.enter_async_context(fanout.subscribed(owner))
        await fanout.poll()
        poll = await _timed(fanout.poll, repeats)
        burst, burst_rate = await _fire(scheduler, 3)  # the first tenth of 30 days
        rest, rest_rate = await _fire(scheduler, 31)
        await streams.aclose()
        return Figures(
            idle, poll, burst, burst_rate, rest, rest_rate, await _plan(sessionmaker, kind)
        )
    finally:
        await engine.dispose()


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"


def table(
    results: dict[str, Figures],
    reminders: int,
    delivered: dict[str, delivery.Figures] | None = None,
) -> str:
    kinds = list(results)
    header = ["measure", *(COLUMN_TITLES[k] for k in kinds), "target", "met"]
    lines: list[list[str]] = []

    def row(label: str, cells: list[str], target: str, met: bool) -> None:
        lines.append([label, *cells, target, _met(met)])

    sweeps = [results[k].idle_sweep for k in kinds]
    row(
        f"idle sweep, {reminders:,} pending (median / p99 ms)",
        [f"{t.median_ms} / {t.p99_ms}" for t in sweeps],
        f"< {TARGET_IDLE_SWEEP_MS} ms median",
        all(t.median_ms < TARGET_IDLE_SWEEP_MS for t in sweeps),
    )
    row(
        "idle sweep, worker CPU (ms; a day at 5 s)",
        [f"{t.cpu_ms} ({t.cpu_ms * SWEEPS_A_DAY / 1000:.1f} s)" for t in sweeps],
        "",
        True,
    )
    polls = [results[k].stream_poll for k in kinds]
    row(
        f"stream poll, {ACCOUNTS} users connected (median / p99 ms)",
        [f"{t.median_ms} / {t.p99_ms}" for t in polls],
        f"< {TARGET_POLL_MS} ms median",
        all(t.median_ms < TARGET_POLL_MS for t in polls),
    )
    for label, count, rate in (
        ("firing a tenth at once", "fired_burst", "burst_per_second"),
        ("firing the rest", "fired_rest", "rest_per_second"),
    ):
        rates = [float(getattr(results[k], rate)) for k in kinds]
        row(
            f"{label} (reminders; per second)",
            [f"{getattr(results[k], count):,}; {getattr(results[k], rate):,.0f}/s" for k in kinds],
            f">= {TARGET_FIRED_PER_SECOND:,.0f}/s",
            all(r >= TARGET_FIRED_PER_SECOND for r in rates),
        )
    if delivered:
        lines += delivery.rows(delivered)
    return markdown_table(header, lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.reminders", description=__doc__)
    parser.add_argument("--reminders", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=300, help="idle sweeps and polls timed")
    parser.add_argument("--database", choices=[*KINDS, "both"], default="both")
    parser.add_argument(
        "--accounts", type=int, default=10_000, help="delivery: subscribed users, a reminder each"
    )
    parser.add_argument(
        "--turns", type=int, default=100, help="delivery: chat turns timed with nothing due"
    )
    parser.add_argument("--quick", action="store_true", help="few reminders and repeats")
    args = parser.parse_args()
    reminders, repeats = (400, 30) if args.quick else (args.reminders, args.repeats)
    accounts, turns = (200, 20) if args.quick else (args.accounts, args.turns)
    kinds = KINDS if args.database == "both" else (args.database,)
    print(f"python speed: {python_speed_ms()} ms (a fixed loop; lower is faster)\n")
    results: dict[str, Figures] = {}
    delivered: dict[str, delivery.Figures] = {}
    with tempfile.TemporaryDirectory() as directory:
        databases = Databases(Path(directory))
        try:
            for kind in kinds:
                url = databases.url(kind)
                results[kind] = asyncio.run(measure(url, kind, reminders, repeats))
                delivered[kind] = delivery.measure(databases.url(kind), kind, accounts, turns)
        finally:
            databases.drop()
    print(table(results, reminders, delivered))
    print()
    for line in delivery.notes(delivered):
        print(line)
    for kind, figures in results.items():
        print(f"\nThe probe's plan on {COLUMN_TITLES[kind]}:")
        for line in figures.plan:
            print(f"    {line}")


if __name__ == "__main__":
    main()
