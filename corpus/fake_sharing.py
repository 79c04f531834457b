"""The list and sharing tools of the corpus's in-memory store (corpus/fake_tools.py): one
user's view of their lists, who shares them, and the invitations waiting for them, with the
real tools' results (backend/models/tool_results.py) and refusals (backend/domain/errors.py,
in their words).

The store acts for one user, `me`. Their own lists are Inbox, Shopping, every list their
tasks name and those given as `FakeList`s with role "owner"; a `FakeList` with another role
is someone else's list shared with them (its tasks are among the store's tasks, under its
name as the user calls it). Tasks on a shared list carry `added_by` and `completed_by`; tasks
of a list nobody shares carry nothing more, so a store without sharing answers as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from backend.models.tool_results import (
    Invitations,
    ListInfo,
    Lists,
    MemberInfo,
    Members,
    SharingChange,
    SharingStatus,
)

# Every account has these (services/tasks.py STARTING_LISTS).
STARTING_LISTS = ("Inbox", "Shopping")
DEFAULT_LIST = "Inbox"


class Refused(LookupError):
    """A refusal the real tools give as a tool error with this message."""


@dataclass
class FakeMember:
    """A member of a list, or an invitation to it (the same id)."""

    email: str
    role: str = "editor"
    status: str = "accepted"
    id: int = 0


@dataclass
class FakeList:
    """A list as the store's user sees it: its name as they call it ("Family", or "Family
    (sam@example.com)" beside a Family of their own), its owner's email and their role."""

    name: str
    owner: str
    role: str = "owner"
    members: list[FakeMember] = field(default_factory=list)

    @property
    def accepted(self) -> list[FakeMember]:
        return [m for m in self.members if m.status == "accepted"]

    @property
    def shared(self) -> bool:
        return self.role != "owner" or bool(self.accepted)


@dataclass
class FakeInvitation:
    """An invitation to the store's user: the list's own name, its owner, the role offered,
    and the tasks the list holds (seated under the user's next numbers on accepting)."""

    list: str
    owner: str
    role: str = "editor"
    tasks: Sequence[dict[str, Any]] = ()
    id: int = 0


_SHOWN_OWNER = re.compile(r"\s+\([^()\s]+@[^()\s]+\)$")


def base_name(shown: str) -> str:
    """ "Family (sam@example.com)" -> "Family"."""
    return _SHOWN_OWNER.sub("", shown)


