"""In-process rate limiting: a sliding window of timestamps per key.

Each worker keeps its own windows, so with N workers a client gets at most N times the
limit; that bounds abuse without a shared store. (A shared limiter would live in the
database or a cache; see specs/reliability.md.)
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable


class SlidingWindowLimiter:
    def __init__(
        self,
        limit: int,
        window_seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.limit = limit
        self.window = window_seconds
        self._clock = clock
        self._max_keys = max_keys
        self._hits: dict[str, deque[float]] = {}

    def _window_of(self, key: str, now: float) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            if len(self._hits) >= self._max_keys:
                self._evict(now)
            hits = self._hits[key] = deque()
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        return hits

    def _evict(self, now: float) -> None:
        """Forgets keys with no recent hits (bounded memory under many distinct keys)."""
        for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window]:
            del self._hits[key]
        if len(self._hits) >= self._max_keys:
            self._hits.clear()

    def retry_after(self, key: str) -> int | None:
        """Seconds until `key` may try again, or None if it may now (without recording)."""
        now = self._clock()
        hits = self._window_of(key, now)
        if len(hits) < self.limit:
            return None
        return max(1, math.ceil(hits[0] + self.window - now))

    def hit(self, key: str) -> int | None:
        """Records an attempt; returns seconds to wait if over the limit (then not recorded)."""
        wait = self.retry_after(key)
        if wait is None:
            self._hits[key].append(self._clock())
        return wait

    def reset(self, key: str) -> None:
        self._hits.pop(key, None)
