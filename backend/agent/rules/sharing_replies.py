"""The assistant's wording about shared lists (`sharing_steps.py`): every reply names the list
it is about, as the user calls it, and says whose it is when it is someone else's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backend.agent.rules.replies import a_role, quoted

Entry = dict[str, Any]


def _people(emails: Sequence[str]) -> str:
    if len(emails) <= 1:
        return "".join(emails)
    return ", ".join(emails[:-1]) + f" and {emails[-1]}"


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def list_called(entry: Entry) -> str:
    """ "your Packing list", "Family (shared with you by sam@example.com)"."""
    if entry.get("role") == "owner":
        return f"your {entry['name']} list"
    return f"{entry['name']} (shared with you by {entry['owner']})"


def invited(member: Entry, entry: Entry) -> str:
    role = str(member.get("role"))
    can = "see its tasks but not change them" if role == "viewer" else "add, change and complete"
    return (
        f"I've invited {member['email']} to {list_called(entry)} as {a_role(role)}: once they "
        f"accept, they can {can}{'' if role == 'viewer' else ' its tasks'}."
    )


def invited_several(emails: Sequence[str], role: str, entry: Entry) -> str:
    roles = "editors" if role == "editor" else "viewers"
    return (
        f"I've invited {_people(emails)} to {list_called(entry)} as {roles}: each sees it once "
        "they accept."
    )


def role_changed(member: Entry, entry: Entry) -> str:
    return f"Done: {member['email']} is now {a_role(str(member['role']))} on {list_called(entry)}."


def already_role(member: Entry, entry: Entry) -> str:
    return (
        f"{member['email']} is already {a_role(str(member['role']))} on {list_called(entry)}, "
        "so nothing changed."
    )


def may_already(member: Entry, entry: Entry, wanted: str) -> str:
    """ "let alex see the list" of someone who may edit it: they may see it already."""
    doing = "see" if wanted == "viewer" else "edit"
    return (
        f"{member['email']} can already {doing} {list_called(entry)} (as "
        f"{a_role(str(member['role']))}), so nothing changed."
    )


def removed(member: Entry, entry: Entry) -> str:
    if member.get("status") == "pending":
        return f"I've withdrawn {member['email']}'s invitation to {list_called(entry)}."
    return f"I've removed {member['email']} from {list_called(entry)}: they no longer have it."


def stopped(gone: Sequence[Entry], entry: Entry) -> str:
    if not gone:
        return f"{_first_up(list_called(entry))} wasn't shared with anyone, so nothing changed."
    emails = [str(m["email"]) for m in gone]
    return (
        f"I've stopped sharing {list_called(entry)}: {_people(emails)} no longer "
        f"{'has' if len(emails) == 1 else 'have'} it. Its tasks stay yours."
    )


def left(entry: Entry) -> str:
    return f"You've left {entry['name']}: its tasks stay with {entry['owner']}, its owner."


def members(found: Entry, entry: Entry, me: str) -> str:
    """Who shares a list, and as what (the owner sees invitations still pending too)."""
    others = [m for m in found.get("members", []) if m.get("email") != me]
    mine = next((m for m in found.get("members", []) if m.get("email") == me), None)
    people = [_member(m) for m in others]
    if entry.get("role") == "owner":
        if not people:
            return (
                f"Only you can see {list_called(entry)}: it isn't shared with anyone. Say 'share "
                f"the {entry['name']} list with name@example.com' to share it."
            )
        return f"{_first_up(list_called(entry))} is shared with {_people(people)}."
    you = f"you ({_role_word(mine or entry)})"
    return (
        f"{entry['name']} belongs to {entry['owner']} and is shared with {_people([you, *people])}."
    )


def _role_word(member: Entry) -> str:
    return "editor" if member.get("role") == "editor" else "viewer"


def _member(member: Entry) -> str:
    pending = ", invited, not accepted yet" if member.get("status") == "pending" else ""
    return f"{member['email']} ({_role_word(member)}{pending})"


def access(member: Entry | None, person: str, entry: Entry) -> str:
    """ "can alex see the family list?" """
    where = list_called(entry)
    if member is None:
        return f"No: {person} isn't on {where}."
    if member.get("owner_itself"):
        return f"Yes: {member['email']} owns {entry['name']}."
    if member.get("status") == "pending":
        return (
            f"Not yet: {member['email']} is invited to {where} as "
            f"{a_role(str(member['role']))} but hasn't accepted."
        )
    if member.get("role") == "viewer":
        return f"{member['email']} can see {where} but not change it (a viewer)."
    return f"Yes: {member['email']} can see and edit {where} (an editor)."


def who_did(task: Entry, who: str | None, *, completed: bool) -> str:
    """Who added (or completed) a task, with its list; `who` is None for the user."""
    title = quoted(str(task["title"]))
    where = f"{task.get('list') or 'Inbox'} list"
    if completed and not task.get("completed"):
        return f"{title} isn't done yet ({where})."
    did = "completed" if completed else "added"
    if not task.get("shared"):
        return f"You {did} it: {title} is on your own {where}, which only you can see."
    return f"{who or 'You'} {did} {title} ({where}, shared)."


def which_task(query: str, tasks: Sequence[Entry]) -> str:
    lines = [f"I found several tasks matching {quoted(query)}:"]
    lines += [
        f"{n}. {t['title']} ({t.get('list') or 'Inbox'} list, task {t['id']})"
        for n, t in enumerate(tasks, start=1)
    ]
    lines.append("Which one do you mean?")
    return "\n".join(lines)


def no_task(query: str) -> str:
    return f"I couldn't find a task matching {quoted(query)} on your lists."


def invitations(found: Sequence[Entry]) -> str:
    if not found:
        return "You have no invitations waiting."
    offers = [f"{i['list']} from {i['owner']} (as {a_role(str(i['role']))})" for i in found]
    noun = "invitation" if len(found) == 1 else "invitations"
    first = found[0]["list"]
    return (
        f"You have {len(found)} {noun}: {'; '.join(offers)}. Say 'accept the invitation to "
        f"{first}' to join, or 'decline' it."
    )


def answered(change: Entry, invitation: Entry) -> str:
    if change.get("status") == "accepted":
        return (
            f"You've joined {change['list']} (shared with you by {invitation['owner']}) as "
            f"{a_role(str(invitation['role']))}."
        )
    return f"I've declined {invitation['owner']}'s invitation to {invitation['list']}."


def no_invitation(said: str, found: Sequence[Entry]) -> str:
    if not found:
        return "You have no invitations waiting, so there's nothing to answer."
    return f"You have no invitation matching {quoted(said)}. {invitations(found)}"


def which_invitation(found: Sequence[Entry]) -> str:
    offers = [f"{i['list']} from {i['owner']}" for i in found]
    return f"Which invitation do you mean: {'; '.join(offers)}?"


def shared_lists(lists: Sequence[Entry]) -> str:
    shared = [e for e in lists if e.get("shared")]
    if not shared:
        return "None of your lists is shared, and nobody has shared one with you."
    lines = ["Your shared lists:"]
    for entry in shared:
        if entry.get("role") == "owner":
            count = int(entry.get("members") or 0)
            people = "1 person" if count == 1 else f"{count} people"
            lines.append(f"- {entry['name']}: yours, shared with {people}")
        else:
            lines.append(f"- {entry['name']}: {entry['owner']}'s, you're {a_role(entry['role'])}")
    return "\n".join(lines)


def no_such_list(said: str, lists: Sequence[Entry]) -> str:
    names = ", ".join(str(e["name"]) for e in lists[:10])
    return f"You don't have a list called {quoted(said)}. Your lists are: {names}."


def no_list_to_share(said: str) -> str:
    return (
        f"You don't have a list called {quoted(said)} yet. Add a task to it first ('add tent "
        f"to my {said} list'), then share it."
    )


def did_you_mean(said: str, names: Sequence[str]) -> str:
    shown = " or ".join(quoted(n) for n in names)
    return f"You don't have a list called {quoted(said)}. Did you mean {shown}?"


def which_list(names: Sequence[str], doing: str) -> str:
    shown = ", ".join(quoted(n) for n in names[:-1]) + f" or {quoted(names[-1])}"
    if len(names) == 1:
        shown = quoted(names[0])
    return f"Which list do you want to {doing}: {shown}?"


def no_list_for(doing: str) -> str:
    return f"Which list do you want to {doing}? Say its name, like 'the Family list'."


def owner_only(entry: Entry, what: str) -> str:
    return f"Only the owner of {quoted(str(entry['name']))} ({entry['owner']}) can {what}."


def own_list_to_leave(entry: Entry) -> str:
    return (
        f"{quoted(str(entry['name']))} is your own list, so there's nothing to leave. To stop "
        f"sharing it, say 'stop sharing the {entry['name']} list'."
    )


def ask_email(entry: Entry, person: str | None) -> str:
    who = f"{person}'s email" if person else "their email"
    return (
        f"Sharing goes by email: what's {who}? Say 'share the {entry['name']} list with "
        "name@example.com'."
    )


def not_a_member(person: str, entry: Entry) -> str:
    return f"{person} isn't on {list_called(entry)}, so nothing changed."


def which_person(person: str, found: Sequence[Entry], entry: Entry) -> str:
    emails = " or ".join(str(m["email"]) for m in found)
    return f"More than one person on {list_called(entry)} could be {person}: {emails}?"


def add_person(email: str, said: str) -> str:
    return (
        f"Do you want to share the {said} list with {email}, or add {quoted(email)} to it as a "
        "task? Nothing has changed yet."
    )
