"""A bounded HTTP load generator, run as a separate process by bench/run.py.

Each of `concurrency` workers holds one keep-alive connection and one account (its own token
and conversation), and sends requests back to back for `duration` seconds. Prints one JSON
object: requests, errors, requests per second and latency percentiles in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import httpx
import uvloop

MESSAGES = (
    "add buy milk",
    "show my pending tasks",
    "complete task 1",
    "what's left?",
    "delete the milk task",
    "hello",
)


async def worker(
    client: httpx.AsyncClient,
    account: dict[str, object],
    path: str,
    deadline: float,
    latencies: list[float],
    errors: list[int],
    index: int,
    budget: list[int],
) -> None:
    headers = {"Authorization": f"Bearer {account['token']}"}
    n = index
    while time.perf_counter() < deadline and budget[0] > 0:
        budget[0] -= 1
        started = time.perf_counter()
        if path == "/api/chat":
            body = {
                "message": MESSAGES[n % len(MESSAGES)],
                "conversation_id": account["conversation_id"],
            }
            response = await client.post(path, json=body, headers=headers)
        else:
            response = await client.get(path, headers=headers)
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            errors.append(response.status_code)
        n += 1


async def run(
    url: str,
    path: str,
    accounts: list[dict[str, object]],
    concurrency: int,
    duration: float,
    max_requests: int,
) -> dict[str, float]:
    latencies: list[float] = []
    errors: list[int] = []
    budget = [max_requests]
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        await client.get("/healthz")
        started = time.perf_counter()
        deadline = started + duration
        await asyncio.gather(
            *(
                worker(
                    client,
                    accounts[i % len(accounts)],
                    path,
                    deadline,
                    latencies,
                    errors,
                    i,
                    budget,
                )
                for i in range(concurrency)
            )
        )
        elapsed = time.perf_counter() - started
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100) if len(ms) >= 2 else [ms[0]] * 99 if ms else [0.0] * 99
    return {
        "requests": len(ms),
        "errors": len(errors),
        "seconds": round(elapsed, 3),
        "rps": round(len(ms) / elapsed, 1),
        "p50_ms": round(statistics.median(ms), 2) if ms else 0.0,
        "p95_ms": round(q[94], 2),
        "p99_ms": round(q[98], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--path", default="/api/chat")
    parser.add_argument("--accounts", type=Path, required=True)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--requests", type=int, default=10**9, help="stop after this many")
    args = parser.parse_args()
    accounts = json.loads(args.accounts.read_text())
    result = uvloop.run(
        run(args.url, args.path, accounts, args.concurrency, args.duration, args.requests)
    )
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
