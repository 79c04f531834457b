"""Notes that a shared list, or one user's lists, changed (`change_note`, specs/sharing.md):
written in the change's own transaction, read by each process's stream fan-out
(backend/reminders/fanout.py), which tells the open web UIs of the people concerned to read
their tasks or lists again. A note says what to read again, never what changed: the web UI
reads it through the same authorized paths as any request.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import Exists, Integer, String, bindparam, delete, func, insert, literal, union_all
from sqlalchemy import select as select_columns
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import UTCDateTime, utcnow
from backend.models import ChangeNote, ListMember, MemberStatus, TaskList, User

# How long a note is kept: far longer than any stream's look-back.
KEPT_FOR = timedelta(minutes=10)


class Kind(StrEnum):
    TASKS = "tasks"
    LISTS = "lists"
    INVITATIONS = "invitations"


def _kinds(kinds: Iterable[Kind]) -> str:
    return ",".join(sorted({kind.value for kind in kinds}))


def _shared(list_id: Any) -> Exists:
    return (
        select(ListMember.id)
        .where(
            col(ListMember.list_id) == list_id,
            col(ListMember.status) == MemberStatus.ACCEPTED.value,
        )
        .exists()
    )


# Built once (building costs SQLAlchemy more than running it): a note for one list, named
# by its owner and key, if anyone shares it. Every change to a task runs it.
_NOTE_ONE_LIST = insert(ChangeNote).from_select(
    ["list_id", "kinds", "at"],
    select_columns(
        col(TaskList.id), bindparam("kinds", type_=String), bindparam("at", type_=UTCDateTime)
    ).where(
        col(TaskList.owner_id) == bindparam("oid", type_=Integer),
        col(TaskList.name_key) == bindparam("key", type_=String),
        _shared(col(TaskList.id)),
    ),
)


async def note_lists_of_tasks(
    session: AsyncSession, lists: Iterable[tuple[int, str]], *kinds: Kind
) -> None:
    """A note for each of these lists (owner id, stored name) that is shared, in the
    caller's transaction; nothing for a list nobody shares."""
    named = _kinds(kinds or (Kind.TASKS,))
    now = utcnow()
    # On the session's connection: an ORM insert with parameters would be a bulk insert.
    connection = await session.connection()
    for owner, key in sorted({(owner, name.lower()) for owner, name in lists}):
        params = {"kinds": named, "at": now, "oid": owner, "key": key}
        await connection.execute(_NOTE_ONE_LIST, params)


async def note_list(session: AsyncSession, list_id: int, *kinds: Kind) -> None:
    """A note for the list's owner and members, whoever they are when it is read."""
    session.add(ChangeNote(list_id=list_id, kinds=_kinds(kinds), at=utcnow()))


async def note_users(session: AsyncSession, user_ids: Iterable[int], *kinds: Kind) -> None:
    for user_id in sorted(set(user_ids)):
        session.add(ChangeNote(user_id=user_id, kinds=_kinds(kinds), at=utcnow()))


async def note_email(session: AsyncSession, email: str, *kinds: Kind) -> None:
    """A note for the account holding `email`, if one does (an invitation sent to it)."""
    holder = select_columns(col(User.id), literal(_kinds(kinds)), literal(utcnow())).where(
        col(User.email) == email
    )
    await session.exec(insert(ChangeNote).from_select(["user_id", "kinds", "at"], holder))


async def newest_id(session: AsyncSession, *, before: datetime | None = None) -> int:
    """The newest note's id (of those written before `before`, if given); 0 for none."""
    statement = select(func.max(col(ChangeNote.id)))
    if before is not None:
        statement = statement.where(col(ChangeNote.at) < before)
    found = (await session.exec(statement)).first()
    return int(found or 0)


@dataclass(frozen=True)
class Heard:
    """What one user has to hear of the notes since a floor, one row per kind of note: the
    newest note's id and how many there are (a note committed late, under a lower id, still
    raises the count)."""

    user_id: int
    kinds: str
    newest: int
    count: int


async def since(session: AsyncSession, *, after: int, users: Sequence[int]) -> list[Heard]:
    """The notes after id `after` for any of `users`, summed up per user and kind: as many
    rows as the users have kinds of note, however many notes there are. A list's note reaches
    its owner and its accepted members as they stand now."""
    if not users:
        return []
    people = union_all(
        select_columns(col(TaskList.id).label("list_id"), col(TaskList.owner_id).label("user_id")),
        select_columns(
            col(ListMember.list_id).label("list_id"), col(ListMember.user_id).label("user_id")
        ).where(col(ListMember.status) == MemberStatus.ACCEPTED.value),
    ).subquery()
    by_list = (
        select_columns(col(ChangeNote.id), people.c.user_id, col(ChangeNote.kinds))
        .join(people, people.c.list_id == col(ChangeNote.list_id))
        .where(col(ChangeNote.id) > after, people.c.user_id.in_(users))
    )
    by_user = select_columns(
        col(ChangeNote.id), col(ChangeNote.user_id), col(ChangeNote.kinds)
    ).where(col(ChangeNote.id) > after, col(ChangeNote.user_id).in_(users))
    both = union_all(by_list, by_user).subquery()
    statement = select_columns(
        both.c.user_id, both.c.kinds, func.max(both.c.id), func.count()
    ).group_by(both.c.user_id, both.c.kinds)
    rows = (await (await session.connection()).execute(statement)).all()
    return [
        Heard(int(user), str(kinds), int(newest), int(count))
        for user, kinds, newest, count in rows
        if user is not None
    ]


async def prune(session: AsyncSession, now: datetime | None = None) -> int:
    """Deletes notes older than KEPT_FOR; how many."""
    cutoff = (now or utcnow()) - KEPT_FOR
    result = await session.exec(delete(ChangeNote).where(col(ChangeNote.at) < cutoff))
    await session.commit()
    return int(result.rowcount or 0)
