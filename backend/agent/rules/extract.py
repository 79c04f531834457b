"""Parameter extraction: task ids, titles, descriptions and status filters."""

from __future__ import annotations

import re
from dataclasses import dataclass

from backend.agent.rules.numbers import NUMBER_PHRASE, meaning_changed, number_value
from backend.agent.rules.text import clean_title

_I = re.IGNORECASE

# "task 3", "#3", "id 3", "number 3", "no. 3", "task #3"
_EXPLICIT_ID = re.compile(
    r"(?:\btask\s*#?|\bid\s*#?|\bnumber\s*#?|\bno\.?\s*#?|#)\s*(\d{1,9})\b", _I
)
# A bare number right after an action verb: "complete 3", "mark 3 as done", "delete 12".
_BARE_ID_AFTER_VERB = re.compile(
    r"\b(?:complete|finish|mark|tick|check(?: off)?|delete|remove|cancel|drop|change|update|"
    r"edit|rename|modify|revise|done with|finished)\s+(\d{1,9})\b",
    _I,
)


_ID_LIST = re.compile(
    r"(?:\b(?:tasks?|ids?|numbers?)|#)\s*#?(\d{1,9})(?:\s*(?:,|and|&|\+)\s*(?:(?:tasks?|ids?|"
    r"numbers?)\s*)?#?\d{1,9}\b)+",
    _I,
)


_BARE_ID_LIST = re.compile(
    r"\b(?:complete|finish|mark|tick off|check off|delete|remove|cancel|drop)\s+(\d{1,9})"
    r"(?:\s*(?:,|and|&)\s*\d{1,9}\b)+",
    _I,
)


def extract_task_ids(text: str) -> list[int]:
    """Every task number of "tasks 2 and 9", "#1 and #9", "mark 3 and 4 as done" (in order);
    none when words after the last change it ("tasks 4 and 5 hundred")."""
    match = _ID_LIST.search(text) or _BARE_ID_LIST.search(text)
    if match is None or meaning_changed(text[match.end() :]):
        return []
    numbers = [int(n) for n in re.findall(r"\d{1,9}", match.group(0))]
    return list(dict.fromkeys(numbers))


# "task nine hundred" is task 900: the whole number phrase is read, never its first word.
_WORD_ID = re.compile(rf"\b(?:task|number|#)\s*(?P<n>{NUMBER_PHRASE})\b", _I)


@dataclass(frozen=True)
class SaidNumber:
    """A number said as a task's: its value, and the words after it that change it, if any
    ("4" of "task 4 hundred" is followed by " hundred": no task number, but a question)."""

    value: int | None
    phrase: str
    changed_by: str | None


def said_task_number(text: str) -> SaidNumber | None:
    """The number a message says as a task's ("task 3", "#3", "delete 3", "task three")."""
    match = _EXPLICIT_ID.search(text) or _BARE_ID_AFTER_VERB.search(text)
    if match is not None:
        said, end = match.group(1), match.end(1)
    elif (worded := _WORD_ID.search(text)) is not None:
        said, end = worded.group("n"), worded.end("n")
    else:
        return None
    return SaidNumber(number_value(said), said, meaning_changed(text[end:]))


def extract_task_id(text: str) -> int | None:
    """The explicit task number in a message, if any (Rule 5, priority 1); None when the
    words after it change it ("task 4 hundred", "task 4 or 5": `unclear_task_number`)."""
    said = said_task_number(text)
    return said.value if said is not None and said.changed_by is None else None


def names_a_task_number(text: str) -> bool:
    """Whether a message says a task's number, clearly or not (what the request is about
    does not depend on which number it is)."""
    return said_task_number(text) is not None


# An answer to "which task?" may be the number alone: "4 or 5", "number 4 hundred".
_ANSWERED_NUMBER = re.compile(rf"^(?:number\s*|no\.?\s*|option\s*|#)?(?P<n>{NUMBER_PHRASE})", _I)


def unclear_task_number(text: str, *, answering: bool = False) -> str | None:
    """The number said as a task's with the words after it that change it ("4 hundred",
    "4 or 5", "5 hundred" of "tasks 4 and 5 hundred"): which task is meant is asked. When
    `answering` which task, a number that starts the text is said as a task's too."""
    listed = _ID_LIST.search(text) or _BARE_ID_LIST.search(text)
    if listed is not None and (changed := meaning_changed(text[listed.end() :])):
        last = re.findall(r"\d{1,9}", listed.group(0))[-1]
        return f"{last}{changed}"
    answered = _ANSWERED_NUMBER.match(text) if answering else None
    if answered is not None and (changed := meaning_changed(text[answered.end("n") :])):
        return f"{answered.group('n')}{changed}"
    said = said_task_number(text)
    if said is None or said.changed_by is None:
        return None
    return f"{said.phrase}{said.changed_by}"


