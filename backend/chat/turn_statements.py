"""The chat turn's two writes as one statement each, for PostgreSQL.

A turn opens (touch the conversation, read its window, store the user's message) and closes
(touch it again, store the reply). As transactions of separate statements that is nine round
trips with BEGIN and COMMIT; PostgreSQL's data-modifying CTEs make each one statement, which
commits on its own (atomic, with no transaction around it): two round trips. SQLite has no
data-modifying CTEs and keeps the transactions of `conversations` (backend/chat/turns.py picks).

Every part of a statement sees the same snapshot, so the window is the messages before the
new one, and each write runs only when the touch found the caller's own conversation.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Integer, String, Table, bindparam, insert, literal, select, true
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection

from backend.domain.errors import ConversationNotFoundError
from backend.models import Conversation, Message, MessageRole, User
from backend.services import chat_threads
from backend.services.conversations import WindowRow

_conversations: Table = Conversation.__table__  # type: ignore[attr-defined]
_messages: Table = Message.__table__  # type: ignore[attr-defined]
_users: Table = User.__table__  # type: ignore[attr-defined]

_STORED_COLUMNS = ("conversation_id", "owner_id", "role", "content", "created_at", "client_key")


def _touched(owned: bool) -> Any:
    """The conversation marked active now (the owner's own, when `owned`), as a CTE naming
    its id and, when `owned`, the owner's time zone."""
    where = [_conversations.c.id == bindparam("cid", type_=Integer)]
    returning: list[Any] = [_conversations.c.id.label("cid")]
    if owned:
        where.append(_conversations.c.owner_id == bindparam("oid", type_=Integer))
        zone = select(_users.c.timezone).where(_users.c.id == bindparam("oid", type_=Integer))
        returning.append(zone.scalar_subquery().label("zone"))
    touch = (
        _conversations.update()
        .where(*where)
        .values(updated_at=bindparam("now", type_=_conversations.c.updated_at.type))
        .returning(*returning)
    )
    return touch.cte("touched")


def _stored(touched: Any, role: MessageRole, *, with_calls: bool) -> Any:
    """The message inserted into the touched conversation (none if nothing was touched)."""
    columns = list(_STORED_COLUMNS)
    values: list[Any] = [
        touched.c.cid,
        bindparam("oid", type_=Integer),
        literal(role.value, String),
        bindparam("content", type_=String),
        bindparam("now", type_=_messages.c.created_at.type),
        bindparam("key", type_=String),
    ]
    if with_calls:
        # none_as_null: an absent value is SQL NULL, as the ORM path stores it, not JSON null.
        columns += ["tool_calls", "meta"]
        values += [
            bindparam("calls", type_=JSON(none_as_null=True)),
            bindparam("meta", type_=JSON(none_as_null=True)),
        ]
    return (
        insert(_messages)
        .from_select(columns, select(*values).select_from(touched))
        .returning(_messages.c.id)
        .cte("stored")
    )


def _open_statement() -> Any:
    touched = _touched(owned=True)
    window = (
        select(
            _messages.c.id,
            _messages.c.role,
            _messages.c.content,
            _messages.c.tool_calls,
            _messages.c.meta,
        )
        .where(_messages.c.conversation_id == bindparam("cid", type_=Integer))
        .order_by(_messages.c.id.desc())
        .limit(bindparam("limit", type_=Integer))
        .lateral("recent")
    )
    return (
        select(touched.c.zone, window.c.role, window.c.content, window.c.tool_calls, window.c.meta)
        .select_from(touched.outerjoin(window, true()))
        .add_cte(_stored(touched, MessageRole.USER, with_calls=False))
        .order_by(window.c.id.desc())
    )


def _close_statement(*, remembering: bool) -> Any:
    touched = _touched(owned=False)
    stored = _stored(touched, MessageRole.ASSISTANT, with_calls=True)
    closed = select(stored.c.id)
    if remembering:
        # An OpenAI-compatible client's history through this reply, kept in the same
        # statement (backend/chat/threads.py).
        closed = closed.add_cte(chat_threads.kept_point(postgresql.insert, stored).cte("kept"))
    return closed


# Built once: building a statement costs SQLAlchemy more than running it.
_OPEN = _open_statement()
_CLOSE = _close_statement(remembering=False)
_CLOSE_REMEMBERING = _close_statement(remembering=True)


async def open_turn(
    connection: AsyncConnection,
    *,
    owner_id: int,
    conversation_id: int,
    message: str,
    now: datetime,
    limit: int,
    client_key: str | None,
) -> tuple[str, list[WindowRow]]:
    """Touches the owner's conversation, reads its newest `limit` messages and stores the
    user's message; returns the owner's time zone and the window, oldest first. Someone
    else's conversation is reported exactly like a missing one."""
    params = {
        "cid": conversation_id,
        "oid": owner_id,
        "now": now,
        "limit": limit,
        "content": message,
        "key": client_key,
    }
    rows = (await connection.execute(_OPEN, params)).all()
    if not rows:
        raise ConversationNotFoundError()
    window: list[WindowRow] = [
        (role, content, calls, meta)
        for _, role, content, calls, meta in reversed(rows)
        if role is not None
    ]
    return str(rows[0][0]), window


async def store_reply(
    connection: AsyncConnection,
    *,
    owner_id: int,
    conversation_id: int,
    content: str,
    tool_calls: list[dict[str, Any]] | None,
    meta: dict[str, Any] | None,
    now: datetime,
    client_key: str | None,
    thread_fingerprint: str | None = None,
) -> bool:
    """Touches the conversation and stores the assistant's reply in it (and, given
    `thread_fingerprint`, keeps it as the point that history reached); False when the
    conversation is gone (deleted while the turn ran), when nothing is stored."""
    params = {
        "cid": conversation_id,
        "oid": owner_id,
        "now": now,
        "content": content,
        "calls": tool_calls,
        "meta": meta,
        "key": client_key,
    }
    if thread_fingerprint is None:
        return (await connection.execute(_CLOSE, params)).first() is not None
    params["fp"] = thread_fingerprint
    return (await connection.execute(_CLOSE_REMEMBERING, params)).first() is not None
