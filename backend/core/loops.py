"""What the background loops share (the reminder scheduler, the stream fan-out, the
notification dispatcher): waiting for a wake or an interval, and riding out an outage."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
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
