"""Async engine and sessions for SQLite (embedded default) and PostgreSQL (asyncpg)."""

from __future__ import annotations

import json
import sqlite3
import time
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, InvalidatePoolError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings
from backend.core.sqlite_writers import TurnNotReachedError, WriteQueue

SessionMaker = async_sessionmaker[AsyncSession]


def _prepare_sqlite_file(url: str) -> None:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


# The execution option that makes a SQLite transaction begin DEFERRED (see read_only_options).
_SQLITE_BEGIN = "sqlite_begin"
# The execution option that bounds a SQLite transaction's wait for the write lock (milliseconds,
# instead of SQLITE_BUSY_TIMEOUT_MS; see wait_for_lock_at_most).
_SQLITE_LOCK_WAIT = "sqlite_lock_wait_ms"
# PostgreSQL with no transaction: each statement commits on its own, with no BEGIN and COMMIT
# (or ROLLBACK) round trips around it.
_STATEMENTS_ALONE = {"isolation_level": "AUTOCOMMIT"}


def _postgresql(bind: AsyncEngine | Engine | Connection) -> bool:
    return bind.dialect.name == "postgresql"


def _pool_info(connection: Any) -> dict[str, Any]:
    """The info of a pooled connection as the dialect is handed it (its `info` raises for
    some of the pool's wrappers: then no turn is recorded there)."""
    try:
        info = connection.info
    except (AttributeError, NotImplementedError):
        return {}
    return info if isinstance(info, dict) else {}


_write_queues: weakref.WeakKeyDictionary[Engine, WriteQueue] = weakref.WeakKeyDictionary()


def sqlite_write_queue(engine: AsyncEngine) -> WriteQueue | None:
    """The queue of a SQLite engine's write transactions (None for PostgreSQL)."""
    return _write_queues.get(engine.sync_engine)


def _configure_sqlite(engine: AsyncEngine, busy_timeout_ms: int) -> None:
    """WAL + busy timeout + BEGIN IMMEDIATE: concurrent writers queue instead of failing.

    With SQLite's default deferred transactions, a reader that later writes can hit
    "database is locked" at once (the busy handler is skipped to avoid deadlock). Taking
    the write lock at BEGIN makes every transaction wait its turn for up to the timeout, and
    within a process the turns come in arrival order (`WriteQueue`).
    """
    writers = _write_queues[engine.sync_engine] = WriteQueue()

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
        options = connection.get_execution_options()
        mode = options.get(_SQLITE_BEGIN, "IMMEDIATE")
        wait = int(options.get(_SQLITE_LOCK_WAIT, busy_timeout_ms))
        pooled = connection.connection
        if mode == "IMMEDIATE":
            started = time.monotonic()
            try:
                writers.wait_turn(pooled.dbapi_connection, pooled.info, wait / 1000)
            except TurnNotReachedError as exc:
                raise OperationalError(
                    f"BEGIN {mode}", None, sqlite3.OperationalError("database is locked")
                ) from exc
            if wait != busy_timeout_ms:
                # A deadline's wait covers the queue and the lock together.
                wait = max(0, wait - round((time.monotonic() - started) * 1000))
        # The lock wait is the connection's own setting: changed only when this transaction
        # wants another than the last one on the connection had (rare: a caller with a
        # deadline), so the usual BEGIN costs no extra statement.
        if pooled.info.get(_SQLITE_LOCK_WAIT, busy_timeout_ms) != wait:
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {wait}")
            pooled.info[_SQLITE_LOCK_WAIT] = wait
        connection.exec_driver_sql(f"BEGIN {mode}")

    # The turn is handed on once the transaction has ended (not when it is about to, as the
    # "commit" event would: the next writer would then meet the busy handler's sleep), or
    # failing that when its connection does. The dialect has no event after a commit.
    dialect = engine.sync_engine.dialect
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def do_commit(dbapi_connection: Any) -> None:
        try:
            commit(dbapi_connection)
        finally:
            writers.pass_turn(_pool_info(dbapi_connection))

    def do_rollback(dbapi_connection: Any) -> None:
        try:
            rollback(dbapi_connection)
        finally:
            writers.pass_turn(_pool_info(dbapi_connection))

    dialect.do_commit = do_commit  # type: ignore[method-assign]
    dialect.do_rollback = do_rollback  # type: ignore[method-assign]

    @event.listens_for(engine.sync_engine, "checkin")
    @event.listens_for(engine.sync_engine, "invalidate")
    @event.listens_for(engine.sync_engine, "close")
    def _on_connection_end(_dbapi_connection: Any, record: Any, *_args: Any) -> None:
        writers.pass_turn(record.info)


def read_only_options(engine: AsyncEngine | Engine | Connection) -> dict[str, str]:
    """Execution options for work that only reads, each statement standing alone (a read
    needs no snapshot shared with another). PostgreSQL: no transaction. SQLite: a deferred
    BEGIN, which takes no write lock, so a read never queues behind a writer nor holds one
    up."""
    return dict(_STATEMENTS_ALONE) if _postgresql(engine) else {_SQLITE_BEGIN: "DEFERRED"}


