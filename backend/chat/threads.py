"""OpenAI-compatible clients' conversations (decision 0037): such a client keeps no
conversation id; it sends the whole history with every message. The history before the new
message names the stored conversation to continue:

- after each turn, the fingerprint of the history through the assistant's reply (user and
  assistant messages, white space collapsed) is remembered, per account, with the
  conversation and that reply;
- a message whose history before it was remembered continues that conversation when the
  reply is still its newest message, and otherwise (the client regenerated or edited a later
  message) forks it: a new conversation with copies of its messages up to that reply;
- a history never remembered (the first message, or one edited into something never said)
  opens a new conversation.

So the conversation a turn runs in always holds what the client shows before its message.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.db import SessionMaker, is_unavailable
from backend.domain.errors import ConversationNotFoundError
from backend.models import MessageRole
from backend.services import chat_threads

logger = logging.getLogger(__name__)

# (role, text): a user's or the assistant's message as the client sent it.
Said = tuple[MessageRole, str]


class Placement(StrEnum):
    NEW = "new"
    CONTINUED = "continued"
    FORKED = "forked"


@dataclass(frozen=True)
class Place:
    """Where a turn runs: a conversation (None: a new one) and how it was chosen."""

    conversation_id: int | None
    placement: Placement


def _said(role: MessageRole, text: str) -> bytes:
    """One message as the fingerprint reads it: its role and its words, white space collapsed,
    framed by length so no two histories read alike."""
    words = " ".join(text.split()).encode("utf-8", "surrogatepass")
    return b"%s\x00%d\x00%s" % (role.value.encode(), len(words), words)


class History:
    """The fingerprints of a client's history: before its new message, and through a reply."""

    def __init__(self, before: Sequence[Said]) -> None:
        self._hash = hashlib.sha256()
        for role, text in before:
            self._hash.update(_said(role, text))
        self.empty = not before

    @property
    def before(self) -> str:
        return self._hash.hexdigest()

    def through(self, message: str, reply: str) -> str:
        """The history once `message` is answered with `reply`, as the client will send it."""
        extended = self._hash.copy()
        extended.update(_said(MessageRole.USER, message))
        extended.update(_said(MessageRole.ASSISTANT, reply))
        return extended.hexdigest()


async def place_turn(
    sessionmaker: SessionMaker, read_engine: AsyncEngine, *, owner_id: int, history: History
) -> Place:
    """The conversation a message sent after `history` runs in (forked now if need be).
    `read_engine`: the app's engine for reads of one statement (`read_only_engine`)."""
    if history.empty:
        return Place(None, Placement.NEW)
    async with read_engine.connect() as connection:
        point = await chat_threads.find(connection, owner_id=owner_id, fingerprint=history.before)
    if point is None or point.latest_id is None:
        return Place(None, Placement.NEW)
    if point.is_latest:
        return Place(point.conversation_id, Placement.CONTINUED)
    try:
        async with sessionmaker() as session:
            forked = await chat_threads.fork(session, owner_id=owner_id, point=point)
    except ConversationNotFoundError:  # deleted since it was looked up
        return Place(None, Placement.NEW)
    return Place(forked, Placement.FORKED)


async def remember_turn(
    sessionmaker: SessionMaker, *, owner_id: int, conversation_id: int, through: str
) -> None:
    """Remembers the history `through` (a turn's, its reply included) as ending at the
    conversation's newest reply. Best effort: the turn is answered anyway, and if the
    database is out, the client's next message opens a new conversation."""
    try:
        async with sessionmaker() as session:
            await chat_threads.remember(
                await session.connection(),
                owner_id=owner_id,
                fingerprint=through,
                conversation_id=conversation_id,
            )
            await session.commit()
    except (SQLAlchemyError, OSError) as exc:
        if not is_unavailable(exc):
            raise
        logger.warning("could not remember where conversation %s stands: %s", conversation_id, exc)
