"""Sharing a list (specs/sharing.md): invitations by email, roles, members leaving and
being removed.

Only a list's owner invites, changes roles and removes members; a member may leave. An
invitation is for the email it was sent to: only the account holding that email can see,
accept or decline it, and a declined one is gone. Removing a member deletes their seats in
the same transaction (by cascade), with the reminders they set on the list's tasks: nothing
of the list stays reachable for them on any path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.domain.errors import (
    AccountGoneError,
    InvitationNotFoundError,
    ListNotFoundError,
    MemberNotFoundError,
    NotListOwnerError,
    SharingRefusedError,
)
from backend.models import ListMember, MemberRole, MemberStatus, Reminder, Task, TaskList, User
from backend.models.task import DEFAULT_LIST
from backend.services import change_notes, seats
from backend.services.change_notes import Kind
from backend.services.list_directory import ListEntry, directory

# Members and pending invitations one list may have.
MAX_MEMBERS = 100


@dataclass(frozen=True)
class Membership:
    """A member or an invitation as the caller may see it."""

    id: int
    list: str
    email: str
    role: MemberRole
    status: MemberStatus
    # The list owner's email.
    owner: str


def _membership(member: ListMember, list_shown: str, owner: str) -> Membership:
    assert member.id is not None  # read from or flushed to the database
    return Membership(
        member.id,
        list_shown,
        member.email,
        MemberRole(member.role),
        MemberStatus(member.status),
        owner,
    )


async def _email_of(session: AsyncSession, user_id: int) -> str:
    email = (await session.exec(select(User.email).where(col(User.id) == user_id))).first()
    if email is None:
        raise AccountGoneError(user_id)
    return str(email)


async def seen_list(session: AsyncSession, user_id: int, name: str) -> ListEntry:
    """The list the user calls `name`; ListNotFoundError if they see none so."""
    entry = (await directory(session, user_id)).find(name)
    if entry is None:
        raise ListNotFoundError()
    return entry


async def _owned_list(session: AsyncSession, user_id: int, name: str, what: str) -> ListEntry:
    entry = await seen_list(session, user_id, name)
    if entry.role != "owner":
        raise NotListOwnerError(entry.shown, what)
    return entry


async def invite(
    session: AsyncSession,
    *,
    user_id: int,
    list_name: str,
    email: str,
    role: MemberRole,
    max_members: int = MAX_MEMBERS,
) -> Membership:
    """Invites `email` to the caller's list with `role`: a pending invitation, which the
    account holding that email (now or once it signs up) may accept or decline."""
    entry = await _owned_list(session, user_id, list_name, "invite people to it")
    if entry.name.lower() == DEFAULT_LIST.lower():
        raise SharingRefusedError(
            "Inbox is yours alone: make a list to share (or move the tasks to one)"
        )
    wanted = email.strip().lower()
    if wanted == entry.owner_email.lower():
        raise SharingRefusedError("That is your own email: the list is yours already")
    # The list row's lock until commit: two invitations at once cannot both pass the count.
    await session.exec(
        select(TaskList.id).where(col(TaskList.id) == entry.list_id).with_for_update()
    )
    existing = (
        await session.exec(
            select(ListMember).where(
                col(ListMember.list_id) == entry.list_id, col(ListMember.email) == wanted
            )
        )
    ).first()
    if existing is not None:
        already = "a member" if existing.status == MemberStatus.ACCEPTED.value else "invited"
        await session.rollback()
        raise SharingRefusedError(f"{wanted} is {already} already: change their role instead")
    count = (
        await session.exec(select(func.count()).where(col(ListMember.list_id) == entry.list_id))
    ).one()
    if count >= max_members:
        await session.rollback()
        raise SharingRefusedError(
            f"A list may be shared with at most {max_members} people: remove someone first"
        )
    member = ListMember(list_id=entry.list_id, email=wanted, role=role.value)
    session.add(member)
    await change_notes.note_email(session, wanted, Kind.INVITATIONS)
    await change_notes.note_list(session, entry.list_id, Kind.LISTS)
    await session.commit()
    return _membership(member, entry.shown, entry.owner_email)


async def members(session: AsyncSession, *, user_id: int, list_name: str) -> list[Membership]:
    """Who the list is shared with, for anyone who sees it: the owner sees invitations still
    pending too, members only those who accepted."""
    return await members_of(session, await seen_list(session, user_id, list_name))


async def members_of(session: AsyncSession, entry: ListEntry) -> list[Membership]:
    """`members` of a list already looked up."""
    statement = select(ListMember).where(col(ListMember.list_id) == entry.list_id)
    if entry.role != "owner":
        statement = statement.where(col(ListMember.status) == MemberStatus.ACCEPTED.value)
    found = (await session.exec(statement.order_by(col(ListMember.id)))).all()
    return [_membership(m, entry.shown, entry.owner_email) for m in found]


async def _member_of(session: AsyncSession, entry: ListEntry, member_id: int) -> ListMember:
    member = (
        await session.exec(
            select(ListMember).where(
                col(ListMember.id) == member_id, col(ListMember.list_id) == entry.list_id
            )
        )
    ).first()
    if member is None:
        raise MemberNotFoundError()
    return member


async def change_role(
    session: AsyncSession, *, user_id: int, list_name: str, member_id: int, role: MemberRole
) -> Membership:
    """The owner gives a member (or an invitation) another role; it holds from the next
    request on, on every worker (each write checks the role as it stands)."""
    entry = await _owned_list(session, user_id, list_name, "change who may do what")
    member = await _member_of(session, entry, member_id)
    member.role = role.value
    session.add(member)
    await change_notes.note_list(session, entry.list_id, Kind.LISTS, Kind.TASKS)
    await session.commit()
    return _membership(member, entry.shown, entry.owner_email)


async def remove_member(
    session: AsyncSession, *, user_id: int, list_name: str, member_id: int
) -> Membership:
    """The owner removes a member or withdraws an invitation; a member removes themselves
    (leaves). Either way at once: their seats go with the membership."""
    entry = await seen_list(session, user_id, list_name)
    member = await _member_of(session, entry, member_id)
    if entry.role != "owner" and member.user_id != user_id:
        raise NotListOwnerError(entry.shown, "remove other people from it")
    gone = _membership(member, entry.shown, entry.owner_email)
    await _drop(session, entry, [member])
    await session.commit()
    return gone


async def leave(session: AsyncSession, *, user_id: int, list_name: str) -> Membership:
    """The caller leaves a list shared with them."""
    entry = await seen_list(session, user_id, list_name)
    if entry.member_id is None:
        raise SharingRefusedError(
            f"{entry.shown!r} is your own list: stop sharing it or delete it instead"
        )
    return await remove_member(
        session, user_id=user_id, list_name=list_name, member_id=entry.member_id
    )


async def stop_sharing(session: AsyncSession, *, user_id: int, list_name: str) -> list[Membership]:
    """The owner removes every member and withdraws every invitation of the list."""
    entry = await _owned_list(session, user_id, list_name, "stop sharing it")
    found = (
        await session.exec(select(ListMember).where(col(ListMember.list_id) == entry.list_id))
    ).all()
    gone = [_membership(m, entry.shown, entry.owner_email) for m in found]
    await _drop(session, entry, found)
    await session.commit()
    return gone


async def _drop(session: AsyncSession, entry: ListEntry, found: Sequence[ListMember]) -> None:
    """Deletes the memberships (their seats go by cascade), and what their users had of the
    list's tasks besides: the reminders they set, and those fired for them and still shown."""
    users = [m.user_id for m in found if m.user_id is not None]
    # Told directly: once removed, a list's notes no longer reach them.
    await change_notes.note_users(session, users, Kind.LISTS, Kind.TASKS)
    await change_notes.note_users(
        session, [entry.owner_id], Kind.LISTS, Kind.TASKS, Kind.INVITATIONS
    )
    if users:
        in_list = select(Task.pk).where(
            col(Task.owner_id) == entry.owner_id, col(Task.list_name) == entry.name
        )
        await session.exec(
            update(Task)
            .where(col(Task.pk).in_(in_list), col(Task.remind_user_id).in_(users))
            .values(remind_at=None, remind_before=None, remind_user_id=None)
        )
        await session.exec(
            delete(Reminder).where(
                col(Reminder.task_pk).in_(in_list), col(Reminder.owner_id).in_(users)
            )
        )
    await session.exec(delete(ListMember).where(col(ListMember.id).in_([m.id for m in found])))


