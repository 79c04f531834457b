"""Who a list is shared with (`/api/lists/{name}/members`), over the sharing service
(specs/sharing.md): the owner invites, changes roles and removes; a member leaves by
removing themselves."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Response, status
from pydantic import BaseModel, EmailStr, Field

from backend.api.deps import CurrentUserId, SessionDep, limit_writes
from backend.api.errors import AUTHENTICATED, CONFLICT, FORBIDDEN, NOT_FOUND, TOO_MANY
from backend.models import MemberRole
from backend.models.sharing import EMAIL_MAX_LENGTH, SHOWN_LIST_NAME_MAX_LENGTH, MemberStatus
from backend.services import sharing

router = APIRouter(prefix="/api/lists", tags=["sharing"], responses=AUTHENTICATED)

WRITES = [Depends(limit_writes)]
# A shared list's name as the caller sees it may carry its owner's email: "Family (sam@x.org)".
ListName = Annotated[
    str,
    Path(
        min_length=1,
        max_length=SHOWN_LIST_NAME_MAX_LENGTH,
        description="As the caller calls it, any casing",
    ),
]
MemberId = Annotated[int, Path(ge=1, le=2**31 - 1)]


class MembershipPublic(BaseModel):
    """A member of a list, or an invitation to it (the same id)."""

    id: int
    list: str = Field(description="The list, as the caller calls it")
    email: str
    role: MemberRole
    status: MemberStatus
    owner: str = Field(description="The list owner's email")

    @classmethod
    def of(cls, member: sharing.Membership) -> MembershipPublic:
        return cls(
            id=member.id,
            list=member.list,
            email=member.email,
            role=member.role,
            status=member.status,
            owner=member.owner,
        )


class InvitationBody(BaseModel):
    email: EmailStr = Field(max_length=EMAIL_MAX_LENGTH)
    role: MemberRole = Field(description="editor: add, complete, change, delete; viewer: read")


class RoleBody(BaseModel):
    role: MemberRole


@router.post(
    "/{name}/members",
    status_code=status.HTTP_201_CREATED,
    responses={**NOT_FOUND, **FORBIDDEN, **CONFLICT, **TOO_MANY},
    dependencies=WRITES,
)
async def invite_member(
    name: ListName, body: InvitationBody, user_id: CurrentUserId, session: SessionDep
) -> MembershipPublic:
    """Invites someone by email, as an editor or a viewer: a pending invitation, which the
    account holding that email (now, or once it signs up) accepts or declines. The list's
    owner only (403); not Inbox, not the owner, not someone invited already (409)."""
    made = await sharing.invite(
        session, user_id=user_id, list_name=name, email=str(body.email), role=body.role
    )
    return MembershipPublic.of(made)


@router.get("/{name}/members", responses=NOT_FOUND)
async def list_members(
    name: ListName, user_id: CurrentUserId, session: SessionDep
) -> list[MembershipPublic]:
    """Who the list is shared with: its owner sees pending invitations too."""
    found = await sharing.members(session, user_id=user_id, list_name=name)
    return [MembershipPublic.of(m) for m in found]


@router.delete(
    "/{name}/members",
    responses={**NOT_FOUND, **FORBIDDEN, **TOO_MANY},
    dependencies=WRITES,
)
async def stop_sharing(
    name: ListName, user_id: CurrentUserId, session: SessionDep
) -> list[MembershipPublic]:
    """Stops sharing the list: every member is removed and every invitation withdrawn, at
    once. The owner only (403). Those removed."""
    gone = await sharing.stop_sharing(session, user_id=user_id, list_name=name)
    return [MembershipPublic.of(m) for m in gone]


@router.patch(
    "/{name}/members/{member_id}",
    responses={**NOT_FOUND, **FORBIDDEN, **TOO_MANY},
    dependencies=WRITES,
)
async def change_role(
    name: ListName, member_id: MemberId, body: RoleBody, user_id: CurrentUserId, session: SessionDep
) -> MembershipPublic:
    """Gives a member (or an invitation) another role, from their next request on. The
    owner only (403)."""
    changed = await sharing.change_role(
        session, user_id=user_id, list_name=name, member_id=member_id, role=body.role
    )
    return MembershipPublic.of(changed)


@router.delete(
    "/{name}/members/{member_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**NOT_FOUND, **FORBIDDEN, **TOO_MANY},
    dependencies=WRITES,
)
async def remove_member(
    name: ListName, member_id: MemberId, user_id: CurrentUserId, session: SessionDep
) -> Response:
    """Removes a member or withdraws an invitation (the owner), or leaves the list (a
    member, their own id). At once, on every path: their numbers for its tasks, the
    reminders they set on them and the list's live updates end with it."""
    await sharing.remove_member(session, user_id=user_id, list_name=name, member_id=member_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
