"""Does one user's heavy work slow everyone else down? (issue 13 item 7, issue 30 item 4)

    .venv/bin/python -m bench.noisy_neighbour                     # every noise, both databases
    .venv/bin/python -m bench.noisy_neighbour --noise feed --database sqlite --turns 30

A real uvicorn server (one worker, deterministic brain) per database. A quiet user asks
"show my tasks" `--turns` times alone, then again beside each kind of noise in turn:

- `bulk`: 4 users each keep completing all of their 1,000 tasks ("mark everything as done";
  the harness reopens them in the database between rounds, untimed);
- `feed`: 4 clients keep fetching one account's calendar feed of 10,000 tasks, without
  `If-None-Match` (a misbehaving calendar app);
- `reads`: 4 clients keep reading the task list of an account holding 10,000 tasks, asking
  for the biggest page there is;
- `rules`: 3 clients keep creating tasks with repeat rules that have no near occurrence
  (`BYSETPOS=366`, 30 February, week 53 in June);
- `message`: 3 users keep sending one chat message adding 660 tasks.

Each noise is `bench.load`'s closed loop (each client sends its next request when the last
is answered), in this process with httpx, beside the quiet user. The server runs with the
shipped limits (writes per minute, the feed's throttle, the cap on tasks a message may add),
but for the chat and sign-in rates, lifted so that the quiet user's 100 turns and the
harness's sign-ups are never refused. Prints, per noise, the quiet user's median and p99
(`bench.stats`), and how the noise's own requests were answered (status counts). A phase
stops after `--max-seconds` even when its turns are not all done (code from before issue 30
could hold a turn for minutes); the p99 of a cut phase is a floor, marked "cut".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench import load, seed, stats
from bench.report import markdown_table
from bench.run import Databases
from bench.server import register_accounts, server

Account = dict[str, Any]
# A noisy client's n-th request.
NoiseRequest = Callable[[httpx.AsyncClient, Account, int], Awaitable[httpx.Response]]

_IMPOSSIBLE_RULES = (
    "FREQ=DAILY;BYSETPOS=366",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6",
)
_BIG_MESSAGE = "add " + "milk, " * 660


def _percentiles(samples: list[float]) -> tuple[float, float]:
    summary = stats.summarize(samples)
    return round(summary.median, 1), round(summary.p99, 1)


def _auth(account: Account) -> dict[str, str]:
    return {"Authorization": f"Bearer {account['token']}"}


async def _turn(http: httpx.AsyncClient, account: Account, message: str) -> httpx.Response:
    return await http.post(
        "/api/chat",
        json={"message": message, "conversation_id": account["conversation_id"]},
        headers=_auth(account),
    )


async def _quiet(
    http: httpx.AsyncClient, account: Account, turns: int, max_seconds: float
) -> tuple[list[float], bool]:
    """The quiet user's turn times (ms), and whether the phase was cut at `max_seconds`."""
    samples: list[float] = []
    deadline = time.monotonic() + max_seconds
    for _ in range(turns):
        if time.monotonic() > deadline:
            return samples, True
        started = time.perf_counter()
        (await _turn(http, account, "show my tasks")).raise_for_status()
        samples.append((time.perf_counter() - started) * 1000)
    return samples, False


