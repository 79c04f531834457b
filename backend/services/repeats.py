"""Repeating tasks (issue 15): a rule, its next date, and how a person would say it.

A rule is an RFC 5545 RRULE body ("FREQ=MONTHLY;BYMONTHDAY=1") with an anchor: the schedule
(the next date follows the last due date) or the completion ("3 days after I finish it").
Dates are computed with dateutil's rrule on the task's wall clock in the account's zone, never
in UTC: a 09:00 task stays at 09:00 across a daylight-saving change. A day of the month that
a month lacks is clamped to its last day ("every 31st" falls on 28 or 29 February), the way
people mean it, where plain RRULE would skip the month.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from dateutil.rrule import rrulestr

_I = re.IGNORECASE
_DAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "other": 2,
    "second": 2,
}
_UNITS = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}
# The longest a rule may be read from, and the most occurrences looked through for the next.
MAX_RULE_LENGTH = 200


@dataclass(frozen=True)
class Repeat:
    """A repeat rule: the RRULE body, and whether it counts from the completion."""

    rule: str
    from_completion: bool = False


def _month_day(day: int) -> str:
    """BYMONTHDAY for a day of the month, clamped: the 29th-31st fall back to a short month's
    last day (RRULE alone would skip that month)."""
    if day <= 28:
        return f"BYMONTHDAY={day}"
    return f"BYMONTHDAY={','.join(str(d) for d in range(28, day + 1))};BYSETPOS=-1"


def _count(word: str) -> int:
    return _COUNTS.get(word.lower()) or int(word)


_WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday|sday)?s?"


def _ordinal_group(name: str, *, suffix: str = "?") -> str:
    """A day of the month; `suffix=""` requires its "st"/"nd"/"rd"/"th" ("every 3rd", never
    "every 3 days")."""
    number = rf"(?P<{name}>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th){suffix}"
    return number + r"(?!\s*(?:day|week|month|year)s?\b)"


_COUNT = r"(?P<count>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|other|second)"
_PHRASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, _I))
    for name, pattern in (
        (
            "after",
            r"\b(?:every\s+)?" + _COUNT + r"\s+(?P<unit>day|week|month|year)s?\s+"
            r"(?:after\s+(?:i\s+)?(?:finish|complete|do|did|tick|check)\w*(?:\s+it)?|"
            r"after\s+completion|from\s+(?:completion|when\s+i\s+(?:finish|complete|do)\w*(?:\s+it)?))",
        ),
        ("last_day", r"\b(?:on\s+)?the\s+last\s+day\s+of\s+(?:every|each|the)\s+month\b"),
        (
            "month_day",
            r"\b(?:every|each)\s+(?:month\s+on\s+the\s+)?"
            + _ordinal_group("day", suffix="")
            + r"(?:\s+of\s+the\s+month)?\b"
            + r"|\b(?:on\s+)?the\s+"
            + _ordinal_group("day2")
            + r"\s+of\s+(?:every|each|the)\s+month\b"
            + r"|\bmonthly\s+on\s+the\s+"
            + _ordinal_group("day3")
            + r"\b",
        ),
        (
            "year_day",
            r"\b(?:every\s+year|each\s+year|yearly|annually)\s+on\s+(?:the\s+)?"
            r"(?:(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>[a-z]+)|"
            r"(?P<month2>[a-z]+)\s+(?P<day2>\d{1,2})(?:st|nd|rd|th)?)\b",
        ),
        ("weekdays", r"\bevery\s+(?:week\s*day|weekday|work\s*day|workday)s?\b|\bweekdays\b"),
        ("weekends", r"\bevery\s+weekend\b|\bweekends\b"),
        (
            "weekday",
            r"\b(?:every|each)\s+(?:(?P<other>other|second)\s+)?(?P<days>" + _WEEKDAY + r"(?:\s*"
            r"(?:,|and|&)\s*" + _WEEKDAY + r")*)\b",
        ),
        (
            "interval",
            r"\bevery\s+" + _COUNT + r"\s+(?P<unit>day|week|month|year)s?\b"
            # "every 3 weeks on Tuesday": the label of such a rule reads back as it
            r"(?:\s+on\s+(?P<on_days>" + _WEEKDAY + r"(?:\s*(?:,|and|&)\s*" + _WEEKDAY + r")*))?",
        ),
        (
            "unit",
            r"\b(?:every|each)\s+(?P<unit>day|week|month|year|morning|evening|night)\b"
            r"|\b(?P<adverb>daily|weekly|monthly|yearly|annually|nightly)\b",
        ),
    )
)
_ADVERBS = {
    "daily": "day",
    "nightly": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
}


def _weekday_codes(text: str) -> list[str]:
    codes = []
    for word in re.findall(r"[a-z]+", text.lower()):
        for code, name in zip(_DAY_CODES, _DAY_NAMES, strict=True):
            if len(word) >= 3 and name.lower().startswith(word[:3]) and code not in codes:
                codes.append(code)
    return codes


def _month_number(word: str) -> int | None:
    word = word.lower()
    return next(
        (n for n, m in enumerate(_MONTHS, 1) if len(word) >= 3 and m.startswith(word)), None
    )


_AFTER_COMPLETION = re.compile(r"\s+(?:after|from)\s+completion\b", _I)


def find_repeat(text: str) -> tuple[Repeat, int, int] | None:
    """The repeat `text` says, and where (start, end), or None: "every other tuesday",
    "on the last day of every month", "3 days after I finish it"."""
    for name, pattern in _PHRASES:
        found = pattern.search(text)
        if found is None:
            continue
        repeat = _read(name, found)
        if repeat is None:
            continue
        anchored = _AFTER_COMPLETION.match(text, found.end())
        if anchored is not None:  # a label read back: "every Monday after completion"
            return Repeat(repeat.rule, from_completion=True), found.start(), anchored.end()
        return repeat, found.start(), found.end()
    return None


def _read(name: str, found: re.Match[str]) -> Repeat | None:
    groups = found.groupdict()
    if name == "after":
        unit = _UNITS[groups["unit"].lower()]
        return Repeat(f"FREQ={unit};INTERVAL={_count(groups['count'])}", from_completion=True)
    if name == "last_day":
        return Repeat("FREQ=MONTHLY;BYMONTHDAY=-1")
    if name == "month_day":
        day = int(groups["day"] or groups["day2"] or groups["day3"])
        return Repeat(f"FREQ=MONTHLY;{_month_day(day)}")
    if name == "year_day":
        month = _month_number(groups["month"] or groups["month2"] or "")
        day = int(groups["day"] or groups["day2"])
        if month is None or day > (29 if month == 2 else 31):
            return None
        if month == 2 and day == 29:
            return Repeat("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1")
        return Repeat(f"FREQ=YEARLY;BYMONTH={month};BYMONTHDAY={day}")
    if name == "weekdays":
        return Repeat("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    if name == "weekends":
        return Repeat("FREQ=WEEKLY;BYDAY=SA,SU")
    if name == "weekday":
        codes = _weekday_codes(groups["days"])
        interval = ";INTERVAL=2" if groups["other"] else ""
        return Repeat(f"FREQ=WEEKLY{interval};BYDAY={','.join(codes)}") if codes else None
    if name == "interval":
        unit = _UNITS[groups["unit"].lower()]
        count = _count(groups["count"])
        rule = f"FREQ={unit}" + (f";INTERVAL={count}" if count > 1 else "")
        days = _weekday_codes(groups["on_days"]) if groups.get("on_days") else []
        return Repeat(f"{rule};BYDAY={','.join(days)}" if days and unit == "WEEKLY" else rule)
    unit_word = (groups.get("unit") or _ADVERBS[(groups.get("adverb") or "daily").lower()]).lower()
    return Repeat(f"FREQ={_UNITS.get(unit_word, 'DAILY')}")


def is_valid_rule(rule: str) -> bool:
    """Whether `rule` is an RRULE body this service can repeat by (no COUNT or UNTIL ends it
    in the middle of a task's life; FREQ from daily to yearly)."""
    if len(rule) > MAX_RULE_LENGTH or not re.fullmatch(r"[A-Z0-9=;,+-]+", rule):
        return False
    if not re.search(r"(?:^|;)FREQ=(?:DAILY|WEEKLY|MONTHLY|YEARLY)(?:;|$)", rule):
        return False
    if re.search(r"(?:^|;)(?:COUNT|UNTIL|DTSTART)=", rule):
        return False  # a task repeats until it is told to stop
    try:
        rrulestr(f"RRULE:{rule}", dtstart=datetime(2026, 1, 1))
    except (ValueError, TypeError):
        return False
    return True


def next_due(
    repeat: Repeat,
    due: date,
    clock: time | None,
    *,
    today: date,
    completed_on: date | None = None,
) -> date:
    """The next due day of a repeating task completed `completed_on` (default today), on the
    account's calendar. From the schedule: the first occurrence after both its due day and
    today (an overdue daily task done today is next due tomorrow, not again today). From the
    completion: the rule's step counted from the completion day."""
    wall = clock or time(0)
    if repeat.from_completion:
        start = datetime.combine(completed_on or today, wall)
        rule = rrulestr(f"RRULE:{repeat.rule}", dtstart=start)
        found = rule.after(start)
    else:
        start = datetime.combine(due, wall)
        rule = rrulestr(f"RRULE:{repeat.rule}", dtstart=start)
        floor = max(start, datetime.combine(today, time(23, 59, 59)))
        found = rule.after(floor)
    if found is None:  # an RRULE that ends (never stored, see is_valid_rule)
        return due + timedelta(days=1)
    next_day: date = found.date()
    return next_day


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def describe(repeat: Repeat) -> str:
    """ "every month on the 1st", "every weekday", "every 2 weeks on Tuesday", "every 3 days
    after completion"."""
    parts = dict(part.split("=", 1) for part in repeat.rule.split(";") if "=" in part)
    unit = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}[parts["FREQ"]]
    interval = int(parts.get("INTERVAL", "1"))
    every = f"every {interval} {unit}s" if interval > 1 else f"every {unit}"
    days = parts.get("BYDAY", "")
    if days == "MO,TU,WE,TH,FR":
        said = "every weekday"
    elif days == "SA,SU":
        said = "every weekend"
    elif days:
        names = [_DAY_NAMES[_DAY_CODES.index(code)] for code in days.split(",")]
        listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        said = f"every {listed}" if interval == 1 else f"{every} on {listed}"
    elif parts.get("BYMONTHDAY") == "-1":
        said = "on the last day of every month"
    elif "BYMONTHDAY" in parts and parts["FREQ"] == "MONTHLY":
        day = int(parts["BYMONTHDAY"].split(",")[-1])
        said = f"{every} on the {_ordinal(day)}"
    elif "BYMONTHDAY" in parts and "BYMONTH" in parts:
        day = int(parts["BYMONTHDAY"].split(",")[-1])
        month = _MONTHS[int(parts["BYMONTH"]) - 1].capitalize()
        said = f"every year on {day} {month}"
    else:
        said = every
    return f"{said} after completion" if repeat.from_completion else said


