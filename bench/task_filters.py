"""Task filters and sorts at 10,000 tasks (issue 14): `.venv/bin/python -m bench.task_filters`.

    .venv/bin/python -m bench.task_filters                     # both databases, 10,000 tasks
    .venv/bin/python -m bench.task_filters --quick             # a seconds-long smoke run
    .venv/bin/python -m bench.task_filters --database sqlite --plans

On a fresh SQLite file and a fresh PostgreSQL database (migrated by the app at start-up), a
real uvicorn server (one worker, deterministic brain, as `bench.run`) serves one account
holding `--tasks` tasks spread as in real use (`bench.seed.varied_tasks`) beside five other
accounts with 2,000 each, so every query must pick one owner's rows. Over loopback, one
request at a time, it times `GET /api/tasks` with each filter alone, some combinations and
each sort, and chat turns that list tasks. Then it runs the service's own statement for each
request under EXPLAIN (QUERY PLAN on SQLite) to show which index, if any, narrows it, and
times the statement alone. Prints a Markdown table of medians and p99s, then the plans.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event, inspect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings
from backend.core.db import create_engine
from backend.models import TaskStatus
from backend.models.task import Priority
from backend.services import tasks
from bench import seed, stats
from bench.run import Databases, python_speed_ms
from bench.server import SECRET, register_accounts, server

TARGET_MEDIAN_MS = 20.0
KINDS = ("sqlite", "postgresql")
COLUMN_TITLES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}

# `GET /api/tasks` query strings: each filter alone, then combinations, then each sort.
FILTERS_ALONE: tuple[dict[str, str], ...] = (
    {"status": "pending"},
    {"status": "completed"},
    {"list": "Work"},
    {"list": "Side project"},  # a small list: 5% of the tasks
    {"tag": "urgent"},
    {"priority": "high"},
    *({"due": due.value} for due in tasks.DueFilter),
    {"q": "invoice"},
)
COMBINATIONS: tuple[dict[str, str], ...] = (
    {"status": "pending", "due": "next_7_days", "sort": "due"},
    {"status": "pending", "list": "Work", "priority": "high"},
    {"tag": "urgent", "due": "overdue"},
    {"list": "Errands", "q": "buy", "sort": "title"},
)
SORTS: tuple[dict[str, str], ...] = tuple({"sort": order.value} for order in tasks.TaskSort)
LIST_REQUESTS = (*FILTERS_ALONE, *COMBINATIONS, *SORTS)

# Chat turns that list tasks, as people say it; the table shows the tool call each made
# (the filtered ones pass list_tasks their due, list or priority filter).
LIST_TURN_PHRASES: tuple[str, ...] = (
    "show my pending tasks",
    "what's left?",
    "show my tasks",
    "show my completed tasks",
    "what's due today?",
    "what's overdue?",
    "show my work list",
    "show my high priority tasks",
)


@dataclass(frozen=True)
class Sizes:
    """How much data and how many timings: the measured account's tasks, the other accounts
    and theirs; requests per measure over HTTP, and runs of each statement alone."""

    tasks: int
    others: int
    other_tasks: int
    samples: int
    sql_runs: int


FULL = Sizes(tasks=10_000, others=5, other_tasks=2_000, samples=60, sql_runs=30)
QUICK = Sizes(tasks=300, others=2, other_tasks=50, samples=3, sql_runs=3)


@dataclass(frozen=True)
class Timing:
    """One measure on one database: what it returned, and its latencies in ms."""

    detail: str
    samples: list[float]

    @property
    def median(self) -> float:
        return stats.median(self.samples)

    @property
    def p99(self) -> float:
        return stats.percentile(self.samples, 99)


@dataclass(frozen=True)
class Plan:
    """A request's statement as the service builds it, under EXPLAIN, and its time alone."""

    lines: list[str]
    sql_median_ms: float
    rows: int
    # Indexes the schema has on (owner_id, a column the request filters on), used or not.
    filter_indexes: tuple[str, ...]

    @property
    def access(self) -> Access:
        return access_path(self.lines)


@dataclass
class Account:
    token: str
    conversation_id: int
    user_id: int = 0

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def query_text(params: dict[str, str]) -> str:
    """A query string as people read it (httpx encodes it when sending)."""
    return "&".join(f"{name}={value}" for name, value in params.items())


def list_label(params: dict[str, str]) -> str:
    return f"GET /api/tasks?{query_text(params)}"


def turn_label(phrase: str) -> str:
    return f'chat "{phrase}"'


# --- seeding ------------------------------------------------------------------------------