class Answers:
    """How a noise's requests were answered, by status, and an event set at the first."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.first = asyncio.Event()

    def record(self, sent: float, answered: float, status: str) -> None:
        self.counts[status] += 1
        self.first.set()


def _noisy_client(http: httpx.AsyncClient, account: Account, request: NoiseRequest) -> load.Send:
    async def send(n: int) -> str:
        try:
            return str((await request(http, account, n)).status_code)
        except httpx.TransportError as error:  # an answer too, as bench.load counts a lost one
            return type(error).__name__

    return send


@dataclass
class Noise:
    """How many noisy accounts a noise needs, how it sets them up, and what its clients send."""

    accounts: int
    clients: int
    prepare: Callable[[httpx.AsyncClient, list[Account], str, argparse.Namespace], Awaitable[None]]
    request: NoiseRequest
    says: str


async def _seed_tasks(database_url: str, account: Account, count: int) -> None:
    # The seeding helpers run their own event loop: in a thread of their own.
    await asyncio.to_thread(seed.varied_tasks, database_url, user_id=account["id"], count=count)


async def _prepare_bulk(
    http: httpx.AsyncClient, accounts: list[Account], database_url: str, args: argparse.Namespace
) -> None:
    for account in accounts:
        account["database_url"] = database_url
        await asyncio.to_thread(
            seed.tasks, database_url, user_id=account["id"], count=args.tasks, first_number=1
        )


async def _bulk(http: httpx.AsyncClient, account: Account, n: int) -> httpx.Response:
    await asyncio.to_thread(seed.reopen_all, account["database_url"], user_id=account["id"])
    return await _turn(http, account, "mark everything as done")


async def _prepare_feed(
    http: httpx.AsyncClient, accounts: list[Account], database_url: str, args: argparse.Namespace
) -> None:
    (account,) = accounts
    await _seed_tasks(database_url, account, args.big)
    opened = await http.post("/api/calendar/feed", headers=_auth(account))
    opened.raise_for_status()
    account["feed_url"] = opened.json()["url"]


async def _feed(http: httpx.AsyncClient, account: Account, n: int) -> httpx.Response:
    feed = await http.get(account["feed_url"])
    await asyncio.sleep(0)
    return feed


async def _prepare_reads(
    http: httpx.AsyncClient, accounts: list[Account], database_url: str, args: argparse.Namespace
) -> None:
    (account,) = accounts
    await _seed_tasks(database_url, account, args.big)


async def _reads(http: httpx.AsyncClient, account: Account, n: int) -> httpx.Response:
    # The biggest page a client may ask for (code from before issue 30 sends every task).
    return await http.get("/api/tasks", params={"limit": 1000}, headers=_auth(account))


async def _nothing(
    http: httpx.AsyncClient, accounts: list[Account], database_url: str, args: argparse.Namespace
) -> None:
    return None


async def _rules(http: httpx.AsyncClient, account: Account, n: int) -> httpx.Response:
    body = {"title": f"never {n}", "repeat": _IMPOSSIBLE_RULES[n % len(_IMPOSSIBLE_RULES)]}
    return await http.post("/api/tasks", json=body, headers=_auth(account))


async def _message(http: httpx.AsyncClient, account: Account, n: int) -> httpx.Response:
    return await _turn(http, account, _BIG_MESSAGE)


def _noises(args: argparse.Namespace) -> dict[str, Noise]:
    return {
        "bulk": Noise(
            args.noisy,
            args.noisy,
            _prepare_bulk,
            _bulk,
            f"{args.noisy} users completing {args.tasks} tasks each",
        ),
        "feed": Noise(1, 4, _prepare_feed, _feed, f"4 clients fetching a {args.big}-task feed"),
        "reads": Noise(1, 4, _prepare_reads, _reads, f"4 clients reading {args.big} tasks"),
        "rules": Noise(3, 3, _nothing, _rules, "3 clients creating tasks with impossible rules"),
        "message": Noise(3, 3, _nothing, _message, "3 users sending a 660-task message"),
    }


async def _ids(http: httpx.AsyncClient, accounts: list[Account]) -> None:
    for account in accounts:
        me = await http.get("/api/auth/me", headers=_auth(account))
        account["id"] = int(me.json()["id"])


async def _measure(
    url: str, database_url: str, args: argparse.Namespace, chosen: list[str]
) -> dict[str, Any]:
    noises = _noises(args)
    figures: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=url, timeout=900) as http:
        (quiet,) = await asyncio.to_thread(register_accounts, url, 1, "quiet")
        await _ids(http, [quiet])
        await asyncio.to_thread(
            seed.tasks, database_url, user_id=quiet["id"], count=20, first_number=1
        )
        await _quiet(http, quiet, 5, args.max_seconds)  # warm-up
        alone, _ = await _quiet(http, quiet, args.turns, args.max_seconds)
        figures["alone"] = {"quiet": _percentiles(alone), "cut": False, "answers": {}}
        for name in chosen:
            noise = noises[name]
            accounts = await asyncio.to_thread(register_accounts, url, noise.accounts, name)
            await _ids(http, accounts)
            await noise.prepare(http, accounts, database_url, args)
            answers = Answers()
            noisy = load.ClosedLoop(answers.record)
            for i in range(noise.clients):
                noisy.add(_noisy_client(http, accounts[i % len(accounts)], noise.request))
            await asyncio.sleep(0.5)  # the noise under way before the quiet user starts
            beside, cut = await _quiet(http, quiet, args.turns, args.max_seconds)
            # A short phase still sees the noise answered at least once (the table shows how).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(answers.first.wait(), args.max_seconds)
            noisy.stop()
            # A noise request from before issue 30 may run for minutes: don't wait it out.
            if not await noisy.finished(within=args.max_seconds):
                noisy.cancel()
            figures[name] = {
                "quiet": _percentiles(beside) if beside else (float("nan"), float("nan")),
                "cut": cut,
                "answers": dict(sorted(answers.counts.items())),
                "says": noise.says,
            }
    return figures


def _rows(kind: str, figures: dict[str, Any]) -> list[list[str]]:
    rows = []
    for figure in figures.values():
        p50, p99 = figure["quiet"]
        answers = ", ".join(f"{status}: {count}" for status, count in figure["answers"].items())
        rows.append(
            [
                kind,
                figure.get("says", "alone"),
                f"{p50}",
                f"{p99}" + (" (cut)" if figure["cut"] else ""),
                answers or "-",
            ]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--noise", choices=["all", "bulk", "feed", "reads", "rules", "message"])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--noisy", type=int, default=4, help="users doing bulk work at once")
    parser.add_argument("--tasks", type=int, default=1000, help="tasks each bulk user holds")
    parser.add_argument("--big", type=int, default=10_000, help="tasks of the feed/reads account")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="cut a phase after this")
    args = parser.parse_args()
    chosen = (
        ["bulk", "feed", "reads", "rules", "message"]
        if args.noise in {None, "all"}
        else [args.noise]
    )
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as work:
        databases = Databases(Path(work))
        try:
            for kind in kinds:
                database_url = databases.url(kind)
                lifted = {"chat_requests_per_minute": "100000000"}
                lifted["login_attempts_per_window"] = "100000000"
                log = Path(work) / f"{kind}.log"
                with server(database_url, 1, log, unlimited=False, **lifted) as (url, _):
                    figures = asyncio.run(_measure(url, database_url, args, chosen))
                rows += _rows(kind, figures)
        finally:
            databases.drop()
    header = ["database", "beside", "quiet p50 ms", "quiet p99 ms", "noise answered"]
    print(markdown_table(header, rows))


if __name__ == "__main__":
    main()