_BOTH = re.compile(
    r"\b(?:(?:completed|complete|done|finished) and (?:pending|open|incomplete|unfinished|"
    r"remaining)|(?:pending|open|incomplete|unfinished|remaining) and (?:completed|complete|done|"
    r"finished)|"
    r"done or not|finished or not|complete or not|completed or not|done and (?:not done|"
    r"undone|pending)|finished and unfinished|complete and incomplete|whether done or not|"
    r"including (?:the )?(?:finished|completed|done|complete)(?: ones| tasks)?|"
    r"even (?:the )?(?:finished|completed|done)(?: ones)?|(?:with|plus) (?:the )?(?:finished|"
    r"completed|done) ones|(?:done|finished|completed) (?:stuff|ones|tasks|items) included|"
    # "my complete todo list" is the whole list, not its completed tasks
    r"(?:complete|full|whole|entire)\s+(?:to-?\s?do\s+|todo\s+|shopping\s+|task\s+)?list|"
    r"everything (?:that's |that is )?on (?:my|the) list)\b",
    _I,
)
_PENDING = re.compile(
    r"\b(pending|incomplete|unfinished|uncompleted|undone|not done|not finished|not completed|"
    r"not complete|not yet|remains|(?<=what )remain|(?<=i )need(?: to)? (?:buy|get|do)|"
    r"(?<!^)(?<!could you )(?<!can you )open(?!\s+(?:my|the|up|lists?)\b)|"
    r"outstanding|(?<!things )(?<!stuff )(?<!list )(?:to do|todo|to-do)"
    r"(?!\s+list|'?s\b)|left|remaining|not (?:do|did|finish|finished|complete)|to be done|"
    r"next on|what's next|whats next|"
    r"upcoming|"
    r"still|(?:haven't|have not|hasn't|has not|aren't|are not|isn't|"
    r"is not|weren't|didn't|did not|yet to)(?:\s+\w+)?\s+(?:done|completed|finished|complete|"
    r"finish|complete|do|been))\b",
    _I,
)
_COMPLETED = re.compile(
    r"\b(completed|complete|done|finished|finish|ticked off|checked off|crossed off|"
    r"accomplished|achieved|got done|wrapped up|knocked out|"
    # "which ones did i already do", "what have I done"
    r"(?:did|have|had)\s+(?:i|we)\s+(?:already\s+)?(?:do|did|done|finish|complete)|"
    r"(?:i|we)\s+(?:already|have)\s+(?:do|did|done))\b",
    _I,
)
_ALL = re.compile(r"\b(all|everything|every)\b", _I)


# Questions about what is still ahead, without a status word: "what do I need to buy",
# "what chores do I have waiting", "the tasks for today".
_AHEAD = re.compile(
    r"\b(?:need to (?:buy|get|do|accomplish|pick up|go|finish|complete)(?!\s+list)|"
    r"(?:should|supposed to|meant to) (?:get|buy|do|pick up)|waiting|plan for the day)\b",
    _I,
)


def extract_status(text: str) -> str:
    """ "pending", "completed" or "all" (the default), from the status words in a list request."""
    if _BOTH.search(text):
        return "all"
    if _PENDING.search(text):
        return "pending"
    if _COMPLETED.search(text):
        return "completed"
    if _AHEAD.search(text):
        return "pending"
    return "all"


# Things done with someone: "meet with steve", "lunch with my boss": the company is part of
# the title, not a description.
_TOGETHER = re.compile(
    r"\b(?:meet|meeting|lunch|launch|dinner|breakfast|brunch|coffee|tea|drinks|call|chat|talk|"
    r"speak|catch up|appointment|date|session|interview|sync|hang out|play|visit|check in|"
    r"game|match|movie|party|walk|run|study|practice|work|go|playdate|meetup)$",
    _I,
)
_COMPANY = re.compile(r"\s*(?:my|your|our|his|her|their|the (?:boss|team|kids))\b", _I)
_DESCRIPTION = re.compile(
    r"\s*(?:\bwith (?:a |the )?(?:description|details?|notes?)\s*:?\s*|\bwith\b\s*|"
    r"\bincluding\b\s*|,?\s*\bdescription\b\s*:?\s*|(?<!\d):(?!\d)\s*|\s[—–]\s*)",
    _I,
)


def split_title_description(text: str) -> tuple[str, str | None]:
    """ "report with executive summary" -> ("report", "executive summary")."""
    match = next((m for m in _DESCRIPTION.finditer(text) if not _names_company(text, m)), None)
    if match is None or match.start() == 0:
        return clean_title(text), None
    title = clean_title(text[: match.start()])
    description = clean_title(text[match.end() :])
    if not title:
        return clean_title(text), None
    return title, description or None


def _names_company(text: str, match: re.Match[str]) -> bool:
    """A bare "with" after something done together, or before "my sister": who, not what."""
    if match.group(0).strip().lower() != "with":
        return False
    return bool(_TOGETHER.search(text[: match.start()]) or _COMPANY.match(text, match.end()))
