"""The steps of a sharing request (`sharing_requests.py`): read what is needed through the list
and sharing tools, then act, answer or ask.

The first duty holds throughout: a change (share, give a role, remove, stop sharing, leave,
answer an invitation) is made only on the one list the words name, as the user's lists read
at run time (`list_lists`) call it, and only by its owner where only the owner may (anyone
else is told who may, with no call made); a person is the one member the words name (an
email exactly as typed, or a first name that fits one member's email); an invitation goes
out only to an email. When the list, the person or the invitation is unclear, several fit,
or the words are only like a list's name, the reply asks, each likely reading offered as a
choice whose message says the request in full (`PendingKind.CHOOSE_REQUEST`). A question
never changes anything. A request whose words name no list at all and may mean something
else ("share my location with mom") is left to the rest of the engine (`otherwise`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rapidfuzz.distance import DamerauLevenshtein

from backend.agent.rules import sharing_replies as said
from backend.agent.rules.choices import MAX_CHOICES
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.replies import a_role
from backend.agent.rules.resolve import match_tasks
from backend.agent.rules.sharing_requests import SharingKind, SharingRequest
from backend.agent.rules.steps import LOOKUP_LIMIT, Action, Step, failure
from backend.agent.rules.types import (
    JSON,
    Batch,
    Choice,
    PendingKind,
    PendingQuestion,
    ReplyMeta,
    Say,
    ToolCall,
    ToolOutcome,
)

Entry = dict[str, Any]
# What the rest of the engine says of the message, from the outcomes left to it.
Otherwise = Callable[[list[ToolOutcome]], Action]

INBOX = "Inbox"
_SHOWN_OWNER = re.compile(r"\s+\([^()\s]+@[^()\s]+\)$")
_SLIP = 1
_SLIP_FROM = 4


# --- what every reply carries ------------------------------------------------------------


def _meta(request: SharingRequest, **more: Any) -> ReplyMeta:
    meta = ReplyMeta(intents=["sharing"], acts=["sharing"], rules=[request.rule])
    meta.update(more)  # type: ignore[typeddict-item]
    return meta


def _say(request: SharingRequest, text: str, **more: Any) -> Say:
    return Say(text, _meta(request, **more))


def _ask(request: SharingRequest, text: str, options: Sequence[Choice]) -> Say:
    """A question offering its readings as choices (none: a question answered in words)."""
    pending = PendingQuestion(kind=PendingKind.CHOOSE_REQUEST, options=list(options))
    return Say(text, _meta(request, pending=pending), stop=True)


# A sharing change that cannot be undone: "undo" says so rather than reaching back past it.
_NOT_UNDONE: JSON = {"tool": None, "sharing": True}


def _undo(tool: str, **arguments: Any) -> JSON:
    return {"tool": tool, "arguments": arguments, "sharing": True}


# --- reading the tools ---------------------------------------------------------------------


def _read(call: ToolCall, key: str, outcomes: list[ToolOutcome]) -> ToolCall | Say | list[Entry]:
    """`call` until it has an answer, then its failure, or the entries under `key`."""
    if not outcomes:
        return call
    if not outcomes[0].ok or not isinstance(outcomes[0].data, dict):
        return failure(outcomes[0])
    return list(outcomes[0].data.get(key) or [])


def _lists(outcomes: list[ToolOutcome]) -> ToolCall | Say | list[Entry]:
    return _read(ToolCall("list_lists", {}), "lists", outcomes)


def _my_email(lists: Sequence[Entry]) -> str:
    """The user's own email: the owner of their own lists (every account has an Inbox)."""
    return next((str(e["owner"]) for e in lists if e.get("role") == "owner"), "")


def _changed(
    request: SharingRequest,
    call: ToolCall,
    outcomes: list[ToolOutcome],
    reply: Callable[[Entry], str],
    undo: Callable[[Entry], JSON],
) -> Action:
    """The change `call` makes, then what it did (or the tool's refusal, said plainly)."""
    if not outcomes:
        return call
    if not outcomes[0].ok or not isinstance(outcomes[0].data, dict):
        return failure(outcomes[0])
    data: Entry = outcomes[0].data
    return _say(request, reply(data), undo=undo(data))


# --- which list ----------------------------------------------------------------------------


def _key(name: str) -> str:
    return " ".join(name.lower().strip(" '\"").split())


def _base(name: str) -> str:
    """ "Family (sam@example.com)" -> "family"."""
    return _key(_SHOWN_OWNER.sub("", name))


