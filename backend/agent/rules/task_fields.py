"""The slots of a task beyond its title: when it is due, how important it is, its list, its tags.

Each has one extractor here, run on an add's text before the title is cut from it (and on an
update's): "urgent: call the bank", "add milk and eggs to my shopping list", "pay rent
tomorrow at 9 #home". What each takes out of the text stays out of the title. Quoted text is
never read (specs/agent-fields.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from backend.agent.rules.when import DueSlot, find_due, masked_quotes
from backend.domain.due import short_day
from backend.domain.repeat_phrases import describe, find_repeat
from backend.domain.repeats import Repeat, first_due, next_due

_I = re.IGNORECASE

# "to my shopping list", "on the hardware list", "in my Work list": a list named by the user.
# "my list", "my to-do list", "my tasks" name no list (the task goes to Inbox).
_NAMED_LIST = re.compile(
    r"\s*\b(?:to|on|onto|in|into|for|from)\s+(?:(?:my|the|our)\s+"
    r"(?P<name>[a-z][\w'&-]*(?:\s+[a-z][\w'&-]*)?)"
    # "add prep slides to work list": one word, no "my" ("to do list" is no list's name)
    r"|(?!(?:a|my|the|our|this|that|your|do|to|today's|current)\s)(?P<bare>[a-z][\w&-]*))\s+list\b",
    _I,
)
_NO_LIST_NAME = re.compile(
    r"^(?:to[- ]?do|todo|to do|task|tasks|reminder|reminders|main|master|usual|whole|own|new|"
    r"daily|things to do|check|bucket|play|wish|reading|guest|[\w-]+'s)$",
    _I,
)
_SHOPPING = re.compile(r"^(?:shopping|grocery|groceries|grocery shopping|food shopping)$", _I)

# "urgent: call the bank", "(high priority)", "..., it's urgent", "low priority".
_LEVEL = r"(?P<level>high|top|highest|medium|normal|low|lowest)"
_PRIORITY = re.compile(
    r"^\s*(?P<lead>urgent|important|asap|high priority|top priority)\s*[:!-]+\s*"
    r"|\s*[,(-]?\s*\b(?:(?:with|as|at|set to|make it)\s+(?:a\s+)?)?" + _LEVEL + r"[ -]priority\b\)?"
    r"|\s*[,(-]?\s*\bpriority\s*[:=]?\s*(?P<level_after>high|medium|low)\b\)?"
    r"|\s*[,;(-]\s*(?:(?:it'?s|it is|this is|that'?s|very|really|super|so)\s+)*"
    r"(?P<tail>urgent|important|asap)\s*!*\)?\s*$"
    r"|\s+(?P<bare_tail>asap|urgently)\s*!*$",
    _I,
)
PRIORITY_OF = {
    "high": "high",
    "top": "high",
    "highest": "high",
    "urgent": "high",
    "important": "high",
    "asap": "high",
    "urgently": "high",
    "high priority": "high",
    "top priority": "high",
    "medium": "medium",
    "normal": "medium",
    "low": "low",
    "lowest": "low",
}
# "#work", "#home": a hash before a letter (a "#3" is a task number).
_TAG = re.compile(r"\s*(?<![\w&])#(?P<tag>[a-z][\w-]{0,29})\b", _I)


@dataclass(frozen=True)
class TaskFields:
    """What an add or an update said besides the title."""

    due: DueSlot | None = None
    priority: str | None = None
    list_name: str | None = None
    tags: tuple[str, ...] = field(default=())
    # "every monday", "3 days after I finish it" (issue 15)
    repeat: Repeat | None = None

    def __bool__(self) -> bool:
        return any((self.due, self.priority, self.list_name, self.tags, self.repeat))

    def arguments(self) -> dict[str, Any]:
        """The add_task / update_task arguments these fields make."""
        found: dict[str, Any] = {}
        if self.due is not None:
            found["due"] = self.due.argument
        if self.priority is not None:
            found["priority"] = self.priority
        if self.list_name is not None:
            found["list"] = self.list_name
        if self.tags:
            found["tags"] = list(self.tags)
        if self.repeat is not None:
            found["repeat"] = self.repeat.rule
            if self.repeat.from_completion:
                found["repeat"] = describe(self.repeat)  # the phrase carries the anchor
        return found


NO_FIELDS = TaskFields()


def _outside_quotes(text: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    # Masked with a mark that is neither a space nor a word: a pattern's leading "\s*" must
    # never reach into a quoted title ("'book the do' to the work list" kept its title).
    return list(pattern.finditer(masked_quotes(text, fill="\u00b7")))


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = f"{text[:start]} {text[end:]}"
    return " ".join(text.split())


# Cheap first looks: most messages name no list, priority or tag, and the full patterns
# backtrack at every position.
_LIST_WORD = re.compile(r"\blist\b", _I)
_PRIORITY_WORD = re.compile(r"urgent|important|asap|priority", _I)


# A list named by its name alone, at the end of an add ("add yoghurt to groceries", "add
# expenses claim to work for mon"). The rules cannot see the user's lists when they plan, so
# only the well-known names are read this way; any other list needs "list" said with it.
# "go to work", "drive to work" are titles: a way of getting there before "to" is no list.
_BARE_LIST = re.compile(
    r"(?<!\bgo)(?<!\bgoing)(?<!\bget)(?<!\bdrive)(?<!\bwalk)(?<!\bcycle)(?<!\bbike)(?<!\bride)"
    r"(?<!\bhead)(?<!\bback)(?<!\bcommute)(?<!\bcome)(?<!\breturn)(?<!\blate)(?<!\bway)"
    r"\s+(?:(?:to|onto|on)\s+(?:my\s+|the\s+)?(?P<name>groceries|grocery|shopping|work|inbox)"
    r"|(?:in|into)\s+(?:my\s+|the\s+)?(?P<inbox>inbox))"
    r"(?=\s*(?:$|[,.;!?]|\s+(?:for|by|on|at|due|tomorrow|today|tonight|next|this|pls|please)\b))",
    _I,
)
_BARE_NAMES = {"grocery": "Groceries"}


def list_named(text: str) -> tuple[str | None, str]:
    """The list `text` names ("to my shopping list" -> "Shopping") and the text without it."""
    if _LIST_WORD.search(text) is None:
        bare = _outside_quotes(text, _BARE_LIST)
        if not bare:
            return None, text
        name = (bare[0]["name"] or bare[0]["inbox"]).lower()
        return _BARE_NAMES.get(name, name.capitalize()), _cut(text, [bare[0].span()])
    for found in _outside_quotes(text, _NAMED_LIST):
        name = " ".join((found["name"] or found["bare"]).split())
        if _NO_LIST_NAME.match(name):
            continue
        shown = "Shopping" if _SHOPPING.match(name) else name[:1].upper() + name[1:]
        return shown, _cut(text, [found.span()])
    return None, text


def priority_said(text: str) -> tuple[str | None, str]:
    """ "urgent: call the bank" -> ("high", "call the bank")."""
    if _PRIORITY_WORD.search(text) is None:
        return None, text
    for found in _outside_quotes(text, _PRIORITY):
        word = next(w for w in found.groups() if w is not None).lower()
        return PRIORITY_OF[word], _cut(text, [found.span()])
    return None, text


# "tag it office", ", tag work", "and tag it xmas": one tag said in words, at the end of a
# part of the request (never "tag sale" inside a title).
_TAG_SAID = re.compile(
    r"\s*(?:[,;]\s*|\s+and\s+|\s+)(?:tag(?:ged)?|label(?:led)?)(?:\s+(?:it|this|that))?"
    r"(?:\s+(?:as|with))?\s+['\"]?(?P<tag>[a-z][\w-]{0,29})['\"]?(?=\s*(?:$|[,.;!?]|\band\b))",
    _I,
)


def tags_said(text: str) -> tuple[tuple[str, ...], str]:
    said = re.search(r"\b(?:tag|label)", text, _I) is not None
    if "#" not in text and not said:
        return (), text
    found = _outside_quotes(text, _TAG) + (_outside_quotes(text, _TAG_SAID) if said else [])
    tags = tuple(dict.fromkeys(m["tag"].lower() for m in found))
    return tags, _cut(text, [m.span() for m in found]) if found else text


_ADVERB = re.compile(r"^(?:daily|weekly|monthly|yearly|annually|nightly|weekdays|weekends)$", _I)
_REPEAT_WORD = re.compile(
    r"\b(?:every|each|daily|weekly|monthly|yearly|annually|nightly|after)\b", _I
)


# What says the repeat is the task's, right before it: "..., it's every other Thursday now".
_SAID_OF_IT = re.compile(r"\s*,?\s*\b(?:it(?:'s|\s+is)|its|which\s+is|that'?s)\s+$", _I)


def repeat_said(text: str) -> tuple[Repeat | None, str]:
    """ "pay rent every 1st" -> (monthly on the 1st, "pay rent"). A bare "daily" counts only
    at the end ("stretch daily", never "buy a daily planner"); quotes are never read."""
    if _REPEAT_WORD.search(text) is None:
        return None, text
    masked = masked_quotes(text)
    found = find_repeat(masked)
    if found is None:
        return None, text
    repeat, start, end = found
    if _ADVERB.match(masked[start:end].strip()) and masked[end:].strip(" .!?"):
        return None, text
    said_of_it = _SAID_OF_IT.search(masked[:start])  # "pay the rent, it is every month"
    if said_of_it is not None:
        start = said_of_it.start()
    return repeat, _cut(text, [(start, end)])


# "every wednesday evening", "every day in the morning": the repeat's time of day.
_PART_AFTER_REPEAT = re.compile(
    r"\s*,?\s*(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night)s?\b", _I
)
_PART_HOURS = {"morning": 9, "afternoon": 15, "evening": 18, "night": 20}


def _part_of_day_said(text: str) -> tuple[time | None, str]:
    """After a repeat was cut, the part of the day left where it stood ("take the bins out
    evening" -> 18:00) and the text without it; only at the end of the text."""
    found = _PART_AFTER_REPEAT.search(text)
    if found is None or text[found.end() :].strip(" .,!?"):
        return None, text
    return time(_PART_HOURS[found["part"].lower()]), _cut(text, [found.span()])


def take_fields(text: str, now: datetime, *, new_task: bool = False) -> tuple[TaskFields, str]:
    """The fields said in `text` and what is left of it for the title. A `new_task`'s repeat
    said with no day starts on its first day ("pay rent every month on the 5": the 5th)."""
    tags, text = tags_said(text)
    priority, text = priority_said(text)
    list_name, text = list_named(text)
    repeat, text = repeat_said(text)
    due = find_due(text, now)
    part: time | None = None
    if repeat is not None and (due is None or due.clock is None):
        part, without_part = _part_of_day_said(text)
        if part is not None:
            text, due = without_part, find_due(without_part, now)
    if due is not None and due.unclear is None:
        text = due.remove_from(text)
    if repeat is not None and (due is None or not due.day_said):
        clock = due.clock if due is not None else part
        due = _first_of_the_repeat(repeat, clock, now, new_task=new_task)
    return TaskFields(due, priority, list_name, tags, repeat), text


def _first_of_the_repeat(
    repeat: Repeat, clock: time | None, now: datetime, *, new_task: bool
) -> DueSlot | None:
    """ "every monday at 9": the rule's first day, at the time said."""
    first = first_due(repeat, now.date())  # None: the tool says why it is refused
    if first is not None and clock is not None:
        if datetime.combine(first, clock) <= now.replace(tzinfo=None):
            first = next_due(repeat, first, clock, today=first)  # today's 09:00 has passed
    starts = clock is not None or new_task
    return DueSlot(first, clock, 0, 0) if first is not None and starts else None


def when_said(day: date | None, clock: str | None, today: date) -> str:
    """ "tomorrow (Wed 25 Nov) at 09:00", "today", "Fri 27 Nov": the due echoed in a reply."""
    if day is None:
        return ""
    shown = short_day(day, today)
    named = {0: "today", 1: "tomorrow"}.get((day - today).days)
    said = f"{named} ({shown})" if named else shown
    return f"{said} at {clock}" if clock else said


def fields_echo(result: dict[str, Any], today: date) -> str:
    """What an add's or an update's result says was kept besides the title, as a reply's
    tail: " — due tomorrow (Wed 25 Nov) at 09:00, high priority, #work"."""
    parts = []
    if result.get("due_date"):
        parts.append(
            "due "
            + when_said(date.fromisoformat(str(result["due_date"])), result.get("due_time"), today)
        )
    elif "due_date" in result:
        parts.append("no due date")
    priority = result.get("priority")
    if priority and priority != "none":
        parts.append(f"{priority} priority")
    elif priority == "none":
        parts.append("no priority")
    if result.get("tags"):
        parts.append(" ".join(f"#{tag}" for tag in result["tags"]))
    if result.get("repeat_text"):
        parts.append(f"repeats {result['repeat_text']}")
    return f" — {', '.join(parts)}" if parts else ""
