"""Shared lists said in chat (specs/sharing.md): what a message asks about who shares a list,
read into a `SharingRequest`; `sharing_steps.py` carries it out through the list and sharing
tools.

The requests, by kind:
- changes: share a list ("share the packing list with alex@example.com as a viewer", "invite
  alex@example.com to the Trip list"), give access ("let alex@example.com edit the packing
  list"), change a role ("make alex a viewer on the packing list"), remove someone ("remove
  alex from the packing list"), stop sharing ("stop sharing the trip list"), leave ("leave the
  flat list"), answer an invitation ("accept the invitation to the family list", "join the
  family list");
- questions, which never change anything: who is on a list ("who can see the family list?"),
  whether someone is ("can alex see the family list?"), who added or completed a task ("who
  added the paint?"), which invitations wait ("do I have any invitations?"), which lists are
  shared ("which lists are shared with me?").

Each kind is a family of sentence forms built from the same slots: the list (`{list}`; said
with the word "list" or quoted, `{named_list}`), the person (`{person}`: an email, taken as
typed, or a first name), the role (`{role}`) and the task (`{task}`). Only a whole message is
read (as a snooze is): a sharing request is never one clause of several. A change said as a
question ("alex can edit the packing list?") is read as the question it asks; "can you share
..." is the request it is. "share" inside a task ("add share the photos to my list") is no
sharing request: every form starts with its own verb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from rapidfuzz.distance import Levenshtein

from backend.agent.rules.text import core_request

_I = re.IGNORECASE


class SharingKind(StrEnum):
    SHARE = "share"  # share_list
    GRANT = "grant"  # "let alex edit the list": a role at least, shared if need be
    ROLE = "role"  # change_member_role
    REMOVE = "remove"  # remove_member
    STOP = "stop"  # stop_sharing
    LEAVE = "leave"  # leave_list
    ANSWER = "answer"  # answer_invitation
    ADD_PERSON = "add_person"  # "add alex@example.com to the packing list": asked, never guessed
    MEMBERS = "members"  # list_members
    ACCESS = "access"  # list_members, about one person
    WHO_ADDED = "who_added"  # list_tasks(query)
    WHO_COMPLETED = "who_completed"
    INVITATIONS = "invitations"  # list_invitations
    SHARED_LISTS = "shared_lists"  # list_lists


# The kinds that change something (each acts only on a list it names, `sharing_steps.py`).
CHANGES = frozenset(
    {
        SharingKind.SHARE,
        SharingKind.GRANT,
        SharingKind.ROLE,
        SharingKind.REMOVE,
        SharingKind.STOP,
        SharingKind.LEAVE,
        SharingKind.ANSWER,
    }
)


@dataclass(frozen=True)
class SharingRequest:
    kind: SharingKind
    # The list as said ("packing" of "the packing list"); None when not said (or only
    # pointed at: "it", "this list"), then the list just shown is meant, or asked for.
    list_name: str | None = None
    # The list was said as one: with the word "list", or quoted.
    named_as_list: bool = False
    # An email exactly as typed, or a first name ("alex").
    person: str | None = None
    # More people to share with, each an email as typed ("with alex@... and bo@...").
    others: tuple[str, ...] = ()
    role: str | None = None  # "editor" or "viewer" when said
    task: str | None = None  # who added or completed: the task's words
    task_id: int | None = None  # ... or its number
    invitation_id: int | None = None
    accept: bool = True
    # The words may be a request about a task too ("remove alex from the packing list", "is
    # alex on the family list?"): the task reading goes first, the people only if it finds
    # no task.
    may_be_a_task: bool = False
    rule: str = ""

    @property
    def by_email(self) -> bool:
        return self.person is not None and "@" in self.person

    @property
    def changes(self) -> bool:
        return self.kind in CHANGES


# --- the slots -----------------------------------------------------------------------------

EMAIL = r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
_EMAIL = re.compile(EMAIL)
# Words that are no one's name where a person goes.
_NOT_A_NAME = (
    r"the|my|our|your|a|an|it|its|them|they|this|that|these|those|everyone|everybody|anyone|"
    r"anybody|people|all|some|someone|somebody|you|u|him|her|us|i|me|myself|list|lists|sure|"
    r"what|who|which|how|task|tasks|everything|anything|nothing|please"
)
_NAME = rf"(?!(?:{_NOT_A_NAME})\b)[A-Za-z][\w.-]*"
_PERSON = rf"(?P<person>{EMAIL}|{_NAME})(?:'s)?"
# Several people, each by email: "alex@example.com, bo@example.com and cy@example.com".
_PEOPLE = (
    rf"(?P<person>{EMAIL}|{_NAME})(?P<more>(?:(?:\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+){EMAIL})*)"
)
_QUOTED = r"'(?P<q1>[^']+)'|\"(?P<q2>[^\"]+)\""
_LEAD = r"(?:(?:the|my|our|your|this|that)\s+)?(?:shared\s+)?"
_LIST_WORD = r"(?:shared\s+)?(?:to-?do\s+)?list"
_LIST = rf"(?P<slot>{_LEAD}(?:{_QUOTED}|(?P<name>[^'\",;?!]+?))(?P<word>\s+{_LIST_WORD})?)"
_NAMED_LIST = (
    rf"(?P<slot>{_LEAD}(?:(?:{_QUOTED})(?P<word>\s+{_LIST_WORD})?"
    rf"|(?P<name>[^'\",;?!]+?)(?P<word2>\s+{_LIST_WORD})))"
)
_VIEWER = (
    r"viewers?|view[- ]?only|read[- ]?only"
    r"|(?:only\s+)?(?:to\s+)?(?:see|view|read)(?:\s+(?:it|only))?"
    r"|(?:with\s+)?(?:view|viewing|read)(?:[- ]only)?\s+(?:access|rights|permissions?)"
)
_EDITOR = (
    r"editors?|(?:to\s+)?edit(?:\s+it)?"
    r"|(?:with\s+)?(?:edit|editing|write|full)\s+(?:access|rights|permissions?)"
)
_ROLE = (
    rf"(?P<role>(?:as\s+)?(?:an?\s+)?(?:{_VIEWER}|{_EDITOR})"
    r"|(?:so\s+(?:that\s+)?(?:they|he|she)|who|that)\s+(?:can|may)\s+(?:only\s+)?"
    r"(?:see|view|read|edit|change)(?:\s+it)?)"
)
_TASK = r"(?P<task>(?!(?:you|your|yourself|me|it|this|that|them|him|her|us)\b)[^?!]+?)"
_SLOTS = {
    "list": _LIST,
    "named_list": _NAMED_LIST,
    "person": _PERSON,
    "people": _PEOPLE,
    "role": _ROLE,
    "task": _TASK,
}
_ANYMORE = r"(?:\s+(?:anymore|any\s+more|any\s+longer|now))?"
_EVERYONE = r"(?:everyone|everybody|anyone|anybody|all|people|others|all\s+of\s+them)"

# The forms of each kind, most specific first; "{slot}" is a slot above.
_FORMS: tuple[tuple[SharingKind, str, str], ...] = (
    # changes
    (
        SharingKind.STOP,
        rf"(?:stop|quit|cease|end)\s+sharing\s+{{list}}\s+with\s+{_EVERYONE}",
        "stop",
    ),
    (SharingKind.REMOVE, r"(?:stop|quit)\s+sharing\s+{list}\s+with\s+{person}", "unshare with"),
    (SharingKind.REMOVE, r"unshare\s+{list}\s+(?:with|from)\s+{person}", "unshare with"),
    (SharingKind.STOP, rf"(?:stop|quit|cease|end)\s+sharing\s+{{list}}{_ANYMORE}", "stop"),
    (SharingKind.STOP, r"unshare\s+{list}", "stop"),
    (SharingKind.STOP, r"make\s+{list}\s+private(?:\s+again)?", "stop"),
    (SharingKind.STOP, r"(?:take|turn)\s+off\s+sharing\s+(?:on|for)\s+{list}", "stop"),
    (
        SharingKind.STOP,
        r"(?:remove|kick)\s+(?:everyone|everybody|all\s+(?:the\s+)?(?:members|people))\s+"
        r"(?:from|off|out\s+of)\s+{list}",
        "stop",
    ),
    (
        SharingKind.REMOVE,
        rf"(?:don't|do\s+not)\s+share\s+{{list}}\s+with\s+{{person}}{_ANYMORE}",
        "unshare with",
    ),
    (
        SharingKind.STOP,
        r"(?:i\s+)?(?:don't|do\s+not)\s+(?:want\s+to\s+)?share\s+{list}"
        r"\s+(?:anymore|any\s+more|any\s+longer)",
        "stop",
    ),
    (SharingKind.SHARE, r"share\s+{list}\s+,?{role}\s+with\s+{people}", "share"),
    (SharingKind.SHARE, r"share\s+{list}\s+with\s+{people}(?:,?\s+{role})?", "share"),
    (
        SharingKind.SHARE,
        r"invite\s+{people}\s+(?:to|on(?:to)?|into)\s+{list}(?:,?\s+{role})?",
        "invite",
    ),
    (SharingKind.SHARE, r"add\s+{person}\s+(?:to|on(?:to)?)\s+{list}\s+{role}", "share"),
    (
        SharingKind.ADD_PERSON,
        rf"add\s+(?P<person>{EMAIL})\s+(?:to|on(?:to)?)\s+{{list}}",
        "add a person",
    ),
    (
        SharingKind.SHARE,
        r"give\s+{person}\s+(?P<role>(?:edit|editing|write|full|view|viewing|read|read-only|"
        r"view-only)\s+)?(?:access|permission|rights)\s+(?:to|on|for)\s+{list}",
        "give access",
    ),
    (SharingKind.ROLE, r"let\s+{person}\s+only\s+(?P<role>see|view|read)\s+{list}", "role"),
    (
        SharingKind.GRANT,
        r"let\s+{person}\s+(?P<role>see|view|read|look\s+at|edit|change|add\s+to|access|use)"
        r"\s+{list}",
        "let",
    ),
    (
        SharingKind.ROLE,
        r"(?:make|set|change|switch|turn)\s+{person}\s+(?:to\s+|into\s+|as\s+)?(?:an?\s+)?"
        r"(?P<role>viewer|editor)(?:\s+(?:on|of|for|in|at)\s+{list})?",
        "role",
    ),
    (
        SharingKind.ROLE,
        r"(?:change|set|switch|make)\s+{person}\s+(?:role|access|permissions?)\s+"
        r"(?:(?:on|in|for)\s+{list}\s+)?to\s+(?:an?\s+)?(?P<role>viewer|editor|view[- ]?only|"
        r"read[- ]?only|edit(?:ing)?)",
        "role",
    ),
    (
        SharingKind.ROLE,
        r"(?:change|set|switch|make)\s+{person}\s+(?:role|access|permissions?)\s+to\s+"
        r"(?:an?\s+)?(?P<role>viewer|editor|view[- ]?only|read[- ]?only|edit(?:ing)?)"
        r"\s+(?:on|in|for)\s+{list}",
        "role",
    ),
    (
        SharingKind.ROLE,
        r"make\s+{list}\s+(?P<role>view[- ]?only|read[- ]?only|editable)\s+for\s+{person}",
        "role",
    ),
    (
        SharingKind.ROLE,
        rf"(?:don't|do\s+not)\s+let\s+{{person}}\s+(?P<demote>edit|change)\s+{{list}}{_ANYMORE}",
        "no longer edit",
    ),
    (
        SharingKind.ROLE,
        r"stop\s+{person}\s+(?:from\s+)?(?P<demote>editing|changing)\s+{list}",
        "no longer edit",
    ),
    (
        SharingKind.ROLE,
        r"{person}\s+(?:should|can|may)\s+only\s+(?P<role>see|view|read)\s+{list}",
        "role",
    ),
    (
        SharingKind.LEAVE,
        r"(?:take|remove|get|drop|delete)\s+me\s+(?:off|out\s+of|from)\s+(?:of\s+)?{list}",
        "leave",
    ),
    (
        SharingKind.REMOVE,
        r"(?:remove|kick|take|drop|delete|boot|cut)\s+{person}\s+(?:off|out\s+of|from)\s+(?:of\s+)?"
        r"{list}",
        "remove",
    ),
    (
        SharingKind.REMOVE,
        r"(?:revoke|remove|cancel|withdraw)\s+{person}\s+(?:access|invitation|invite|membership)"
        r"(?:\s+(?:to|on|for|from)\s+{list})?",
        "remove",
    ),
    (
        SharingKind.REMOVE,
        r"(?:uninvite|un-invite|disinvite)\s+{person}(?:\s+(?:from|to)\s+{list})?",
        "remove",
    ),
    (
        SharingKind.LEAVE,
        r"(?:leave|quit|exit|unsubscribe\s+from|get\s+out\s+of|unjoin)\s+{named_list}",
        "leave",
    ),
    (
        SharingKind.LEAVE,
        r"(?:i(?:'d|\s+would)\s+like|i\s+(?:want|need)|want|need)\s+to\s+leave\s+{list}",
        "leave",
    ),
    (SharingKind.LEAVE, r"stop\s+being\s+(?:on|in|a\s+member\s+of)\s+{list}", "leave"),
    (
        SharingKind.ANSWER,
        r"(?P<verb>accept|decline|reject|refuse|turn\s+down)\s+(?:the\s+)?(?:invitation|invite)\s+"
        r"(?:#|number\s+)?(?P<n>\d+)",
        "answer an invitation",
    ),
    (
        SharingKind.ANSWER,
        r"(?P<verb>accept|decline|reject|refuse|turn\s+down)\s+{person}\s+(?:list\s+)?"
        r"(?:invitation|invite)(?:\s+(?:to|for)\s+{list})?",
        "answer an invitation",
    ),
    (
        SharingKind.ANSWER,
        r"(?P<verb>accept|decline|reject|refuse|turn\s+down)\s+(?:the\s+|that\s+|this\s+|my\s+)?"
        r"(?:list\s+)?(?:invitation|invite)(?:\s+(?:to|for)\s+{list})?(?:\s+from\s+{person})?",
        "answer an invitation",
    ),
    (
        SharingKind.ANSWER,
        r"(?P<verb>accept|decline|reject|refuse|turn\s+down)\s+{list}\s+(?:invitation|invite)"
        r"(?:\s+from\s+{person})?",
        "answer an invitation",
    ),
    (SharingKind.ANSWER, r"(?P<verb>join)\s+{named_list}", "answer an invitation"),
    # questions
    (
        SharingKind.SHARED_LISTS,
        r"(?:(?:which|what)\s+(?:of\s+my\s+)?lists\s+(?:are|r|have\s+been|were)\s+shared"
        r"(?:\s+with\s+(?:me|others|anyone|anybody|people))?"
        r"|(?:which|what)\s+lists\s+(?:do|did|have)\s+i\s+shared?(?:\s+with\s+(?:anyone|others|people))?"
        r"|(?:which|what)\s+lists\s+(?:am\s+i|i'm)\s+(?:on|in|a\s+member\s+of)"
        r"|(?:show|list|what\s+are)\s+(?:me\s+)?(?:all\s+)?(?:my\s+|the\s+)?shared\s+lists"
        r"|(?:do\s+i\s+have\s+any|are\s+any\s+of\s+my\s+lists)\s+shared(?:\s+lists)?"
        r"|(?:my\s+)?shared\s+lists)",
        "shared lists",
    ),
    (
        SharingKind.INVITATIONS,
        r"(?:(?:do|did|have)\s+i\s+(?:have|got|get|gotten|received)\s+(?:any\s+)?(?:new\s+)?"
        r"(?:list\s+|sharing\s+)?(?:invitations?|invites?)"
        r"(?:\s+(?:to\s+(?:any\s+)?lists?|waiting|pending))?"
        r"|(?:any|show|list|check|see|view|read|open)\s+(?:me\s+)?(?:my\s+)?(?:new\s+|pending\s+)?"
        r"(?:list\s+)?(?:invitations?|invites?)(?:\s+(?:for\s+me|to\s+lists?|waiting|pending))?"
        r"|what\s+(?:invitations?|invites?)\s+(?:do\s+i\s+have|are\s+(?:there|waiting|pending))"
        r"|(?:have\s+i\s+been|was\s+i|am\s+i)\s+invited\s+to\s+(?:any\s+)?(?:lists?|anything)"
        r"|(?:has|did|have)\s+(?:anyone|anybody|someone|somebody)\s+(?:shared|share|invited|"
        r"invite)\s+(?:me|(?:a|any)\s+lists?\s+with\s+me)(?:\s+to\s+(?:a|any)\s+lists?)?"
        r"|(?:my\s+)?(?:list\s+)?(?:invitations?|invites?))",
        "invitations",
    ),
    (
        SharingKind.MEMBERS,
        r"who(?:'s|\s+is|\s+are)?(?:\s+else)?\s+(?:on|in|part\s+of|a\s+member\s+of|members\s+of|"
        r"sharing|using)\s+{list}",
        "members",
    ),
    (
        SharingKind.MEMBERS,
        r"who\s+(?:else\s+)?(?:can|could|gets\s+to|is\s+able\s+to|has\s+permission\s+to)\s+"
        r"(?:see|view|access|edit|change|use|read)\s+{list}",
        "members",
    ),
    (SharingKind.MEMBERS, r"who\s+(?:else\s+)?(?:has|have|got)\s+access\s+to\s+{list}", "members"),
    (
        SharingKind.MEMBERS,
        r"(?:who(?:'s|\s+is|\s+was)?|with\s+whom\s+is)\s+{list}\s+shared(?:\s+with)?",
        "members",
    ),
    (
        SharingKind.MEMBERS,
        r"who\s+(?:did|have)\s+i\s+shared?\s+{list}\s+with",
        "members",
    ),
    (
        SharingKind.MEMBERS,
        r"(?:who\s+(?:shares|is\s+sharing|shared|owns)|whose\s+list\s+is)\s+{list}(?:\s+with\s+me)?",
        "members",
    ),
    (
        SharingKind.MEMBERS,
        r"(?:(?:show|list|tell|see|get)\s+(?:me\s+)?|who\s+are\s+)(?:the\s+|all\s+(?:the\s+)?)?"
        r"(?:members|people|users|sharers|collaborators)\s+(?:of|on|in|for|sharing)\s+{list}",
        "members",
    ),
    (
        SharingKind.MEMBERS,
        r"is\s+{list}\s+shared(?:\s+with\s+(?:anyone|anybody|someone|somebody|people|others))?",
        "members",
    ),
    (SharingKind.ACCESS, r"is\s+{list}\s+shared\s+with\s+{person}", "access"),
    (
        SharingKind.ACCESS,
        r"(?:can|could|may)\s+{person}\s+(?:see|view|access|edit|change|read|use)\s+{list}",
        "access",
    ),
    (SharingKind.ACCESS, r"(?:does|do)\s+{person}\s+(?:have|has)\s+access\s+to\s+{list}", "access"),
    (SharingKind.ACCESS, r"(?:have|did)\s+i\s+shared?\s+{list}\s+with\s+{person}", "access"),
    (
        SharingKind.ACCESS,
        r"is\s+{person}\s+(?P<member>a\s+member\s+of|an?\s+(?:editor|viewer|member)\s+(?:on|of|for|in)|"
        r"on|in)\s+{list}",
        "access",
    ),
    (
        SharingKind.WHO_ADDED,
        r"who\s+(?:added|put|wrote|created|entered|put\s+in|came\s+up\s+with)\s+{task}"
        r"(?:\s+(?:to|on|in|onto|into)\s+{list})?",
        "who added",
    ),
    (
        SharingKind.WHO_COMPLETED,
        r"who\s+(?:completed|finished|did|ticked|checked|crossed|marked)\s+(?:off\s+)?{task}"
        r"(?:\s+(?:off|as\s+done|as\s+complete(?:d)?|done))?(?:\s+(?:on|in|from|off)\s+{list})?",
        "who completed",
    ),
)


def _compiled(form: str) -> re.Pattern[str]:
    for slot, pattern in _SLOTS.items():
        form = form.replace(f"{{{slot}}}", pattern)
    return re.compile(rf"^(?:{form})$", _I)


_PATTERNS = tuple((kind, _compiled(form), rule) for kind, form, rule in _FORMS)

# Said of no list in particular: the list just shown is meant, or it is asked.
_UNNAMED = frozenset(
    {
        "",
        "it",
        "this",
        "that",
        "this one",
        "that one",
        "list",
        "lists",
        "to-do",
        "todo",
        "to do",
        "tasks",
        "them",
        "shared",
        "one",
    }
)
_VIEWER_WORDS = re.compile(r"\b(?:view|viewer|viewing|read|see|look|only)", _I)
_EDITOR_WORDS = re.compile(r"\b(?:edit|editor|editing|editable|write|change|full|add)", _I)
_ANY_ROLE = re.compile(r"^(?:access|use)$", _I)
_TASK_NUMBER = re.compile(r"^(?:task\s*#?|#|number\s+)(?P<n>\d{1,9})$", _I)
_THE = re.compile(r"^(?:the|my|our|that|this)\s+", _I)
# A request, though said with a question mark: "can you share ...?", "would you mind ...?".
_POLITE_ASK = re.compile(
    r"^\W*(?:(?:hey|hi|ok|okay|so|um|oh|please|pls)\W+)*(?:(?:can|could|would|will|won't)\s+"
    r"(?:you|u|ya)\b|would\s+you\s+mind\b|please\b)",
    _I,
)
_DECLINE = re.compile(r"^(?:decline|reject|refuse|turn\s+down)$", _I)


def sharing_request(said: str, typed: str = "") -> SharingRequest | None:
    """The sharing request `said` (the prepared message) makes, read whole; None if it is
    none. An email is taken as `typed` (the message as the user typed it)."""
    text = core_request(said)
    first = text.split(" ", 1)[0].lower()
    if "@" not in text and first not in _FIRST_WORDS and not _ONLY_SEE.search(text):
        return None  # most messages: one cheap look
    for kind, pattern, rule in _PATTERNS:
        found = pattern.match(text)
        if found is not None:
            request = _read(kind, found, rule, Typed(said, typed or said))
            if request is not None:
                return _as_asked(request, said)
    return None


# The words a sharing request starts with (but "alex should only see the list", and an email).
_FIRST_WORDS = frozenset(
    """
    share invite give let make set change switch turn don't do stop quit cease end unshare
    take remove kick get drop delete boot cut revoke cancel withdraw uninvite un-invite
    disinvite leave exit unsubscribe unjoin i i'd accept decline reject refuse join which what
    show list are my shared any check see view read open have was am has did who who's whose
    with tell is can could may does invitations invitation invites invite
    """.split()
)
_ONLY_SEE = re.compile(r"\bonly\s+(?:see|view|read)\b", _I)


def _read(
    kind: SharingKind, found: re.Match[str], rule: str, typed: Typed
) -> SharingRequest | None:
    groups = found.groupdict()
    person = _person(groups.get("person"), typed)
    if person is not None and person.lower() in ("me", "myself"):
        return None
    list_name, named = _list_said(groups, typed)
    # "don't let alex edit the list": a viewer from now on
    role = "viewer" if groups.get("demote") else _role(groups.get("role"))
    if kind is SharingKind.REMOVE and person is not None and re.fullmatch(_EVERYONE, person, _I):
        kind = SharingKind.STOP
    others = tuple(_person(e, typed) or e for e in _EMAIL.findall(groups.get("more") or ""))
    if others and not (person and "@" in person):
        return None  # "with alex and bo@...": one of them named only
    request = SharingRequest(
        kind,
        list_name,
        named,
        person,
        others,
        role,
        rule=f"sharing: {rule}",
        accept=not _DECLINE.match(groups.get("verb") or ""),
        invitation_id=int(groups["n"]) if groups.get("n") else None,
    )
    return _finished(request, groups)


def _finished(request: SharingRequest, groups: dict[str, str | None]) -> SharingRequest | None:
    """The request with what its kind reads more: a task's words, whether it may be a task."""
    kind = request.kind
    if kind in (SharingKind.WHO_ADDED, SharingKind.WHO_COMPLETED):
        return _with_task(request, groups.get("task") or "")
    if kind is SharingKind.REMOVE and not request.by_email:
        # "remove milk from the shopping list": a task, when the list holds one
        return replace(request, may_be_a_task=True)
    if kind is SharingKind.ACCESS and groups.get("member") in ("on", "in"):
        return replace(request, may_be_a_task=not request.by_email)
    return request