def prepare_accounts(url: str, database_url: str, sizes: Sizes) -> Account:
    """The measured account and the other owners, seeded; returns the measured one."""
    registered = register_accounts(url, 1 + sizes.others, "filters")
    accounts = [Account(str(a["token"]), int(str(a["conversation_id"]))) for a in registered]
    with httpx.Client(base_url=url, timeout=60) as http:
        for account in accounts:
            account.user_id = int(http.get("/api/auth/me", headers=account.headers).json()["id"])
    measured, *others = accounts
    seed.varied_tasks(database_url, user_id=measured.user_id, count=sizes.tasks)
    for other in others:
        seed.varied_tasks(database_url, user_id=other.user_id, count=sizes.other_tasks)
    if database_url.startswith("postgresql"):
        # Autovacuum would gather these statistics soon after a bulk load; without them the
        # planner guesses row counts and the plans shown would not be the steady state's.
        asyncio.run(run_sql(database_url, "ANALYZE"))
    return measured


async def run_sql(database_url: str, sql: str) -> None:
    engine = create_engine(Settings(database_url=database_url, secret_key=SECRET))
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql(sql)
    finally:
        await engine.dispose()


# --- timing over HTTP -----------------------------------------------------------------------


def timed(send: Callable[[], httpx.Response], samples: int) -> tuple[httpx.Response, list[float]]:
    """`samples` sequential requests after two warm-ups; the first response and the ms each
    took (the body is read before the clock stops; decoding it is left out)."""
    first = send()
    first.raise_for_status()
    send().raise_for_status()
    times: list[float] = []
    for _ in range(samples):
        started = time.perf_counter()
        response = send()
        times.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
    return first, times


def time_list_requests(http: httpx.Client, account: Account, samples: int) -> dict[str, Timing]:
    timings = {}
    for params in LIST_REQUESTS:
        send = partial(http.get, "/api/tasks", params=params, headers=account.headers)
        response, times = timed(send, samples)
        timings[list_label(params)] = Timing(f"{len(response.json())} tasks", times)
    return timings


def describe_tool_calls(body: dict[str, Any]) -> str:
    calls = body.get("tool_calls") or []
    return (
        "; ".join(
            f"{call['name']}({', '.join(f'{k}={v}' for k, v in call['arguments'].items())})"
            for call in calls
        )
        or "no tool call"
    )


def time_list_turns(http: httpx.Client, account: Account, samples: int) -> dict[str, Timing]:
    timings = {}
    for phrase in LIST_TURN_PHRASES:
        body = {"message": phrase, "conversation_id": account.conversation_id}
        send = partial(http.post, "/api/chat", json=body, headers=account.headers)
        response, times = timed(send, samples)
        timings[turn_label(phrase)] = Timing(describe_tool_calls(response.json()), times)
    return timings


def time_over_http(url: str, account: Account, samples: int) -> dict[str, Timing]:
    with httpx.Client(base_url=url, timeout=120) as http:
        return {
            **time_list_requests(http, account, samples),
            **time_list_turns(http, account, samples),
        }


# --- EXPLAIN ------------------------------------------------------------------------------


def task_query(params: dict[str, str]) -> tasks.TaskQuery:
    """What the route makes of a query string (backend/api/routes/tasks.py)."""
    return tasks.TaskQuery(
        status=TaskStatus(params.get("status", TaskStatus.ALL.value)),
        list_name=params.get("list"),
        tag=params.get("tag"),
        priority=Priority(params["priority"]) if "priority" in params else None,
        due=tasks.DueFilter(params["due"]) if "due" in params else None,
        keyword=params.get("q"),
        sort=tasks.TaskSort(params.get("sort", tasks.TaskSort.NUMBER.value)),
    )


async def capture_statement(
    engine: AsyncEngine, session: AsyncSession, owner_id: int, params: dict[str, str]
) -> tuple[str, Any]:
    """The SQL and parameters `query_tasks` sends for a request (its last statement; a due
    filter reads the account's zone first)."""
    sent: list[tuple[str, Any]] = []

    def record(*args: Any) -> None:
        sent.append((args[2], args[3]))  # (connection, cursor, statement, parameters, ...)

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        await tasks.query_tasks(session, user_id=owner_id, query=task_query(params))
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)
    return sent[-1]


async def explain(connection: AsyncConnection, sql: str, parameters: Any) -> list[str]:
    """The plan's lines: PostgreSQL's one column, or SQLite's (id, parent, notused, detail)."""
    word = "EXPLAIN QUERY PLAN" if connection.dialect.name == "sqlite" else "EXPLAIN"
    result = await connection.exec_driver_sql(f"{word} {sql}", parameters)
    return [str(tuple(row)[-1]) for row in result.all()]


