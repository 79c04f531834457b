"""The stateless chat cycle (design.md): load the window, store the user's message, run the
assistant, store its reply with the tool calls. Nothing is kept in process memory."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.agent.assistant import AgentReply, Assistant, TextDelta, ToolCallDone
from backend.agent.rules.types import Turn
from backend.core.db import (
    SessionMaker,
    is_unavailable,
    one_statement_connection,
)
from backend.core.timeutil import utcnow
from backend.models import MessageRole
from backend.services import conversations, tasks, turn_statements
from backend.services.due import DEFAULT_ZONE
from backend.services.errors import ServiceError

logger = logging.getLogger(__name__)

T = TypeVar("T")

INTERRUPTED = (
    "Sorry, I was interrupted before I could finish (the service is restarting). "
    "Please check your list, then try again if something is missing."
)
TOO_SLOW = (
    "Sorry, that took me too long, so I stopped. Please check your list, then try again "
    "(perhaps in smaller steps) if something is missing."
)
# How long interrupted turns get to store their replies before the database is closed.
INTERRUPTED_STORE_SECONDS = 5.0


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


async def replay_turn(
    sessionmaker: SessionMaker, *, user_id: int, client_key: str | None
) -> ChatResult | None:
    """The stored answer to a retried turn (same Idempotency-Key), so it is not run twice;
    None for a turn not seen before. A turn seen but not answered yet: TurnInProgressError."""
    if client_key is None:
        return None
    async with sessionmaker() as session:
        seen = await conversations.keyed_turn(session, owner_id=user_id, client_key=client_key)
    if seen is None:
        return None
    if seen.reply is None:
        raise TurnInProgressError()
    return ChatResult(seen.conversation_id, *seen.reply)


async def open_turn(
    sessionmaker: SessionMaker,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
    client_key: str | None = None,
) -> OpenTurn:
    """Steps 1-3: the caller's conversation, its last `window` messages, the message stored,
    in one short transaction. A second turn with the same key (sent at the same moment) is
    refused by the key's unique index: TurnInProgressError."""
    try:
        return await _open_turn(sessionmaker, user_id, message, conversation_id, window, client_key)
    except IntegrityError as exc:
        if client_key is None:
            raise
        raise TurnInProgressError() from exc


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
    turns = [Turn(role, content, calls or [], meta or {}) for role, content, calls, meta in rows]
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


# The reply records what the tools already did, so storing it is worth a few tries when a
# connection drops (a killed backend, a failover) rather than leaving effects unrecorded.
STORE_ATTEMPTS = 4
STORE_BACKOFF_SECONDS = 0.25


async def finish_turn(
    sessionmaker: SessionMaker, opened: OpenTurn, reply: AgentReply
) -> ChatResult:
    """Step 5: the assistant's reply stored with its tool calls."""
    for attempt in range(1, STORE_ATTEMPTS + 1):
        try:
            async with sessionmaker() as session:
                await _store_reply(session, opened, reply)
            break
        except (SQLAlchemyError, OSError) as exc:
            if not is_unavailable(exc):
                logger.exception("could not store the assistant's reply")
                raise ReplyNotStoredError("reply not stored") from exc
            if attempt == STORE_ATTEMPTS:
                logger.exception("could not store the assistant's reply")
                raise ReplyNotStoredError("reply not stored") from exc
            logger.warning("storing the reply failed (attempt %s), retrying", attempt)
            await asyncio.sleep(STORE_BACKOFF_SECONDS * attempt)
    return ChatResult(opened.conversation_id, reply.text, reply.tool_calls)


async def _store_reply(session: AsyncSession, opened: OpenTurn, reply: AgentReply) -> None:
    if (connection := await one_statement_connection(session)) is not None:
        stored = await turn_statements.store_reply(
            connection,
            owner_id=opened.user_id,
            conversation_id=opened.conversation_id,
            content=reply.text,
            tool_calls=reply.tool_calls,
            meta=reply.meta,
            now=utcnow(),
            client_key=opened.client_key,
        )
        if not stored:
            # As on SQLite, where the insert's foreign key refuses it.
            logger.warning("conversation %s was deleted during its turn", opened.conversation_id)
            raise ReplyNotStoredError("reply not stored: the conversation is gone")
        return
    await conversations.insert_message(
        session,
        conversation_id=opened.conversation_id,
        owner_id=opened.user_id,
        role=MessageRole.ASSISTANT,
        content=reply.text,
        tool_calls=reply.tool_calls,
        meta=reply.meta,
        touch=True,
        client_key=opened.client_key,
    )
    await session.commit()


