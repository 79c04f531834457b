from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Column, Index
from sqlmodel import Field, SQLModel

from backend.core.config import MESSAGE_CHARS_CEILING
from backend.core.timeutil import UTCDateTime, utcnow

CONVERSATION_TITLE_MAX_LENGTH = 80
CLIENT_KEY_MAX_LENGTH = 200
# The longest message an import takes: the most /api/chat may take (MAX_MESSAGE_CHARS, at most
# this, sets what it does take).
MESSAGE_MAX_LENGTH = MESSAGE_CHARS_CEILING
# The longest reply an import keeps. The assistant's replies have no cap of their own: the
# rules' longest, a list of 50 tasks at their longest titles, is about 13,000 characters, and
# an LLM's is bounded by its output tokens. An import refuses anything past this.
REPLY_MAX_LENGTH = 64_000
# The most choices a reply offers (the rule engine's `meta["choices"]`, shown as buttons).
CHOICES_MAX = 3


def meaningful_message(value: str) -> str:
    """A user's message as the chat takes it (and an import): no NUL, not blank; stripped."""
    if "\x00" in value:
        raise ValueError("message must not contain NUL characters")
    if not value.strip():
        raise ValueError("message must not be empty or only whitespace")
    return value.strip()


class MessageRole(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"


class Conversation(SQLModel, table=True):
    __table_args__ = (Index("ix_conversation_owner_updated", "owner_id", "updated_at"),)

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    title: str = Field(default="New conversation", max_length=CONVERSATION_TITLE_MAX_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Message(SQLModel, table=True):
    # "Last 50 messages of conversation C" is one range scan on this index, whatever its length.
    __table_args__ = (
        Index("ix_message_conversation_id_desc", "conversation_id", "id"),
        # A client's Idempotency-Key names one turn: its message and its reply, once each.
        Index("uq_message_owner_role_client_key", "owner_id", "role", "client_key", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    conversation_id: int = Field(foreign_key="conversation.id", ondelete="CASCADE")
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    role: str = Field(max_length=16)
    content: str
    # What the assistant did: [{"name", "arguments", "result"}, ...].
    tool_calls: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON))
    # Agent state derived from this turn (pending question, task in focus, usage); never shown.
    meta: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # The Idempotency-Key the client sent with the turn (on its message and on the reply).
    client_key: str | None = Field(default=None, max_length=CLIENT_KEY_MAX_LENGTH)


class ConversationPublic(SQLModel):
    id: int
    title: str
    created_at: datetime
    updated_at: datetime


class Choice(SQLModel):
    """A reading the assistant's question offers: the button's words, and the message that
    picking it sends as the user's next message."""

    label: str
    message: str


def stored_choices(meta: dict[str, Any] | None) -> list[Choice]:
    """The choices a stored reply's meta offers, at most CHOICES_MAX: none for a reply that
    asks nothing, and for one stored before replies had choices."""
    found = (meta or {}).get("choices")
    if not isinstance(found, list):
        return []
    return [
        Choice(label=item["label"], message=item["message"])
        for item in found
        if isinstance(item, dict)
        and isinstance(item.get("label"), str)
        and isinstance(item.get("message"), str)
    ][:CHOICES_MAX]


def stored_undoable(meta: dict[str, Any] | None) -> bool:
    """Whether "undo" sent next would reverse the change a stored reply's meta records: its
    `undo` names a tool (one change) or non-empty `steps` (the turn's several changes, undone
    together). False for a reply that changed nothing, a change that cannot be undone
    (`{"tool": None}`: a bulk change, a rename whose old title was never seen), a reply that
    itself undid a change (`undone`), and one stored before replies recorded their undo."""
    found = meta or {}
    undo = found.get("undo")
    if found.get("undone") or not isinstance(undo, dict):
        return False
    steps = undo.get("steps")
    return bool(undo.get("tool")) or (isinstance(steps, list) and len(steps) > 0)


class MessagePublic(SQLModel):
    id: int
    role: str
    content: str
    tool_calls: list[dict[str, Any]]
    # An assistant message's choices (each message its own; only the last one's still apply).
    choices: list[Choice]
    # Whether the assistant message's change can be undone (false for user messages, replies
    # that changed nothing and those stored before replies recorded their undo).
    undoable: bool
    created_at: datetime
