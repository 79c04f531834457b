"""What sharing a list costs (specs/sharing.md): `.venv/bin/python -m bench.shared_lists`.

    .venv/bin/python -m bench.shared_lists                      # both databases
    .venv/bin/python -m bench.shared_lists --quick              # a smoke run
    .venv/bin/python -m bench.shared_lists --database sqlite

One real uvicorn server per database (one worker, rules brain, abuse limits lifted) on a
fresh PostgreSQL database and a fresh SQLite file, driven from another process.

- **A member's list against one's own.** An owner's list of 5,000 tasks, shared with 50
  members who accepted (250,000 seats), beside another account's own list of 5,000 tasks
  nobody shares. An editor of the shared list and that account take turns, one request at a
  time: the list's first page (`GET /api/tasks?list=...&limit=100`), an add to it, and the
  completion of the task just added. The figures are the client's wall time per request.
- **Live fan-out.** The 50 members each hold the web UI's event stream open; the owner adds
  a task, and the time is taken from the add's answer (its commit is before it) to the last
  stream's `changed` event. `LIVE_UPDATE_SECONDS` is the default, 0.5.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter

import httpx
from sqlalchemy import insert, update
from sqlmodel import col

from backend.core.timeutil import utcnow
from backend.models import Task, User
from bench import seed, stats
from bench.report import markdown_table
from bench.run import Databases, python_speed_ms
from bench.server import server, started_workers
from bench.turn_harness import PASSWORD

LIST = "Household"
TASKS = 5_000
MEMBERS = 50
ROUNDS = 200
FAN_OUTS = 20
QUICK = {"tasks": 500, "members": 5, "rounds": 10, "fan_outs": 3}
STREAM = "/api/reminders/stream"


@dataclass
class Account:
    id: int
    email: str
    headers: dict[str, str]


@dataclass
class Timings:
    list_ms: list[float] = field(default_factory=list)
    add_ms: list[float] = field(default_factory=list)
    complete_ms: list[float] = field(default_factory=list)


async def _register(http: httpx.AsyncClient, prefix: str) -> Account:
    email = f"{prefix}-{uuid.uuid4().hex[:10]}@bench.example"
    response = await http.post("/api/auth/register", json={"email": email, "password": PASSWORD})
    response.raise_for_status()
    body = response.json()
    return Account(body["user"]["id"], email, {"Authorization": f"Bearer {body['access_token']}"})


async def _seed_list(database_url: str, owner: Account, count: int) -> None:
    """`count` tasks on the owner's list, straight into the database (each gets its owner's
    seat from the database's trigger), and the owner's counter moved on."""
    now = utcnow()
    rows = [
        {
            "owner_id": owner.id,
            "number": 1 + i,
            "title": f"item {i}",
            "completed": i % 3 == 0,
            "created_at": now,
            "updated_at": now,
            "list_name": LIST,
        }
        for i in range(count)
    ]
    counter = update(User).where(col(User.id) == owner.id).values(last_task_number=count)
    await seed._seed(database_url, [(insert(Task), rows), (counter, [{}])])


async def _made(http: httpx.AsyncClient, owner: Account) -> None:
    response = await http.post("/api/lists", json={"name": LIST}, headers=owner.headers)
    response.raise_for_status()


async def _share(http: httpx.AsyncClient, owner: Account, member: Account) -> None:
    invited = await http.post(
        f"/api/lists/{LIST}/members",
        json={"email": member.email, "role": "editor"},
        headers=owner.headers,
    )
    invited.raise_for_status()
    accepted = await http.post(
        f"/api/invitations/{invited.json()['id']}/accept", headers=member.headers
    )
    accepted.raise_for_status()


async def _timed(request: Awaitable[httpx.Response]) -> float:
    started = perf_counter()
    response = await request
    response.raise_for_status()
    return (perf_counter() - started) * 1000


async def _round(http: httpx.AsyncClient, who: Account, timings: Timings, i: int) -> None:
    timings.list_ms.append(
        await _timed(
            http.get("/api/tasks", params={"list": LIST, "limit": 100}, headers=who.headers)
        )
    )
    started = perf_counter()
    added = await http.post(
        "/api/tasks", json={"title": f"bench add {i}", "list": LIST}, headers=who.headers
    )
    added.raise_for_status()
    timings.add_ms.append((perf_counter() - started) * 1000)
    timings.complete_ms.append(
        await _timed(
            http.patch(
                f"/api/tasks/{added.json()['id']}", json={"completed": True}, headers=who.headers
            )
        )
    )


@asynccontextmanager
async def _listening(
    base: str, members: list[Account]
) -> AsyncIterator[list[asyncio.Queue[float]]]:
    """Each member's event stream open; each queue gets the moment a `changed` event came."""
    heard: list[asyncio.Queue[float]] = [asyncio.Queue() for _ in members]
    ready = asyncio.Event()
    opened = 0

    async def listen(http: httpx.AsyncClient, member: Account, queue: asyncio.Queue[float]) -> None:
        nonlocal opened
        async with http.stream("GET", STREAM, headers=member.headers) as response:
            response.raise_for_status()
            opened += 1
            if opened == len(members):
                ready.set()
            async for line in response.aiter_lines():
                if line == "event: changed":
                    queue.put_nowait(perf_counter())

    limits = httpx.Limits(max_connections=len(members) + 5)
    async with httpx.AsyncClient(base_url=base, timeout=None, limits=limits) as http:
        tasks = [
            asyncio.create_task(listen(http, m, q)) for m, q in zip(members, heard, strict=True)
        ]
        await asyncio.wait_for(ready.wait(), 60)
        try:
            yield heard
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def _fan_out_ms(
    base: str, http: httpx.AsyncClient, owner: Account, members: list[Account], times: int
) -> list[float]:
    found = []
    async with _listening(base, members) as heard:
        await asyncio.sleep(2)  # what an opening stream hears of earlier changes, heard
        for queue in heard:
            while not queue.empty():
                queue.get_nowait()
        for i in range(times):
            added = await http.post(
                "/api/tasks", json={"title": f"fan out {i}", "list": LIST}, headers=owner.headers
            )
            added.raise_for_status()
            committed = perf_counter()
            last = max([await asyncio.wait_for(q.get(), 30) for q in heard])
            found.append((last - committed) * 1000)
            await asyncio.sleep(0.7)  # apart: each add its own poll
    return found


