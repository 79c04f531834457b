"""The account's lists (`/api/lists`): read with counts, made, renamed, deleted.

A task names its list; renaming a list renames it on its tasks, and deleting one moves its
tasks to Inbox, each in one statement (specs/decisions/0018-lists-tags-and-priorities.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.domain.errors import (
    InboxIsFixedError,
    ListExistsError,
    ListLimitError,
    ListLooksLikeError,
    ListNotFoundError,
)
from backend.domain.list_names import looks_like
from backend.models import Task, TaskList, User
from backend.models.task import DEFAULT_LIST


@dataclass(frozen=True)
class ListCount:
    name: str
    pending: int
    total: int


async def lists_with_counts(session: AsyncSession, *, owner_id: int) -> list[ListCount]:
    """Every list of the account, Inbox first then in the order they were made, with how
    many of its tasks are pending and in all."""
    names = (
        await session.exec(
            select(TaskList.name)
            .where(col(TaskList.owner_id) == owner_id)
            .order_by(col(TaskList.name_key) != DEFAULT_LIST.lower(), col(TaskList.id))
        )
    ).all()
    pending = func.sum(case((col(Task.completed).is_(False), 1), else_=0))
    rows = (
        await session.exec(
            select(func.lower(col(Task.list_name)), pending, func.count())
            .where(col(Task.owner_id) == owner_id)
            .group_by(func.lower(col(Task.list_name)))
        )
    ).all()
    counts = {str(key): (int(p or 0), int(n)) for key, p, n in rows}
    return [ListCount(str(n), *counts.get(str(n).lower(), (0, 0))) for n in names]


async def _named(session: AsyncSession, owner_id: int, name: str) -> TaskList:
    found = (
        await session.exec(
            select(TaskList).where(
                col(TaskList.owner_id) == owner_id, col(TaskList.name_key) == name.lower()
            )
        )
    ).first()
    if found is None:
        raise ListNotFoundError()
    return found


async def _names(session: AsyncSession, owner_id: int) -> list[str]:
    found = await session.exec(select(TaskList.name).where(col(TaskList.owner_id) == owner_id))
    return [str(name) for name in found.all()]


async def add_list(
    session: AsyncSession, *, owner_id: int, name: str, max_lists: int | None = None
) -> TaskList:
    """A new list (flushed, committed by the caller), if the account may have it: fewer
    than `max_lists` lists, and none whose name looks like this one (`list_names`)."""
    # The account's row lock (PostgreSQL; SQLite's write lock is taken at BEGIN) until
    # commit: two new lists at once cannot both pass the count or the look-alike check.
    await session.exec(select(User.id).where(col(User.id) == owner_id).with_for_update())
    names = await _names(session, owner_id)
    if max_lists is not None and len(names) >= max_lists:
        raise ListLimitError(max_lists)
    similar = looks_like(name, names)
    if similar is not None:
        raise ListLooksLikeError(name, similar)
    made = TaskList(owner_id=owner_id, name=name, name_key=name.lower(), created_at=utcnow())
    session.add(made)
    await session.flush()
    return made


async def create_list(
    session: AsyncSession, *, owner_id: int, name: str, max_lists: int | None = None
) -> TaskList:
    try:
        made = await add_list(session, owner_id=owner_id, name=name, max_lists=max_lists)
        await session.commit()
    except IntegrityError as exc:
        await session.rollback()
        raise ListExistsError(name) from exc
    except (ListLimitError, ListLooksLikeError):
        await session.rollback()
        raise
    return made


async def rename_list(session: AsyncSession, *, owner_id: int, name: str, new_name: str) -> str:
    if name.lower() == DEFAULT_LIST.lower():
        raise InboxIsFixedError()
    found = await _named(session, owner_id, name)
    old_key = found.name_key
    if new_name.lower() != old_key:
        others = [n for n in await _names(session, owner_id) if n.lower() != old_key]
        if new_name.lower() in {n.lower() for n in others}:
            raise ListExistsError(new_name)
        similar = looks_like(new_name, others)
        if similar is not None:
            raise ListLooksLikeError(new_name, similar)
    found.name, found.name_key = new_name, new_name.lower()
    session.add(found)
    await session.exec(
        update(Task)
        .where(col(Task.owner_id) == owner_id, func.lower(col(Task.list_name)) == old_key)
        .values(list_name=new_name, updated_at=utcnow())
    )
    await session.commit()
    return new_name


async def delete_list(session: AsyncSession, *, owner_id: int, name: str) -> int:
    """Deletes the list; its tasks move to Inbox. Returns how many moved."""
    if name.lower() == DEFAULT_LIST.lower():
        raise InboxIsFixedError()
    found = await _named(session, owner_id, name)
    moved = await session.exec(
        update(Task)
        .where(col(Task.owner_id) == owner_id, func.lower(col(Task.list_name)) == found.name_key)
        .values(list_name=DEFAULT_LIST, updated_at=utcnow())
    )
    await session.exec(delete(TaskList).where(col(TaskList.id) == found.id))
    await session.commit()
    return int(moved.rowcount or 0)
