"""A user's data as portable JSON: export and import (backup, restore, move between databases).

The document holds the account (with its password hash, so the restored account signs in as
before), every task with its number, and every conversation with its messages. Treat it as
the personal data it is.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.models import Conversation, Message, Task, User
from backend.services.errors import ServiceError
from backend.services.users import normalize_email

FORMAT = "todo-chatbot/user-export"
VERSION = 1


class ImportConflictError(ServiceError):
    pass


def _time(value: datetime) -> str:
    return value.isoformat()


async def export_user(session: AsyncSession, *, email: str) -> dict[str, Any]:
    user = (await session.exec(select(User).where(User.email == normalize_email(email)))).first()
    if user is None or user.id is None:
        raise LookupError(f"no user with email {email}")
    found_tasks = await session.exec(
        select(Task).where(Task.owner_id == user.id).order_by(col(Task.number))
    )
    found_conversations = await session.exec(
        select(Conversation).where(Conversation.owner_id == user.id).order_by(col(Conversation.id))
    )
    conversations = []
    for conversation in found_conversations.all():
        messages = await session.exec(
            select(Message)
            .where(Message.conversation_id == conversation.id)
            .order_by(col(Message.id))
        )
        conversations.append(
            {
                "title": conversation.title,
                "created_at": _time(conversation.created_at),
                "updated_at": _time(conversation.updated_at),
                "messages": [
                    {
                        "role": m.role,
                        "content": m.content,
                        "tool_calls": m.tool_calls,
                        "meta": m.meta,
                        "created_at": _time(m.created_at),
                    }
                    for m in messages.all()
                ],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "user": {
            "email": user.email,
            "hashed_password": user.hashed_password,
            "last_task_number": user.last_task_number,
            "created_at": _time(user.created_at),
        },
        "tasks": [
            {
                "number": t.number,
                "title": t.title,
                "description": t.description,
                "completed": t.completed,
                "created_at": _time(t.created_at),
                "updated_at": _time(t.updated_at),
            }
            for t in found_tasks.all()
        ],
        "conversations": conversations,
    }


async def import_user(session: AsyncSession, document: dict[str, Any]) -> User:
    """Restores one exported user, with the same task numbers. Refuses to overwrite: an
    existing account with that email must be removed first."""
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise ImportConflictError(f"not a {FORMAT} v{VERSION} document")
    account = document["user"]
    email = normalize_email(account["email"])
    if (await session.exec(select(User).where(User.email == email))).first() is not None:
        raise ImportConflictError(f"a user with email {email} already exists")
    numbers = [int(t["number"]) for t in document["tasks"]]
    user = User(
        email=email,
        hashed_password=account["hashed_password"],
        last_task_number=max([int(account["last_task_number"]), *numbers, 0]),
        created_at=datetime.fromisoformat(account["created_at"]),
    )
    session.add(user)
    await session.flush()
    assert user.id is not None
    for task in document["tasks"]:
        session.add(
            Task(
                owner_id=user.id,
                number=int(task["number"]),
                title=task["title"],
                description=task["description"],
                completed=bool(task["completed"]),
                created_at=datetime.fromisoformat(task["created_at"]),
                updated_at=datetime.fromisoformat(task["updated_at"]),
            )
        )
    for exported in document["conversations"]:
        conversation = Conversation(
            owner_id=user.id,
            title=exported["title"],
            created_at=datetime.fromisoformat(exported["created_at"]),
            updated_at=datetime.fromisoformat(exported["updated_at"]),
        )
        session.add(conversation)
        await session.flush()
        assert conversation.id is not None
        for message in exported["messages"]:
            session.add(
                Message(
                    conversation_id=conversation.id,
                    owner_id=user.id,
                    role=message["role"],
                    content=message["content"],
                    tool_calls=message["tool_calls"],
                    meta=message["meta"],
                    created_at=datetime.fromisoformat(message["created_at"]),
                )
            )
    await session.commit()
    return user
