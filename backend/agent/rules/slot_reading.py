"""A message read by its slots as a change of one task's fields, whatever its sentence shape.

In: the whole message (prepared) and the user's clock. Out: a `SlotChange` (the update_task
fields said, and the words left that may name the task) or None.

The sentence rules read a field change from the shapes they know ("move X to Friday"); people
say it in any order and with stories around it: "plants only need watering on thursdays now
not mondays", "I would like a reminder for the email to Sarah, fifteen minutes beforehand",
"so could you move it off the Work list into a new one called Old Job". Here each field is
found by its own reader wherever it stands (a reminder, a repeat or its end, a list, a
priority, tags, a due day), a negated old value ("not mondays", "not 3") is set aside, and
what is left is the reference, which the user's own tasks resolve at run time
(`grounded_task`). The engine tries this reading only when the rules' own reading changes
nothing or only guesses (`engine._by_slots`), so it can add a change the rules missed but
never replace one they were sure of.

Never read as a change: a question that asks rather than requests, a hedge ("I might move
the dentist"), a rename (the title is no field), a message with no word asking for a change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from backend.agent.rules.field_requests import NOT_A_TASK
from backend.agent.rules.reminder_requests import (
    DAY_BEFORE_REMINDER,
    OFFSET_BEFORE,
    eve_reminder,
    offset_minutes,
)
from backend.agent.rules.resolve import reference_stems, title_stems
from backend.agent.rules.safety import asks_without_requesting
from backend.agent.rules.task_fields import take_fields
from backend.agent.rules.vocabulary import is_task_verb
from backend.agent.rules.when import find_due
from backend.domain.repeat_phrases import weekday_codes

_I = re.IGNORECASE

# What a task is changed with: a change word, or a word saying the new value replaces the old.
_CHANGE_CUE = re.compile(
    r"\b(?:move|moved|push|pushed|shift|shove|bump|change|changed|make|set|put|switch|swap|"
    r"reschedule|postpone|delay|bring|stop|turn|only|now|instead|rather|anymore|any\s+more|"
    r"no\s+longer|needs?\s+to\s+be)\b",
    _I,
)
_RENAME = re.compile(r"\b(?:rename|retitle|call\s+it|name\s+it|titled?|reword|spell\w*)\b", _I)
# Said of a change someone may make, not asked for: "I might move the dentist".
_HEDGE = re.compile(
    r"\b(?:might|maybe|perhaps|probably|should\s+i|shall\s+i|thinking\s+(?:of|about)|wonder\w*|"
    r"not\s+sure|if\s+i|in\s+case|don'?t\s+(?:move|change|touch|make|set|put)|do\s+not)\b",
    _I,
)
_DAY_NAME = (
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mondays?|weekends?|weekdays?|mornings?|"
    r"evenings?|nights?|afternoons?"
)
# "now not mondays", ", not 3": the old value a correction sets aside.
_NOT_THE_OLD = re.compile(
    rf"[,\s]*\b(?:and\s+|but\s+)?not\s+(?:on\s+|at\s+|the\s+|every\s+)?"
    rf"(?:{_DAY_NAME}|\d{{1,2}}(?::\d\d)?\s*(?:am|pm)?|weekly|daily|monthly|"
    r"every\s+week|this\s+\w+|tomorrow|today)\b(?:\s+any\s*more|\s+anymore)?",
    _I,
)
_REMINDER_WORD = re.compile(
    r"\b(?:reminders?|remind(?:er)?\s+me|nudge|ping|alert|heads[- ]up|notification|warning)\b",
    _I,
)
_REMINDER_OFF = re.compile(
    r"\b(?:no|stop|without|turn\s+off|switch\s+off|remove|drop|cancel|scrap|kill|lose|ditch)\s+"
    r"(?:the\s+|any\s+|my\s+|its\s+|that\s+)?(?:reminders?|alerts?|notifications?)\b"
    r"|\b(?:stop|quit)\s+reminding\s+me\b|\b(?:don'?t|do\s+not|no\s+need\s+to)\s+remind\s+me\b"
    r"|\bno\s+need\s+(?:for|of)\s+(?:a\s+|any\s+)?reminders?\b"
    r"|\b(?:don'?t|do\s+not)\s+need\s+(?:a\s+|any\s+)?reminders?\b",
    _I,
)
# "stop the bathroom repeating", "no longer repeats", "make it a one-off": the repeat ends.
_REPEAT_END = re.compile(
    r"\b(?:repeating|recurring)\b(?:\s+(?:every|each)\s+\w+)?"
    r"|\b(?:no\s+longer|not|never|don'?t|doesn'?t)\s+(?:need\s+to\s+)?(?:repeat|recur)\w*"
    r"(?:\s+any\s*more|\s+anymore)?"
    r"|\bone[- ]off\b"
    r"|\b(?:remove|drop|cancel|stop|turn\s+off|get\s+rid\s+of)\s+(?:the\s+|its\s+)?"
    r"(?:repeats?|recurrence|repetition)\b",
    _I,
)
# "take the priority off the dentist", "remove the date from it", "clear its tags": that
# field emptied (a tag named is `field_requests`' own).
_FIELD_OFF = re.compile(
    r"\b(?:remove|take|drop|clear|strip|get\s+rid\s+of|lose|scrap|ditch|unset|wipe)\s+"
    r"(?:the\s+|its\s+|that\s+|any\s+)?(?P<field>priority|due\s+date|date|deadline|"
    r"reminders?|repeats?|recurrence|tags|labels)\b(?:\s+(?:off|from|on|of|for))?",
    _I,
)
_EMPTIED = {
    "priority": ("priority", "none"),
    "due date": ("due", "none"),
    "date": ("due", "none"),
    "deadline": ("due", "none"),
    "reminder": ("remind_at", "none"),
    "reminders": ("remind_at", "none"),
    "repeat": ("repeat", "none"),
    "repeats": ("repeat", "none"),
    "recurrence": ("repeat", "none"),
    "tags": ("tags", []),
    "labels": ("tags", []),
}
_ON_DAYS = re.compile(
    r"\b(?:(?:only|just)\s+)?(?:on\s+)?(?P<day>mon|tues|wednes|thurs|fri|satur|sun)days\b"
    r"(?:\s+(?:and|&)\s+(?=(?:mon|tues|wednes|thurs|fri|satur|sun)days\b))?",
    _I,
)
_STOP = re.compile(r"\b(?:stop|quit|end)\b", _I)
# "into a new one called Old Job", "to a new list named Side Gig".
_NEW_LIST = re.compile(
    r"\b(?:in|into|to|onto|on)\s+(?:a\s+)?new\s+(?:list|one)\s+(?:called|named)\s+"
    r"['\"]?(?P<name>[a-z][\w'&-]*(?:\s+[a-z][\w'&-]*){0,2}?)['\"]?(?=\s*(?:$|[,.;!?]))",
    _I,
)
# "off the Work list" with somewhere else to go (or a move word): the task leaves that list.
_OFF_A_LIST = re.compile(
    r"\b(?:off|out\s+of|from)\s+(?:the\s+|my\s+)?(?P<name>[a-z][\w'&-]*)\s+list\b", _I
)
# "make appointment for next friday", "set an appointment for allen", "set up a meeting": a
# new thing made, not a task changed (the task would be "the appointment", "it", a quote).
_MADE_NEW = re.compile(
    r"\b(?:make|set(?:\s+up)?|schedule|book|arrange|create)\s+(?:me\s+)?(?:an?\s+)?"
    r"(?!(?:the|my|it|that|this|its|his|her|our|your|their|task|number|reminder|nudge|alert|"
    r"me|us|an?|"
    r"[#'\"\d])\b)[a-z]",
    _I,
)
# "I have an appointment tomorrow", "a meeting": a thing said with "a" is new, never a task's name.
_INDEFINITE = re.compile(r"\b(?:an?|another)\s+(?:new\s+|other\s+)?[\w'-]+", _I)
# "I will no longer be joining mom for lunch", "I have an appointment tomorrow remind me": the
# person says what they do; with no request beside it, it changes nothing.
_SAYS_WHAT_I_DO = re.compile(
    r"^\W*(?:(?:so|well|oh|ok|okay|and|but|hey|um|just)\W+)*"
    r"(?:(?:i|we)\s+(?:will|have|am|was|were|had|got|won't|can't)\b|(?:i|we)'(?:ll|ve|m|re)\b)",
    _I,
)
_REQUEST_FRAME = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|u|ya)\b|\b(?:please|pls|plz)\b"
    r"|(?:^|[,.;!]\s*|\b(?:so|and|then)\s+)(?:just\s+)?(?:move|push|shift|shove|bump|change|make|"
    r"set|put|switch|swap|reschedule|postpone|stop)\b",
    _I,
)
# "so I've got time to get a glass of water", "because it's annoying": why, never which task.
_REASON = re.compile(
    r"(?:[,.;]\s*|\s+)(?:so\s+(?:that\s+)?(?:i|we|you)\b|because\b|since\b|cos\b|coz\b|"
    r"as\s+(?:i|we)\b).*$",
    _I,
)
# Words that point at a task or ask for the change, never name one.
_POINTING = re.compile(
    r"\b(?:it|that|this|there|them|one|please|pls|give|us|me|remind|nudge|ping|should|shud|be|"
    # "I should like a reminder ... as well": the asking, never a task's name
    r"i|i'd|like|love|want|well|"
    r"goes|go|put|stick|pop|can|could|would|you|too|also|as\s+well|and|oh|so|just|first|second|"
    r"third|fourth|fifth|last|next|other|1st|2nd|3rd|4th|5th)\b",
    _I,
)
# Words too small to name a task by: "bring up" is no "pick up dry cleaning".
_TOO_SMALL = frozenset({"up", "off", "out", "on", "in", "over", "back", "down", "away", "any"})
_MOVE_WORD = re.compile(r"\b(?:move|shift|put|switch|transfer)\b", _I)
_GOES_TO = re.compile(r"\b(?:to|onto|into)\b", _I)


@dataclass(frozen=True)
class SlotChange:
    """The fields a message says for one task, and the words left that may name it."""

    fields: dict[str, Any]
    rest: str


def slot_change(message: str, now: datetime) -> SlotChange | None:
    """The field change `message` asks for, read by its slots (see the module's doc)."""
    return _slot_change(message, now.isoformat())


@lru_cache(maxsize=256)
def _slot_change(message: str, now_iso: str) -> SlotChange | None:
    text = message.strip()
    if not _asks_for_a_change(text) or _asks_for_something_else(text):
        return None
    now = datetime.fromisoformat(now_iso)
    text = _NOT_THE_OLD.sub(" ", text)
    fields: dict[str, Any] = {}
    for read in (_field_off, _reminder, _repeat_end, _on_days, _new_list):
        said, text = read(text, now)
        fields.update(said)
    said_fields, text = take_fields(text, now)
    found = said_fields.arguments()
    if "due" in found and ("remind_at" in fields or "remind_before" in fields):
        found.pop("due")  # the reminder's own moment was read first
    fields = {**found, **fields}
    if not fields:
        return None
    rest = _INDEFINITE.sub(" ", _REASON.sub(" ", text))
    return SlotChange(fields, " ".join(rest.split()))


def _asks_for_a_change(text: str) -> bool:
    cue = _CHANGE_CUE.search(text) or _REMINDER_WORD.search(text) or _FIELD_OFF.search(text)
    return cue is not None and (
        _SAYS_WHAT_I_DO.search(text) is None or _REQUEST_FRAME.search(text) is not None
    )


def _asks_for_something_else(text: str) -> bool:
    """A rename, a hedge, another assistant's job, something new made, or a question."""
    return bool(
        _RENAME.search(text)
        or _HEDGE.search(text)
        or NOT_A_TASK.search(text)
        or _makes_something_new(text)
        or asks_without_requesting(text)
    )


def _makes_something_new(text: str) -> bool:
    """ "make appointment for next friday": what is made is no task, unless it is a doing
    word ("make clean the bathroom stop repeating")."""
    made = _MADE_NEW.search(text)
    if made is None:
        return False
    word = re.match(r"[a-z']+", text[made.end() - 1 :], _I)
    return word is None or not is_task_verb(word.group(0))


_Read = tuple[dict[str, Any], str]


def _field_off(text: str, now: datetime) -> _Read:
    off = _FIELD_OFF.search(text)
    if off is None:
        return {}, text
    name, empty = _EMPTIED[" ".join(off["field"].lower().split())]
    return {name: empty}, _cut(text, off.span())


def _reminder(text: str, now: datetime) -> _Read:
    """A reminder said anywhere: off, an offset before, or a moment."""
    off = _REMINDER_OFF.search(text)
    if off is not None:
        return {"remind_at": "none"}, _cut(text, off.span())
    word = _REMINDER_WORD.search(text)
    if word is None:
        return {}, text
    offset = OFFSET_BEFORE.search(text)
    minutes = offset_minutes(offset) if offset is not None else None
    if offset is not None and minutes is not None:
        rest = _cut(_cut(text, offset.span()), word.span())
        eve = eve_reminder(offset, rest, now)
        if eve is not None:  # "the night before", "the day before at 9"
            return {DAY_BEFORE_REMINDER: eve[0]}, eve[1]
        return {"remind_before": minutes}, rest
    after = text[word.end() :]
    due = find_due(after, now)
    if due is None or due.unclear is not None:
        return {}, text
    clock = f"{due.clock:%H:%M}" if due.clock is not None else "09:00"
    moment = f"{due.day.isoformat()}T{clock}"
    return {"remind_at": moment}, f"{text[: word.start()]} {due.remove_from(after)}"


def _on_days(text: str, now: datetime) -> _Read:
    """ "only on fridays now": every such day (a weekday said in the plural)."""
    days = list(_ON_DAYS.finditer(text))
    if not days:
        return {}, text
    codes = ",".join(weekday_codes(" ".join(d["day"] for d in days)))
    for found in reversed(days):
        text = _cut(text, found.span())
    return {"repeat": f"FREQ=WEEKLY;BYDAY={codes}"}, text


def _repeat_end(text: str, now: datetime) -> _Read:
    ended = _REPEAT_END.search(text)
    if ended is None:
        return {}, text
    words = ended.group(0).lower()
    if words.startswith(("repeating", "recurring")):
        stop = _STOP.search(text[: ended.start()])
        if stop is None:
            return {}, text  # "keep it repeating", "it's repeating weekly"
        return {"repeat": "none"}, _cut(_cut(text, ended.span()), stop.span())
    return {"repeat": "none"}, _cut(text, ended.span())


def _new_list(text: str, now: datetime) -> _Read:
    """ "into a new one called Old Job"; "off the Work list" with a move: to the Inbox."""
    named = _NEW_LIST.search(text)
    off = _OFF_A_LIST.search(text)
    if named is not None:
        text = _cut(text, named.span())
        if off is not None:
            text = _cut(text, _OFF_A_LIST.search(text).span())  # type: ignore[union-attr]
        name = " ".join(named["name"].split())
        return {"list": name[:1].upper() + name[1:]}, text
    elsewhere = off is not None and _GOES_TO.search(text[off.end() :]) is not None
    if off is not None and _MOVE_WORD.search(text) and not elsewhere:
        return {"list": "Inbox"}, _cut(text, off.span())
    return {}, text


def _cut(text: str, span: tuple[int, int]) -> str:
    return f"{text[: span[0]]} {text[span[1] :]}"


def _naming_stems(rest: str) -> set[str]:
    return {stem for stem in reference_stems(_POINTING.sub(" ", rest)) if stem not in _TOO_SMALL}


def names_no_task(change: SlotChange) -> bool:
    """Whether the words left of a slot change name nothing ("remind me half an hour before",
    "put it in Inbox"): an add of them would be a task nobody asked for."""
    return not _naming_stems(change.rest)


# "it", "that one", "make that every other saturday" (never "that" opening a clause: "remind
# me that I have ...").
_POINTER = re.compile(
    r"\b(?:it|that one|this one|that task|this task)\b"
    r"|\b(?:that|this)(?=\s*(?:$|[,.!?]|\s+(?:to|for|on|at|till|until|by|the|every|off)\b))",
    _I,
)


def points_back(change: SlotChange) -> bool:
    """Whether a slot change is about the task talked about: "make it a fortnight today" (a
    pronoun), or no word left naming any task."""
    return _POINTER.search(change.rest) is not None or names_no_task(change)


def grounded_task(
    rest: str, tasks: Sequence[dict[str, Any]], *, whole: bool = False
) -> list[dict[str, Any]]:
    """The tasks holding the most of the words left of a slot change: one, several (asked),
    or none (the words name no task). With `whole`, only a task holding every one of them
    ("the library books" is no "book dentist appointment")."""
    said = _naming_stems(rest)
    if not said:
        return []
    shared = [(len(said & title_stems(str(t["title"]))), t) for t in tasks]
    best = max((n for n, _ in shared), default=0)
    if best == 0 or (whole and best < len(said)):
        return []
    return [t for n, t in sorted(shared, key=lambda p: int(p[1]["id"])) if n == best]
