"""A rate-limit store in the database (the `rate_limit` table, migration 0004), shared by every
worker and machine that uses the database.

One row per key: its window's end and the hits in it. A hit is one statement, an upsert that
opens a new window when the old one has ended and returns the count, so concurrent hits from
several workers are counted exactly (the row lock orders them). Times are this machine's wall
clock: machines that share a database keep their clocks in step (NTP), and a skew of a second
moves a minute's window by a second. Rows whose window has ended are deleted by each worker
about once a minute, so keys that stop coming back do not pile up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.db import one_statement_engine
from backend.core.limits.window import Limit, seconds_left

_HIT = text(
    "INSERT INTO rate_limit (bucket, hits, window_end) VALUES (:bucket, 1, :new_end) "
    "ON CONFLICT (bucket) DO UPDATE SET "
    "hits = CASE WHEN rate_limit.window_end <= :now THEN 1 ELSE rate_limit.hits + 1 END, "
    "window_end = CASE WHEN rate_limit.window_end <= :now THEN :new_end "
    "ELSE rate_limit.window_end END "
    "RETURNING hits, window_end"
)
_READ = text("SELECT hits, window_end FROM rate_limit WHERE bucket = :bucket")
_REFUND = text(
    "UPDATE rate_limit SET hits = hits - 1 "
    "WHERE bucket = :bucket AND window_end > :now AND hits > 0"
)
_SWEEP = text("DELETE FROM rate_limit WHERE window_end <= :now")

SWEEP_EVERY_SECONDS = 60.0


class DatabaseLimitStore:
    def __init__(
        self,
        engine: AsyncEngine,
        *,
        clock: Callable[[], float] = time.time,
        sweep_every: float = SWEEP_EVERY_SECONDS,
    ) -> None:
        # Every statement here stands alone: on PostgreSQL one round trip, where BEGIN and
        # COMMIT around it would be three.
        self._engine = one_statement_engine(engine)
        self._clock = clock
        self._sweep_every = sweep_every
        self._next_sweep = clock() + sweep_every

    async def _window(self, statement: Any, params: dict[str, Any]) -> tuple[int, float] | None:
        """A row's (hits, window end), by one statement."""
        async with self._engine.begin() as connection:
            row = (await connection.execute(statement, params)).first()
        return None if row is None else (int(row[0]), float(row[1]))

    async def hit(self, limit: Limit, subject: str) -> int | None:
        now = self._clock()
        params = {"bucket": limit.key(subject), "now": now, "new_end": now + limit.window_seconds}
        row = await self._window(_HIT, params)
        assert row is not None  # an upsert with RETURNING always returns its row
        await self._sweep_if_due(now)
        hits, window_end = row
        # Read the clock again: a hit that queued for the database (SQLite's one writer, a
        # busy machine) may find a window another hit opened after its `now`.
        return seconds_left(window_end, self._clock()) if hits > limit.count else None

    async def wait(self, limit: Limit, subject: str) -> int | None:
        now = self._clock()
        row = await self._window(_READ, {"bucket": limit.key(subject)})
        if row is None:
            return None
        hits, window_end = row
        if window_end <= now or hits < limit.count:
            return None
        return seconds_left(window_end, now)

    async def refund(self, limit: Limit, subject: str) -> None:
        async with self._engine.begin() as connection:
            await connection.execute(_REFUND, {"bucket": limit.key(subject), "now": self._clock()})

    async def _sweep_if_due(self, now: float) -> None:
        if now < self._next_sweep:
            return
        self._next_sweep = now + self._sweep_every
        await self.sweep()

    async def sweep(self) -> int:
        """Deletes the rows whose window has ended; returns how many."""
        async with self._engine.begin() as connection:
            result = await connection.execute(_SWEEP, {"now": self._clock()})
        return result.rowcount or 0
