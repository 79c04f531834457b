"""Parameter extraction: task ids, titles, descriptions and status filters."""

from __future__ import annotations

import re

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


def extract_task_id(text: str) -> int | None:
    """The explicit task number in a message, if any (Rule 5, priority 1)."""
    match = _EXPLICIT_ID.search(text) or _BARE_ID_AFTER_VERB.search(text)
    return int(match.group(1)) if match else None


_PENDING = re.compile(
    r"\b(pending|incomplete|unfinished|not done|not finished|not completed|open|outstanding|"
    r"to do|todo|left|remaining|still (?:have|need|got))\b",
    _I,
)
_COMPLETED = re.compile(r"\b(completed|complete|done|finished|finish|ticked off|checked off)\b", _I)
_ALL = re.compile(r"\b(all|everything|every)\b", _I)


def extract_status(text: str) -> str:
    """ "pending", "completed" or "all" (the default), from the status words in a list request."""
    if _PENDING.search(text):
        return "pending"
    if _COMPLETED.search(text):
        return "completed"
    return "all"


_DESCRIPTION = re.compile(
    r"\s*(?:\bwith (?:a |the )?(?:description|details?|notes?)\s*:?\s*|\bwith\b\s*|"
    r"\bincluding\b\s*|\bdescription\s*:\s*|:\s*|\s[—–]\s*)",
    _I,
)


def split_title_description(text: str) -> tuple[str, str | None]:
    """ "report with executive summary" -> ("report", "executive summary")."""
    match = _DESCRIPTION.search(text)
    if match is None or match.start() == 0:
        return clean_title(text), None
    title = clean_title(text[: match.start()])
    description = clean_title(text[match.end() :])
    if not title:
        return clean_title(text), None
    return title, description or None