async def sql_median_ms(
    connection: AsyncConnection, sql: str, parameters: Any, runs: int
) -> tuple[float, int]:
    """The statement alone, on the driver: the database's share of a request."""
    times, rows = [], 0
    for _ in range(runs + 1):
        started = time.perf_counter()
        rows = len((await connection.exec_driver_sql(sql, parameters)).all())
        times.append((time.perf_counter() - started) * 1000)
    return stats.median(times[1:]), rows


# The column each query-string filter tests (`query_tasks`).
FILTER_COLUMNS = {
    "status": "completed",
    "list": "list_name",
    "tag": "tags_text",
    "priority": "priority",
    "due": "due_date",
    "q": "title",
}


async def task_indexes(connection: AsyncConnection) -> dict[str, list[str]]:
    """The task table's indexes and their plain columns (an expression's is left out)."""
    found = await connection.run_sync(lambda sync: inspect(sync).get_indexes("task"))
    return {str(index["name"]): [str(c) for c in index["column_names"] if c] for index in found}


def indexes_on_filters(params: dict[str, str], indexes: dict[str, list[str]]) -> tuple[str, ...]:
    columns = {FILTER_COLUMNS[name] for name in params if name in FILTER_COLUMNS}
    return tuple(
        name
        for name, indexed in indexes.items()
        if indexed[:1] == ["owner_id"] and len(indexed) > 1 and indexed[1] in columns
    )


async def explain_requests(
    database_url: str, owner_id: int, runs: int, requests: Sequence[dict[str, str]] = LIST_REQUESTS
) -> dict[str, Plan]:
    engine = create_engine(Settings(database_url=database_url, secret_key=SECRET))
    plans = {}
    try:
        async with AsyncSession(engine) as session:
            statements = {
                list_label(p): (p, await capture_statement(engine, session, owner_id, p))
                for p in requests
            }
        async with engine.connect() as connection:
            indexes = await task_indexes(connection)
            for label, (params, (sql, parameters)) in statements.items():
                lines = await explain(connection, sql, parameters)
                median, rows = await sql_median_ms(connection, sql, parameters, runs)
                plans[label] = Plan(lines, median, rows, indexes_on_filters(params, indexes))
    finally:
        await engine.dispose()
    return plans


_SCAN_WHOLE_TABLE = re.compile(r"Seq Scan on task\b|^SCAN task\b")
_INDEX_USE = re.compile(r"Index (?:Only )?Scan using (\w+)|Bitmap Index Scan on (\w+)|INDEX (\w+)")
# PostgreSQL: "Index Cond: ((owner_id = 1) AND (due_date = '2026-11-24'::date))";
# SQLite: "SEARCH task USING INDEX ix_task_owner_due_date (owner_id=? AND due_date=?)".
_CONDITION = re.compile(r"Index Cond: (.*)|SEARCH task USING (?:COVERING )?INDEX \w+ \((.*)\)")
_CAST = re.compile(r"::(?:timestamp with time zone|character varying|\w+)")
_COLUMN = re.compile(r"\b([a-z_]+)\)*\s*(?:=|<|>|\bIS\b|\bBETWEEN\b)")
# SQLite names the index of the UNIQUE (owner_id, number) constraint itself.
_INDEX_NAMES = {"sqlite_autoindex_task_1": "uq_task_owner_number"}
# Below this share of the owner's tasks, reading them all to keep a few is wasted work.
SELECTIVE_SHARE = 0.10


@dataclass(frozen=True)
class Access:
    """How a plan reaches its rows: the whole table, or indexes searched on some columns."""

    whole_table: bool
    indexes: tuple[str, ...]
    columns: tuple[str, ...]

    @property
    def narrows_past_owner(self) -> bool:
        return any(column != "owner_id" for column in self.columns)

    def __str__(self) -> str:
        if self.whole_table:
            return "whole table"
        if not self.indexes:
            return "no index"
        return f"{', '.join(self.indexes)} on ({', '.join(self.columns)})"


def access_path(lines: Sequence[str]) -> Access:
    """Reads an EXPLAIN (PostgreSQL) or EXPLAIN QUERY PLAN (SQLite) of a `task` query."""
    whole_table = any(_SCAN_WHOLE_TABLE.search(line.strip()) for line in lines)
    indexes = [next(filter(None, m.groups())) for line in lines if (m := _INDEX_USE.search(line))]
    columns = [
        column
        for line in lines
        if (found := _CONDITION.search(line))
        for column in _COLUMN.findall(_CAST.sub("", found.group(1) or found.group(2)))
    ]
    return Access(
        whole_table,
        tuple(dict.fromkeys(_INDEX_NAMES.get(name, name) for name in indexes)),
        tuple(dict.fromkeys(columns)),
    )


