"""Rate limits: what a limit is, what a store that counts hits against one must do, and the
in-memory store.

Every store counts in fixed windows that start at a key's first hit: at most `count` hits
from then until `window_seconds` later, then the next hit opens a new window. (A client that
spends one window's budget at its very end and the next one's at once can make 2 x `count`
hits in a short span; the cost of one counter per key instead of a timestamp per hit.)

The in-memory store is per process: with several workers each counts on its own. The
database store (backend/core/limits/database_store.py) is shared by every worker and machine.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Limit:
    """At most `count` hits per `window_seconds` for each subject, in a budget of its own."""

    scope: str
    count: int
    window_seconds: float

    def key(self, subject: str) -> str:
        # Named by scope, count and window, so two limits never share a budget (nor do two
        # configurations of one: a changed limit starts counting afresh); hashed, so a store
        # holds neither emails nor addresses and every key has the same short length.
        digest = hashlib.blake2b(subject.encode(), digest_size=16).hexdigest()
        return f"{self.scope}/{self.count}/{self.window_seconds:g}:{digest}"


def seconds_left(window_end: float, now: float) -> int:
    """A Retry-After value: whole seconds, at least 1."""
    return max(1, math.ceil(window_end - now))


class LimitStore(Protocol):
    async def hit(self, limit: Limit, subject: str) -> int | None:
        """Counts one hit; returns the seconds to wait if it went over the limit, else None."""
        ...

    async def wait(self, limit: Limit, subject: str) -> int | None:
        """The seconds to wait if `subject` is at the limit now (counting nothing), else None."""
        ...

    async def refund(self, limit: Limit, subject: str) -> None:
        """Takes back one hit of the current window (an attempt that turned out not to count)."""
        ...


class MemoryLimitStore:
    """Counts in this process's memory (bounded: idle keys are forgotten)."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000
    ) -> None:
        self._clock = clock
        self._max_keys = max_keys
        # key -> [window end, hits in that window]
        self._windows: dict[str, list[float]] = {}

    def _live_window(self, key: str, now: float) -> list[float] | None:
        window = self._windows.get(key)
        if window is not None and window[0] <= now:
            del self._windows[key]
            return None
        return window

    def _evict(self, now: float) -> None:
        for key in [k for k, (end, _hits) in self._windows.items() if end <= now]:
            del self._windows[key]
        if len(self._windows) >= self._max_keys:
            self._windows.clear()

    async def hit(self, limit: Limit, subject: str) -> int | None:
        key, now = limit.key(subject), self._clock()
        window = self._live_window(key, now)
        if window is None:
            if len(self._windows) >= self._max_keys:
                self._evict(now)
            window = self._windows[key] = [now + limit.window_seconds, 0]
        window[1] += 1
        return seconds_left(window[0], now) if window[1] > limit.count else None

    async def wait(self, limit: Limit, subject: str) -> int | None:
        now = self._clock()
        window = self._live_window(limit.key(subject), now)
        if window is None or window[1] < limit.count:
            return None
        return seconds_left(window[0], now)

    async def refund(self, limit: Limit, subject: str) -> None:
        window = self._live_window(limit.key(subject), self._clock())
        if window is not None and window[1] > 0:
            window[1] -= 1

    def __len__(self) -> int:
        return len(self._windows)
