"""Conversations and their messages, always scoped by owner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, insert, update
from sqlalchemy import select as select_columns
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.domain.errors import AccountGoneError, ConversationNotFoundError
from backend.models import Choice, Conversation, Message, MessageRole, User
from backend.models.conversation import (
    CONVERSATION_TITLE_MAX_LENGTH,
    stored_choices,
    stored_undoable,
)


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
    try:
        await session.flush()
    except IntegrityError as exc:  # the only constraint here: the owner must exist
        raise AccountGoneError(owner_id) from exc
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


# The chat turn's statements, built once: building a statement (coercing every column and
# value) costs SQLAlchemy more CPU than running it, and these run on every turn.
_conversations: Table = Conversation.__table__  # type: ignore[attr-defined]
_messages: Table = Message.__table__  # type: ignore[attr-defined]
_users: Table = User.__table__  # type: ignore[attr-defined]
# Also returns the owner's time zone, which the turn needs: one statement, not two.
_TOUCH_OWNED = (
    update(_conversations)
    .where(_conversations.c.id == bindparam("cid"), _conversations.c.owner_id == bindparam("oid"))
    .values(updated_at=bindparam("now"))
    .returning(select(_users.c.timezone).where(_users.c.id == bindparam("oid")).scalar_subquery())
)
_TOUCH = (
    update(_conversations)
    .where(_conversations.c.id == bindparam("cid"))
    .values(updated_at=bindparam("now"))
)
_WINDOW = (
    select(_messages.c.role, _messages.c.content, _messages.c.tool_calls, _messages.c.meta)
    .where(_messages.c.conversation_id == bindparam("cid"))
    .order_by(_messages.c.id.desc())
    .limit(bindparam("limit"))
)
_INSERT_MESSAGE = insert(_messages)


async def touch_conversation(session: AsyncSession, *, owner_id: int, conversation_id: int) -> str:
    """Marks the owner's conversation active now; one statement that is also the ownership
    check (someone else's conversation is reported exactly like a missing one). Returns the
    owner's time zone."""
    touched = await session.exec(
        _TOUCH_OWNED, params={"cid": conversation_id, "oid": owner_id, "now": utcnow()}
    )
    zone = touched.scalar()
    if zone is None:
        raise ConversationNotFoundError()
    return str(zone)


# (role, content, tool_calls, meta)
WindowRow = tuple[str, str, list[dict[str, Any]] | None, dict[str, Any] | None]


async def window(session: AsyncSession, *, conversation_id: int, limit: int) -> list[WindowRow]:
    """The newest `limit` messages as (role, content, tool_calls, meta), oldest first: only
    the columns the assistant reads."""
    result = await session.exec(_WINDOW, params={"cid": conversation_id, "limit": limit})
    return [(role, content, calls, meta) for role, content, calls, meta in reversed(result.all())]


async def insert_message(
    session: AsyncSession,
    *,
    conversation_id: int,
    owner_id: int,
    role: MessageRole,
    content: str,
    tool_calls: list[dict[str, Any]] | None = None,
    meta: dict[str, Any] | None = None,
    touch: bool = False,
    client_key: str | None = None,
) -> None:
    """Stores a message without loading or tracking objects (the chat turn's hot path);
    `touch` also marks the conversation active."""
    now = utcnow()
    if touch:
        # Before the insert: taking the conversation's row lock first (as deleting it does)
        # rather than upgrading the insert's key-share lock avoids a deadlock with a delete.
        await session.exec(_TOUCH, params={"cid": conversation_id, "now": now})
    values: dict[str, Any] = {
        "conversation_id": conversation_id,
        "owner_id": owner_id,
        "role": role.value,
        "content": content,
        "created_at": now,
    }
    # Left out when absent, so they are SQL NULL rather than a JSON 'null'.
    if tool_calls is not None:
        values["tool_calls"] = tool_calls
    if meta is not None:
        values["meta"] = meta
    if client_key is not None:
        values["client_key"] = client_key
    await session.exec(_INSERT_MESSAGE, params=values)


# (SQLAlchemy's select: sqlmodel's types at most four columns.)
_KEYED = select_columns(
    _messages.c.role,
    _messages.c.conversation_id,
    _messages.c.content,
    _messages.c.tool_calls,
    _messages.c.meta,
    _messages.c.created_at,
).where(_messages.c.owner_id == bindparam("oid"), _messages.c.client_key == bindparam("key"))


@dataclass(frozen=True)
class KeyedTurn:
    """What is stored of the turn a client's Idempotency-Key names."""

    conversation_id: int
    # The reply's content, tool calls, choices and whether it can be undone; None while the
    # turn has no reply (yet).
    reply: tuple[str, list[dict[str, Any]], list[Choice], bool] | None
    # When the user's message was stored (its turn started then).
    asked_at: datetime


async def keyed_turn(session: AsyncSession, *, owner_id: int, client_key: str) -> KeyedTurn | None:
    connection = await session.connection()
    rows = (await connection.execute(_KEYED, {"oid": owner_id, "key": client_key})).all()
    by_role = {
        role: (cid, content, calls, meta, at) for role, cid, content, calls, meta, at in rows
    }
    if MessageRole.USER.value not in by_role:
        return None
    conversation_id, _, _, _, asked_at = by_role[MessageRole.USER.value]
    answered = by_role.get(MessageRole.ASSISTANT.value)
    reply = None
    if answered:
        _, content, calls, meta, _ = answered
        reply = (content, calls or [], stored_choices(meta), stored_undoable(meta))
    return KeyedTurn(conversation_id, reply, asked_at)


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
