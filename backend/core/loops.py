"""What the background loops share (the reminder scheduler, the stream fan-out, the
notification dispatcher): waiting for a wake or an interval, riding out an outage, and taking
turns at the CPU with the chat turns of the same event loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import TypeVar

from backend.core.db import is_unavailable

T = TypeVar("T")


async def woken_or_waited(wake: asyncio.Event, seconds: float) -> None:
    """Returns once woken or after `seconds`, whichever comes first, ready for the next wake."""
    with suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await wake.wait()
    wake.clear()


async def through_outages(
    step: Callable[[], Awaitable[T]], logger: logging.Logger, what: str
) -> T | None:
    """One step of a loop. An outage or a pool with no connection to lend is waited out
    (logged as "`what`: database unavailable", and None); a bug is not."""
    try:
        return await step()
    except Exception as exc:
        if not is_unavailable(exc):
            raise
        logger.warning("%s: database unavailable (%s)", what, exc)
        return None


class CpuTurns:
    """Runs background work's CPU-heavy steps (building an email, encrypting a push) one per
    round of the event loop. Sends started together would otherwise each run their step in
    the same round, and a chat turn's next step would wait for all of them: 32 emails built
    back to back held the loop for ~50 ms."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        async with self._lock:
            # Yield once while holding the turn: the other steps queue on the lock instead of
            # running in this round, and what became ready meanwhile (a request) runs first.
            await asyncio.sleep(0)
            yield
