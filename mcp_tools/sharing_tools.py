"""The list and sharing tools (specs/sharing.md, specs/tools.md): the user's lists with who
shares them, invitations sent and received, roles, leaving. The same service as REST, so the
same refusals: a list the caller cannot see is not found, a change only its owner may make
is refused with the reason."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Annotated

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field, StrictBool, StrictInt
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.db import SessionMaker, read_only
from backend.domain.errors import MemberNotFoundError
from backend.models import MemberRole, MemberStatus
from backend.models.sharing import EMAIL_MAX_LENGTH, SHOWN_LIST_NAME_MAX_LENGTH
from backend.models.tool_results import (
    Invitations,
    ListInfo,
    Lists,
    MemberInfo,
    Members,
    SharingChange,
    SharingStatus,
)
from backend.services import lists, sharing
from mcp_tools.principal import PrincipalSource, acting_user, changing_user

ChangeGate = Callable[[int], Awaitable[None]]
Register = Callable[[Callable[..., object]], Callable[..., object]]

UserId = Annotated[
    str | int | None,
    Field(description="Optional; must be the authenticated user's id if given"),
]
ListName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=SHOWN_LIST_NAME_MAX_LENGTH,
        description="The list, as the user calls it (any casing)",
    ),
]
Email = Annotated[
    str, Field(min_length=3, max_length=EMAIL_MAX_LENGTH, description="The person's email")
]
RoleName = Annotated[
    MemberRole,
    Field(description="editor: adds, completes, changes and deletes its tasks; viewer: reads"),
]
InvitationId = Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="The invitation's id")]


def _info(member: sharing.Membership) -> MemberInfo:
    return MemberInfo(
        id=member.id,
        list=member.list,
        email=member.email,
        role="editor" if member.role is MemberRole.EDITOR else "viewer",
        status="accepted" if member.status is MemberStatus.ACCEPTED else "pending",
        owner=member.owner,
    )


def _change(
    status: SharingStatus, list_name: str, found: list[sharing.Membership]
) -> SharingChange:
    return SharingChange(status=status, list=list_name, members=[_info(m) for m in found])


def register_sharing_tools(
    tool: Register,
    sessionmaker: SessionMaker,
    principal: PrincipalSource,
    before_change: ChangeGate | None = None,
) -> None:
    """Adds the sharing tools to a task server, each acting for its caller only."""

    async def changer(ctx: Context, user_id: UserId) -> int:
        user = changing_user(await principal(ctx), user_id)
        if before_change is not None:
            await before_change(user)
        return user

    async def member_id(session: AsyncSession, user: int, list_name: str, email: str) -> int:
        wanted = email.strip().lower()
        found = await sharing.members(session, user_id=user, list_name=list_name)
        for member in found:
            if member.email == wanted:
                return member.id
        raise MemberNotFoundError()

    @tool
    async def list_lists(ctx: Context, user_id: UserId = None) -> Lists:
        """The user's lists, with how many tasks each holds: their own, then those shared
        with them. Each says whether it is shared, the user's role on it (owner, editor,
        viewer) and the owner's email."""
        user = acting_user(await principal(ctx), user_id)
        async with sessionmaker() as session:
            await read_only(session)
            found = await lists.lists_with_counts(session, user_id=user)
        return Lists(
            lists=[
                ListInfo(
                    name=count.name,
                    pending=count.pending,
                    total=count.total,
                    shared=count.entry.shared or count.entry.role != "owner",
                    role=count.entry.role,
                    owner=count.entry.owner_email,
                    members=count.entry.members,
                )
                for count in found
            ]
        )

    @tool
    async def list_members(list: ListName, ctx: Context, user_id: UserId = None) -> Members:
        """Who a list is shared with, and as what. Its owner sees invitations still pending
        too."""
        user = acting_user(await principal(ctx), user_id)
        async with sessionmaker() as session:
            await read_only(session)
            entry = await sharing.seen_list(session, user, list)
            found = await sharing.members_of(session, entry)
        return Members(list=entry.shown, owner=entry.owner_email, members=[_info(m) for m in found])

    @tool
    async def share_list(
        list: ListName,
        email: Email,
        ctx: Context,
        role: RoleName = MemberRole.EDITOR,
        user_id: UserId = None,
    ) -> SharingChange:
        """Invite someone by email to one of the user's lists, as an editor (default) or a
        viewer. They accept or decline in the app; an account made later with that email
        sees the invitation too. Not Inbox."""
        user = await changer(ctx, user_id)
        async with sessionmaker() as session:
            made = await sharing.invite(
                session, user_id=user, list_name=list, email=email, role=role
            )
        return _change("invited", made.list, [made])

    @tool
    async def change_member_role(
        list: ListName, email: Email, role: RoleName, ctx: Context, user_id: UserId = None
    ) -> SharingChange:
        """Give a member of one of the user's lists (or someone invited) another role."""
        user = await changer(ctx, user_id)
        async with sessionmaker() as session:
            found = await member_id(session, user, list, email)
            changed = await sharing.change_role(
                session, user_id=user, list_name=list, member_id=found, role=role
            )
        return _change("role_changed", changed.list, [changed])

    @tool
    async def remove_member(
        list: ListName, email: Email, ctx: Context, user_id: UserId = None
    ) -> SharingChange:
        """Remove someone from one of the user's lists, or withdraw their invitation: they
        lose it at once."""
        user = await changer(ctx, user_id)
        async with sessionmaker() as session:
            found = await member_id(session, user, list, email)
            gone = await sharing.remove_member(
                session, user_id=user, list_name=list, member_id=found
            )
        return _change("removed", gone.list, [gone])

    @tool
    async def stop_sharing(list: ListName, ctx: Context, user_id: UserId = None) -> SharingChange:
        """Stop sharing one of the user's lists: every member is removed and every
        invitation withdrawn, at once. The list and its tasks stay the user's."""
        user = await changer(ctx, user_id)
        async with sessionmaker() as session:
            entry = await sharing.seen_list(session, user, list)
            gone = await sharing.stop_sharing(session, user_id=user, list_name=list)
        return _change("stopped", entry.shown, gone)

    @tool
    async def leave_list(list: ListName, ctx: Context, user_id: UserId = None) -> SharingChange:
        """Leave a list someone else shared with the user: its tasks stay the owner's."""
        user = await changer(ctx, user_id)
        async with sessionmaker() as session:
            gone = await sharing.leave(session, user_id=user, list_name=list)
        return _change("left", gone.list, [gone])

    @tool
    async def list_invitations(ctx: Context, user_id: UserId = None) -> Invitations:
        """The invitations to lists waiting for the user's answer."""
        user = acting_user(await principal(ctx), user_id)
        async with sessionmaker() as session:
            await read_only(session)
            found = await sharing.invitations(session, user_id=user)
        return Invitations(invitations=[_info(m) for m in found])

    @tool
    async def answer_invitation(
        invitation_id: InvitationId,
        accept: Annotated[StrictBool, Field(description="true to join, false to decline")],
        ctx: Context,
        user_id: UserId = None,
    ) -> SharingChange:
        """Accept (join the list) or decline an invitation sent to the user's email."""
        user = await changer(ctx, user_id)
        async with sessionmaker() as session:
            pending = {m.id: m for m in await sharing.invitations(session, user_id=user)}
            invitation = pending.get(invitation_id)
            if invitation is None:
                raise ToolError("Invitation not found")
            if accept:
                entry = await sharing.accept(session, user_id=user, invitation_id=invitation_id)
                joined = replace(invitation, list=entry.shown, status=MemberStatus.ACCEPTED)
                return _change("accepted", entry.shown, [joined])
            await sharing.decline(session, user_id=user, invitation_id=invitation_id)
        return _change("declined", invitation.list, [invitation])
