"""Micro-benchmark of the deterministic assistant.

    .venv/bin/python -m bench.agent_decision [--turns 300]

Prints (1) the rule engine's median decision time per message over every utterance of the
test corpus (interpret + first step, no I/O), and (2) the full `POST /api/chat` turn time
through the real app in-process (httpx ASGI client, MCP tools in memory, SQLite in a
temporary directory).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.engine import advance, interpret
from backend.agent.rules.intent_model import intent_model
from backend.agent.rules.text import core_request
from backend.core.config import Settings
from backend.main import create_app
from corpus.report import all_cases

TURN_MESSAGES = (
    "add buy milk",
    "show my tasks",
    "what's left?",
    "complete task 1",
    "delete the groceries task",
    "is milk on my list?",
    "hello",
    "change task 2 to call dad",
)


def decision_times(repeats: int) -> list[float]:
    messages = [case.say for case in all_cases()]
    context = ConversationContext()
    for message in messages:  # warm the regex caches
        advance(interpret(message, context), [])
    samples: list[float] = []
    model = intent_model()
    for _ in range(repeats):
        for message in messages:
            if model is not None:
                model.predict.cache_clear()  # every message is read as if for the first time
            core_request.cache_clear()
            start = time.perf_counter()
            advance(interpret(message, context), [])
            samples.append(time.perf_counter() - start)
    return samples


async def turn_times(turns: int) -> list[float]:
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{Path(directory) / 'bench.db'}",
            secret_key="benchmark-secret-key-0123456789abcdef",
            chat_requests_per_minute=10**9,
        )
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                registered = await client.post(
                    "/api/auth/register",
                    json={"email": "bench@example.com", "password": "benchmark-password"},
                )
                headers = {"Authorization": f"Bearer {registered.json()['access_token']}"}
                for title in ("buy groceries", "call mom", "finish report", "walk the dog"):
                    await client.post("/api/tasks", json={"title": title}, headers=headers)
                conversation_id = None
                samples: list[float] = []
                for index in range(turns):
                    message = TURN_MESSAGES[index % len(TURN_MESSAGES)]
                    start = time.perf_counter()
                    response = await client.post(
                        "/api/chat",
                        json={"message": message, "conversation_id": conversation_id},
                        headers=headers,
                    )
                    samples.append(time.perf_counter() - start)
                    response.raise_for_status()
                    conversation_id = response.json()["conversation_id"]
    return samples[len(TURN_MESSAGES) :]  # the first round warms caches and connections


def _ms(value: float) -> str:
    return f"{value * 1000:8.3f} ms"


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    decisions = decision_times(args.repeats)
    turns = asyncio.run(turn_times(args.turns))
    quantiles = statistics.quantiles(turns, n=100)
    print(f"rule engine decision ({len(decisions)} samples over the corpus)")
    cuts = statistics.quantiles(decisions, n=100)
    print(
        f"  median {_ms(statistics.median(decisions))}   p95 {_ms(cuts[94])}   "
        f"p99 {_ms(cuts[98])}   target p99 < 1 ms"
    )
    print(f"POST /api/chat turn, in-process, SQLite ({len(turns)} turns)")
    print(f"  median {_ms(statistics.median(turns))}   p95 {_ms(quantiles[94])}")


if __name__ == "__main__":
    main()