async def forget_members(session: AsyncSession, *, owner_id: int, list_name: str) -> None:
    """What a list's members had of it, dropped as the list is deleted (by its owner, in the
    caller's transaction): memberships, seats, reminders."""
    entry = (await directory(session, owner_id)).find(list_name)
    if entry is None or entry.role != "owner":
        return
    found = (
        await session.exec(select(ListMember).where(col(ListMember.list_id) == entry.list_id))
    ).all()
    if found:
        await _drop(session, entry, found)


async def invitations(session: AsyncSession, *, user_id: int) -> list[Membership]:
    """The invitations still pending for the caller's email, oldest first."""
    email = await _email_of(session, user_id)
    rows = (
        await session.exec(
            select(ListMember, TaskList.name, User.email)
            .join(TaskList, col(TaskList.id) == col(ListMember.list_id))
            .join(User, col(User.id) == col(TaskList.owner_id))
            .where(
                col(ListMember.email) == email,
                col(ListMember.status) == MemberStatus.PENDING.value,
            )
            .order_by(col(ListMember.id))
        )
    ).all()
    return [_membership(member, str(name), str(owner)) for member, name, owner in rows]


async def _pending_for(session: AsyncSession, user_id: int, invitation_id: int) -> ListMember:
    email = await _email_of(session, user_id)
    member = (
        await session.exec(
            select(ListMember).where(
                col(ListMember.id) == invitation_id,
                col(ListMember.email) == email,
                col(ListMember.status) == MemberStatus.PENDING.value,
            )
        )
    ).first()
    if member is None:
        raise InvitationNotFoundError()
    return member


