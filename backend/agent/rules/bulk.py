"""Requests about every task at once ("complete all", "delete all of them").

"all" is never a title to search for: as a substring it is in "call mom" and "install app",
so resolving it as one would act on whichever task happened to contain it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from backend.agent.rules.text import LIST_SEPARATOR

_I = re.IGNORECASE

_STATUS = {
    "pending": "pending",
    "open": "pending",
    "remaining": "pending",
    "outstanding": "pending",
    "unfinished": "pending",
    "incomplete": "pending",
    "completed": "completed",
    "complete": "completed",
    "done": "completed",
    "finished": "completed",
}
_STATUS_WORDS = "|".join(_STATUS)
_THINGS = r"(?:tasks?|todos?|to-dos?|items?|things|ones|reminders?|stuff)"
_PLACE = (
    r"(?:\s+(?:on|in|from|off)\s+"
    r"(?:(?:my|the)\s+(?:list|todo list|to-do list|to do list)|there|it))?"
)
_EVERY = re.compile(
    r"^(?:"
    r"all|everything|every\s*thing|them all|all of them|all of those|all those|all these|"
    r"it all|all of it|"
    r"(?:the\s+)?(?:whole|entire)\s+(?:list|thing)|my\s+(?:whole|entire)\s+list|"
    # "i'm finished with my to do list", "i'm done with today's to do list"
    r"(?:my|today's|todays)\s+(?:to[- ]?do|todo)\s+list|"
    rf"every\s+(?:single\s+)?(?:(?P<s1>{_STATUS_WORDS})\s+)?{_THINGS}|"
    rf"all\s+(?:of\s+)?(?:my\s+|the\s+|those\s+|these\s+)?(?:(?P<s2>{_STATUS_WORDS})\s+)?{_THINGS}|"
    rf"all\s+(?:of\s+)?(?:my\s+|the\s+)?(?P<s3>{_STATUS_WORDS})(?:\s+ones)?"
    rf"){_PLACE}$",
    _I,
)
# The words that leave tasks out of a bulk request, longest first so "but not" is not "but".
_MARKER = re.compile(
    r"(?:,\s*|\s+)(?:with the exception of|except(?:\s+for)?|but\s+not|but|bar|apart from|"
    r"other than|besides|save for|save|excluding)\s+",
    _I,
)
# "got everything off the shopping list bar...": the done-statement's verb is not the scope.
_DONE_LEAD = re.compile(
    r"^(?:i(?:'ve|\s+have)?\s+)?(?:(?:just|finally|already)\s+)?"
    r"(?:got|gotten|did|done|finished|completed|ticked off|sorted|knocked out)\s+"
    r"(?:through\s+)?(?=every|all\b)",
    _I,
)
_GENERIC_LIST = r"(?:to[- ]?do|todo|whole|entire|task|tasks)"
# "on my Work list", "off the shopping list", "from the work list"
_NAMED_LIST = re.compile(
    rf"\s+(?:on|in|from|off|of)\s+(?:my|the|our)\s+(?!{_GENERIC_LIST}\s+list\b)"
    r"(?P<name>[\w'-]+(?:\s+[\w'-]+)?)\s+list\b",
    _I,
)
# "on work": a bare name, only at the end; resolved against the lists there are, else asked.
_BARE_LIST = re.compile(
    r"\s+(?:on|in|from|off)\s+(?!(?:it|there|them|here|list|my|the|today|tomorrow)$)"
    r"(?P<name>[a-z][\w'-]*)$",
    _I,
)
_TAG = re.compile(
    r"\s+(?:tagged|labell?ed|with\s+(?:the\s+)?tag)\s+(?:as\s+)?#?(?P<tag>[\w-]+)|"
    r"\s+with\s+(?:the\s+)?#?(?P<tag2>[\w-]+)\s+tag\b|"
    r"(?<=\s)#(?P<tag3>[\w-]+)\s*",
    _I,
)
_DUE = re.compile(
    r"\s+(?:that\s+(?:is|was|are|were)\s+|that's\s+)?due\s+(?P<due>today|tomorrow)\b|"
    r"(?<=\s)(?P<due2>today|tomorrow)(?:'s|s)\s+",
    _I,
)
# "every grocery item", "all the work stuff", "all shopping things": a list named by its kind of
# thing; resolved against the lists there are, else asked.
_KIND_OF_THINGS = re.compile(
    r"^(?P<lead>all|every|everything)\s+(?:(?:the|my|of\s+the|of\s+my)\s+)?"
    r"(?P<name>(?!(?:completed|pending|done|finished|open|other|remaining|unfinished|"
    r"outstanding|old|new|same|rest|last|first)\b)[a-z][\w'-]*)\s+"
    # ("all the report tasks" are the tasks called so, told from their titles)
    r"(?:items?|things?|stuff|bits)\b",
    _I,
)
_VERB_AFTER = re.compile(r"^\s*(?:mark|tick|check|cross)(?:\s+(?:as|off|them))*\s*$", _I)
_AS_DONE = re.compile(r"\s+as\s+(?:done|complete|completed|finished)$", _I)
_BARE_DONE = re.compile(r"\s+(?:done|complete|completed|finished|off)$", _I)
# A head that says every task but whose scope words were not read: asked, never widened.
_BULK_START = re.compile(r"^(?:all|every|everything)(?=\s|$)", _I)


# "Them", "both", "all of those": the tasks the assistant last listed, not the whole list.
_LISTED = re.compile(
    r"^(?:them|those|these|both|both of them|both of those|those tasks|these tasks|"
    r"those ones|these ones|them all|all of them|all of those|all of these|all those|"
    r"all these|all (?:two|three|four|five|six|seven|eight|nine|ten)(?: of them)?)$",
    _I,
)
# How many "both", "all three" say there are.
_COUNTS = {
    "both": 2,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_COUNTED = re.compile(r"\b(?:both|two|three|four|five|six|seven|eight|nine|ten)\b", _I)
# Without a list just shown, these still mean every task; bare "them" or "both" do not.
_LISTED_OR_EVERY = re.compile(r"^(?:them all|all of them|all of those|all those|all these)$", _I)


@dataclass(frozen=True)
class Bulk:
    """Every task (of `status`: all, pending or completed) or, when `listed`, the tasks
    last shown; `exceptions`: the tasks the user named to leave out ("all except the
    passport"). The scope narrows it: `list_name` ("on my Work list"), `tag` ("tagged home"),
    `due` ("due today"); `unread`: scope words said but not understood (then it asks)."""

    status: str
    exceptions: tuple[str, ...] = ()
    listed: bool = False
    list_name: str | None = None
    tag: str | None = None
    due: str | None = None
    unread: str | None = None

    @property
    def scoped(self) -> bool:
        """Whether it is more than every task of a status: exceptions or a narrower scope."""
        return bool(self.exceptions or self.list_name or self.tag or self.due or self.unread)


def bulk_scope(target: str, *, listed: int, completing: bool = False) -> Bulk | None:
    """The bulk request `target` names ("all of them", "every completed task", "everything on
    the work list except the report"), if it is one; `listed`: how many tasks the
    conversation has just shown ("them" points to those); `completing`: a trailing "done" is
    the verb's ("mark everything done"), not a status."""
    text = " ".join(target.strip().strip(".!?").split())
    text = re.sub(r"[^\w)'\"]+$", "", text)  # "... the draft review 💪"
    if _LISTED.match(text):
        counted = _COUNTED.search(text)
        if counted and listed and _COUNTS[counted.group(0).lower()] != listed:
            return None  # "I finish both" after a list of twelve: not those twelve
        if listed:
            return Bulk("all", listed=True)
        if not _LISTED_OR_EVERY.match(text):
            return None
    plain = _every(text)
    if plain is not None:
        return plain
    return _structured(_DONE_LEAD.sub("", text), completing=completing)


def _every(text: str) -> Bulk | None:
    match = _EVERY.match(text)
    if match is None:
        return None
    word = match.group("s1") or match.group("s2") or match.group("s3")
    return Bulk(_STATUS[word.lower()] if word else "all")


def _kept(said: str) -> tuple[str, ...]:
    kept = [k.strip(" .,!?") for k in LIST_SEPARATOR.split(said) if k.strip(" .,!?")]
    return tuple(kept) or ("",)


@dataclass
class _Scope:
    list_name: str | None = None
    tag: str | None = None
    due: str | None = None

    def take(self, text: str) -> str:
        """`text` without the scope words it reads into this scope."""
        text = self._take_list(text)
        tag = _TAG.search(text)
        if tag:
            self.tag = self.tag or (tag["tag"] or tag["tag2"] or tag["tag3"]).lower()
            text = (text[: tag.start()] + " " + text[tag.end() :]).strip()
        due = _DUE.search(text)
        if due:
            self.due = self.due or (due["due"] or due["due2"]).lower()
            text = (text[: due.start()] + " " + text[due.end() :]).strip()
        return " ".join(text.split())

    def _take_list(self, text: str) -> str:
        named = _NAMED_LIST.search(text) or _BARE_LIST.search(text)
        if named is not None:
            self.list_name = self.list_name or named["name"]
            return (text[: named.start()] + text[named.end() :]).strip()
        kind = _KIND_OF_THINGS.match(text.strip())
        if kind is None:
            return text
        self.list_name = self.list_name or kind["name"]  # "every grocery item"
        rest = _VERB_AFTER.sub("", text.strip()[kind.end() :])  # "all shopping things mark as"
        return f"all {rest}".strip()


def _structured(text: str, *, completing: bool) -> Bulk | None:
    """ "everything on the work list except the report", "all tasks tagged home but the
    bathroom", "everything except milk on the shopping list": the scope and the exceptions,
    in either order."""
    marker = _MARKER.search(text)
    head, kept = (text[: marker.start()], text[marker.end() :]) if marker else (text, "")
    if not _BULK_START.match(head):
        return None
    scope = _Scope()
    kept = scope.take(" " + kept) if kept else ""
    head = scope.take(_AS_DONE.sub("", head))
    if completing:
        head = _BARE_DONE.sub("", head)
    if not (marker or scope.list_name or scope.tag or scope.due):
        return None
    every = _every(head)
    return Bulk(
        every.status if every else "all",
        exceptions=_kept(kept) if marker else (),
        list_name=scope.list_name,
        tag=scope.tag,
        due=scope.due,
        unread=None if every else head,
    )


# "delete/clear/remove everything on the work list except ...": the clause a clear reading
# leaves no target for.
_CLEAR_VERB = re.compile(
    r"^(?:please\s+)?(?:can you\s+|could you\s+)?"
    r"(?:delete|remove|clear|erase|scrap|wipe|bin|get rid of|take off)\s+(?P<rest>.+)$",
    _I,
)


def with_exception_said_after(target: str, clause: str) -> str:
    """ "all shopping things mark as done, but not the eggs": an exception the clause says
    after the target read is the target's too."""
    marker = _MARKER.search(clause)
    if marker is None or _MARKER.search(target) or target not in clause[: marker.start()]:
        return target
    kept = _REASON_AFTER.sub("", clause[marker.end() :])
    return f"{target} except {kept}"


# ", eggs i don't buy yet": why the exception is one, not another exception
_REASON_AFTER = re.compile(r",\s*[^,]*\b(?:i|we)\s+(?:don't|do not|didn't|haven't|won't)\b.*$", _I)


def scoped_clear(clause: str) -> Bulk | None:
    """The scoped bulk delete a clear request says ("clear everything on the work list but
    the report"), or None when it is a plain clear (of every task of a status)."""
    said = _CLEAR_VERB.match(" ".join(clause.strip().strip(".!?").split()))
    if said is None:
        return None
    bulk = bulk_scope(said["rest"], listed=0)
    return bulk if bulk is not None and bulk.scoped else None