def _forms(said: str) -> set[str]:
    key = _key(said).removesuffix(" list")
    return {key, key.removesuffix("s"), f"{key}s"}


def lists_named(said: str, lists: Sequence[Entry]) -> tuple[list[Entry], bool]:
    """The lists `said` names, and whether only by likeness (a guess, never acted on): the
    list called so, else every list of that name (someone else's are "Name (owner)"), its
    singular or plural; else those one typing slip away."""
    key = _key(said)
    exact = [e for e in lists if _key(str(e["name"])) == key]
    if exact:
        return exact, False
    forms = _forms(said)
    named = [e for e in lists if _base(str(e["name"])) in forms]
    if named or len(key) < _SLIP_FROM:
        return named, False
    close = [e for e in lists if DamerauLevenshtein.distance(key, _base(str(e["name"]))) <= _SLIP]
    return close, True


# Who may make each change: the owner, anyone but the owner (leaving), or anyone.
_OWNERS_ONLY = frozenset(
    {SharingKind.SHARE, SharingKind.GRANT, SharingKind.ROLE, SharingKind.REMOVE, SharingKind.STOP}
)
_DOING = {
    SharingKind.SHARE: "share",
    SharingKind.GRANT: "share",
    SharingKind.ROLE: "change",
    SharingKind.REMOVE: "change",
    SharingKind.STOP: "stop sharing",
    SharingKind.LEAVE: "leave",
    SharingKind.MEMBERS: "ask about",
    SharingKind.ACCESS: "ask about",
}
_OWNER_DOES = {
    SharingKind.SHARE: "invite people to it",
    SharingKind.GRANT: "invite people to it",
    SharingKind.ROLE: "change who may do what",
    SharingKind.REMOVE: "remove other people from it",
    SharingKind.STOP: "stop sharing it",
}


def _allowed(kind: SharingKind, entry: Entry) -> bool:
    if kind in _OWNERS_ONLY:
        return entry.get("role") == "owner"
    if kind is SharingKind.LEAVE:
        return entry.get("role") != "owner"
    return True


def _offered(kind: SharingKind, lists: Sequence[Entry]) -> list[Entry]:
    """The lists a request that names none may mean: those it may act on, shared ones first
    (sharing a list: any of the user's own but Inbox)."""
    fitting = [e for e in lists if _allowed(kind, e)]
    if kind in (SharingKind.SHARE, SharingKind.GRANT):
        return [e for e in fitting if e["name"] != INBOX]
    return [e for e in fitting if e.get("shared")]


def said_again(request: SharingRequest, *, list_name: str | None = None, person: str = "") -> str:
    """The request in full, naming the list (quoted) and the person: a choice's message, which
    reads back as exactly this request."""
    where = f'the "{list_name or request.list_name}" list'
    who = person or request.person or ""
    role = request.role or "editor"
    kind = request.kind
    if kind is SharingKind.SHARE or (kind is SharingKind.GRANT and "@" in who):
        return f"share {where} with {who} as {a_role(role)}"
    if kind is SharingKind.GRANT:
        return f"let {who} {'see' if role == 'viewer' else 'edit'} {where}"
    if kind is SharingKind.ROLE:
        return f"make {who} {a_role(role)} on {where}"
    if kind is SharingKind.REMOVE:
        return f"remove {who} from {where}"
    if kind is SharingKind.STOP:
        return f"stop sharing {where}"
    if kind is SharingKind.LEAVE:
        return f"leave {where}"
    if kind is SharingKind.ACCESS:
        return f"can {who} see {where}"
    return f"who is on {where}"


def _list_choices(request: SharingRequest, entries: Sequence[Entry]) -> list[Choice]:
    return [
        Choice(label=str(e["name"]), message=said_again(request, list_name=str(e["name"])))
        for e in entries[:MAX_CHOICES]
    ]


def _shown_list(context: ConversationContext) -> str | None:
    """The list the last reply showed ("share it with ..." right after "show my Trip list")."""
    return dict(context.shown_filter).get("list")


Chosen = Entry | Say | None