def _with_task(request: SharingRequest, words: str) -> SharingRequest | None:
    task = _THE.sub("", words.strip()).strip()
    if not task:
        return None
    number = _TASK_NUMBER.match(task)
    if number is not None:
        return replace(request, task=None, task_id=int(number["n"]))
    return replace(request, task=task)


def _person(said: str | None, typed: Typed) -> str | None:
    """The person as said; an email as the user typed it (never re-cased or respelt)."""
    if not said:
        return None
    said = re.sub(r"'s$", "", said, flags=_I)
    return typed.email(said) if "@" in said else said


_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_QUOTED_NAME = re.compile(r"'([^']+)'|\"([^\"]+)\"")


@dataclass(frozen=True)
class Typed:
    """The message as read (`said`: respelt, its noise read) and as the user typed it. An
    email or a quoted name is taken as typed: reading may have respelt it ("b4@example.com"
    read as "before@...", "ad@..." as "add@...")."""

    said: str
    typed: str

    def email(self, found: str) -> str:
        return _as_typed(found, _EMAIL.findall(self.said), _EMAIL.findall(self.typed))

    def quoted(self, found: str) -> str:
        return _as_typed(found, _quoted_names(self.said), _quoted_names(self.typed))


def _quoted_names(text: str) -> list[str]:
    return [m[1] or m[2] for m in _QUOTED_NAME.finditer(text.translate(_QUOTES))]


