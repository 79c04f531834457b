"""The service's limits, one entry point: `build_abuse_limits` makes every counted limit an
app enforces (chat turns, writes, task reads, sign-up, sign-in, the calendar feed) from the
settings; `window` says what a limit is, `database_store` and `sign_in` count them.

On PostgreSQL every limit is counted in the database, so it holds as configured across any
number of workers and machines. On the embedded SQLite database (one machine) sign-in and
sign-up are counted in the database too: they are rare, already cost a password hash, and
password guessing must not get a budget per worker. Chat turns are counted in each worker's
memory instead: SQLite has a single writer, every turn already queues for it twice, and one
more write per turn would slow every turn to make `--workers N` exact; with N workers a user
gets at most N times CHAT_REQUESTS_PER_MINUTE.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.config import Settings
from backend.core.limits.database_store import DatabaseLimitStore
from backend.core.limits.sign_in import SignInAttempt, SignInThrottle
from backend.core.limits.window import Limit, LimitStore, MemoryLimitStore

__all__ = [
    "AbuseLimits",
    "CountedLimit",
    "DatabaseLimitStore",
    "Limit",
    "LimitStore",
    "MemoryLimitStore",
    "SignInAttempt",
    "SignInThrottle",
    "build_abuse_limits",
]


@dataclass(frozen=True)
class CountedLimit:
    """A limit and the store that counts it."""

    limit: Limit
    store: LimitStore

    async def hit(self, subject: str) -> int | None:
        return await self.store.hit(self.limit, subject)


@dataclass(frozen=True)
class AbuseLimits:
    chat: CountedLimit  # per user
    writes: CountedLimit  # per user: task changes over REST, /mcp and chat's tools
    sign_up: CountedLimit  # per client address
    sign_in: SignInThrottle
    calendar_feed: CountedLimit  # per feed token: calendar apps fetch it with no sign-in
    task_reads: CountedLimit  # per user: pages of the task list over REST


def build_abuse_limits(settings: Settings, engine: AsyncEngine) -> AbuseLimits:
    shared = DatabaseLimitStore(engine)
    chat_store: LimitStore = MemoryLimitStore() if settings.is_sqlite else shared
    window = settings.login_window_seconds
    return AbuseLimits(
        chat=CountedLimit(Limit("chat", settings.chat_requests_per_minute, 60), chat_store),
        # Counted where chat is, for the same reason: one more write per write is not free.
        writes=CountedLimit(Limit("writes", settings.writes_per_minute, 60), chat_store),
        sign_up=CountedLimit(Limit("sign-up", settings.login_attempts_per_window, window), shared),
        sign_in=SignInThrottle(
            shared, attempts=settings.login_attempts_per_window, window_seconds=window
        ),
        # Counted where chat is: on SQLite a write per fetch would queue for the one lock.
        calendar_feed=CountedLimit(
            Limit("calendar-feed", settings.calendar_feed_requests_per_minute, 60), chat_store
        ),
        # Counted where chat is: a read must not queue for SQLite's one write lock.
        task_reads=CountedLimit(
            Limit("task-reads", settings.task_reads_per_minute, 60), chat_store
        ),
    )