def choose_list(
    request: SharingRequest, lists: Sequence[Entry], context: ConversationContext
) -> Chosen:
    """The one list the request is about; else the reply that asks or explains; None when its
    words name no list and may mean something else (the rest of the engine reads them)."""
    name = request.list_name or _shown_list(context)
    if name is None:
        return _unnamed(request, lists)
    named, guessed = lists_named(name, lists)
    fitting = [e for e in named if _allowed(request.kind, e)]
    if not named or (guessed and not fitting):
        return _no_such_list(request, name, lists)
    if guessed:
        options = _list_choices(request, fitting)
        return _ask(request, said.did_you_mean(name, [o["label"] for o in options]), options)
    if len(fitting) == 1:
        return fitting[0]
    if not fitting:
        # "leave the family list" beside a Family of one's own: someone else's Family, asked
        fitting = _others_of_that_name(request, name, lists)
    if not fitting:
        return _not_theirs_to_change(request, named[0])
    return _which_list(request, fitting)


def _others_of_that_name(request: SharingRequest, name: str, lists: Sequence[Entry]) -> list[Entry]:
    forms = _forms(name)
    return [e for e in lists if _base(str(e["name"])) in forms and _allowed(request.kind, e)]


def _which_list(request: SharingRequest, entries: Sequence[Entry]) -> Say:
    options = _list_choices(request, entries)
    text = said.which_list([o["label"] for o in options], _DOING[request.kind])
    return _ask(request, text, options)


def _unnamed(request: SharingRequest, lists: Sequence[Entry]) -> Chosen:
    offered = _offered(request.kind, lists)
    if len(offered) == 1 and not request.changes:
        return offered[0]  # "who is on the list?" with one shared list: that one
    if not offered and not request.changes:
        return _say(request, said.shared_lists(lists))
    if not offered:
        return _say(request, said.no_list_for(_DOING[request.kind]))
    return _which_list(request, offered)


def _no_such_list(request: SharingRequest, name: str, lists: Sequence[Entry]) -> Chosen:
    if (
        not request.named_as_list
        and not request.by_email
        and request.kind
        in (
            SharingKind.SHARE,
            SharingKind.GRANT,
            SharingKind.ROLE,
        )
    ):
        return None  # "share my location with mom": not about a list
    if request.kind is SharingKind.SHARE:
        return _say(request, said.no_list_to_share(name))
    return _say(request, said.no_such_list(name, lists))


def _not_theirs_to_change(request: SharingRequest, entry: Entry) -> Say:
    if request.kind is SharingKind.LEAVE:
        return _say(request, said.own_list_to_leave(entry))
    return _say(request, said.owner_only(entry, _OWNER_DOES[request.kind]))


# --- which person --------------------------------------------------------------------------


def _first_name(email: str) -> str:
    local = email.split("@", 1)[0].lower()
    return re.split(r"[._+-]", local, maxsplit=1)[0]


def people_named(person: str, members: Sequence[Entry]) -> list[Entry]:
    """The members `person` names: an email, exactly (any casing); a name, the member whose
    email's name it is (sam@example.com), else each whose email starts with it ("alex" is
    alex.smith@example.com and alex_b@example.com)."""
    wanted = person.strip().lower()
    if "@" in wanted:
        return [m for m in members if str(m["email"]).lower() == wanted]
    whole = [m for m in members if str(m["email"]).split("@", 1)[0].lower() == wanted]
    return whole or [m for m in members if _first_name(str(m["email"])) == wanted]


def _person_choices(request: SharingRequest, entry: Entry, found: Sequence[Entry]) -> list[Choice]:
    return [
        Choice(
            label=str(m["email"]),
            message=said_again(request, list_name=str(entry["name"]), person=str(m["email"])),
        )
        for m in found[:MAX_CHOICES]
    ]


# --- the steps, kind by kind ----------------------------------------------------------------

Builder = Callable[[SharingRequest, ConversationContext, Otherwise], Step]


def on_a_list(
    then: Callable[[SharingRequest, Entry, list[Entry], list[ToolOutcome], Otherwise], Action],
) -> Builder:
    """A request about one list: the user's lists read, the list chosen (or asked), then
    `then` with it, the lists, and the outcomes after the look-up."""

    def build(request: SharingRequest, context: ConversationContext, otherwise: Otherwise) -> Step:
        def step(outcomes: list[ToolOutcome]) -> Action:
            if request.may_be_a_task and request.list_name is None:
                return otherwise(outcomes)  # "is milk on my list?": no list of people named
            lists = _lists(outcomes)
            if not isinstance(lists, list):
                return lists
            chosen = choose_list(request, lists, context)
            if request.may_be_a_task and not (isinstance(chosen, dict) and chosen.get("shared")):
                return otherwise(outcomes[1:])  # no shared list named: nobody to find on it
            if chosen is None:
                return otherwise(outcomes[1:])
            if isinstance(chosen, Say):
                return chosen
            return then(request, chosen, lists, outcomes[1:], otherwise)

        return step

    return build


