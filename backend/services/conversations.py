"""Conversations and their messages, always scoped by owner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.models import Conversation, Message, MessageRole
from backend.models.conversation import CONVERSATION_TITLE_MAX_LENGTH
from backend.services.errors import ConversationNotFoundError


def title_from_message(message: str) -> str:
    words = " ".join(message.split())
    if len(words) <= CONVERSATION_TITLE_MAX_LENGTH:
        return words or "New conversation"
    return words[: CONVERSATION_TITLE_MAX_LENGTH - 1].rstrip() + "…"


async def get_conversation(
    session: AsyncSession, *, owner_id: int, conversation_id: int
) -> Conversation:
    conversation = await session.get(Conversation, conversation_id)
    # Someone else's conversation is reported exactly like a missing one.
    if conversation is None or conversation.owner_id != owner_id:
        raise ConversationNotFoundError()
    return conversation


async def create_conversation(session: AsyncSession, *, owner_id: int, title: str) -> Conversation:
    conversation = Conversation(owner_id=owner_id, title=title)
    session.add(conversation)
    await session.flush()
    return conversation


async def list_conversations(
    session: AsyncSession, *, owner_id: int, limit: int = 100
) -> Sequence[Conversation]:
    result = await session.exec(
        select(Conversation)
        .where(Conversation.owner_id == owner_id)
        .order_by(col(Conversation.updated_at).desc(), col(Conversation.id).desc())
        .limit(limit)
    )
    return result.all()


async def delete_conversation(
    session: AsyncSession, *, owner_id: int, conversation_id: int
) -> None:
    conversation = await get_conversation(
        session, owner_id=owner_id, conversation_id=conversation_id
    )
    # Explicit, so it does not depend on SQLite's per-connection foreign_keys pragma.
    await session.exec(delete(Message).where(col(Message.conversation_id) == conversation.id))
    await session.delete(conversation)
    await session.commit()


async def recent_messages(
    session: AsyncSession, *, conversation_id: int, limit: int, before_id: int | None = None
) -> list[Message]:
    """The newest `limit` messages (before `before_id`, if given), oldest first."""
    query = select(Message).where(Message.conversation_id == conversation_id)
    if before_id is not None:
        query = query.where(col(Message.id) < before_id)
    result = await session.exec(query.order_by(col(Message.id).desc()).limit(limit))
    return list(reversed(result.all()))


def add_message(
    session: AsyncSession,
    *,
    conversation: Conversation,
    role: MessageRole,
    content: str,
    tool_calls: list[dict[str, Any]] | None = None,
    meta: dict[str, Any] | None = None,
) -> Message:
    assert conversation.id is not None
    message = Message(
        conversation_id=conversation.id,
        owner_id=conversation.owner_id,
        role=role.value,
        content=content,
        tool_calls=tool_calls,
        meta=meta,
    )
    conversation.updated_at = utcnow()
    session.add(conversation)
    session.add(message)
    return message
