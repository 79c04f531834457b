"""The background loops' CPU turns (backend/core/loops.py): CPU-heavy steps started together
run one per round of the event loop, so a request's steps go between them."""

from __future__ import annotations

import asyncio

from backend.core.loops import CpuTurns


async def test_steps_started_together_run_one_per_round_with_a_request_between() -> None:
    turns = CpuTurns()
    order: list[str] = []

    async def send(number: int) -> None:
        async with turns.turn():
            order.append(f"send {number}")

    async def request() -> None:
        while len([step for step in order if step.startswith("send")]) < 8:
            order.append("request")
            await asyncio.sleep(0)

    await asyncio.gather(*(send(number) for number in range(8)), request())
    sends = [index for index, step in enumerate(order) if step.startswith("send")]
    assert [order[index] for index in sends] == [f"send {number}" for number in range(8)]
    # Never two senders' steps back to back: the request had a step in every round.
    assert all(later - earlier > 1 for earlier, later in zip(sends, sends[1:], strict=False))


async def test_a_step_that_fails_gives_the_turn_to_the_next() -> None:
    turns = CpuTurns()

    async def failing() -> None:
        async with turns.turn():
            raise ValueError("a bad message")

    async def fine() -> str:
        async with turns.turn():
            return "sent"

    results = await asyncio.gather(failing(), fine(), return_exceptions=True)
    assert isinstance(results[0], ValueError)
    assert results[1] == "sent"