def _share(
    request: SharingRequest, entry: Entry, lists: list[Entry], outcomes: list[ToolOutcome]
) -> Action:
    if not request.by_email:
        return _say(request, said.ask_email(entry, request.person))
    if request.others:
        return _share_several(request, entry, outcomes)
    role = request.role or "editor"
    call = ToolCall("share_list", {"list": entry["name"], "email": request.person, "role": role})
    if outcomes and not outcomes[0].ok and request.role and "already" in str(outcomes[0].error):
        # a member or invited already: their role changes instead, when they say so
        options = [Choice(label=f"Make them {a_role(role)}", message=_as_role(request, entry))]
        return _ask(request, str(failure(outcomes[0]).text), options)
    return _changed(
        request,
        call,
        outcomes,
        lambda data: said.invited(data["members"][0], entry),
        lambda data: _undo("remove_member", list=data["list"], email=data["members"][0]["email"]),
    )


def _share_several(request: SharingRequest, entry: Entry, outcomes: list[ToolOutcome]) -> Action:
    """ "share the trip list with alex@... and bo@...": each invited, in one batch; each one
    refused is said with its reason."""
    role = request.role or "editor"
    emails = (str(request.person), *request.others)
    calls = tuple(
        ToolCall("share_list", {"list": entry["name"], "email": email, "role": role})
        for email in emails
    )
    if not outcomes:
        return Batch(calls)
    done = outcomes[: len(calls)]
    invited = [str(o.data["members"][0]["email"]) for o in done if o.ok]
    refused = [failure(o).text for o in done if not o.ok]
    parts = [said.invited_several(invited, role, entry)] if invited else []
    return _say(request, " ".join([*parts, *refused]), undo=_NOT_UNDONE)


def _as_role(request: SharingRequest, entry: Entry) -> str:
    role = request.role or "editor"
    return f'make {request.person} {a_role(role)} on the "{entry["name"]}" list'


def share_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    return _share(request, entry, lists, outcomes)


def _members(entry: Entry, outcomes: list[ToolOutcome]) -> ToolCall | Say | list[Entry]:
    return _read(ToolCall("list_members", {"list": entry["name"]}), "members", outcomes)


def role_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    """ "make alex a viewer on the packing list", "let alex edit the packing list": the member
    given the role (nothing when they have it, or more, as "let" asks); an email not yet on
    the list is invited with it; a name not on it is asked about."""
    members = _members(entry, outcomes)
    if not isinstance(members, list):
        return members
    person = request.person or ""
    found = people_named(person, members)
    rest = outcomes[1:]
    if len(found) > 1:
        text = said.which_person(person, found, entry)
        return _ask(request, text, _person_choices(request, entry, found))
    if not found and request.by_email:
        return _share(request, entry, lists, rest)
    if not found:
        return _say(request, said.not_a_member(person, entry) + " " + said.ask_email(entry, person))
    member = found[0]
    wanted = request.role or "editor"
    if request.kind is SharingKind.GRANT and (
        request.role is None or member["role"] == "editor" or wanted == member["role"]
    ):
        return _say(request, said.may_already(member, entry, wanted))
    if member["role"] == wanted:
        return _say(request, said.already_role(member, entry))
    call = ToolCall(
        "change_member_role", {"list": entry["name"], "email": member["email"], "role": wanted}
    )
    return _changed(
        request,
        call,
        rest,
        lambda data: said.role_changed(data["members"][0], entry),
        lambda data: _undo(
            "change_member_role", list=data["list"], email=member["email"], role=member["role"]
        ),
    )


def remove_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    """ "remove alex from the packing list": the one member (or invitation) named."""
    members = _members(entry, outcomes)
    if not isinstance(members, list):
        return members
    person = request.person or ""
    found = people_named(person, members)
    rest = outcomes[1:]
    if len(found) != 1 and request.may_be_a_task:
        return otherwise(rest)  # no such person: what the words say of a task
    if len(found) > 1:
        text = said.which_person(person, found, entry)
        return _ask(request, text, _person_choices(request, entry, found))
    if not found:
        return _say(request, said.not_a_member(person, entry))
    member = found[0]
    call = ToolCall("remove_member", {"list": entry["name"], "email": member["email"]})
    return _changed(
        request, call, rest, lambda data: said.removed(member, entry), lambda _: _NOT_UNDONE
    )


