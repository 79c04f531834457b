"""The stateless chat cycle (design.md): load the window, store the user's message, run the
assistant, store its reply with the tool calls. Nothing is kept in process memory."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from backend.agent.assistant import Assistant
from backend.agent.rules.types import Turn
from backend.core.db import SessionMaker
from backend.models import Conversation, MessageRole
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


async def _open_turn(
    sessionmaker: SessionMaker,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
) -> tuple[Conversation, list[Turn]]:
    """Steps 1-3: the caller's conversation, its last `window` messages, the message stored."""
    async with sessionmaker() as session:
        if conversation_id is None:
            conversation = await conversations.create_conversation(
                session, owner_id=user_id, title=conversations.title_from_message(message)
            )
            history = []
        else:
            conversation = await conversations.get_conversation(
                session, owner_id=user_id, conversation_id=conversation_id
            )
            assert conversation.id is not None
            history = await conversations.recent_messages(
                session, conversation_id=conversation.id, limit=window
            )
        conversations.add_message(
            session, conversation=conversation, role=MessageRole.USER, content=message
        )
        await session.commit()
    turns = [Turn(m.role, m.content, m.tool_calls or [], m.meta or {}) for m in history]
    return conversation, turns


async def chat_turn(
    sessionmaker: SessionMaker,
    assistant: Assistant,
    *,
    user_id: int,
    message: str,
    conversation_id: int | None,
    window: int,
) -> ChatResult:
    conversation, history = await _open_turn(
        sessionmaker,
        user_id=user_id,
        message=message,
        conversation_id=conversation_id,
        window=window,
    )
    reply = await assistant.respond(user_id=user_id, history=history, message=message)
    try:
        async with sessionmaker() as session:
            conversations.add_message(
                session,
                conversation=conversation,
                role=MessageRole.ASSISTANT,
                content=reply.text,
                tool_calls=reply.tool_calls,
                meta=reply.meta,
            )
            await session.commit()
    except SQLAlchemyError as exc:
        logger.exception("could not store the assistant's reply")
        raise ReplyNotStoredError("reply not stored") from exc
    assert conversation.id is not None
    return ChatResult(conversation.id, reply.text, reply.tool_calls)
