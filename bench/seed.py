"""Bulk data for the scaling measurements, written straight into the database."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import insert, update
from sqlmodel import col

from backend.core.config import Settings
from backend.core.db import create_engine
from backend.core.timeutil import utcnow
from backend.models import Message, Task, User
from bench.server import SECRET

BATCH = 2000


async def _seed(database_url: str, statements: list[object]) -> None:
    engine = create_engine(Settings(database_url=database_url, secret_key=SECRET))
    try:
        async with engine.begin() as connection:
            for statement, rows in statements:  # type: ignore[misc]
                for start in range(0, len(rows), BATCH):
                    await connection.execute(statement, rows[start : start + BATCH])
    finally:
        await engine.dispose()


def messages(database_url: str, *, user_id: int, conversation_id: int, count: int) -> None:
    """`count` older messages before the conversation's current ones."""
    base = utcnow() - timedelta(days=30)
    rows = [
        {
            "conversation_id": conversation_id,
            "owner_id": user_id,
            "role": "user" if i % 2 == 0 else "assistant",
            "content": f"old message {i}",
            "tool_calls": [],
            "meta": {},
            "created_at": base + timedelta(seconds=i),
        }
        for i in range(count)
    ]
    asyncio.run(_seed(database_url, [(insert(Message), rows)]))


def tasks(database_url: str, *, user_id: int, count: int, first_number: int) -> None:
    """`count` pending tasks numbered from `first_number`, and the user's counter moved on."""
    now = utcnow()
    words = ("report", "invoice", "call", "email", "laundry", "dentist", "flight", "plants")
    rows = [
        {
            "owner_id": user_id,
            "number": first_number + i,
            "title": f"{words[i % len(words)]} number {i}",
            "description": None,
            "completed": i % 3 == 0,
            "created_at": now,
            "updated_at": now,
        }
        for i in range(count)
    ]
    last = first_number + count - 1
    asyncio.run(
        _seed(
            database_url,
            [
                (insert(Task), rows),
                (update(User).where(col(User.id) == user_id).values(last_task_number=last), [{}]),
            ],
        )
    )


def reopen_all(database_url: str, *, user_id: int) -> None:
    """Every task of the user pending again (so "mark everything as done" has work to do)."""
    statement = update(Task).where(col(Task.owner_id) == user_id).values(completed=False)
    asyncio.run(_seed_statement(database_url, statement))


async def _seed_statement(database_url: str, statement: object) -> None:
    engine = create_engine(Settings(database_url=database_url, secret_key=SECRET))
    try:
        async with engine.begin() as connection:
            await connection.execute(statement)  # type: ignore[arg-type]
    finally:
        await engine.dispose()