def stop_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    call = ToolCall("stop_sharing", {"list": entry["name"]})
    return _changed(
        request,
        call,
        outcomes,
        lambda data: said.stopped(data.get("members") or [], entry),
        lambda _: _NOT_UNDONE,
    )


def leave_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    call = ToolCall("leave_list", {"list": entry["name"]})
    return _changed(request, call, outcomes, lambda _: said.left(entry), lambda _: _NOT_UNDONE)


def members_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    """ "who is on the family list?": the owner, the members and their roles."""
    if not outcomes:
        return ToolCall("list_members", {"list": entry["name"]})
    if not outcomes[0].ok or not isinstance(outcomes[0].data, dict):
        return failure(outcomes[0])
    return _say(request, said.members(outcomes[0].data, entry, _my_email(lists)))


def access_step(
    request: SharingRequest,
    entry: Entry,
    lists: list[Entry],
    outcomes: list[ToolOutcome],
    otherwise: Otherwise,
) -> Action:
    """ "can alex see the family list?": what the person named may do there."""
    members = _members(entry, outcomes)
    if not isinstance(members, list):
        return members
    person = request.person or ""
    owner = {"email": entry["owner"], "owner_itself": True}
    found = people_named(person, [*members, owner])
    if not found and request.may_be_a_task:
        return otherwise(outcomes[1:])
    if len(found) > 1:
        text = said.which_person(person, found, entry)
        return _ask(request, text, _person_choices(request, entry, found))
    return _say(request, said.access(found[0] if found else None, person, entry))


def add_person_step(
    request: SharingRequest, context: ConversationContext, otherwise: Otherwise
) -> Step:
    """ "add alex@example.com to the packing list": share the list, or a task? Asked."""
    name = request.list_name or "your"
    email = request.person or ""
    options = [
        Choice(label=f"Share it with {email}", message=f'share the "{name}" list with {email}'),
        Choice(label=f"Add '{email}' as a task", message=f"add '{email}' to my {name} list"),
    ]

    def step(outcomes: list[ToolOutcome]) -> Action:
        return _ask(request, said.add_person(email, name), options)

    return step


# --- tasks: who added or completed one --------------------------------------------------


def who_step(request: SharingRequest, context: ConversationContext, otherwise: Otherwise) -> Step:
    """ "who added the paint?": the task its words name (on the list said, if one is), and
    who added (or completed) it; several ask which; none is left to the rest of the engine."""
    completed = request.kind is SharingKind.WHO_COMPLETED

    def step(outcomes: list[ToolOutcome]) -> Action:
        found = _tasks_named(request, outcomes)
        if not isinstance(found, list):
            return found
        rest = outcomes[1:]
        if not found:
            return otherwise(rest)
        if len(found) > 1:
            options = [
                Choice(
                    label=f"{t['title']} ({t.get('list') or INBOX} list, task {t['id']})",
                    message=f"who {'completed' if completed else 'added'} task {t['id']}",
                )
                for t in found[:MAX_CHOICES]
            ]
            text = said.which_task(request.task or "", found[:MAX_CHOICES])
            return _ask(request, text, options)
        task = found[0]
        focus = int(task["id"])
        whose = str(task.get("completed_by" if completed else "added_by") or "")
        if not task.get("shared") or not whose:
            return _say(request, said.who_did(task, None, completed=completed), focus=focus)
        lists = _lists(rest)
        if not isinstance(lists, list):
            return lists
        who = None if whose.lower() == _my_email(lists).lower() else whose
        return _say(request, said.who_did(task, who, completed=completed), focus=focus)

    return step


def _tasks_named(
    request: SharingRequest, outcomes: list[ToolOutcome]
) -> ToolCall | Say | list[Entry]:
    if request.task_id is not None:
        call = ToolCall("list_tasks", {"status": "all", "limit": LOOKUP_LIMIT})
    else:
        call = ToolCall("list_tasks", {"status": "all", "query": request.task or ""})
    if not outcomes:
        return call
    if not outcomes[0].ok:
        return failure(outcomes[0])
    tasks: list[Entry] = list(outcomes[0].data or [])
    if request.task_id is not None:
        return [t for t in tasks if int(t["id"]) == request.task_id]
    found = match_tasks(request.task or "", tasks)
    if request.list_name:
        forms = _forms(request.list_name)
        found = [t for t in found if _base(str(t.get("list") or INBOX)) in forms]
    return found