def read_only_engine(engine: AsyncEngine) -> AsyncEngine:
    """The same engine and pool, its connections set up for `read_only_options`."""
    return engine.execution_options(**read_only_options(engine))


def one_statement_engine(engine: AsyncEngine) -> AsyncEngine:
    """For writes of one statement each: on PostgreSQL each commits on its own; SQLite keeps
    its transactions (BEGIN IMMEDIATE: a write waits its turn for the lock)."""
    return engine.execution_options(**_STATEMENTS_ALONE) if _postgresql(engine) else engine


async def one_statement_connection(session: AsyncSession) -> AsyncConnection | None:
    """A fresh session's connection with no transaction, for a write of several steps done
    in one statement (PostgreSQL's data-modifying CTEs), which commits on its own. None on
    SQLite, which has no data-modifying CTEs: its steps need the session's transaction."""
    if not _postgresql(session.get_bind()):
        return None
    return await session.connection(execution_options=_STATEMENTS_ALONE)


async def wait_for_lock_at_most(session: AsyncSession, seconds: float) -> None:
    """SQLite: a fresh session's transaction waits at most `seconds` for another writer to
    release the write lock (instead of SQLITE_BUSY_TIMEOUT_MS), then fails with "database is
    locked", so a caller with a deadline can try again or give up in time. Call it before the
    first statement. PostgreSQL has no such lock: nothing to do."""
    if _postgresql(session.get_bind()):
        return
    await session.connection(execution_options={_SQLITE_LOCK_WAIT: max(0, round(seconds * 1000))})


async def read_only(session: AsyncSession) -> None:
    """Makes a fresh session's transaction `read_only_options`; call it before the first
    statement."""
    await session.connection(execution_options=read_only_options(session.get_bind()))


def _ping_after_idle(engine: AsyncEngine, idle_seconds: float) -> None:
    """Pessimistic disconnect handling for connections that sat in the pool: one that was
    idle longer than `idle_seconds` is pinged at checkout, and a failed ping replaces every
    pooled connection (the server probably restarted). SQLAlchemy's `pool_pre_ping` would
    ping before every use; under load that is a round trip per transaction for nothing."""

    @event.listens_for(engine.sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.pop("idle_since", None)
        if idle_since is None or time.monotonic() - idle_since < idle_seconds:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise InvalidatePoolError("ping failed on an idle pooled connection") from exc


def _dump_json(value: Any) -> str:
    """JSON columns are written with orjson (several times faster than json, and a turn stores
    its tool calls); values it refuses (integers beyond 64 bits) fall back to json."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


def _load_json(text: str | bytes) -> Any:
    """Every turn reads the window's tool calls back, so decoding is on the hot path too."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)  # NaN and Infinity, which json writes and orjson refuses


def _file_db(url: str) -> bool:
    """Whether SQLAlchemy pools a SQLite URL's connections in a queue (as its dialect
    decides: a database file, not memory)."""
    parsed = make_url(url)
    return (
        bool(parsed.database)
        and parsed.database != ":memory:"
        and (parsed.query.get("mode") != "memory")
    )


def create_engine(settings: Settings) -> AsyncEngine:
    url = settings.database_url
    codecs: dict[str, Any] = {"json_serializer": _dump_json, "json_deserializer": _load_json}
    if settings.is_sqlite:
        _prepare_sqlite_file(url)
        # A file database gets a queue pool; an in-memory one a single connection, no wait.
        pooled = {"pool_timeout": settings.db_pool_timeout_seconds} if _file_db(url) else {}
        engine = create_async_engine(
            url,
            connect_args={"timeout": settings.sqlite_busy_timeout_ms / 1000},
            **pooled,
            **codecs,
        )
        _configure_sqlite(engine, settings.sqlite_busy_timeout_ms)
        return engine
    engine = create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_timeout=settings.db_pool_timeout_seconds,
        pool_recycle=1800,
        **codecs,
    )
    _ping_after_idle(engine, settings.db_ping_after_idle_seconds)
    return engine


# SQLSTATEs that mean "the database cannot serve you right now", not "your query is wrong":
# connection exceptions, insufficient resources, operator intervention (shutdown, cannot
# connect now), a database not accepting connections, and a transaction the server chose
# to abort (serialization failure, deadlock), which succeeds when tried again.
_UNAVAILABLE_SQLSTATES = ("08", "53", "57P", "55000", "40001", "40P01")


def is_unavailable(exc: BaseException) -> bool:
    """Whether a database error means an outage or overload (retry later) rather than a bug:
    a pool with no connection to lend in time is one."""
    if isinstance(exc, OSError | TimeoutError | PoolTimeoutError):
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
