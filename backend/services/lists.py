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
    NotListOwnerError,
)
from backend.domain.list_names import looks_like
from backend.models import Task, TaskList, TaskSeat, User
from backend.models.task import DEFAULT_LIST
from backend.services import change_notes, sharing
from backend.services.change_notes import Kind
from backend.services.list_directory import ListEntry, directory


@dataclass(frozen=True)
class ListCount:
    name: str
    pending: int
    total: int
    # The list as the caller sees it: theirs or shared with them, and by whom.
    entry: ListEntry


async def lists_with_counts(session: AsyncSession, *, user_id: int) -> list[ListCount]:
    """Every list the user sees, theirs first (Inbox first then in the order they were made)
    then those shared with them, each as they call it, with how many of its tasks are
    pending and in all."""
    lists = await directory(session, user_id)
    pending = func.sum(case((col(Task.completed).is_(False), 1), else_=0))
    key = func.lower(col(Task.list_name))
    rows = (
        await session.exec(
            select(col(Task.owner_id), key, pending, func.count())
            .join(TaskSeat, col(TaskSeat.task_pk) == col(Task.pk))
            .where(col(TaskSeat.user_id) == user_id)
            .group_by(col(Task.owner_id), key)
        )
    ).all()
    counts = {(int(owner), str(k)): (int(p or 0), int(n)) for owner, k, p, n in rows}
    return [ListCount(e.shown, *counts.get(e.key, (0, 0)), e) for e in lists.entries]


async def _refuse_if_shared_with_me(
    session: AsyncSession, user_id: int, name: str, what: str
) -> None:
    """A member naming a list shared with them, to rename or delete it: only its owner may."""
    entry = (await directory(session, user_id)).find(name)
    if entry is not None and entry.role != "owner":
        raise NotListOwnerError(entry.shown, what)


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
    await _refuse_if_shared_with_me(session, owner_id, name, "rename it")
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
    await change_notes.note_lists_of_tasks(session, [(owner_id, new_name)], Kind.LISTS, Kind.TASKS)
    await session.commit()
    return new_name


async def delete_list(session: AsyncSession, *, owner_id: int, name: str) -> int:
    """Deletes the list; its tasks move to Inbox. Returns how many moved. A shared list's
    members lose it at once: their memberships, and with them their seats, go with it."""
    if name.lower() == DEFAULT_LIST.lower():
        raise InboxIsFixedError()
    await _refuse_if_shared_with_me(session, owner_id, name, "delete it")
    found = await _named(session, owner_id, name)
    await sharing.forget_members(session, owner_id=owner_id, list_name=found.name)
    moved = await session.exec(
        update(Task)
        .where(col(Task.owner_id) == owner_id, func.lower(col(Task.list_name)) == found.name_key)
        .values(list_name=DEFAULT_LIST, updated_at=utcnow())
    )
    await session.exec(delete(TaskList).where(col(TaskList.id) == found.id))
    await session.commit()
    return int(moved.rowcount or 0)