def _as_typed(found: str, in_said: list[str], in_typed: list[str]) -> str:
    """`found` (one of `in_said`) as typed: the same one, else the one in its place, else the
    nearest."""
    same = [t for t in in_typed if t.lower() == found.lower()]
    if same or not in_typed:
        return same[0] if same else found
    if len(in_said) == len(in_typed) and found in in_said:
        return in_typed[in_said.index(found)]
    return min(in_typed, key=lambda t: Levenshtein.distance(t.lower(), found.lower()))


def _list_said(groups: dict[str, str | None], typed: Typed) -> tuple[str | None, bool]:
    """The list's name as said, and whether it was said as a list (the word, or quotes); a
    quoted name as typed."""
    quoted = groups.get("q1") or groups.get("q2")
    if quoted:
        return typed.quoted(quoted).strip(), True
    name = " ".join((groups.get("name") or "").split())
    name = _THE.sub("", name)
    named = bool(groups.get("word") or groups.get("word2"))
    if name.lower() in _UNNAMED:
        return None, named
    return name, named


def _role(said: str | None) -> str | None:
    """ "editor" or "viewer" as the words say it; None when they say neither."""
    if not said or _ANY_ROLE.match(said.strip()):
        return None
    if _EDITOR_WORDS.search(said) and not re.search(r"only", said, _I):
        return "editor"
    if _VIEWER_WORDS.search(said):
        return "viewer"
    return None


def _as_asked(request: SharingRequest, said: str) -> SharingRequest | None:
    """A change said as a question ("alex can edit the packing list?") is that question:
    questions never change anything. "Can you share ...?" is the request it makes."""
    if not request.changes or not said.rstrip().endswith("?") or _POLITE_ASK.match(said):
        return request
    if request.person is not None and request.kind is not SharingKind.ANSWER:
        return replace(request, kind=SharingKind.ACCESS, may_be_a_task=False)
    if request.kind is SharingKind.ANSWER:
        return replace(request, kind=SharingKind.INVITATIONS)
    return replace(request, kind=SharingKind.MEMBERS) if request.list_name else None
