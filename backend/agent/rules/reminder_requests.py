"""Requests about a task's reminder (issue 15):

- an offset: "remind me 30 minutes before", "remind me about the dentist an hour before",
  "remind me half an hour before the flight", "remind me the day before" -> update_task
  with `remind_before` (minutes), on the task named or the one talked about;
- a time: "remind me at 8", "remind me about it tomorrow at 9" -> `remind_at` on the
  user's clock. Only for the task talked about or one named by number or pronoun: "remind
  me about the report at 5" may just as well be a new task, which the add rules read;
- off: "don't remind me about it", "stop reminding me about the bins", "turn off the
  reminder for the dentist", "no reminder" -> `remind_at: "none"`.

"Cancel my reminder to call mom" is left to the delete rules: people call a task a reminder.
"""

from __future__ import annotations

import re
from datetime import datetime

from backend.agent.rules.numbers import NUMBER_PHRASE, number_value
from backend.agent.rules.when import find_due, whole_due

_I = re.IGNORECASE

_UNIT_MINUTES = {"minute": 1, "min": 1, "m": 1, "hour": 60, "hr": 60, "h": 60, "day": 1440}
_UNIT_MINUTES |= {"week": 7 * 1440}
# "10m" and "1h" only straight after digits: "ten am" is a time, not ten minutes.
_UNIT = r"(?:(?P<unit>minute|min|hour|hr|day|week)s?|(?<=\d)(?P<short>m|h)\b)"
_OFFSET = (
    rf"(?:(?P<amount>{NUMBER_PHRASE}|an?|one)\s*-?\s*{_UNIT}(?P<half>\s+and\s+a\s+half)?"
    r"|(?P<halfhour>half\s+an?\s+hour)|(?P<quarter>(?:a\s+)?quarter\s+of\s+an\s+hour))"
)
# An amount of time alone ("10 minutes", "an hour", "half an hour"), read by `offset_minutes`.
OFFSET_AMOUNT = _OFFSET
_BEFORE = r"(?:before(?:hand)?|ahead(?:\s+of\s+time)?|early|earlier|in\s+advance|prior)"
# "the day before", "the night before": a day's offset, "before" said within it
_DAY_BEFORE = r"(?P<daybefore>the\s+(?P<eve>day|night|evening|afternoon|morning)\s+before)"
# A reminder some days before the due day at a clock time, (days, "HH:MM"): "the night
# before", "the day before at 9". The engine resolves it against the task's due day.
DAY_BEFORE_REMINDER = "remind_days_before_at"
# The clock of a part of the day before, when no time is said (the labelling guide's).
_EVE_CLOCKS = {"night": "20:00", "evening": "18:00", "afternoon": "15:00", "morning": "09:00"}
_REMIND = r"(?:remind|notify|alert|ping|warn)\s+me"
_ABOUT = r"(?:about|of|for|re)"
_ANY_TIME = r"(?:it|that|then|time|the\s+time|hand)"
_OFFSET_REQUESTS = (
    # "remind me (about X) 30 minutes before (X | it | the time)"
    re.compile(
        rf"^{_REMIND}\s+(?:{_ABOUT}\s+(?P<target>.+?)\s+)?(?:{_OFFSET}\s+{_BEFORE}|{_DAY_BEFORE})"
        rf"(?:\s+(?:{_ANY_TIME}|(?:the\s+)?(?P<after>.+?)))?$",
        _I,
    ),
    # "set a reminder (for X) 30 minutes before", "give me a 10 minute warning before it"
    re.compile(
        rf"^(?:set|add|put|give\s+me|create)\s+(?:a\s+|an\s+)?(?:reminder|alert|warning|"
        rf"notification)(?:\s+(?:for|on)\s+(?P<target>.+?))?\s+{_OFFSET}\s+{_BEFORE}"
        rf"(?:\s+(?:{_ANY_TIME}|(?:the\s+)?(?P<after>.+?)))?$",
        _I,
    ),
)
# An offset said anywhere in a sentence: "fifteen minutes beforehand", "the night before".
OFFSET_BEFORE = re.compile(rf"\b(?:{_OFFSET}\s+{_BEFORE}|{_DAY_BEFORE})", _I)
_POINTER = r"(?:it|that|this|that\s+one|this\s+one|task\s*#?\d+|#\d+|number\s+\d+)"
_TIME_REQUESTS = (
    # "remind me (about it) at 8", "remind me about task 2 tomorrow at 9"
    re.compile(
        rf"^{_REMIND}(?:\s+{_ABOUT}\s+(?P<target>{_POINTER}))?\s+(?P<when>(?:at|on|tomorrow|"
        r"tonight|this|next|in|today|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
        r"\b.+)$",
        _I,
    ),
    # "remind me tomorrow morning about task 2"
    re.compile(rf"^{_REMIND}\s+(?P<when>.+?)\s+{_ABOUT}\s+(?P<target>{_POINTER})$", _I),
)
# "at 9 that morning", "that evening at 7", "on the day at 8": the task's own day, the part of
# it only telling the half of the day
_THAT_DAY = re.compile(
    r"\s*\b(?:(?:on\s+)?(?:that|the\s+same)\s+(?P<part>morning|afternoon|evening|night|day)|"
    r"on\s+the\s+day)\b\s*",
    _I,
)
_OFF_REQUEST = re.compile(
    rf"^(?:do\s+not|don'?t|dont|no\s+need\s+to|never)\s+(?:remind|notify)\s+me"
    rf"(?:\s+(?:{_ABOUT}|(?:any\s+more|anymore)\s+(?:about|of))\s+(?P<target>.+?))?(?:\s+any\s*more)?$"
    rf"|^(?:stop|quit)\s+(?:reminding|notifying|pinging)\s+me(?:\s+{_ABOUT}\s+(?P<target2>.+))?$"
    r"|^(?:turn\s+off|switch\s+off|disable|silence|mute|remove|clear|drop)\s+(?:the\s+|my\s+|its\s+|"
    r"that\s+)?(?:reminder|alert|notification)s?(?:\s+(?:for|on|from|of)\s+(?P<target3>.+))?$"
    r"|^no\s+(?:reminder|alert|notification)s?(?:\s+(?:for|on)\s+(?P<target4>.+))?(?:\s+please)?$",
    _I,
)