def read_repeat(text: str, *, from_completion: bool | None = None) -> Repeat:
    """A repeat as a client gives it: an RRULE body ("FREQ=WEEKLY;BYDAY=MO", "RRULE:" in
    front is fine) or a phrase ("every monday", "3 days after I finish it"). `from_completion`
    overrides the anchor a phrase implies. ValueError says what is expected."""
    said = text.strip()
    body = said.removeprefix("RRULE:").upper().replace(" ", "")
    if body.startswith("FREQ=") or ";FREQ=" in body:
        if not is_valid_rule(body):
            raise ValueError(
                f"repeat {said!r} is no RRULE this service repeats by: FREQ must be DAILY, "
                "WEEKLY, MONTHLY or YEARLY, without COUNT or UNTIL"
            )
        return Repeat(body, bool(from_completion))
    found = find_repeat(said)
    if found is None:
        raise ValueError(
            f"repeat {said!r} must be an RRULE (FREQ=WEEKLY;BYDAY=MO) or a phrase such as "
            "'every monday', 'every 1st of the month' or '3 days after I finish it'"
        )
    repeat = found[0]
    if from_completion is not None:
        repeat = Repeat(repeat.rule, from_completion)
    return repeat


def first_due(repeat: Repeat, today: date) -> date:
    """The first due day of a new repeat given no date: the rule's first day from today
    ("every monday" said on a Tuesday: next Monday); from completion, today."""
    if repeat.from_completion:
        return today
    start = datetime.combine(today, time(0))
    found = rrulestr(f"RRULE:{repeat.rule}", dtstart=start).after(start, inc=True)
    return found.date() if found is not None else today
