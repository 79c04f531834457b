"""Each user's numbers for the tasks they see (`task_seat`, specs/sharing.md).

A task has its owner's seat, holding the task's own number, and one seat per accepted member
of its list, each numbered from that member's own counter. Every read and write of a task by
number goes through the caller's seat: no seat, no task. A seat that came with a membership
(`member_id`) may change its task only while that membership is an editor's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import ColumnElement, bindparam, delete, exists, func, insert, literal, or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.models import ListMember, MemberRole, MemberStatus, Task, TaskSeat, User

_TAKE = (
    update(User)
    .where(col(User.id) == bindparam("uid"))
    .values(last_task_number=User.last_task_number + bindparam("count"))
    .returning(col(User.last_task_number))
)


def may_change() -> ColumnElement[bool]:
    """A seat whose task its user may change: the owner's, or an editor's."""
    editor = exists().where(
        col(ListMember.id) == col(TaskSeat.member_id),
        col(ListMember.role) == MemberRole.EDITOR.value,
    )
    return or_(col(TaskSeat.member_id).is_(None), editor)


async def lock_counters(session: AsyncSession, user_ids: Iterable[int]) -> None:
    """Locks the users' task counters (PostgreSQL row locks; SQLite's write lock is taken at
    BEGIN) in id order, so two writers over overlapping members never wait on each other in
    a circle."""
    ids = sorted(set(user_ids))
    if len(ids) > 1:
        await session.exec(
            select(User.id).where(col(User.id).in_(ids)).order_by(col(User.id)).with_for_update()
        )


async def take_numbers(session: AsyncSession, user_id: int, count: int = 1) -> int:
    """Takes `count` numbers from the user's counter; returns the first."""
    last = (await session.exec(_TAKE, params={"uid": user_id, "count": count})).scalar_one()
    return int(last) - count + 1


async def accepted_members(session: AsyncSession, list_id: int) -> Sequence[tuple[int, int]]:
    """(member id, user id) of the list's accepted members."""
    rows = await session.exec(
        select(ListMember.id, ListMember.user_id).where(
            col(ListMember.list_id) == list_id,
            col(ListMember.status) == MemberStatus.ACCEPTED.value,
        )
    )
    return [(int(m), int(u)) for m, u in rows.all() if m is not None and u is not None]


async def seat_members(
    session: AsyncSession,
    task_pk: int,
    members: Sequence[tuple[int, int]],
    numbers: dict[int, int] | None = None,
) -> dict[int, int]:
    """Seats each member at the task, under the number given for them in `numbers` (a task
    brought back) or the next from their counter; returns user id -> number. The caller holds
    the counters' locks (`lock_counters`). Two statements however many members: one takes
    every number, one inserts every seat."""
    given = numbers or {}
    wanting = sorted(user for _, user in members if user not in given)
    seated = dict(given)
    if wanting:
        taken = await session.exec(
            update(User)
            .where(col(User.id).in_(wanting))
            .values(last_task_number=User.last_task_number + 1)
            .returning(col(User.id), col(User.last_task_number))
        )
        seated |= {int(user or 0): int(number) for user, number in taken.all()}
    rows = [
        {"user_id": user, "number": seated[user], "task_pk": task_pk, "member_id": member_id}
        for member_id, user in members
        if user in seated
    ]
    if rows:
        await (await session.connection()).execute(insert(TaskSeat), rows)
    return seated


async def seat_member_at_list(
    session: AsyncSession, *, member_id: int, user_id: int, owner_id: int, list_name: str
) -> int:
    """Seats a member who just accepted at every task of the list, numbered from their counter
    in the order of the owner's numbers; how many. The caller holds both counters' locks, so
    no task added meanwhile is missed."""
    in_list = (col(Task.owner_id) == owner_id) & (col(Task.list_name) == list_name)
    count = (await session.exec(select(func.count()).select_from(Task).where(in_list))).one()
    if not count:
        return 0
    first = await take_numbers(session, user_id, int(count))
    numbered = select(
        literal(user_id),
        func.row_number().over(order_by=col(Task.number)) + (first - 1),
        col(Task.pk),
        literal(member_id),
    ).where(in_list)
    await session.exec(
        insert(TaskSeat).from_select(["user_id", "number", "task_pk", "member_id"], numbered)
    )
    return int(count)


async def reseat(session: AsyncSession, task_pk: int, members: Sequence[tuple[int, int]]) -> None:
    """After a task moves to another list of its owner: members of both keep their numbers
    (under the new membership), members of the old one only lose their seats, members of
    the new one only get one."""
    current = {
        int(user): int(seat_member)
        for user, seat_member in (
            await session.exec(
                select(TaskSeat.user_id, TaskSeat.member_id).where(
                    col(TaskSeat.task_pk) == task_pk, col(TaskSeat.member_id).is_not(None)
                )
            )
        ).all()
        if seat_member is not None
    }
    wanted = {user: member for member, user in members}
    gone = [user for user in current if user not in wanted]
    if gone:
        await session.exec(
            delete(TaskSeat).where(
                col(TaskSeat.task_pk) == task_pk, col(TaskSeat.user_id).in_(gone)
            )
        )
    for user, member in wanted.items():
        if user in current and current[user] != member:
            await session.exec(
                update(TaskSeat)
                .where(col(TaskSeat.task_pk) == task_pk, col(TaskSeat.user_id) == user)
                .values(member_id=member)
            )
    new = [(member, user) for user, member in wanted.items() if user not in current]
    if new:
        await lock_counters(session, [user for _, user in new])
        await seat_members(session, task_pk, new)
