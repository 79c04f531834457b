"""The task service: every read and write of tasks, scoped by owner.

Used alike by the REST routes and the MCP tools. Callers pass validated `TaskCreate` /
`TaskUpdate` data and the owner's id; a task is addressed by its per-user number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, bindparam, delete, func, literal, or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

from backend.core.timeutil import utcnow
from backend.models import Task, TaskCreate, TaskStatus, TaskUpdate, User
from backend.services.errors import AccountGoneError, TaskLimitError, TaskNotFoundError
from backend.services.title_words import canonical

# Statements every tool call runs are built once, with bound parameters: building one costs
# SQLAlchemy more CPU than executing it. ORM DML here returns the rows it changed (one round
# trip instead of a SELECT then a write), refreshing any copy the session already holds.
_ORM_DML: dict[str, Any] = {"synchronize_session": False, "populate_existing": True}
_NEXT_NUMBER = (
    update(User)
    .where(col(User.id) == bindparam("oid"))
    .values(last_task_number=User.last_task_number + 1)
    .returning(col(User.last_task_number))
)
_OWNED_NUMBER = (col(Task.owner_id) == bindparam("oid")) & (col(Task.number) == bindparam("num"))
_GET = select(Task).where(_OWNED_NUMBER)
_DELETE = delete(Task).where(_OWNED_NUMBER).returning(Task).execution_options(**_ORM_DML)


async def _next_task_number(session: AsyncSession, owner_id: int) -> int:
    # The row update locks the user's counter until commit (PostgreSQL row lock; SQLite
    # write lock), so concurrent creates get distinct numbers and deleted ones never return.
    result = await session.exec(_NEXT_NUMBER, params={"oid": owner_id})
    number = result.scalar_one_or_none()
    if number is None:
        raise AccountGoneError(owner_id)
    return int(number)


async def create_task(
    session: AsyncSession, *, owner_id: int, data: TaskCreate, max_tasks: int | None = None
) -> Task:
    number = await _next_task_number(session, owner_id)
    # Numbers only grow, so an account that never made `max_tasks` tasks cannot hold that
    # many: only those pay for the count (under the counter's lock: no race past the cap).
    if max_tasks is not None and number > max_tasks:
        if await count_tasks(session, owner_id=owner_id) >= max_tasks:
            await session.rollback()
            raise TaskLimitError(max_tasks)
    task = Task(owner_id=owner_id, number=number, title=data.title, description=data.description)
    session.add(task)
    await session.commit()
    return task


def _status_filter(status: TaskStatus) -> bool | None:
    if status is TaskStatus.PENDING:
        return False
    if status is TaskStatus.COMPLETED:
        return True
    return None


# Words that say nothing about which task is meant.
_STOPWORDS = frozenset(
    "the a an my our your to of for and or with on in at by from this that it task tasks todo "
    "item one list".split()
)
# A word's first letters find it despite a typo later in the word ("grocries" -> "groc").
_STEM_LENGTH = 4


def title_search_terms(text: str) -> list[str]:
    """The lower-cased word stems a title search narrows on."""
    words = [w.strip(".,!?;:'\"()[]") for w in text.lower().split()]
    words += [canonical(w) for w in words if canonical(w) != w]  # "mother" also finds "mom"
    return sorted({w[:_STEM_LENGTH] for w in words if _searchable(w) and w not in _STOPWORDS})


def _searchable(word: str) -> bool:
    """Three letters or more; or two with a digit ("q4", "5k"), which name a task as surely."""
    return len(word) >= 3 or (len(word) == 2 and any(c.isdigit() for c in word))


def _like_escape(term: str) -> str:
    return term.replace("/", "//").replace("%", "/%").replace("_", "/_")


def _inline(value: str) -> ColumnElement[str]:
    """A string rendered into the SQL (quoted by SQLAlchemy) when the statement runs. Bound
    parameters would let PostgreSQL switch, after five runs, to a generic plan that cannot
    use the trigram index on titles and scans every one of the user's tasks instead."""
    return literal(value, literal_execute=True)


def _title_filter(text: str) -> ColumnElement[bool]:
    title = func.lower(col(Task.title))
    conditions = [title == _inline(text.strip().lower())]
    conditions += [
        title.like(_inline(f"%{_like_escape(term)}%"), escape="/")
        for term in title_search_terms(text)
    ]
    return or_(*conditions)


async def list_tasks(
    session: AsyncSession,
    *,
    owner_id: int,
    status: TaskStatus = TaskStatus.ALL,
    limit: int | None = None,
    title_search: str | None = None,
) -> Sequence[Task]:
    """The owner's tasks by number; `title_search` keeps only titles sharing a word stem (or
    equal to it), so resolving a title never loads a whole large list."""
    query = _list_statement(_status_filter(status), limited=limit is not None)
    if title_search is not None and title_search.strip():
        query = query.where(_title_filter(title_search))
    result = await session.exec(query, params={"oid": owner_id, "limit": limit})
    return result.all()


