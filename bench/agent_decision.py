"""Micro-benchmark of the deterministic assistant.

    .venv/bin/python -m bench.agent_decision [--turns 300]

Prints (1) the rule engine's median decision time per message over every utterance of the
test corpus (interpret + first step, no I/O), and (2) the full `POST /api/chat` turn time
through the real app in-process (`bench.turn_harness`: httpx ASGI client, the Agents SDK
Runner, MCP tools in memory, SQLite in a temporary directory). Percentiles are
`bench.stats`' (nearest-rank).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from pathlib import Path

import bench.stats
import bench.turn_harness
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.engine import advance, interpret
from backend.agent.rules.intent_model import intent_model
from backend.agent.rules.text import core_request
from backend.main import create_app
from corpus.report import all_cases


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
    harness = bench.turn_harness
    mix = harness.TURN_MESSAGES
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as directory:
        app = create_app(harness.bench_settings(f"sqlite+aiosqlite:///{Path(directory)}/bench.db"))
        chat_with = harness.in_process_chat(
            app, email="bench@example.com", task_titles=harness.TASK_TITLES
        )
        async with chat_with as chat:
            for index in range(turns):
                start = time.perf_counter()
                await chat.turn(mix[index % len(mix)])
                samples.append(time.perf_counter() - start)
    return samples[len(mix) :]  # the first round warms caches and connections


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
    print(f"rule engine decision ({len(decisions)} samples over the corpus)")
    decision = bench.stats.summarize(decisions)
    print(
        f"  median {_ms(decision.median)}   p95 {_ms(decision.p95)}   "
        f"p99 {_ms(decision.p99)}   target p99 < 1 ms"
    )
    print(f"POST /api/chat turn, in-process, SQLite ({len(turns)} turns)")
    turn = bench.stats.summarize(turns)
    print(f"  median {_ms(turn.median)}   p95 {_ms(turn.p95)}")


if __name__ == "__main__":
    main()
