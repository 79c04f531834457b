"""Bulk data for the scaling measurements, written straight into the database."""

from __future__ import annotations

import asyncio
import random
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import insert, update
from sqlmodel import col

from backend.core.config import Settings
from backend.core.db import create_engine
from backend.core.timeutil import utcnow
from backend.domain.due import due_instant, today_in
from backend.models import Message, Task, TaskList, User
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


# A year of real use (bench.task_filters): the lists, tags and words tasks are drawn from.
EXTRA_LISTS = ("Work", "Home", "Errands", "Health", "Finance", "Side project")
LISTS = ("Inbox", "Shopping", *EXTRA_LISTS)
TAG_VOCABULARY = ("work", "home", "urgent", "call", "email", "weekly", "waiting", "errand")
_LIST_WEIGHTS = (30, 10, 20, 12, 10, 8, 5, 5)
_PRIORITIES = ("none", "low", "medium", "high")
_PRIORITY_WEIGHTS = (50, 20, 18, 12)
_VERBS = ("call", "email", "buy", "fix", "book", "pay", "review", "write", "clean", "plan")
_NOUNS = ("report", "invoice", "dentist", "flight", "plants", "laundry", "taxes", "car", "mum")


def _due_fields(rng: random.Random, today: date, zone_name: str) -> dict[str, Any]:
    """~60% dated, up to 45 days either side of today; about a third of those at a time."""
    if rng.random() >= 0.6:
        return {"due_date": None, "due_time": None, "due_at": None}
    day = today + timedelta(days=rng.randint(-45, 45))
    clock = time(rng.randint(7, 20), rng.choice((0, 30))) if rng.random() < 0.35 else None
    return {"due_date": day, "due_time": clock, "due_at": due_instant(day, clock, zone_name)}


def _tags_text(rng: random.Random) -> str:
    """Two in five tasks untagged, the rest one to three tags (stored as " a b ")."""
    if rng.random() < 0.4:
        return " "
    return f" {' '.join(rng.sample(TAG_VOCABULARY, rng.randint(1, 3)))} "


def _varied_task(
    rng: random.Random, *, user_id: int, number: int, today: date, now: datetime, zone_name: str
) -> dict[str, Any]:
    created = now - timedelta(minutes=rng.randint(0, 365 * 24 * 60))
    return {
        "owner_id": user_id,
        "number": number,
        "title": f"{rng.choice(_VERBS)} {rng.choice(_NOUNS)} {number}",
        "description": f"note {number}" if rng.random() < 0.2 else None,
        "completed": rng.random() < 0.3,
        "created_at": created,
        "updated_at": created,
        "priority": rng.choices(_PRIORITIES, _PRIORITY_WEIGHTS)[0],
        "list_name": rng.choices(LISTS, _LIST_WEIGHTS)[0],
        "tags_text": _tags_text(rng),
        **_due_fields(rng, today, zone_name),
    }


def varied_tasks(database_url: str, *, user_id: int, count: int, zone_name: str = "UTC") -> None:
    """`count` tasks numbered from 1 with due dates (past and future, some timed),
    priorities, lists and tags spread as in real use, ~30% done; the account's extra lists
    made (it has Inbox and Shopping from sign-up) and its counter moved on. The same user id
    always gets the same tasks."""
    rng = random.Random(user_id)
    now = utcnow()
    today = today_in(zone_name)
    rows = [
        _varied_task(rng, user_id=user_id, number=n, today=today, now=now, zone_name=zone_name)
        for n in range(1, count + 1)
    ]
    lists = [
        {"owner_id": user_id, "name": name, "name_key": name.lower(), "created_at": now}
        for name in EXTRA_LISTS
    ]
    counter = update(User).where(col(User.id) == user_id).values(last_task_number=count)
    asyncio.run(
        _seed(
            database_url,
            [(insert(TaskList), lists), (insert(Task), rows), (counter, [{}])],
        )
    )