# --- invitations ---------------------------------------------------------------------------


def _invitations(outcomes: list[ToolOutcome]) -> ToolCall | Say | list[Entry]:
    return _read(ToolCall("list_invitations", {}), "invitations", outcomes)


def _answer_choices(found: Sequence[Entry], *, accept: bool | None) -> list[Choice]:
    verbs = ("accept", "decline") if accept is None else (("accept",) if accept else ("decline",))
    options = [
        Choice(
            label=f"{verb.capitalize()} {i['list']} from {i['owner']}",
            message=f"{verb} invitation {i['id']}",
        )
        for i in found
        for verb in verbs
    ]
    return options[:MAX_CHOICES]


def invitations_step(
    request: SharingRequest, context: ConversationContext, otherwise: Otherwise
) -> Step:
    """ "do I have any invitations?": those waiting, each offered to accept (one: accept or
    decline)."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        found = _invitations(outcomes)
        if not isinstance(found, list):
            return found
        if not found:
            return _say(request, said.invitations(found))
        options = _answer_choices(found, accept=None if len(found) == 1 else True)
        return _ask(request, said.invitations(found), options)

    return step


def _invitations_named(request: SharingRequest, found: Sequence[Entry]) -> list[Entry]:
    chosen = list(found)
    if request.invitation_id is not None:
        return [i for i in chosen if int(i["id"]) == request.invitation_id]
    if request.list_name:
        forms = _forms(request.list_name)
        chosen = [i for i in chosen if _base(str(i["list"])) in forms]
    if request.person:
        owners = people_named(request.person, [{**i, "email": i["owner"]} for i in chosen])
        chosen = [i for i in chosen if any(o["id"] == i["id"] for o in owners)]
    return chosen


def answer_step(
    request: SharingRequest, context: ConversationContext, otherwise: Otherwise
) -> Step:
    """ "accept the invitation to the family list": the one invitation named (or the only one
    waiting), accepted or declined."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        found = _invitations(outcomes)
        if not isinstance(found, list):
            return found
        chosen = _invitations_named(request, found)
        if not chosen:
            words = request.list_name or request.person or str(request.invitation_id or "")
            text = said.no_invitation(words, found)
            return _ask(request, text, _answer_choices(found, accept=request.accept))
        if len(chosen) > 1:
            options = _answer_choices(chosen, accept=request.accept)
            return _ask(request, said.which_invitation(chosen), options)
        invitation = chosen[0]
        call = ToolCall(
            "answer_invitation", {"invitation_id": int(invitation["id"]), "accept": request.accept}
        )
        return _changed(
            request,
            call,
            outcomes[1:],
            lambda data: said.answered(data, invitation),
            lambda data: (
                _undo("leave_list", list=data["list"])
                if data.get("status") == "accepted"
                else _NOT_UNDONE
            ),
        )

    return step


def shared_lists_step(
    request: SharingRequest, context: ConversationContext, otherwise: Otherwise
) -> Step:
    def step(outcomes: list[ToolOutcome]) -> Action:
        lists = _lists(outcomes)
        if not isinstance(lists, list):
            return lists
        return _say(request, said.shared_lists(lists))

    return step


_BUILDERS: dict[SharingKind, Builder] = {
    SharingKind.SHARE: on_a_list(share_step),
    SharingKind.GRANT: on_a_list(role_step),
    SharingKind.ROLE: on_a_list(role_step),
    SharingKind.REMOVE: on_a_list(remove_step),
    SharingKind.STOP: on_a_list(stop_step),
    SharingKind.LEAVE: on_a_list(leave_step),
    SharingKind.MEMBERS: on_a_list(members_step),
    SharingKind.ACCESS: on_a_list(access_step),
    SharingKind.ADD_PERSON: add_person_step,
    SharingKind.WHO_ADDED: who_step,
    SharingKind.WHO_COMPLETED: who_step,
    SharingKind.INVITATIONS: invitations_step,
    SharingKind.ANSWER: answer_step,
    SharingKind.SHARED_LISTS: shared_lists_step,
}


def sharing_step(
    request: SharingRequest, context: ConversationContext, otherwise: Otherwise
) -> Step:
    """The request's step; `otherwise` says what the rest of the engine makes of the message
    (from the outcomes left to it), for words that turn out to name no list or no task."""
    return _BUILDERS[request.kind](request, context, otherwise)
