"""SQLite's writers take the write lock in the order they asked for it (within one process).

SQLite has one write lock, and a writer that finds it taken waits in the busy handler, which
sleeps (1 ms, 2 ms, ... up to 100 ms) and tries again. Whoever tries while the lock is free
gets it, so a waiter asleep for 100 ms loses it to every short transaction that starts in
the meantime: a quiet user's one write could wait seconds behind another user's stream of
small ones. Here a process's write transactions queue for the lock first, first come first
served (an asyncio.Lock is fair), and only the head of the queue meets the busy handler, which
then only has to outwait the commit in progress or another process's writer.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

# The pooled connection's info key: the queue turn its open transaction holds.
_HELD = "sqlite_write_turn"


class TurnNotReachedError(Exception):
    """No turn within the wait allowed: the caller treats it as "database is locked"."""


class WriteQueue:
    """The write transactions of one engine, one at a time, in arrival order (per event loop:
    an asyncio.Lock belongs to the loop that uses it)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )
        self.waiting = 0  # transactions in line behind the one writing

    def _lock(self, loop: asyncio.AbstractEventLoop) -> asyncio.Lock:
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    def wait_turn(self, dbapi_connection: Any, info: dict[str, Any], seconds: float) -> None:
        """From a "begin" event of a write transaction: waits (on the event loop, the event
        running in SQLAlchemy's greenlet) until this transaction is first in line, at most
        `seconds`. A driver with no event loop (a plain sqlite3 connection) does not queue."""
        run_async = getattr(dbapi_connection, "run_async", None)
        if run_async is None or _HELD in info:
            return

        async def wait() -> None:
            loop = asyncio.get_running_loop()
            lock = self._lock(loop)
            self.waiting += 1
            try:
                async with asyncio.timeout(seconds):
                    await lock.acquire()
            except TimeoutError as exc:
                raise TurnNotReachedError from exc
            finally:
                self.waiting -= 1
            # Recorded before anything else can be awaited, so every way the transaction or
            # its connection ends finds the turn to hand on.
            info[_HELD] = (loop, lock)

        run_async(lambda _driver_connection: wait())

    @staticmethod
    def pass_turn(info: dict[str, Any]) -> None:
        """From the end of the transaction (commit, rollback) or of its connection (check-in,
        invalidation, close): the next writer in line goes. Idempotent."""
        held = info.pop(_HELD, None)
        if held is None:
            return
        loop, lock = held
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            lock.release()
        elif not loop.is_closed():
            # A connection finalised off its loop (garbage collection): release there.
            loop.call_soon_threadsafe(lock.release)
