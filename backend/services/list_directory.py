"""The lists one user sees, and what they call each (specs/sharing.md).

A user sees their own lists and the lists shared with them that they accepted. A shared
list is called by its name unless the member has a list of that name already (their own, or
another shared one): then it is "<name> (<owner's email>)", in every path (the web UI, REST,
MCP and chat), so two lists never answer to one name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Literal

from sqlalchemy import ColumnElement, Integer, bindparam, func, literal, null, union_all
from sqlalchemy import select as select_columns
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.models import ListMember, MemberStatus, TaskList, User
from backend.models.task import DEFAULT_LIST

Role = Literal["owner", "editor", "viewer"]


@dataclass(frozen=True)
class ListEntry:
    """One list as one user sees it."""

    list_id: int
    owner_id: int
    owner_email: str
    # Its name as stored (what its tasks' `list_name` holds), and as this user calls it.
    name: str
    shown: str
    role: Role
    # Accepted members besides the owner: shared when there is one.
    members: int
    # The caller's membership; None for the owner.
    member_id: int | None = None
    # Invitations not yet answered (told to the owner only).
    invited: int = 0

    @property
    def shared(self) -> bool:
        return self.members > 0

    @property
    def may_change(self) -> bool:
        return self.role != "viewer"

    @property
    def key(self) -> tuple[int, str]:
        return (self.owner_id, self.name.lower())


@dataclass(frozen=True)
class ListDirectory:
    user_id: int
    entries: tuple[ListEntry, ...]

    def find(self, name: str) -> ListEntry | None:
        """The list this user means by `name`, any casing: their own of that name first, then
        a shared one called so, then the one shared list of that name if only one is."""
        key = name.strip().lower()
        for entry in self.entries:
            if entry.role == "owner" and entry.name.lower() == key:
                return entry
        for entry in self.entries:
            if entry.shown.lower() == key:
                return entry
        named = [e for e in self.entries if e.role != "owner" and e.name.lower() == key]
        return named[0] if len(named) == 1 else None

    def of_task(self, owner_id: int, list_name: str) -> ListEntry | None:
        """The entry a task's list is, from the task's owner and list name."""
        return self._by_key.get((owner_id, list_name.lower()))

    @cached_property
    def _by_key(self) -> dict[tuple[int, str], ListEntry]:
        """Built once per directory: a page asks it for every task."""
        return {entry.key: entry for entry in self.entries}

    @property
    def shared_with_me(self) -> list[ListEntry]:
        return [entry for entry in self.entries if entry.role != "owner"]


def _members_count(status: MemberStatus) -> ColumnElement[int]:
    return (
        select(func.count())
        .where(
            col(ListMember.list_id) == col(TaskList.id),
            col(ListMember.status) == status.value,
        )
        .correlate(TaskList)
        .scalar_subquery()
    )


@cache
def _seen_by() -> Any:
    """One statement (a round trip per call, as every tool call reads it), built once (that
    costs SQLAlchemy more than running it): the user's (`uid`) own lists, then the lists
    shared with them that they accepted, with the same columns."""
    user_id = bindparam("uid", type_=Integer)
    accepted = _members_count(MemberStatus.ACCEPTED)
    own = (
        select_columns(
            col(TaskList.id),
            col(TaskList.owner_id),
            col(TaskList.name),
            col(TaskList.name_key),
            col(User.email),
            null().label("member_id"),
            literal("owner").label("role"),
            accepted.label("accepted"),
            _members_count(MemberStatus.PENDING).label("invited"),
            literal(0).label("theirs"),
        )
        .join(User, col(User.id) == col(TaskList.owner_id))
        .where(col(TaskList.owner_id) == user_id)
    )
    theirs = (
        select_columns(
            col(TaskList.id),
            col(TaskList.owner_id),
            col(TaskList.name),
            col(TaskList.name_key),
            col(User.email),
            col(ListMember.id),
            col(ListMember.role),
            accepted,
            literal(0),  # invitations pending are the owner's business
            literal(1),
        )
        .join(TaskList, col(TaskList.id) == col(ListMember.list_id))
        .join(User, col(User.id) == col(TaskList.owner_id))
        .where(
            col(ListMember.user_id) == user_id,
            col(ListMember.status) == MemberStatus.ACCEPTED.value,
        )
    )
    both = union_all(own, theirs).subquery()
    inbox_first = both.c.name_key != DEFAULT_LIST.lower()
    # Their own: Inbox first, then in the order made (those shared are sorted by name after).
    return select_columns(both).order_by(both.c.theirs, inbox_first, both.c.id)


async def directory(session: AsyncSession, user_id: int) -> ListDirectory:
    """Every list `user_id` sees: their own (Inbox first, then in the order made), then those
    shared with them (by name), each with the name this user calls it."""
    # (SQLAlchemy's select, on the session's connection: sqlmodel's types at most four columns.)
    connection = await session.connection()
    rows = (await connection.execute(_seen_by(), {"uid": user_id})).all()
    own = [row for row in rows if row.theirs == 0]
    theirs = sorted((row for row in rows if row.theirs == 1), key=lambda r: (r.name_key, r.id))
    entries = [
        ListEntry(
            int(row.id),
            user_id,
            str(row.email),
            str(row.name),
            str(row.name),
            "owner",
            int(row.accepted or 0),
            invited=int(row.invited or 0),
        )
        for row in own
    ]
    taken = [entry.name.lower() for entry in entries]
    shared_keys = [str(row.name_key) for row in theirs]
    for row in theirs:
        key = str(row.name_key)
        clash = key in taken or shared_keys.count(key) > 1
        shown = f"{row.name} ({row.email})" if clash else str(row.name)
        entries.append(
            ListEntry(
                int(row.id),
                int(row.owner_id),
                str(row.email),
                str(row.name),
                shown,
                "editor" if row.role == "editor" else "viewer",
                int(row.accepted or 0),
                int(row.member_id),
            )
        )
    return ListDirectory(user_id, tuple(entries))
