"""Async engine and sessions for SQLite (embedded default) and PostgreSQL (asyncpg)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings

SessionMaker = async_sessionmaker[AsyncSession]


def _prepare_sqlite_file(url: str) -> None:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def _configure_sqlite(engine: AsyncEngine, busy_timeout_ms: int) -> None:
    """WAL + busy timeout + BEGIN IMMEDIATE: concurrent writers queue instead of failing.

    With SQLite's default deferred transactions, a reader that later writes can hit
    "database is locked" at once (the busy handler is skipped to avoid deadlock). Taking
    the write lock at BEGIN makes every transaction wait its turn for up to the timeout.
    """

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def create_engine(settings: Settings) -> AsyncEngine:
    url = settings.database_url
    if settings.is_sqlite:
        _prepare_sqlite_file(url)
        engine = create_async_engine(
            url, connect_args={"timeout": settings.sqlite_busy_timeout_ms / 1000}
        )
        _configure_sqlite(engine, settings.sqlite_busy_timeout_ms)
        return engine
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_pre_ping=True,
        pool_recycle=1800,
    )


# SQLSTATEs that mean "the database cannot serve you right now", not "your query is wrong":
# connection exceptions, insufficient resources, operator intervention (shutdown, cannot
# connect now), a database not accepting connections, and a transaction the server chose
# to abort (serialization failure, deadlock), which succeeds when tried again.
_UNAVAILABLE_SQLSTATES = ("08", "53", "57P", "55000", "40001", "40P01")


def is_unavailable(exc: BaseException) -> bool:
    """Whether a database error means an outage (retry later) rather than a bug."""
    if isinstance(exc, OSError | TimeoutError):
        return True
    if not isinstance(exc, DBAPIError):
        return False
    if isinstance(exc, OperationalError | InterfaceError) or exc.connection_invalidated:
        return True
    sqlstate = getattr(exc.orig, "sqlstate", None)
    return isinstance(sqlstate, str) and sqlstate.startswith(_UNAVAILABLE_SQLSTATES)


def create_sessionmaker(engine: AsyncEngine) -> SessionMaker:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


async def session_scope(sessionmaker: SessionMaker) -> AsyncIterator[AsyncSession]:
    async with sessionmaker() as session:
        yield session