def plan_note(params: dict[str, str], plan: Plan, owner_tasks: int) -> str:
    """Whether an index narrows the rows to the filter; if not, whether one would help (when
    the filter keeps a small share of the owner's tasks), or one exists and goes unused."""
    if not set(params) - {"sort"}:
        return "no filter"
    if plan.access.narrows_past_owner:
        return "the index narrows to the filter"
    kept = f"keeps {plan.rows / max(owner_tasks, 1):.0%} of the owner's tasks"
    if plan.rows / max(owner_tasks, 1) >= SELECTIVE_SHARE:
        return f"{kept}: reading them all is the right plan"
    if plan.filter_indexes:
        verb = "exists" if len(plan.filter_indexes) == 1 else "exist"
        return f"{kept}; {', '.join(plan.filter_indexes)} {verb}, UNUSED"
    return f"{kept}: AN INDEX ON THE FILTER WOULD HELP"


# --- report ---------------------------------------------------------------------------------


def met(figures: dict[str, dict[str, Timing]], label: str) -> str:
    passed = [
        kind for kind in KINDS if kind in figures and figures[kind][label].median < TARGET_MEDIAN_MS
    ]
    ran = [kind for kind in KINDS if kind in figures]
    if passed == ran:
        return "yes"
    if not passed:
        return "no"
    return f"{' and '.join(COLUMN_TITLES[kind] for kind in passed)} only"


def print_timings(figures: dict[str, dict[str, Timing]], sizes: Sizes) -> None:
    print(
        f"\n{sizes.tasks:,} tasks for the measured account, {sizes.others} other accounts with "
        f"{sizes.other_tasks:,} each; {sizes.samples} requests per measure, one at a time"
    )
    print(
        "\n| measure | returned | SQLite p50 / p99 ms | PostgreSQL p50 / p99 ms"
        " | target | met |\n| --- | --- | --- | --- | --- | --- |"
    )
    labels = [list_label(p) for p in LIST_REQUESTS] + [turn_label(p) for p in LIST_TURN_PHRASES]
    for label in labels:
        cells = [
            f"{figures[kind][label].median:.1f} / {figures[kind][label].p99:.1f}"
            if kind in figures
            else "-"
            for kind in KINDS
        ]
        returned = next(figures[kind][label].detail for kind in KINDS if kind in figures)
        print(
            f"| {label} | {returned} | {' | '.join(cells)} "
            f"| < {TARGET_MEDIAN_MS:.0f} ms median | {met(figures, label)} |"
        )


def print_plans(plans: dict[str, dict[str, Plan]], owner_tasks: int, full: bool) -> None:
    for kind, by_label in plans.items():
        word = "EXPLAIN QUERY PLAN" if kind == "sqlite" else "EXPLAIN"
        print(f"\n{word} on {COLUMN_TITLES[kind]}: the statement alone (median ms), rows, path")
        for params in LIST_REQUESTS:
            plan = by_label[list_label(params)]
            print(
                f"  {query_text(params):<44} {plan.sql_median_ms:7.2f} ms {plan.rows:>6} rows  "
                f"{plan.access} -> {plan_note(params, plan, owner_tasks)}"
            )
            if full:
                print("\n".join(f"      {line}" for line in plan.lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a seconds-long smoke run")
    parser.add_argument("--database", choices=[*KINDS, "both"], default="both")
    parser.add_argument("--tasks", type=int, help="tasks of the measured account")
    parser.add_argument("--samples", type=int, help="requests per measure")
    parser.add_argument("--plans", action="store_true", help="print every plan in full")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    sizes = replace(sizes, tasks=args.tasks or sizes.tasks, samples=args.samples or sizes.samples)
    kinds = KINDS if args.database == "both" else (args.database,)
    # The machines are shared: how busy this one was belongs with the figures.
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine speed: a 10M-step Python loop takes {python_speed_ms()} ms; load {load}")
    figures: dict[str, dict[str, Timing]] = {}
    plans: dict[str, dict[str, Plan]] = {}
    with tempfile.TemporaryDirectory() as work:
        databases = Databases(Path(work))
        try:
            for kind in kinds:
                database_url = databases.url(kind)
                with server(database_url, 1, Path(work) / f"{kind}.log") as (url, _):
                    account = prepare_accounts(url, database_url, sizes)
                    figures[kind] = time_over_http(url, account, sizes.samples)
                plans[kind] = asyncio.run(
                    explain_requests(database_url, account.user_id, sizes.sql_runs)
                )
        finally:
            databases.drop()
    print_timings(figures, sizes)
    print_plans(plans, sizes.tasks, args.plans)


if __name__ == "__main__":
    main()