async def accept(session: AsyncSession, *, user_id: int, invitation_id: int) -> ListEntry:
    """The caller accepts an invitation to their email: they become a member, with a seat
    (their own number) at every task of the list. The list as they now see it."""
    member = await _pending_for(session, user_id, invitation_id)
    owner_id, name = (
        await session.exec(
            select(TaskList.owner_id, TaskList.name).where(col(TaskList.id) == member.list_id)
        )
    ).one()
    if owner_id == user_id:  # the list's owner holds the email now: nothing to join
        raise InvitationNotFoundError()
    # The owner's counter too: a task added to the list meanwhile waits for this commit,
    # then seats this member with the rest.
    await seats.lock_counters(session, [owner_id, user_id])
    accepted = await session.exec(
        update(ListMember)
        .where(
            col(ListMember.id) == invitation_id,
            col(ListMember.status) == MemberStatus.PENDING.value,
        )
        .values(status=MemberStatus.ACCEPTED.value, user_id=user_id, accepted_at=utcnow())
        .returning(col(ListMember.id))
    )
    if accepted.first() is None:  # accepted or declined meanwhile, on another screen
        await session.rollback()
        raise InvitationNotFoundError()
    await seats.seat_member_at_list(
        session, member_id=invitation_id, user_id=user_id, owner_id=owner_id, list_name=name
    )
    await change_notes.note_list(session, member.list_id, Kind.LISTS, Kind.TASKS)
    await change_notes.note_users(session, [user_id], Kind.INVITATIONS)
    await session.commit()
    entry = next(
        e for e in (await directory(session, user_id)).entries if e.member_id == invitation_id
    )
    return entry


async def decline(session: AsyncSession, *, user_id: int, invitation_id: int) -> None:
    """The caller declines an invitation to their email: it is deleted, never to work again
    (the owner may send a new one)."""
    member = await _pending_for(session, user_id, invitation_id)
    await session.exec(delete(ListMember).where(col(ListMember.id) == member.id))
    await change_notes.note_list(session, member.list_id, Kind.LISTS)
    await change_notes.note_users(session, [user_id], Kind.INVITATIONS)
    await session.commit()