@cache
def _list_statement(completed: bool | None, *, limited: bool) -> SelectOfScalar[Task]:
    query = select(Task).where(col(Task.owner_id) == bindparam("oid"))
    if completed is not None:
        query = query.where(col(Task.completed) == completed)
    query = query.order_by(col(Task.number))
    return query.limit(bindparam("limit")) if limited else query


async def count_tasks(
    session: AsyncSession, *, owner_id: int, status: TaskStatus = TaskStatus.ALL
) -> int:
    query = select(func.count()).select_from(Task).where(Task.owner_id == owner_id)
    completed = _status_filter(status)
    if completed is not None:
        query = query.where(Task.completed == completed)
    result = await session.exec(query)
    return int(result.one())


async def get_task(session: AsyncSession, *, owner_id: int, task_id: int) -> Task:
    task = (await session.exec(_GET, params={"oid": owner_id, "num": task_id})).first()
    if task is None:
        raise TaskNotFoundError(task_id)
    return task


async def update_task(
    session: AsyncSession, *, owner_id: int, task_id: int, data: TaskUpdate
) -> Task:
    changes = data.model_dump(exclude_unset=True)
    # An explicit null title means "leave it"; a title is never removed.
    if changes.get("title") is None:
        changes.pop("title", None)
    if changes.get("completed") is None:
        changes.pop("completed", None)
    if not changes:
        return await get_task(session, owner_id=owner_id, task_id=task_id)
    statement = (
        update(Task)
        .where(col(Task.owner_id) == owner_id, col(Task.number) == task_id)
        .values(**changes, updated_at=utcnow())
        .returning(Task)
        .execution_options(**_ORM_DML)
    )
    task: Task | None = (await session.exec(statement)).scalars().first()
    if task is None:
        raise TaskNotFoundError(task_id)
    await session.commit()
    return task


async def complete_task(session: AsyncSession, *, owner_id: int, task_id: int) -> Task:
    return await update_task(
        session, owner_id=owner_id, task_id=task_id, data=TaskUpdate(completed=True)
    )


async def delete_task(session: AsyncSession, *, owner_id: int, task_id: int) -> Task:
    result = await session.exec(_DELETE, params={"oid": owner_id, "num": task_id})
    task: Task | None = result.scalars().first()
    if task is None:
        raise TaskNotFoundError(task_id)
    await session.commit()
    return task


@dataclass(frozen=True)
class BulkChange:
    """What one bulk statement changed: task numbers in order, with their titles."""

    numbers: list[int]
    titles: list[str]
    # Asked-for numbers that are none of the user's tasks (bulk by numbers only).
    missing: list[int] = field(default_factory=list)


def _bulk_scope(
    owner_id: int, numbers: Sequence[int] | None, status: TaskStatus | None
) -> list[ColumnElement[bool]]:
    if (numbers is None) == (status is None):
        raise ValueError("give task numbers or a status, not both")
    scope = [col(Task.owner_id) == owner_id]
    if numbers is not None:
        scope.append(col(Task.number).in_(sorted(set(numbers))))
    elif (completed := _status_filter(status or TaskStatus.ALL)) is not None:
        scope.append(col(Task.completed) == completed)
    return scope


async def _run_bulk(
    session: AsyncSession, statement: Any, numbers: Sequence[int] | None
) -> BulkChange:
    rows = sorted((await session.exec(statement)).all())
    await session.commit()
    changed = [int(number) for number, _ in rows]
    found = set(changed)
    missing = sorted({n for n in numbers or () if n not in found})
    return BulkChange(changed, [str(title) for _, title in rows], missing)


async def complete_tasks(
    session: AsyncSession,
    *,
    owner_id: int,
    numbers: Sequence[int] | None = None,
    status: TaskStatus | None = None,
) -> BulkChange:
    """Completes the given tasks, or every task of `status`, in one statement (a pending
    task asked for by number; with `status`, only pending ones change)."""
    scope = _bulk_scope(owner_id, numbers, status)
    if status is not None:
        scope.append(col(Task.completed).is_(False))
    statement = (
        update(Task)
        .where(*scope)
        .values(completed=True, updated_at=utcnow())
        .returning(col(Task.number), col(Task.title))
        .execution_options(synchronize_session=False)
    )
    return await _run_bulk(session, statement, numbers)


async def delete_tasks(
    session: AsyncSession,
    *,
    owner_id: int,
    numbers: Sequence[int] | None = None,
    status: TaskStatus | None = None,
) -> BulkChange:
    """Deletes the given tasks, or every task of `status`, in one statement."""
    scope = _bulk_scope(owner_id, numbers, status)
    statement = (
        delete(Task)
        .where(*scope)
        .returning(col(Task.number), col(Task.title))
        .execution_options(synchronize_session=False)
    )
    return await _run_bulk(session, statement, numbers)
