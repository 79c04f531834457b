"""Tasks as the user who asked sees them: their own number for each, the name they call its
list, on a shared list who added and completed it, and only their own reminder
(specs/sharing.md).

The task service hands every caller tasks through here. A task seen by its owner is the
stored row itself; one seen by a member is a copy carrying the member's number and list
name, never added to a session: no caller can read or write the owner's number through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.models import Task, User
from backend.models.task import TaskSharing
from backend.services.list_directory import ListDirectory, ListEntry, directory


async def seen(
    session: AsyncSession,
    user_id: int,
    rows: Sequence[tuple[Task, int]],
    lists: ListDirectory | None = None,
) -> list[Task]:
    """Each (task, the user's number for it) as the user sees it, in order."""
    if not rows:
        return []
    lists = lists or await directory(session, user_id)
    entries = [lists.of_task(task.owner_id, task.list_name) for task, _ in rows]
    emails = await _emails(
        session, [t for (t, _), e in zip(rows, entries, strict=True) if _on_shared(e)]
    )
    return [
        _as_seen(task, number, user_id, entry, emails)
        for (task, number), entry in zip(rows, entries, strict=True)
    ]


async def seen_one(
    session: AsyncSession, user_id: int, task: Task, number: int, lists: ListDirectory | None = None
) -> Task:
    [one] = await seen(session, user_id, [(task, number)], lists)
    return one


def _on_shared(entry: ListEntry | None) -> bool:
    return entry is not None and (entry.shared or entry.role != "owner")


async def _emails(session: AsyncSession, tasks: Sequence[Task]) -> dict[int, str]:
    ids = {i for t in tasks for i in (t.added_by_id, t.completed_by_id) if i is not None}
    if not ids:
        return {}
    found = await session.exec(select(User.id, User.email).where(col(User.id).in_(ids)))
    return {int(i): str(email) for i, email in found.all() if i is not None}


def _as_seen(
    task: Task, number: int, user_id: int, entry: ListEntry | None, emails: dict[int, str]
) -> Task:
    view = task
    # A reminder is its setter's: another member's is not shown (nor its time).
    theirs = task.remind_user_id is not None and task.remind_user_id != user_id
    if task.owner_id != user_id or number != task.number or theirs:
        view = Task(**task.model_dump())
        view.number = number
        if entry is not None:
            view.list_name = entry.shown
        if theirs:
            view.remind_at, view.remind_before = None, None
    if _on_shared(entry):
        assert entry is not None
        view._sharing = TaskSharing(
            role=entry.role,
            # A task from before its list was shared was its owner's to add.
            added_by=emails.get(task.added_by_id) if task.added_by_id else entry.owner_email,
            completed_by=emails.get(task.completed_by_id) if task.completed_by_id else None,
        )
    else:
        view._sharing = None
    return view
