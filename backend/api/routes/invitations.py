"""Invitations to lists sent to the caller's email (`/api/invitations`, specs/sharing.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Response, status

from backend.api.deps import CurrentUserId, SessionDep, limit_writes
from backend.api.errors import AUTHENTICATED, NOT_FOUND, TOO_MANY
from backend.api.routes.list_members import MembershipPublic
from backend.api.routes.lists import TaskListPublic
from backend.services import lists, sharing

router = APIRouter(prefix="/api/invitations", tags=["sharing"], responses=AUTHENTICATED)

WRITES = [Depends(limit_writes)]
InvitationId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("")
async def my_invitations(user_id: CurrentUserId, session: SessionDep) -> list[MembershipPublic]:
    """The invitations still pending for the caller's email, oldest first, each with the
    list's name and its owner's email."""
    return [MembershipPublic.of(m) for m in await sharing.invitations(session, user_id=user_id)]


@router.post("/{invitation_id}/accept", responses={**NOT_FOUND, **TOO_MANY}, dependencies=WRITES)
async def accept_invitation(
    invitation_id: InvitationId, user_id: CurrentUserId, session: SessionDep
) -> TaskListPublic:
    """Joins the list: its tasks appear among the caller's, numbered in their own sequence.
    404 for an invitation that is not the caller's, or no longer pending. The list as the
    caller now sees it."""
    entry = await sharing.accept(session, user_id=user_id, invitation_id=invitation_id)
    counts = await lists.lists_with_counts(session, user_id=user_id)
    return TaskListPublic.of(next(c for c in counts if c.entry.list_id == entry.list_id))


@router.post(
    "/{invitation_id}/decline",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**NOT_FOUND, **TOO_MANY},
    dependencies=WRITES,
)
async def decline_invitation(
    invitation_id: InvitationId, user_id: CurrentUserId, session: SessionDep
) -> Response:
    """Declines: the invitation is deleted and never works again (the owner may send a new
    one). 404 for one that is not the caller's."""
    await sharing.decline(session, user_id=user_id, invitation_id=invitation_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