# Turns in flight in this worker. Each runs in a task of its own, so neither a client that
# goes away nor a cancelled request stops a turn between its tool calls and its reply; the
# set also keeps them from being garbage collected, and shutdown waits for them.
_running: set[asyncio.Task[Any]] = set()


def _detached(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    task = asyncio.create_task(work)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


async def finish_running_turns(grace_seconds: float) -> int:
    """Shutdown: lets the turns in flight finish, for up to `grace_seconds`; cancels the rest,
    each of which then stores a reply recording what it did. Returns how many were cut."""
    if not _running:
        return 0
    _, unfinished = await asyncio.wait(set(_running), timeout=grace_seconds)
    for task in unfinished:
        task.cancel()
    if unfinished:
        logger.warning("shutdown: %s turn(s) still running were interrupted", len(unfinished))
        await asyncio.wait(unfinished, timeout=INTERRUPTED_STORE_SECONDS)
    return len(unfinished)


async def _store_interrupted(
    sessionmaker: SessionMaker, opened: OpenTurn, tool_calls: list[dict[str, Any]]
) -> None:
    """A turn cut short still leaves a reply that records the tool calls it made."""
    reply = AgentReply(INTERRUPTED, list(tool_calls), {"error": "interrupted"})
    try:
        await finish_turn(sessionmaker, opened, reply)
    except ReplyNotStoredError:
        pass  # logged by finish_turn


def _too_slow(tool_calls: list[dict[str, Any]]) -> AgentReply:
    return AgentReply(TOO_SLOW, list(tool_calls), {"error": "time_budget"})


async def _run_turn(
    sessionmaker: SessionMaker, assistant: Assistant, opened: OpenTurn, budget: float | None
) -> ChatResult:
    tool_calls: list[dict[str, Any]] = []
    try:
        async with asyncio.timeout(budget):
            reply = await assistant.respond(
                user_id=opened.user_id,
                history=opened.history,
                message=opened.message,
                tool_calls=tool_calls,
                zone=opened.zone,
            )
    except TimeoutError:
        logger.warning("turn of user %s stopped at its time budget", opened.user_id)
        reply = _too_slow(tool_calls)
    except asyncio.CancelledError:
        await _store_interrupted(sessionmaker, opened, tool_calls)
        raise
    return await finish_turn(sessionmaker, opened, reply)


async def chat_turn(
    sessionmaker: SessionMaker,
    assistant: Assistant,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
    client_key: str | None = None,
    time_budget: float | None = None,
) -> ChatResult:
    replayed = await replay_turn(sessionmaker, user_id=user_id, client_key=client_key)
    if replayed is not None:
        return replayed
    opened = await open_turn(
        sessionmaker,
        user_id=user_id,
        message=message,
        conversation_id=conversation_id,
        window=window,
        client_key=client_key,
    )
    # Shielded: a cancelled request (a client gone, a server's forced exit) leaves the turn to
    # finish, and shutdown waits for it.
    return await asyncio.shield(_detached(_run_turn(sessionmaker, assistant, opened, time_budget)))


StreamEvent = ToolCallDone | TextDelta | ChatResult | ReplyNotStoredError


async def stream_turn(
    sessionmaker: SessionMaker,
    assistant: Assistant,
    opened: OpenTurn,
    time_budget: float | None = None,
) -> AsyncIterator[StreamEvent]:
    """Step 4-5 as events. The turn runs in a task of its own, so a client that disconnects
    mid-stream does not cancel it: the reply is still stored."""
    queue: asyncio.Queue[StreamEvent | None] = asyncio.Queue()

    async def store(reply: AgentReply) -> None:
        try:
            queue.put_nowait(await finish_turn(sessionmaker, opened, reply))
        except ReplyNotStoredError as exc:
            queue.put_nowait(exc)

    async def run() -> None:
        tool_calls: list[dict[str, Any]] = []
        stored = False
        try:
            async with asyncio.timeout(time_budget):
                async for event in assistant.stream(
                    user_id=opened.user_id,
                    history=opened.history,
                    message=opened.message,
                    tool_calls=tool_calls,
                    zone=opened.zone,
                ):
                    if isinstance(event, AgentReply):
                        stored = True  # stored now, or not at all: never a second reply
                        await store(event)
                    else:
                        queue.put_nowait(event)
        except TimeoutError:
            logger.warning("turn of user %s stopped at its time budget", opened.user_id)
            if not stored:
                await store(_too_slow(tool_calls))
        except asyncio.CancelledError:
            if not stored:
                await _store_interrupted(sessionmaker, opened, tool_calls)
            raise
        finally:
            queue.put_nowait(None)

    _detached(run())
    while (event := await queue.get()) is not None:
        yield event
