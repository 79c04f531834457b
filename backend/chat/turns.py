"""The stateless chat cycle: load the window, store the user's message, run the
assistant, store its reply with the tool calls. Nothing is kept in process memory but the
turns in flight, which a `TurnRunner` runs within their limits and ends at shutdown.

A turn's time budget (TURN_TIME_BUDGET_SECONDS) covers storing its reply: the assistant gets
the budget less a reserve (TURN_REPLY_RESERVE_SECONDS, at most half of it), then stops at its
next step, and the reply is stored within the reserve, tried again through SQLite's write
lock (each try waits for it for half the time left) and dropped connections. A tool call
under way at the deadline is never cut: the turn waits for it (TOOL_SETTLE_SECONDS at most),
so the budget can run over by that one call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.agent.assistant import AgentReply, Assistant, TextDelta, ToolCallDone
from backend.agent.rules.replies import SYSTEM_ERROR
from backend.agent.rules.types import Turn, stored_meta
from backend.agent.turn_limits import (
    INTERRUPTED,
    TOO_SLOW,
    Stop,
    StopReason,
    TurnLimits,
    WriteBudget,
    notice,
)
from backend.chat import turn_statements
from backend.chat.threads import History
from backend.core.config import Settings
from backend.core.db import (
    SessionMaker,
    is_unavailable,
    one_statement_connection,
    wait_for_lock_at_most,
)
from backend.core.limits import CountedLimit
from backend.core.timeutil import utcnow
from backend.domain.due import DEFAULT_ZONE
from backend.domain.errors import ServiceError
from backend.models import Choice, MessageRole
from backend.models.conversation import stored_choices, stored_undoable
from backend.services import chat_threads, conversations, tasks

__all__ = [
    "INTERRUPTED",
    "TOO_SLOW",
    "ChatResult",
    "OpenTurn",
    "ReplyNotStoredError",
    "TurnInProgressError",
    "TurnInterruptedError",
    "TurnPolicy",
    "TurnRunner",
    "finish_turn",
    "open_turn",
    "replay_turn",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

# How long a turn cut short at shutdown gets to store its reply.
INTERRUPTED_STORE_SECONDS = 5.0
# How long a tool call already under way when its turn stops is waited for: it is never cut
# short, so that its effect is recorded (a database statement: SQLite's lock wait, a
# PostgreSQL row lock). Past this the reply records it as still running.
TOOL_SETTLE_SECONDS = 10.0
# The shortest wait for SQLite's write lock a reply store gets, however little of the budget
# is left (an in-flight tool call may have used the reserve).
MIN_STORE_WAIT_SECONDS = 0.5
# Without a deadline (no time budget), a reply is stored in this many tries.
STORE_ATTEMPTS = 4
STORE_BACKOFF_SECONDS = 0.25
MAX_STORE_BACKOFF_SECONDS = 1.0


def shutdown_seconds(grace: float) -> float:
    """How long a graceful shutdown can take, from its signal: the grace period, then for the
    turns still running then, their last tool call and storing their replies. A server's own
    shutdown timeout (uvicorn's), and a stream's, must be at least this, or it would cut
    connections before their turns can answer."""
    return grace + TOOL_SETTLE_SECONDS + INTERRUPTED_STORE_SECONDS + 1.0


class ReplyNotStoredError(ServiceError):
    """The assistant answered but its reply could not be saved (the user's message was)."""


class TurnInProgressError(ServiceError):
    """A turn with this Idempotency-Key was received but has no reply (yet)."""

    def __init__(self) -> None:
        super().__init__(
            "A message with this Idempotency-Key is still being answered; retry in a few "
            "seconds (or send it with a new key)"
        )


@dataclass(frozen=True)
class ChatResult:
    conversation_id: int
    response: str
    tool_calls: list[dict[str, Any]]
    # The readings the reply's question offers (its meta's choices; none for most replies).
    choices: list[Choice] = field(default_factory=list)
    # "undo" sent next would reverse the turn's change (its meta's undo; see stored_undoable).
    undoable: bool = False
    # The model's token usage the reply's meta records (none with the rules brain).
    usage: dict[str, Any] | None = None


class TurnInterruptedError(ServiceError):
    """The turn was cut short because the service is shutting down; `result` is the reply
    stored for it (recording what it did), which a retry with its key gets."""

    def __init__(self, result: ChatResult) -> None:
        super().__init__("The service is restarting: the turn was cut short")
        self.result = result


@dataclass(frozen=True)
class OpenTurn:
    """A turn whose user message is stored, with the window of messages before it."""

    conversation_id: int
    history: list[Turn]
    user_id: int
    message: str
    client_key: str | None = None
    # The account's time zone, read with the window: the turn reads dates on its clock.
    zone: str = DEFAULT_ZONE
    # False for a read-only credential (a `read` personal access token): the turn may answer,
    # but its tools that would change tasks are refused.
    may_change: bool = True
    # An OpenAI-compatible client's history before the message: where it stands once
    # answered is kept with the reply, in the same statement (backend/chat/threads.py).
    thread: History | None = None


@dataclass(frozen=True)
class TurnPolicy:
    """What every turn may do, and how long one can be in flight."""

    time_budget: float | None = None
    reply_reserve: float = 5.0
    max_new_tasks: int | None = None
    # The per-user write budget REST and /mcp spend; chat's changes spend it too.
    writes: CountedLimit | None = None
    shutdown_grace: float = 0.0

    @classmethod
    def from_settings(cls, settings: Settings, writes: CountedLimit | None) -> TurnPolicy:
        return cls(
            time_budget=settings.turn_time_budget_seconds,
            reply_reserve=settings.turn_reply_reserve_seconds,
            max_new_tasks=settings.max_tasks_per_message,
            writes=writes,
            shutdown_grace=settings.shutdown_grace_seconds,
        )

    @property
    def reserve(self) -> float:
        """The part of the budget kept for storing the reply (at most half of it)."""
        if self.time_budget is None:
            return 0.0
        return min(self.reply_reserve, self.time_budget / 2)

    @property
    def in_flight_for(self) -> float | None:
        """How long after its message was stored a turn can still be running, at most: its
        budget, a tool call it waits for, the shutdown grace and storing an interrupted
        reply (more than it needs, which only makes a retry wait longer). Past this a turn
        with no reply died with its worker. None without a time budget: no bound."""
        if self.time_budget is None:
            return None
        return (
            self.time_budget
            + TOOL_SETTLE_SECONDS
            + self.shutdown_grace
            + INTERRUPTED_STORE_SECONDS
            + MIN_STORE_WAIT_SECONDS
        )


async def replay_turn(
    sessionmaker: SessionMaker,
    *,
    user_id: int,
    client_key: str | None,
    in_flight_for: float | None = None,
) -> ChatResult | None:
    """The stored answer to a retried turn (same Idempotency-Key), so it is not run twice;
    None for a turn not seen before. A turn seen but not answered: TurnInProgressError while
    it may still be running (up to `in_flight_for` seconds after its message), then the
    interrupted reply, stored for it once."""
    if client_key is None:
        return None
    async with sessionmaker() as session:
        seen = await conversations.keyed_turn(session, owner_id=user_id, client_key=client_key)
    if seen is None:
        return None
    if seen.reply is not None:
        return ChatResult(seen.conversation_id, *seen.reply)
    if in_flight_for is None or utcnow() - seen.asked_at < timedelta(seconds=in_flight_for):
        raise TurnInProgressError()
    return await _answer_abandoned(sessionmaker, user_id, client_key, seen.conversation_id)


async def _answer_abandoned(
    sessionmaker: SessionMaker, user_id: int, client_key: str, conversation_id: int
) -> ChatResult:
    """A keyed turn that can no longer be running (its worker was killed) gets the reply a turn
    cut short stores, once (the key's unique index), whichever retry stores it first. It is
    never run again: what it did before it died is recorded nowhere, so a second run could do
    it twice; the reply asks the user to check their list."""
    opened = OpenTurn(conversation_id, [], user_id, "", client_key)
    reply = AgentReply(INTERRUPTED, [], {"error": StopReason.INTERRUPTED.value})
    try:
        async with sessionmaker() as session:
            await _store_reply(session, opened, reply)
    except IntegrityError:
        async with sessionmaker() as session:
            seen = await conversations.keyed_turn(session, owner_id=user_id, client_key=client_key)
        if seen is None or seen.reply is None:
            raise
        return ChatResult(seen.conversation_id, *seen.reply)
    logger.warning("answered a retry of a turn that died unanswered (user %s)", user_id)
    return ChatResult(conversation_id, reply.text, reply.tool_calls)


async def open_turn(
    sessionmaker: SessionMaker,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
    client_key: str | None = None,
    may_change: bool = True,
    thread: History | None = None,
) -> OpenTurn:
    """Steps 1-3: the caller's conversation, its last `window` messages, the message stored,
    in one short transaction. A second turn with the same key (sent at the same moment) is
    refused by the key's unique index: TurnInProgressError."""
    try:
        opened = await _open_turn(
            sessionmaker, user_id, message, conversation_id, window, client_key
        )
    except IntegrityError as exc:
        if client_key is None:
            raise
        raise TurnInProgressError() from exc
    if may_change and thread is None:
        return opened
    return replace(opened, may_change=may_change, thread=thread)


async def _open_turn(
    sessionmaker: SessionMaker,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
    client_key: str | None,
) -> OpenTurn:
    async with sessionmaker() as session:
        # A new conversation is made in a transaction, as everything is on SQLite.
        if (
            conversation_id is not None
            and (connection := await one_statement_connection(session)) is not None
        ):
            zone, rows = await turn_statements.open_turn(
                connection,
                owner_id=user_id,
                conversation_id=conversation_id,
                message=message,
                now=utcnow(),
                limit=window,
                client_key=client_key,
            )
        else:
            conversation_id, zone, rows = await _open_in_transaction(
                session, user_id, message, conversation_id, window, client_key
            )
    turns = [
        Turn(role, content, calls or [], stored_meta(meta)) for role, content, calls, meta in rows
    ]
    return OpenTurn(conversation_id, turns, user_id, message, client_key, zone)


async def _open_in_transaction(
    session: AsyncSession,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
    client_key: str | None,
) -> tuple[int, str, list[conversations.WindowRow]]:
    """`open_turn` for a new conversation, or on SQLite: statements in one transaction."""
    if conversation_id is None:
        conversation = await conversations.create_conversation(
            session, owner_id=user_id, title=conversations.title_from_message(message)
        )
        assert conversation.id is not None
        conversation_id = conversation.id
        rows = []
        zone = await tasks.account_zone(session, user_id)
    else:
        zone = await conversations.touch_conversation(
            session, owner_id=user_id, conversation_id=conversation_id
        )
        rows = await conversations.window(session, conversation_id=conversation_id, limit=window)
    await conversations.insert_message(
        session,
        conversation_id=conversation_id,
        owner_id=user_id,
        role=MessageRole.USER,
        content=message,
        client_key=client_key,
    )
    await session.commit()
    return conversation_id, zone, rows


async def finish_turn(
    sessionmaker: SessionMaker,
    opened: OpenTurn,
    reply: AgentReply,
    *,
    until: float | None = None,
) -> ChatResult:
    """Step 5: the assistant's reply stored with its tool calls. The reply records what the
    tools already did, so it is tried again when the database is busy or a connection drops:
    until event-loop time `until` (each try waiting for SQLite's lock for half the time left,
    so that another can follow), or STORE_ATTEMPTS times without one."""
    loop = asyncio.get_running_loop()
    attempt = 0
    while True:
        attempt += 1
        lock_wait = None
        if until is not None:
            lock_wait = max((until - loop.time()) / 2, MIN_STORE_WAIT_SECONDS)
        try:
            async with sessionmaker() as session:
                await _store_reply(session, opened, reply, lock_wait)
            meta = dict(reply.meta)
            return ChatResult(
                opened.conversation_id,
                reply.text,
                reply.tool_calls,
                stored_choices(meta),
                stored_undoable(meta),
                _recorded_usage(meta),
            )
        except (SQLAlchemyError, OSError) as exc:
            backoff = min(STORE_BACKOFF_SECONDS * 2 ** (attempt - 1), MAX_STORE_BACKOFF_SECONDS)
            if until is None:
                again = attempt < STORE_ATTEMPTS
            else:
                backoff = min(backoff, max(0.0, until - loop.time()) / 2)
                again = loop.time() + backoff < until
            if not is_unavailable(exc) or not again:
                logger.exception("could not store the assistant's reply")
                raise ReplyNotStoredError("reply not stored") from exc
            logger.warning("storing the reply failed (attempt %s), retrying", attempt)
            await asyncio.sleep(backoff)


def _recorded_usage(meta: dict[str, Any]) -> dict[str, Any] | None:
    usage = meta.get("usage")
    return usage if isinstance(usage, dict) else None


async def _store_reply(
    session: AsyncSession, opened: OpenTurn, reply: AgentReply, lock_wait: float | None = None
) -> None:
    fingerprint = (
        None if opened.thread is None else opened.thread.through(opened.message, reply.text)
    )
    if (connection := await one_statement_connection(session)) is not None:
        stored = await turn_statements.store_reply(
            connection,
            owner_id=opened.user_id,
            conversation_id=opened.conversation_id,
            content=reply.text,
            tool_calls=reply.tool_calls,
            meta=dict(reply.meta),  # stored as plain JSON
            now=utcnow(),
            client_key=opened.client_key,
            thread_fingerprint=fingerprint,
        )
        if not stored:
            # As on SQLite, where the insert's foreign key refuses it.
            logger.warning("conversation %s was deleted during its turn", opened.conversation_id)
            raise ReplyNotStoredError("reply not stored: the conversation is gone")
        return
    if lock_wait is not None:
        await wait_for_lock_at_most(session, lock_wait)
    await conversations.insert_message(
        session,
        conversation_id=opened.conversation_id,
        owner_id=opened.user_id,
        role=MessageRole.ASSISTANT,
        content=reply.text,
        tool_calls=reply.tool_calls,
        meta=dict(reply.meta),
        touch=True,
        client_key=opened.client_key,
    )
    if fingerprint is not None:
        await chat_threads.remember(
            await session.connection(),
            owner_id=opened.user_id,
            fingerprint=fingerprint,
            conversation_id=opened.conversation_id,
        )
    await session.commit()


StreamEvent = ToolCallDone | TextDelta | ChatResult | ReplyNotStoredError | TurnInterruptedError

# Runs a turn's assistant within its limits, recording tool calls into the list given.
AgentWork = Callable[[TurnLimits, list[dict[str, Any]]], Coroutine[Any, Any, AgentReply]]


def _write_budget(writes: CountedLimit | None, user_id: int) -> WriteBudget | None:
    if writes is None:
        return None
    subject = str(user_id)

    async def spend() -> int | None:
        return await writes.hit(subject)

    return spend


class TurnRunner:
    """Runs one app's chat turns, each in a task of its own: neither a client that goes away
    nor a cancelled request stops a turn between its tool calls and its reply. At shutdown
    the turns in flight get the grace period, then each one still running is cut short,
    stores a reply recording what it did and tells its client so."""

    def __init__(self, sessionmaker: SessionMaker, policy: TurnPolicy) -> None:
        self._sessionmaker = sessionmaker
        self.policy = policy
        # The tasks also keep the turns from being garbage collected.
        self._tasks: set[asyncio.Task[Any]] = set()
        self._turns: set[TurnLimits] = set()
        self._cut_at: float | None = None  # event-loop time: when shutdown cuts them
        self._cutter: asyncio.TimerHandle | None = None
        self._cut = False

    def _detached(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def replay(self, *, user_id: int, client_key: str | None) -> ChatResult | None:
        """`replay_turn` under this runner's policy."""
        return await replay_turn(
            self._sessionmaker,
            user_id=user_id,
            client_key=client_key,
            in_flight_for=self.policy.in_flight_for,
        )

    async def chat(
        self,
        assistant: Assistant,
        *,
        user_id: int,
        message: str,
        conversation_id: int | None,
        window: int,
        client_key: str | None = None,
        may_change: bool = True,
        thread: History | None = None,
    ) -> ChatResult:
        """A whole turn: its stored answer if the key was seen, else steps 1-5."""
        replayed = await self.replay(user_id=user_id, client_key=client_key)
        if replayed is not None:
            return replayed
        opened = await open_turn(
            self._sessionmaker,
            user_id=user_id,
            message=message,
            conversation_id=conversation_id,
            window=window,
            client_key=client_key,
            may_change=may_change,
            thread=thread,
        )

        async def work(limits: TurnLimits, tool_calls: list[dict[str, Any]]) -> AgentReply:
            return await assistant.respond(
                user_id=opened.user_id,
                history=opened.history,
                message=opened.message,
                tool_calls=tool_calls,
                zone=opened.zone,
                limits=limits,
            )

        # Shielded: a cancelled request leaves the turn to finish (shutdown waits for it).
        return await asyncio.shield(self._detached(self._run(opened, work)))

    async def stream(self, assistant: Assistant, opened: OpenTurn) -> AsyncIterator[StreamEvent]:
        """Steps 4-5 as events, ending with the stored result or the error that ended it. The
        turn runs in a task of its own, so a client that disconnects mid-stream does not
        cancel it: the reply is still stored."""
        queue: asyncio.Queue[StreamEvent | None] = asyncio.Queue()

        async def work(limits: TurnLimits, tool_calls: list[dict[str, Any]]) -> AgentReply:
            reply = AgentReply(SYSTEM_ERROR, tool_calls, {"error": True})
            async for event in assistant.stream(
                user_id=opened.user_id,
                history=opened.history,
                message=opened.message,
                tool_calls=tool_calls,
                zone=opened.zone,
                limits=limits,
            ):
                if isinstance(event, AgentReply):
                    reply = event
                else:
                    queue.put_nowait(event)
            return reply

        async def run() -> None:
            try:
                queue.put_nowait(await self._run(opened, work))
            except (ReplyNotStoredError, TurnInterruptedError) as exc:
                queue.put_nowait(exc)
            except Exception:
                logger.exception("streamed turn of user %s failed", opened.user_id)
                queue.put_nowait(ReplyNotStoredError("the turn failed"))
            finally:
                queue.put_nowait(None)

        self._detached(run())
        while (event := await queue.get()) is not None:
            yield event

    async def _run(self, opened: OpenTurn, work: AgentWork) -> ChatResult:
        """Runs the assistant within the turn's limits, then stores its reply."""
        loop = asyncio.get_running_loop()
        budget = self.policy.time_budget
        end = None if budget is None else loop.time() + budget
        limits = TurnLimits(
            deadline=None if end is None else end - self.policy.reserve,
            max_new_tasks=self.policy.max_new_tasks,
            writes=_write_budget(self.policy.writes, opened.user_id),
            may_change=opened.may_change,
        )
        tool_calls: list[dict[str, Any]] = []
        self._turns.add(limits)
        if self._cut:  # begun after shutdown cut the others: it stops at its first step
            limits.stop(StopReason.INTERRUPTED)
        agent = asyncio.create_task(work(limits, tool_calls))
        try:
            reply = await self._agent_reply(opened, agent, limits, tool_calls)
        except asyncio.CancelledError:
            # This task itself was cancelled (the event loop is closing): record what was done.
            limits.stop(StopReason.INTERRUPTED)
            agent.cancel()
            interrupted = AgentReply(INTERRUPTED, list(tool_calls), {"error": "interrupted"})
            store_by = loop.time() + INTERRUPTED_STORE_SECONDS
            try:
                await finish_turn(self._sessionmaker, opened, interrupted, until=store_by)
            except ReplyNotStoredError:
                pass  # logged by finish_turn
            raise
        finally:
            self._turns.discard(limits)
        cut = reply.meta.get("error") == StopReason.INTERRUPTED.value
        # Storing the reply gets the reserve, or what is left of the budget if that is less.
        until: float | None = None
        if cut:
            until = loop.time() + INTERRUPTED_STORE_SECONDS
        elif end is not None:
            until = min(end, loop.time() + self.policy.reserve)
        result = await finish_turn(self._sessionmaker, opened, reply, until=until)
        if cut:
            raise TurnInterruptedError(result)
        return result

    async def _agent_reply(
        self,
        opened: OpenTurn,
        agent: asyncio.Task[AgentReply],
        limits: TurnLimits,
        tool_calls: list[dict[str, Any]],
    ) -> AgentReply:
        """The assistant's reply, or, for a turn a limit stopped from outside (its deadline, a
        shutdown), the reply that records what it did and says why it stopped."""
        loop = asyncio.get_running_loop()
        halted = asyncio.ensure_future(limits.halted())
        try:
            timeout = None if limits.deadline is None else max(0.0, limits.deadline - loop.time())
            await asyncio.wait({agent, halted}, timeout=timeout, return_when="FIRST_COMPLETED")
            if not agent.done():
                if limits.stopped is None:
                    logger.warning("turn of user %s stopped at its time budget", opened.user_id)
                    limits.stop(StopReason.TIME_BUDGET)
                # It ends at its next step; a tool call under way finishes first.
                await asyncio.wait({agent}, timeout=TOOL_SETTLE_SECONDS)
            if not agent.done():
                logger.error("turn of user %s did not stop: cancelled", opened.user_id)
                agent.cancel()
                await asyncio.wait({agent}, timeout=1.0)
        finally:
            halted.cancel()
        for call in limits.in_flight.values():
            still = {"error": "Still running when the turn stopped"}
            tool_calls.append({"name": call.name, "arguments": call.arguments, "result": still})
        if agent.done() and not agent.cancelled():
            failure = agent.exception()
            if failure is not None:
                raise failure
            return agent.result()
        stop = limits.stopped or Stop(StopReason.TIME_BUDGET)
        text = notice(stop, limits, tool_calls)
        return AgentReply(text, list(tool_calls), {"error": stop.reason.value})

    def begin_shutdown(self, grace: float) -> None:
        """Shutdown has begun: the turns in flight, and any that start meanwhile, get `grace`
        seconds to finish; then each one still running is cut short (see `_run`)."""
        if self._cut_at is not None:
            return
        loop = asyncio.get_running_loop()
        self._cut_at = loop.time() + grace
        self._cutter = loop.call_at(self._cut_at, self._cut_all)

    def _cut_all(self) -> None:
        self._cut = True
        if self._turns:
            logger.warning("shutdown: %s turn(s) still running are cut short", len(self._turns))
        for limits in list(self._turns):
            limits.stop(StopReason.INTERRUPTED)

    async def finish(self, grace: float) -> None:
        """Shutdown's last step before the tools and the database close: the turns in flight
        finish or are cut (`begin_shutdown`, if the server's signal has not begun it), and
        each stores its reply."""
        self.begin_shutdown(grace)
        assert self._cut_at is not None
        loop = asyncio.get_running_loop()
        last = self._cut_at + shutdown_seconds(0.0)
        while self._tasks and loop.time() < last:
            await asyncio.wait(set(self._tasks), timeout=last - loop.time())
        if not self._tasks:
            if self._cutter is not None:
                self._cutter.cancel()  # nothing left to cut
            return
        logger.error("shutdown: %s turn(s) did not end in time; cancelled", len(self._tasks))
        for task in set(self._tasks):
            task.cancel()  # each still tries to store a reply recording what it did
        await asyncio.wait(set(self._tasks), timeout=INTERRUPTED_STORE_SECONDS)

    async def wait_for_turns(self) -> None:
        """Waits for the turns in flight to end."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))
