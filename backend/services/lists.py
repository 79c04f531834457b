"""The account's lists (`/api/lists`): read with counts, made, renamed, deleted.

A task names its list; renaming a list renames it on its tasks, and deleting one moves its
tasks to Inbox, each in one statement (specs/issue-14-dates-lists.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.models import Task, TaskList
from backend.models.task import DEFAULT_LIST
from backend.services.errors import InboxIsFixedError, ListExistsError, ListNotFoundError


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


async def create_list(session: AsyncSession, *, owner_id: int, name: str) -> TaskList:
    made = TaskList(owner_id=owner_id, name=name, name_key=name.lower(), created_at=utcnow())
    session.add(made)
    try:
        await session.commit()
    except IntegrityError as exc:
        await session.rollback()
        raise ListExistsError(name) from exc
    return made


async def rename_list(session: AsyncSession, *, owner_id: int, name: str, new_name: str) -> str:
    if name.lower() == DEFAULT_LIST.lower():
        raise InboxIsFixedError()
    found = await _named(session, owner_id, name)
    old_key = found.name_key
    if new_name.lower() != old_key:
        taken = (
            await session.exec(
                select(TaskList.id).where(
                    col(TaskList.owner_id) == owner_id, col(TaskList.name_key) == new_name.lower()
                )
            )
        ).first()
        if taken is not None:
            raise ListExistsError(new_name)
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