class SharingTools:
    """The list and sharing tools over the store's tasks (mixed into FakeTaskStore)."""

    tasks: list[dict[str, Any]]
    last_number: int

    def _start_sharing(
        self,
        me: str,
        lists: Sequence[FakeList],
        invitations: Sequence[FakeInvitation],
    ) -> None:
        self.me = me
        self.shared_lists: list[FakeList] = list(lists)
        self.invitations: list[FakeInvitation] = list(invitations)
        ids = [m.id for lst in lists for m in lst.members] + [i.id for i in invitations]
        self._member_ids = max(ids, default=0)
        for found in lists:
            for member in found.members:
                member.id = member.id or self._next_member_id()
            if found.role != "owner" and not any(m.email == me for m in found.members):
                mine = FakeMember(me, found.role, "accepted", self._next_member_id())
                found.members.append(mine)
        for invitation in invitations:
            invitation.id = invitation.id or self._next_member_id()

    def _next_member_id(self) -> int:
        self._member_ids += 1
        return self._member_ids

    # --- what the user sees ------------------------------------------------------------

    def _own_names(self) -> list[str]:
        """The user's own lists: Inbox first, then by name."""
        named = {str(t.get("list") or DEFAULT_LIST) for t in self.tasks}
        named |= {lst.name for lst in self.shared_lists if lst.role == "owner"}
        named -= {lst.name for lst in self.shared_lists if lst.role != "owner"}
        rest = sorted(n for n in named | set(STARTING_LISTS) if n != DEFAULT_LIST)
        return [DEFAULT_LIST, *rest]

    def _entries(self) -> list[FakeList]:
        """Every list the user sees, own first (Inbox first), then those shared with them."""
        given = {lst.name.lower(): lst for lst in self.shared_lists}
        own = [given.get(n.lower()) or FakeList(n, self.me) for n in self._own_names()]
        theirs = sorted(
            (lst for lst in self.shared_lists if lst.role != "owner"), key=lambda x: x.name
        )
        return own + theirs

    def _seen(self, name: str) -> FakeList | None:
        """The list the user means by `name` (services/list_directory.py `find`): their own
        of that name, then one shown so, then the one shared list of that base name."""
        key = name.strip().lower()
        entries = self._entries()
        for entry in entries:
            if entry.role == "owner" and entry.name.lower() == key:
                return entry
        for entry in entries:
            if entry.name.lower() == key:
                return entry
        named = [e for e in entries if e.role != "owner" and base_name(e.name).lower() == key]
        return named[0] if len(named) == 1 else None

    def _found(self, name: str) -> FakeList:
        found = self._seen(name)
        if found is None:
            raise Refused("List not found")
        return found

    def _given(self, found: FakeList) -> FakeList:
        """The list as one the store keeps (an own list made a `FakeList` to share it)."""
        if found not in self.shared_lists:
            self.shared_lists.append(found)
        return found

    def list_of(self, task: dict[str, Any]) -> FakeList | None:
        """The shared-list entry of a task's list, None for a list of the user's own that
        nobody shares."""
        name = str(task.get("list") or DEFAULT_LIST).lower()
        found = next((lst for lst in self.shared_lists if lst.name.lower() == name), None)
        return found if found is not None and found.shared else None

    def shown_list(self, name: str) -> str | None:
        found = self._seen(name)
        return found.name if found is not None else None

    def sharing_keys(self, task: dict[str, Any]) -> dict[str, Any]:
        """What a task on a shared list says of who added and completed it (nothing for a
        task of a list nobody shares)."""
        found = self.list_of(task)
        if found is None:
            return {}
        completed_by = task.get("completed_by") or (found.owner if task["completed"] else None)
        return {
            "shared": True,
            "added_by": task.get("added_by") or found.owner,
            "completed_by": completed_by if task["completed"] else None,
        }

    def may_change(self, task: dict[str, Any]) -> bool:
        found = self.list_of(task)
        return found is None or found.role != "viewer"

    def check_writable(self, task: dict[str, Any]) -> None:
        """A viewer's change refused, in the service's words (ReadOnlyListError)."""
        found = self.list_of(task)
        if found is not None and found.role == "viewer":
            raise Refused(
                f"{found.name!r} is shared with you as a viewer: you can see its tasks but "
                "not change them"
            )

    def is_own(self, task: dict[str, Any]) -> bool:
        found = self.list_of(task)
        return found is None or found.role == "owner"

    def owner_of(self, name: str | None) -> str:
        found = self._seen(name or DEFAULT_LIST)
        return found.owner if found is not None else self.me

    # --- the tools ---------------------------------------------------------------------

    def _info(self, found: FakeList, member: FakeMember) -> MemberInfo:
        return MemberInfo.model_validate(
            {
                "id": member.id,
                "list": found.name,
                "email": member.email,
                "role": member.role,
                "status": member.status,
                "owner": found.owner,
            }
        )

    def _change(
        self, status: SharingStatus, found: FakeList, members: list[FakeMember]
    ) -> SharingChange:
        return SharingChange(
            status=status, list=found.name, members=[self._info(found, m) for m in members]
        )

    def list_lists(self) -> Lists:
        infos = []
        for entry in self._entries():
            tasks = [t for t in self.tasks if str(t.get("list") or DEFAULT_LIST) == entry.name]
            infos.append(
                ListInfo(
                    name=entry.name,
                    pending=sum(1 for t in tasks if not t["completed"]),
                    total=len(tasks),
                    shared=entry.shared,
                    role=entry.role,
                    owner=entry.owner,
                    members=len([m for m in entry.accepted if m.email != entry.owner]),
                )
            )
        return Lists(lists=infos)

    def list_members(self, list: str) -> Members:  # noqa: A002 - the tool's argument
        found = self._found(list)
        seen = found.members if found.role == "owner" else found.accepted
        return Members(
            list=found.name, owner=found.owner, members=[self._info(found, m) for m in seen]
        )

    def _member(self, found: FakeList, email: str) -> FakeMember:
        seen = found.members if found.role == "owner" else found.accepted
        wanted = email.strip().lower()
        member = next((m for m in seen if m.email == wanted), None)
        if member is None:
            raise Refused("Member not found")
        return member

    @staticmethod
    def _owner_only(found: FakeList, what: str) -> None:
        if found.role != "owner":
            raise Refused(f"Only the owner of {found.name!r} can {what}")

    def share_list(self, list: str, email: str, role: str = "editor") -> SharingChange:  # noqa: A002
        found = self._found(list)
        self._owner_only(found, "invite people to it")
        if found.name.lower() == DEFAULT_LIST.lower():
            raise Refused("Inbox is yours alone: make a list to share (or move the tasks to one)")
        wanted = email.strip().lower()
        if wanted == found.owner.lower():
            raise Refused("That is your own email: the list is yours already")
        existing = next((m for m in found.members if m.email == wanted), None)
        if existing is not None:
            already = "a member" if existing.status == "accepted" else "invited"
            raise Refused(f"{wanted} is {already} already: change their role instead")
        member = FakeMember(wanted, role, "pending", self._next_member_id())
        self._given(found).members.append(member)
        return self._change("invited", found, [member])

    def change_member_role(self, list: str, email: str, role: str) -> SharingChange:  # noqa: A002
        found = self._found(list)
        member = self._member(found, email)
        self._owner_only(found, "change who may do what")
        member.role = role
        return self._change("role_changed", found, [member])

    def remove_member(self, list: str, email: str) -> SharingChange:  # noqa: A002
        found = self._found(list)
        member = self._member(found, email)
        if found.role != "owner" and member.email != self.me:
            raise Refused(f"Only the owner of {found.name!r} can remove other people from it")
        if member.email == self.me:
            self._drop(found)
        else:
            found.members.remove(member)
        return self._change("removed", found, [member])

    def stop_sharing(self, list: str) -> SharingChange:  # noqa: A002
        found = self._found(list)
        self._owner_only(found, "stop sharing it")
        gone, found.members = found.members, []
        return self._change("stopped", found, gone)

    def leave_list(self, list: str) -> SharingChange:  # noqa: A002
        found = self._found(list)
        if found.role == "owner":
            raise Refused(f"{found.name!r} is your own list: stop sharing it or delete it instead")
        mine = self._member(found, self.me)
        self._drop(found)
        return self._change("left", found, [mine])

    def _drop(self, found: FakeList) -> None:
        """A list the user no longer sees, and its tasks with it."""
        self.shared_lists.remove(found)
        self.tasks = [t for t in self.tasks if t.get("list") != found.name]

    def list_invitations(self) -> Invitations:
        return Invitations(invitations=[self._invited(i) for i in self.invitations])

    def _invited(self, invitation: FakeInvitation, *, shown: str | None = None) -> MemberInfo:
        return MemberInfo.model_validate(
            {
                "id": invitation.id,
                "list": shown or invitation.list,
                "email": self.me,
                "role": invitation.role,
                "status": "accepted" if shown else "pending",
                "owner": invitation.owner,
            }
        )

    def answer_invitation(self, invitation_id: int, accept: bool) -> SharingChange:
        invitation = next((i for i in self.invitations if i.id == invitation_id), None)
        if invitation is None:
            raise Refused("Invitation not found")
        self.invitations.remove(invitation)
        if not accept:
            info = self._invited(invitation)
            return SharingChange(status="declined", list=invitation.list, members=[info])
        taken = {e.name.lower() for e in self._entries()}
        shown = invitation.list
        if shown.lower() in taken:
            shown = f"{invitation.list} ({invitation.owner})"
        joined = FakeList(shown, invitation.owner, invitation.role)
        joined.members.append(FakeMember(self.me, invitation.role, "accepted", invitation.id))
        self.shared_lists.append(joined)
        for task in invitation.tasks:
            self.last_number += 1
            self.tasks.append({**task, "id": self.last_number, "list": shown})
        info = self._invited(invitation, shown=shown)
        return SharingChange(status="accepted", list=shown, members=[info])
