"""Where an OpenAI-compatible client's conversation stands (specs/openai-compatible.md).

Such a client sends the whole history with every message. After each turn the fingerprint of
that history through the assistant's reply is kept here, naming the stored conversation and
the reply it ends at, so the next message, sent with that history before it, continues the
same conversation (decision 0037)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow

# SHA-256, hex.
FINGERPRINT_LENGTH = 64


class ChatThread(SQLModel, table=True):
    __tablename__ = "chat_thread"

    # Per account: another account's identical history never leads into this one's.
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE", primary_key=True)
    fingerprint: str = Field(max_length=FINGERPRINT_LENGTH, primary_key=True)
    conversation_id: int = Field(foreign_key="conversation.id", ondelete="CASCADE", index=True)
    # The assistant's reply the history ends at: the conversation's newest message until it
    # moves on (then a message sent after this history forks it).
    message_id: int
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
