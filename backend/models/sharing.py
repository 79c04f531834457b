"""Shared lists (specs/sharing.md): who a list is shared with, and each user's numbers for
the tasks they see.

A list belongs to one account, its owner, and so do its tasks, whoever added them. A member
is invited by email with a role and sees the list's tasks once they accept. Every task a
user sees has a seat: the user's own number for it. The owner's seat holds the task's own
number; a member's seats take numbers from the member's own counter, so a number never tells
anyone how many tasks someone else has. Removing a member (or deleting the list) deletes
their seats in the same statement, by cascade: nothing of the list is reachable after.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow

EMAIL_MAX_LENGTH = 320
# A list's name as one user calls it: "<name> (<owner's email>)" at the longest.
SHOWN_LIST_NAME_MAX_LENGTH = 60 + EMAIL_MAX_LENGTH + 3


class MemberRole(StrEnum):
    """What a member may do on the list: an editor adds, completes, changes and deletes its
    tasks; a viewer reads them."""

    EDITOR = "editor"
    VIEWER = "viewer"


class MemberStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"


class ListMember(SQLModel, table=True):
    """An invitation, and once accepted a membership: the same row, so an invitation's id is
    the member's. A declined invitation is deleted: its id never works again."""

    __tablename__ = "list_member"
    __table_args__ = (
        UniqueConstraint("list_id", "email", name="uq_list_member_list_email"),
        Index("ix_list_member_user_id", "user_id"),
        Index("ix_list_member_email", "email"),
        # SQLite hands a deleted newest row's id to the next insert unless told not to: a
        # declined invitation's id must never name another one.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    list_id: int = Field(foreign_key="task_list.id", ondelete="CASCADE")
    # Lower-cased, as accounts' emails are: the invitation is for whoever holds it.
    email: str = Field(max_length=EMAIL_MAX_LENGTH)
    # Set when accepted: the account that holds the email then.
    user_id: int | None = Field(default=None, foreign_key="user.id", ondelete="CASCADE")
    role: str = Field(max_length=10)
    status: str = Field(default=MemberStatus.PENDING.value, max_length=10)
    invited_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    accepted_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class TaskSeat(SQLModel, table=True):
    """A user's number for a task they can see: the only way any path reaches a task."""

    __tablename__ = "task_seat"
    __table_args__ = (
        UniqueConstraint("task_pk", "user_id", name="uq_task_seat_task_user"),
        Index("ix_task_seat_member_number", "member_id", "number"),
    )

    user_id: int = Field(foreign_key="user.id", ondelete="CASCADE", primary_key=True)
    number: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    task_pk: int = Field(foreign_key="task.pk", ondelete="CASCADE")
    # The membership this seat comes with; None for the task's owner.
    member_id: int | None = Field(default=None, foreign_key="list_member.id", ondelete="CASCADE")


class ChangeNote(SQLModel, table=True):
    """That something changed for whoever has a list, or for one user (specs/sharing.md,
    "Live"): what the open web UIs are told to read again. Written in the change's own
    transaction; whom a list's note reaches is read when it is handed on (its owner and
    members then), so a member removed meanwhile is told nothing. Kept a few minutes."""

    __tablename__ = "change_note"
    __table_args__ = ({"sqlite_autoincrement": True},)

    id: int | None = Field(default=None, primary_key=True)
    list_id: int | None = Field(default=None, foreign_key="task_list.id", ondelete="CASCADE")
    user_id: int | None = Field(default=None, foreign_key="user.id", ondelete="CASCADE")
    # What to read again: "tasks", "lists", "invitations", comma-separated.
    kinds: str = Field(max_length=40)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
