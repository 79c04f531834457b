"""Does one user's bulk work slow everyone else down? (issue 13, item 7)

    .venv/bin/python -m bench.noisy_neighbour            # SQLite and PostgreSQL
    .venv/bin/python -m bench.noisy_neighbour --turns 30 --database sqlite

A real uvicorn server (one worker, deterministic brain). A quiet user asks "show my tasks"
`--turns` times alone, then again while `--noisy` other users each keep completing all of
their `--tasks` tasks ("mark everything as done"; the harness reopens them in the database
between rounds, untimed). Prints the quiet user's median and p99 both ways, and what one bulk
turn costs the noisy users.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench import seed
from bench.run import Databases
from bench.server import register_accounts, server


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return round(statistics.median(ordered), 1), round(p99, 1)


async def _turn(http: httpx.AsyncClient, account: dict[str, Any], message: str) -> float:
    started = time.perf_counter()
    response = await http.post(
        "/api/chat",
        json={"message": message, "conversation_id": account["conversation_id"]},
        headers={"Authorization": f"Bearer {account['token']}"},
    )
    response.raise_for_status()
    return (time.perf_counter() - started) * 1000


async def _quiet(http: httpx.AsyncClient, account: dict[str, Any], turns: int) -> list[float]:
    return [await _turn(http, account, "show my tasks") for _ in range(turns)]


async def _noisy(
    http: httpx.AsyncClient,
    account: dict[str, Any],
    database_url: str,
    stop: asyncio.Event,
    costs: list[float],
) -> None:
    while not stop.is_set():
        await asyncio.to_thread(seed.reopen_all, database_url, user_id=account["id"])
        costs.append(await _turn(http, account, "mark everything as done"))


async def _measure(url: str, database_url: str, args: argparse.Namespace) -> dict[str, Any]:
    quiet, *noisy = await asyncio.to_thread(register_accounts, url, 1 + args.noisy, "neighbour")
    async with httpx.AsyncClient(base_url=url, timeout=600) as http:
        for account in [quiet, *noisy]:
            me = await http.get(
                "/api/auth/me", headers={"Authorization": f"Bearer {account['token']}"}
            )
            account["id"] = int(me.json()["id"])
        # The seeding helpers run their own event loop: in a thread of their own.
        await asyncio.to_thread(
            seed.tasks, database_url, user_id=quiet["id"], count=20, first_number=1
        )
        for account in noisy:
            await asyncio.to_thread(
                seed.tasks, database_url, user_id=account["id"], count=args.tasks, first_number=1
            )
        await _quiet(http, quiet, 5)  # warm-up
        alone = await _quiet(http, quiet, args.turns)
        stop, costs = asyncio.Event(), []
        loops = [
            asyncio.create_task(_noisy(http, account, database_url, stop, costs))
            for account in noisy
        ]
        beside = await _quiet(http, quiet, args.turns)
        stop.set()
        await asyncio.gather(*loops)
    return {
        "alone": _percentiles(alone),
        "beside_bulk": _percentiles(beside),
        "bulk_turn": _percentiles(costs),
        "bulk_turns": len(costs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--noisy", type=int, default=4, help="users doing bulk work at once")
    parser.add_argument("--tasks", type=int, default=1000, help="tasks each noisy user holds")
    args = parser.parse_args()
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    with tempfile.TemporaryDirectory() as work:
        databases = Databases(Path(work))
        try:
            for kind in kinds:
                database_url = databases.url(kind)
                with server(database_url, 1, Path(work) / f"{kind}.log") as (url, _):
                    figures = asyncio.run(_measure(url, database_url, args))
                print(
                    f"{kind}: quiet user's 'show my tasks' p50/p99 ms alone "
                    f"{figures['alone'][0]} / {figures['alone'][1]}, beside {args.noisy} users "
                    f"completing {args.tasks} tasks each {figures['beside_bulk'][0]} / "
                    f"{figures['beside_bulk'][1]}; one bulk turn p50/p99 ms "
                    f"{figures['bulk_turn'][0]} / {figures['bulk_turn'][1]} "
                    f"({figures['bulk_turns']} turns)"
                )
        finally:
            databases.drop()


if __name__ == "__main__":
    main()
