"""The account's lists (`/api/lists`): the web UI's list switcher, with counts."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Response, status
from pydantic import BaseModel, Field, field_validator

from backend.api.deps import CurrentUserId, SessionDep, SettingsDep, limit_writes
from backend.api.errors import (
    AUTHENTICATED,
    CONFLICT,
    FORBIDDEN,
    LIST_REFUSED,
    NOT_FOUND,
    TOO_MANY,
)
from backend.domain.errors import (
    InboxIsFixedError,
    ListExistsError,
    ListLimitError,
    ListNotFoundError,
)
from backend.models.task import LIST_NAME_MAX_LENGTH, clean_list_name
from backend.services import lists

router = APIRouter(prefix="/api/lists", tags=["lists"], responses=AUTHENTICATED)

WRITES = [Depends(limit_writes)]
ListName = Annotated[
    str, Path(min_length=1, max_length=LIST_NAME_MAX_LENGTH, description="Any casing")
]


class TaskListPublic(BaseModel):
    name: str = Field(
        description="As the caller calls it: a list shared with them whose name they have "
        'already is "<name> (<owner\'s email>)"'
    )
    pending: int = Field(description="Its tasks not done yet")
    total: int = Field(description="All its tasks")
    shared: bool = Field(default=False, description="Whether anyone besides its owner has it")
    role: Literal["owner", "editor", "viewer"] = Field(
        default="owner", description="What the caller may do with it"
    )
    owner: str | None = Field(default=None, description="The owner's email")
    members: int = Field(default=0, description="People it is shared with (who accepted)")
    invited: int = Field(
        default=0, description="Invitations not answered yet (the owner's own lists only)"
    )

    @classmethod
    def of(cls, count: lists.ListCount) -> TaskListPublic:
        entry = count.entry
        return cls(
            name=count.name,
            pending=count.pending,
            total=count.total,
            shared=entry.shared or entry.role != "owner",
            role=entry.role,
            owner=entry.owner_email,
            members=entry.members,
            invited=entry.invited,
        )


class ListNameBody(BaseModel):
    """The body of a create or a rename."""

    name: str = Field(min_length=1, max_length=LIST_NAME_MAX_LENGTH)

    @field_validator("name", mode="before")
    @classmethod
    def _clean(cls, value: object) -> object:
        return clean_list_name(value)


@router.get("")
async def get_lists(user_id: CurrentUserId, session: SessionDep) -> list[TaskListPublic]:
    """The caller's lists, Inbox first then in the order they were made, with counts; then
    the lists shared with them (by name), with their role and the owner's email."""
    found = await lists.lists_with_counts(session, user_id=user_id)
    return [TaskListPublic.of(f) for f in found]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses={**LIST_REFUSED, **TOO_MANY},
    dependencies=WRITES,
)
async def create_list(
    body: ListNameBody, user_id: CurrentUserId, session: SessionDep, settings: SettingsDep
) -> TaskListPublic:
    """A new, empty list (a task given a new list name also makes one). 409 if a list of
    that name, in any casing, exists, or one whose name looks the same ("Іnbox" in Cyrillic
    beside "Inbox"), or if the account holds `MAX_LISTS_PER_USER` lists."""
    try:
        made = await lists.create_list(
            session, owner_id=user_id, name=body.name, max_lists=settings.max_lists_per_user
        )
    except (ListExistsError, ListLimitError) as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    counts = await lists.lists_with_counts(session, user_id=user_id)
    return TaskListPublic.of(next(c for c in counts if c.entry.list_id == made.id))


@router.patch(
    "/{name}",
    responses={**NOT_FOUND, **FORBIDDEN, **LIST_REFUSED, **TOO_MANY},
    dependencies=WRITES,
)
async def rename_list(
    name: ListName, body: ListNameBody, user_id: CurrentUserId, session: SessionDep
) -> TaskListPublic:
    """Renames a list and moves its tasks with it. Inbox cannot be renamed, nor a list
    given the name of another or one that looks the same (409); only its owner may rename a
    shared list (403)."""
    try:
        await lists.rename_list(session, owner_id=user_id, name=name, new_name=body.name)
    except ListNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=str(exc)) from exc
    except (ListExistsError, InboxIsFixedError) as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    counts = await lists.lists_with_counts(session, user_id=user_id)
    renamed = next(c for c in counts if c.entry.role == "owner" and c.name == body.name)
    return TaskListPublic.of(renamed)


@router.delete(
    "/{name}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**NOT_FOUND, **FORBIDDEN, **CONFLICT, **TOO_MANY},
    dependencies=WRITES,
)
async def delete_list(name: ListName, user_id: CurrentUserId, session: SessionDep) -> Response:
    """Deletes a list; its tasks move to Inbox. Inbox cannot be deleted (409). Only its
    owner may delete a shared list (403); its members lose it at once."""
    try:
        await lists.delete_list(session, owner_id=user_id, name=name)
    except ListNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=str(exc)) from exc
    except InboxIsFixedError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)