_A_REASON = re.compile(r"^(?:so|because|since|cos|coz|as|then)\b", _I)


def eve_reminder(
    found: re.Match[str], rest: str, now: datetime
) -> tuple[tuple[int, str], str] | None:
    """((days, "HH:MM"), the rest without the clock) for "the night before", "the day before
    at 9": a moment on the eve of the due day, not an offset from its time. None for an offset
    ("an hour before", "the day before" with no clock)."""
    if not found.groupdict().get("daybefore"):
        return None
    due = find_due(rest, now)
    if due is not None and due.unclear is None and due.clock is not None and not due.day_said:
        return (1, f"{due.clock:%H:%M}"), due.remove_from(rest)
    clock = _EVE_CLOCKS.get(str(found["eve"]).lower())
    return ((1, clock), rest) if clock is not None else None


def offset_minutes(found: re.Match[str]) -> int | None:
    """The minutes an offset match says ("an hour", "half an hour", "90 min"); None past
    the longest offset a reminder may have."""

    def group(name: str) -> str | None:
        return found.groupdict().get(name)

    if group("halfhour"):
        return 30
    if group("quarter"):
        return 15
    if group("daybefore"):
        return 1440
    said = (group("amount") or "").lower()
    amount = 1 if said in ("a", "an", "one") else number_value(said)
    unit = _UNIT_MINUTES.get((group("unit") or group("short") or "").lower())
    if amount is None or unit is None:
        return None
    minutes = amount * unit + (unit // 2 if group("half") else 0)
    return minutes if minutes <= 4 * 7 * 1440 else None


def reminder_change(text: str, now: datetime) -> tuple[str, dict[str, object]] | None:
    """(the task as said, the update_task arguments) of a reminder request in `text` (the
    clause's core request), or None."""
    return _reminder_off(text) or _reminder_offset(text, now) or _reminder_time(text, now)


def _reminder_off(text: str) -> tuple[str, dict[str, object]] | None:
    """ "don't remind me about it", "turn off the reminder for the dentist"."""
    off = _OFF_REQUEST.match(text)
    if off:
        target = off["target"] or off["target2"] or off["target3"] or off["target4"] or "it"
        return target, {"remind_at": "none"}
    return None


def _reminder_offset(text: str, now: datetime) -> tuple[str, dict[str, object]] | None:
    """ "remind me 30 minutes before", "remind me the day before", "the night before"."""
    for pattern in _OFFSET_REQUESTS:
        offset = pattern.match(text)
        minutes = offset_minutes(offset) if offset else None
        if offset and minutes is not None:
            after = offset["after"]
            if after and _A_REASON.match(after):
                after = None  # "... so I've got time to get ready": why, not which task
            fields: dict[str, object] = {"remind_before": minutes}
            eve = eve_reminder(offset, after or "", now)
            if eve is not None:  # "the day before at 9": the clock is no task
                fields, after = {DAY_BEFORE_REMINDER: eve[0]}, eve[1].strip() or None
            return offset["target"] or after or "it", fields
    return None


def _reminder_time(text: str, now: datetime) -> tuple[str, dict[str, object]] | None:
    """ "remind me at 8", "remind me about it tomorrow at 9"."""
    for pattern in _TIME_REQUESTS:
        timed = pattern.match(text)
        # A day alone reminds at the day's usual hour (09:00: the tools' reading of a date).
        when = whole_due(_on_the_tasks_day(timed["when"]), now) if timed else None
        if timed and when is not None:
            return timed["target"] or "it", {"remind_at": when.argument}
    return None


def says_the_tasks_day(text: str) -> bool:
    """ "remind me at 9 that morning": on the day the task is due."""
    return _THAT_DAY.search(text) is not None


def _on_the_tasks_day(when: str) -> str:
    """ "at 9 that morning" -> "at 9am": the time on the task's own day (a time without a day
    is put on it), in the half of the day said."""
    found = _THAT_DAY.search(when)
    if found is None:
        return when
    rest = f"{when[: found.start()]} {when[found.end() :]}".strip()
    part = (found["part"] or "day").lower()
    if re.search(r"\d$", rest) and part != "day":
        rest += "am" if part == "morning" else "pm"
    return rest or when
