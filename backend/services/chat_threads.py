"""Where OpenAI-compatible clients' conversations stand (backend/chat/threads.py decides
what to do with it): find the point a history fingerprint names, fork a conversation at a
point, remember the point a turn ended at. Always scoped by owner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, String, Table, bindparam, func, insert, literal, select, true
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.models import ChatThread, Message, MessageRole
from backend.services import conversations

_threads: Table = ChatThread.__table__  # type: ignore[attr-defined]
_messages: Table = Message.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class ThreadPoint:
    """A stored point of a history: its conversation, the reply it ends at, and the
    conversation's newest message now (None if it has none left)."""

    conversation_id: int
    message_id: int
    latest_id: int | None

    @property
    def is_latest(self) -> bool:
        return self.latest_id == self.message_id


_FIND = select(
    _threads.c.conversation_id,
    _threads.c.message_id,
    select(func.max(_messages.c.id))
    .where(_messages.c.conversation_id == _threads.c.conversation_id)
    .scalar_subquery(),
).where(
    _threads.c.owner_id == bindparam("oid", type_=Integer),
    _threads.c.fingerprint == bindparam("fp", type_=String),
)
# The conversation's newest reply: the turn just stored it (a turn of the same conversation
# running at the same moment could have stored one after it; OpenAI clients send one at a time).
_REPLY = (
    select(_messages.c.id)
    .where(
        _messages.c.conversation_id == bindparam("cid", type_=Integer),
        _messages.c.role == MessageRole.ASSISTANT.value,
    )
    .order_by(_messages.c.id.desc())
    .limit(1)
)
_POINT = ("owner_id", "fingerprint", "conversation_id", "message_id", "created_at")
_COPIED = ("owner_id", "role", "content", "tool_calls", "meta", "created_at")


def _point(reply: Any) -> Any:
    """The point a history reached: the owner's fingerprint, the conversation and its newest
    reply (`reply`), now. (WHERE true: SQLite would read the upsert's ON as a join's.)"""
    return select(
        bindparam("oid", type_=Integer),
        bindparam("fp", type_=String),
        bindparam("cid", type_=Integer),
        reply.c.id,
        bindparam("now", type_=_threads.c.created_at.type),
    ).where(true())


def kept_point(insert_point: Any, reply: Any) -> Any:
    """The point inserted, or put in place of the one the same history reached before: a
    history said again leads to the newest conversation that ended with it."""
    statement = insert_point(_threads).from_select(_POINT, _point(reply))
    return statement.on_conflict_do_update(
        index_elements=["owner_id", "fingerprint"],
        set_={name: statement.excluded[name] for name in _POINT[2:]},
    )


# Built once per dialect (building a statement costs SQLAlchemy more than running it): the
# point kept at the conversation's newest reply, in one upsert.
_REMEMBER = {
    "postgresql": kept_point(postgresql.insert, _REPLY.subquery("reply")),
    "sqlite": kept_point(sqlite.insert, _REPLY.subquery("reply")),
}


async def find(
    connection: AsyncConnection, *, owner_id: int, fingerprint: str
) -> ThreadPoint | None:
    """The point the owner's history `fingerprint` was remembered at, if it was."""
    row = (await connection.execute(_FIND, {"oid": owner_id, "fp": fingerprint})).first()
    if row is None:
        return None
    conversation_id, message_id, latest_id = row
    return ThreadPoint(conversation_id, message_id, latest_id)


async def fork(session: AsyncSession, *, owner_id: int, point: ThreadPoint) -> int:
    """A new conversation of the owner's holding copies of the point's conversation up to
    and including its reply (their tool calls and meta: the context the assistant reads);
    returns its id. Committed."""
    source = await conversations.get_conversation(
        session, owner_id=owner_id, conversation_id=point.conversation_id
    )
    copy = await conversations.create_conversation(session, owner_id=owner_id, title=source.title)
    copied = select(literal(copy.id, Integer), *(_messages.c[name] for name in _COPIED)).where(
        _messages.c.conversation_id == point.conversation_id,
        _messages.c.id <= point.message_id,
    )
    # In order, so the copies' ids keep the conversation's order.
    statement = insert(_messages).from_select(
        ("conversation_id", *_COPIED), copied.order_by(_messages.c.id)
    )
    await session.exec(statement)
    await session.commit()
    assert copy.id is not None
    return copy.id


async def remember(
    connection: AsyncConnection, *, owner_id: int, fingerprint: str, conversation_id: int
) -> None:
    """Keeps the owner's history `fingerprint` as ending at the conversation's newest reply
    (the one the turn just stored), in the caller's transaction: the turn's own reply store
    on SQLite (backend/chat/turns.py; PostgreSQL keeps it in the reply's statement), or a
    stream's fallback (backend/chat/threads.py). Not committed here."""
    params = {"oid": owner_id, "fp": fingerprint, "cid": conversation_id, "now": utcnow()}
    await connection.execute(_REMEMBER[connection.dialect.name], params)