async def _measure(
    base: str, database_url: str, sizes: dict[str, int], own_only: bool
) -> list[tuple[str, str, str, str]]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        owner, solo = await _register(http, "owner"), await _register(http, "solo")
        for who in (owner, solo):
            await _made(http, who)
        for who in (owner, solo):
            await _seed_list(database_url, who, sizes["tasks"])
        mine, theirs = Timings(), Timings()
        if own_only:  # the same rounds on a revision without sharing: one's own list only
            for i in range(sizes["rounds"]):
                await _round(http, solo, mine, i)
            return _rows(mine, mine, [], 0, 1)
        members = [await _register(http, "member") for _ in range(sizes["members"])]
        started = perf_counter()
        for member in members:
            await _share(http, owner, member)
        joined_s = perf_counter() - started
        for i in range(sizes["rounds"]):
            pair = [(members[0], theirs), (solo, mine)]
            for who, timings in pair if i % 2 == 0 else reversed(pair):
                await _round(http, who, timings, i)
        fan_out = await _fan_out_ms(base, http, owner, members, sizes["fan_outs"])
    return _rows(mine, theirs, fan_out, joined_s, len(members))


def _rows(
    mine: Timings, theirs: Timings, fan_out: list[float], joined_s: float, members: int
) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = [
        (
            "members joined (each seated at every task)",
            f"{joined_s / members * 1000:.0f} ms each",
            "",
            "",
        )
    ]
    for label, own, shared in (
        ("list: first page of 100", mine.list_ms, theirs.list_ms),
        ("add a task", mine.add_ms, theirs.add_ms),
        ("complete it", mine.complete_ms, theirs.complete_ms),
    ):
        rows.append(
            (
                label,
                f"{stats.percentile(own, 50):.1f} / {stats.percentile(own, 95):.1f}",
                f"{stats.percentile(shared, 50):.1f} / {stats.percentile(shared, 95):.1f}",
                f"{stats.percentile(shared, 50) / stats.percentile(own, 50):.2f}x",
            )
        )
    if not fan_out:
        return rows
    rows.append(
        (
            f"live: commit to the last of {members} streams",
            "",
            f"{stats.percentile(fan_out, 50):.0f} / {stats.percentile(fan_out, 95):.0f} / "
            f"{max(fan_out):.0f} (max)",
            "",
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.shared_lists", description=__doc__)
    parser.add_argument("--database", choices=["postgresql", "sqlite", "both"], default="both")
    parser.add_argument("--quick", action="store_true", help="a smoke run, small sizes")
    parser.add_argument(
        "--own-only",
        action="store_true",
        help="one's own list only (to run on a revision before sharing, for a before figure)",
    )
    args = parser.parse_args()
    sizes = (
        QUICK
        if args.quick
        else {
            "tasks": TASKS,
            "members": MEMBERS,
            "rounds": ROUNDS,
            "fan_outs": FAN_OUTS,
        }
    )
    kinds = ["postgresql", "sqlite"] if args.database == "both" else [args.database]
    print(f"python speed: {python_speed_ms()} ms (a fixed loop; lower is faster)")
    print(
        f"{sizes['tasks']:,} tasks, {sizes['members']} members, {sizes['rounds']} rounds a way, "
        f"{sizes['fan_outs']} fan-outs\n"
    )
    with tempfile.TemporaryDirectory() as directory:
        databases = Databases(Path(directory))
        try:
            for kind in kinds:
                url = databases.url(kind)
                with server(url, 1, Path(directory) / f"{kind}.log") as (base, process):
                    started_workers(process, 1)
                    rows = asyncio.run(_measure(base, url, sizes, args.own_only))
                header = (
                    f"{kind}",
                    "own list p50 / p95 (ms)",
                    "shared list, a member p50 / p95 (ms)",
                    "ratio (p50)",
                )
                print(markdown_table(header, rows), "\n")
        finally:
            databases.drop()


if __name__ == "__main__":
    main()
