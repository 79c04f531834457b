"""Fires due reminders, in every process that runs one: the database decides which process
fires each (backend/reminders/store.py), so any number may run, on any machines, and a
restart loses nothing (what fell due meanwhile fires at the next sweep)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from backend.core.db import SessionMaker
from backend.core.loops import through_outages
from backend.models import Reminder
from backend.reminders import store as reminders
from backend.services import change_notes

logger = logging.getLogger(__name__)

FiredCallback = Callable[[Sequence[Reminder]], None]

# Reminders fired per transaction. Each batch's Python work runs without yielding; a web
# worker fires smaller ones so a chat turn waits for at most ~30 ms of it, not ~150 ms.
PROCESS_BATCH = 500
WEB_WORKER_BATCH = 100
# How often old change notes (live updates, backend/services/change_notes.py) are deleted.
PRUNE_SECONDS = 60.0


class ReminderScheduler:
    def __init__(
        self,
        sessionmaker: SessionMaker,
        *,
        interval_seconds: float,
        batch: int = PROCESS_BATCH,
        on_fired: FiredCallback | None = None,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._interval = interval_seconds
        self._batch = batch
        self._on_fired = on_fired

    async def sweep(self, now: datetime | None = None) -> int:
        """Fires everything due by `now`, a batch per transaction; how many this process fired."""
        total = 0
        while True:
            async with self._sessionmaker() as session:
                fired = await reminders.fire_due(session, now=now, limit=self._batch)
            total += len(fired)
            if fired and self._on_fired is not None:
                self._on_fired(fired)
            if len(fired) < self._batch:
                return total

    async def run(self) -> None:
        """Sweeps every interval until cancelled, and now and then prunes the live updates'
        old change notes. An unreachable database is waited out."""
        pruned_at = time.monotonic()  # the first prune a while after start
        while True:
            fired = await through_outages(self.sweep, logger, "reminders not swept")
            if fired:
                logger.info("fired %d reminder(s)", fired)
            if time.monotonic() - pruned_at >= PRUNE_SECONDS:
                await through_outages(self._prune, logger, "change notes not pruned")
                pruned_at = time.monotonic()
            await asyncio.sleep(self._interval)

    async def _prune(self) -> int:
        async with self._sessionmaker() as session:
            return await change_notes.prune(session)
