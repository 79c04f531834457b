"""The stateless chat cycle (design.md): load the window, store the user's message, run the
assistant, store its reply with the tool calls. Nothing is kept in process memory."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from backend.agent.assistant import AgentReply, Assistant, TextDelta, ToolCallDone
from backend.agent.rules.types import Turn
from backend.core.db import SessionMaker, is_unavailable
from backend.models import MessageRole
from backend.services import conversations
from backend.services.errors import ServiceError

logger = logging.getLogger(__name__)


class ReplyNotStoredError(ServiceError):
    """The assistant answered but its reply could not be saved (the user's message was)."""


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


async def open_turn(
    sessionmaker: SessionMaker,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
) -> OpenTurn:
    """Steps 1-3: the caller's conversation, its last `window` messages, the message stored,
    in one short transaction."""
    async with sessionmaker() as session:
        if conversation_id is None:
            conversation = await conversations.create_conversation(
                session, owner_id=user_id, title=conversations.title_from_message(message)
            )
            assert conversation.id is not None
            conversation_id = conversation.id
            rows = []
        else:
            await conversations.touch_conversation(
                session, owner_id=user_id, conversation_id=conversation_id
            )
            rows = await conversations.window(
                session, conversation_id=conversation_id, limit=window
            )
        await conversations.insert_message(
            session,
            conversation_id=conversation_id,
            owner_id=user_id,
            role=MessageRole.USER,
            content=message,
        )
        await session.commit()
    turns = [Turn(role, content, calls or [], meta or {}) for role, content, calls, meta in rows]
    return OpenTurn(conversation_id, turns, user_id, message)


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
                await conversations.insert_message(
                    session,
                    conversation_id=opened.conversation_id,
                    owner_id=opened.user_id,
                    role=MessageRole.ASSISTANT,
                    content=reply.text,
                    tool_calls=reply.tool_calls,
                    meta=reply.meta,
                    touch=True,
                )
                await session.commit()
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


async def chat_turn(
    sessionmaker: SessionMaker,
    assistant: Assistant,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
) -> ChatResult:
    opened = await open_turn(
        sessionmaker,
        user_id=user_id,
        message=message,
        conversation_id=conversation_id,
        window=window,
    )
    reply = await assistant.respond(user_id=user_id, history=opened.history, message=message)
    return await finish_turn(sessionmaker, opened, reply)


StreamEvent = ToolCallDone | TextDelta | ChatResult | ReplyNotStoredError

# Turns still running after their client went away; kept so they are not garbage collected.
_running: set[asyncio.Task[None]] = set()


async def stream_turn(
    sessionmaker: SessionMaker, assistant: Assistant, opened: OpenTurn
) -> AsyncIterator[StreamEvent]:
    """Step 4-5 as events. The turn runs in a task of its own, so a client that disconnects
    mid-stream does not cancel it: the reply is still stored."""
    queue: asyncio.Queue[StreamEvent | None] = asyncio.Queue()

    async def run() -> None:
        try:
            async for event in assistant.stream(
                user_id=opened.user_id, history=opened.history, message=opened.message
            ):
                if isinstance(event, AgentReply):
                    try:
                        queue.put_nowait(await finish_turn(sessionmaker, opened, event))
                    except ReplyNotStoredError as exc:
                        queue.put_nowait(exc)
                else:
                    queue.put_nowait(event)
        finally:
            queue.put_nowait(None)

    task = asyncio.create_task(run())
    _running.add(task)
    task.add_done_callback(_running.discard)
    while (event := await queue.get()) is not None:
        yield event
