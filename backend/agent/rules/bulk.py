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
_PLACE = r"(?:\s+(?:on|in|from|off)\s+(?:(?:my|the)\s+(?:list|todo list|to-do list)|there|it))?"
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
_EXCEPT = re.compile(
    r"^(?:all|everything|every\s*thing|every\s+(?:\w+\s+)?\w+|"
    r"all\s+(?:of\s+)?(?:my\s+|the\s+)?(?:\w+\s+)?\w+)"
    r"(?:\s+(?:on|in|from)\s+(?:my|the)\s+(?:\w+\s+)?list)?"
    r"(?:\s+(?:as\s+)?(?:done|complete|completed|finished))?,?"
    r"\s+(?:except(?:\s+for)?|but(?:\s+not)?|apart from|other than|besides|save|"
    r"with the exception of)\s+(?P<kept>.+)$",
    _I,
)


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
    passport")."""

    status: str
    exceptions: tuple[str, ...] = ()
    listed: bool = False


def bulk_scope(target: str, *, listed: int) -> Bulk | None:
    """The bulk request `target` names ("all of them", "every completed task"), if it is one;
    `listed`: how many tasks the conversation has just shown ("them" points to those)."""
    text = " ".join(target.strip().strip(".!?").split())
    if _LISTED.match(text):
        counted = _COUNTED.search(text)
        if counted and listed and _COUNTS[counted.group(0).lower()] != listed:
            return None  # "I finish both" after a list of twelve: not those twelve
        if listed:
            return Bulk("all", listed=True)
        if not _LISTED_OR_EVERY.match(text):
            return None
    excepted = _EXCEPT.match(text)
    if excepted:
        kept = [
            k.strip(" .,!?") for k in LIST_SEPARATOR.split(excepted["kept"]) if k.strip(" .,!?")
        ]
        return Bulk("all", exceptions=tuple(kept) or ("",))
    match = _EVERY.match(text)
    if match is None:
        return None
    word = match.group("s1") or match.group("s2") or match.group("s3")
    return Bulk(_STATUS[word.lower()] if word else "all")
