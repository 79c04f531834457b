"""Repeating tasks (issue 15): a rule, its next date, and how a person would say it.

A rule is an RFC 5545 RRULE body ("FREQ=MONTHLY;BYMONTHDAY=1") with an anchor: the schedule
(the next date follows the last due date) or the completion ("3 days after I finish it").
Dates are computed with dateutil's rrule on the task's wall clock in the account's zone, never
in UTC: a 09:00 task stays at 09:00 across a daylight-saving change. A day of the month that
a month lacks is clamped to its last day ("every 31st" falls on 28 or 29 February), the way
people mean it, where plain RRULE would skip the month.
"""

from __future__ import annotations

import datetime as datetime_module
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache, lru_cache
from types import FunctionType, SimpleNamespace
from typing import cast

from dateutil import rrule as dateutil_rrule
from dateutil.relativedelta import relativedelta
from dateutil.rrule import rrule, rrulestr

from backend.core.timeutil import LAST_DAY

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
# The longest a rule may be read from.
MAX_RULE_LENGTH = 200
# The longest step of a rule: ten years of its unit ("every 10 years": a passport).
MAX_INTERVAL = {"DAILY": 3650, "WEEKLY": 520, "MONTHLY": 120, "YEARLY": 10}
# How far ahead a next date is looked for: a rule with no day within this many years of where
# the search starts never comes round, as far as a task is concerned. Thirty years hold the
# longest step three times over and the rarest real dates (29 February on a Monday: every 28
# years). The search ends there whatever the rule: dateutil alone looks up to the year 9999.
SEARCH_YEARS = 30


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
        rule = f"FREQ={unit}" + (f";INTERVAL={count}" if count != 1 else "")  # 0: refused
        days = _weekday_codes(groups["on_days"]) if groups.get("on_days") else []
        return Repeat(f"{rule};BYDAY={','.join(days)}" if days and unit == "WEEKLY" else rule)
    unit_word = (groups.get("unit") or _ADVERBS[(groups.get("adverb") or "daily").lower()]).lower()
    return Repeat(f"FREQ={_UNITS.get(unit_word, 'DAILY')}")


_FREQS = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
_UNIT_OF = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}
# The BY parts a date can follow, each with its largest value (and whether it may count from
# the end, -1 being the last). Times of day (BYHOUR...) are the task's due_time; BYEASTER is
# dateutil's own, not RFC 5545 (calendar apps would refuse the feed).
_NUMBERS = {
    "BYMONTH": (12, False),
    "BYMONTHDAY": (31, True),
    "BYYEARDAY": (366, True),
    "BYWEEKNO": (53, True),
    "BYSETPOS": (366, True),
}
_DAY_CODE = r"(?:MO|TU|WE|TH|FR|SA|SU)"
# "MO", "1MO" (the first Monday), "-1FR" (the last Friday)
_ORDINAL_DAY = rf"(?:[+-]?(?:[1-9]|[1-4]\d|5[0-3]))?{_DAY_CODE}"
_BYDAY = re.compile(rf"{_ORDINAL_DAY}(?:,{_ORDINAL_DAY})*")
_PARTS = ("FREQ", "INTERVAL", "WKST", "BYDAY", *_NUMBERS)


def _parts(rule: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in rule.split(";") if "=" in part)


def _number_problem(name: str, values: str) -> str | None:
    largest, from_end = _NUMBERS[name]
    allowed = f"from 1 to {largest}" + (f" or -{largest} to -1" if from_end else "")
    for value in values.split(","):
        if not re.fullmatch(r"[+-]?\d{1,3}", value):
            return f"{name} must be numbers {allowed}"
        number = int(value)
        if not (1 <= number <= largest or (from_end and -largest <= number <= -1)):
            return f"{name} must be {allowed}"
    return None


@lru_cache(maxsize=1024)
def rule_problem(rule: str) -> str | None:
    """Why `rule` is no RRULE body this service repeats by, or None. A task repeats until it is
    told to stop (no COUNT or UNTIL), daily to yearly, by a step of one unit up to ten years,
    on parts of the calendar a date can follow."""
    if len(rule) > MAX_RULE_LENGTH or not re.fullmatch(r"[A-Z0-9=;,+-]+", rule):
        return f"an RRULE is at most {MAX_RULE_LENGTH} letters, digits and =;,+-"
    pieces = rule.split(";")
    if any(piece.count("=") != 1 for piece in pieces):
        return "an RRULE is NAME=VALUE parts joined by ';'"
    names = [piece.split("=", 1)[0] for piece in pieces]
    parts = _parts(rule)
    for name in names:
        if names.count(name) > 1:
            return f"{name} is given twice"
        if name in ("COUNT", "UNTIL", "DTSTART"):
            return "a task repeats until it is told to stop: no COUNT, UNTIL or DTSTART"
        if name not in _PARTS:
            return f"{name} is not a part a task's repeat can have ({', '.join(_PARTS)})"
    freq = parts.get("FREQ")
    if freq not in _FREQS:
        return "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY"
    most = MAX_INTERVAL[freq]
    interval = parts.get("INTERVAL", "1")
    if not re.fullmatch(r"\d{1,4}", interval) or not 1 <= int(interval) <= most:
        unit = _UNIT_OF[freq]
        return (
            f"INTERVAL must be from 1 to {most} for a {freq.lower()} repeat "
            f"(every 1 to {most} {unit}s)"
        )
    for name in _NUMBERS.keys() & parts.keys():
        problem = _number_problem(name, parts[name])
        if problem is not None:
            return problem
    if "BYDAY" in parts and not _BYDAY.fullmatch(parts["BYDAY"]):
        return (
            "BYDAY must be days such as MO or TU, or 1MO (the first Monday), -1FR (the last Friday)"
        )
    if "WKST" in parts and not re.fullmatch(_DAY_CODE, parts["WKST"]):
        return "WKST must be a day such as MO"
    try:
        rrulestr(f"RRULE:{rule}", dtstart=datetime(2026, 1, 1))
    except (ValueError, TypeError) as exc:
        return f"it is no RRULE dateutil reads ({exc})"
    return None


def is_valid_rule(rule: str) -> bool:
    """Whether `rule` is an RRULE body this service can repeat by (`rule_problem` says why
    not)."""
    return rule_problem(rule) is None


class _CalendarEndingIn(SimpleNamespace):
    """The `datetime` module as dateutil's iteration sees it, its last year moved."""


@cache
def _iteration_ending_in(last_year: int) -> Callable[[rrule], Iterator[datetime]]:
    """dateutil's own iteration of a rule (`rrule._iter`), ending after `last_year` instead of
    the year 9999. UNTIL cannot bound a search: dateutil compares it with the dates a rule
    yields, so a rule that yields none (BYSETPOS=366) walks every period up to the year 9999,
    seconds of CPU. Its one other way out is the calendar's last year, read as
    `datetime.MAXYEAR`: the same code run with that name moved ends there, a bounded walk.
    (tests/services/test_repeat_bounds.py fails if a dateutil release changes this.)"""
    calendar = _CalendarEndingIn(
        date=datetime_module.date, datetime=datetime_module.datetime, MAXYEAR=last_year
    )
    namespace = {**vars(dateutil_rrule), "datetime": calendar}
    code = vars(rrule)["_iter"].__code__
    return cast(Callable[[rrule], Iterator[datetime]], FunctionType(code, namespace, "_iter"))


def _written_out(rule: str, start: datetime) -> str:
    """`rule` with the parts dateutil takes from its start when it has no day parts (a yearly
    rule's month and day, a monthly one's day, a weekly one's weekday), so it means the same
    from a later start."""
    parts = _parts(rule)
    if parts.keys() & {"BYWEEKNO", "BYYEARDAY", "BYMONTHDAY", "BYDAY"}:
        return rule
    if parts["FREQ"] == "YEARLY":
        month = "" if "BYMONTH" in parts else f";BYMONTH={start.month}"
        return f"{rule}{month};BYMONTHDAY={start.day}"
    if parts["FREQ"] == "MONTHLY":
        return f"{rule};BYMONTHDAY={start.day}"
    if parts["FREQ"] == "WEEKLY":
        return f"{rule};BYDAY={_DAY_CODES[start.weekday()]}"
    return rule


def _caught_up(rule: str, start: datetime, floor: datetime) -> tuple[str, datetime]:
    """The rule and a start, whole steps on from `start`, that give the same dates after
    `floor`, at most two steps before it: an overdue task (a daily one due in 1900, or in the
    year 1 if stored before dates were bounded) costs no walk through the years in between.
    The start stays a step before `floor`'s period, so the dates a later start leaves out of
    its own period all come before `floor`."""
    parts = _parts(rule)
    freq, interval = parts["FREQ"], int(parts.get("INTERVAL", "1"))
    if freq == "YEARLY":
        steps = (floor.year - start.year) // interval - 1
        moved = start + relativedelta(years=steps * interval)
    elif freq == "MONTHLY":
        months = (floor.year - start.year) * 12 + floor.month - start.month
        steps = months // interval - 1
        moved = start + relativedelta(months=steps * interval)
    else:
        days = (floor - start).days // (7 if freq == "WEEKLY" else 1)
        steps = days // interval - 1
        unit = timedelta(weeks=1) if freq == "WEEKLY" else timedelta(days=1)
        moved = start + steps * interval * unit
    if steps <= 0:
        return rule, start
    return _written_out(rule, start), moved


def _first_after(rule: str, start: datetime, floor: datetime, *, inclusive: bool) -> date | None:
    """The day of the rule's first date after `floor` (or on it, if `inclusive`), counting from
    `start`; None if no date comes within SEARCH_YEARS of `floor`, or none by LAST_DAY."""
    last_year = min(floor.year + SEARCH_YEARS, LAST_DAY.year)
    rule, start = _caught_up(rule, start, floor)
    if start.year > last_year:
        return None
    parsed = rrulestr(f"RRULE:{rule}", dtstart=start)
    assert isinstance(parsed, rrule)  # one RRULE line: never a set
    for found in _iteration_ending_in(last_year)(parsed):
        if found > floor or (inclusive and found == floor):
            return found.date()
    return None


def _search_end(after: date) -> date:
    """The last day a search from `after` looks at."""
    return date(min(after.year + SEARCH_YEARS, LAST_DAY.year), 12, 31)


def next_due(
    repeat: Repeat,
    due: date,
    clock: time | None,
    *,
    today: date,
    completed_on: date | None = None,
) -> date | None:
    """The next due day of a repeating task completed `completed_on` (default today), on the
    account's calendar. From the schedule: the first occurrence after both its due day and
    today (an overdue daily task done today is next due tomorrow, not again today). From the
    completion: the rule's step counted from the completion day. None when there is none: the
    rule never comes round again within SEARCH_YEARS or by LAST_DAY, or it is one this service
    no longer keeps (stored before rules were checked). The series has ended."""
    if rule_problem(repeat.rule) is not None:
        return None
    wall = clock or time(0)
    if repeat.from_completion:
        start = datetime.combine(completed_on or today, wall)
        return _first_after(repeat.rule, start, start, inclusive=False)
    start = datetime.combine(due, wall)
    floor = max(start, datetime.combine(today, time(23, 59, 59)))
    return _first_after(repeat.rule, start, floor, inclusive=False)


def _none_after(after: date) -> str:
    """Where a search from `after` looked in vain."""
    end = _search_end(after)
    if end >= LAST_DAY:  # cut short by the calendar's end
        return f"has no date after {after.isoformat()} by {LAST_DAY.isoformat()}, the last day"
    return f"never comes round: no day after {after.isoformat()} up to {end.isoformat()} matches it"


def repeat_problem(
    repeat: Repeat, due: date | None, clock: time | None, *, today: date
) -> str | None:
    """Why a task due `due` cannot repeat by `repeat`, or None: its rule is refused, or it has
    no first day (a task given no due date starts on the rule's first day from today) or no
    next one after it."""
    problem = rule_problem(repeat.rule)
    if problem is not None:
        return f"repeat {repeat.rule!r} cannot be kept: {problem}"
    first = due if due is not None else first_due(repeat, today)
    if first is not None and next_due(repeat, first, clock, today=today) is not None:
        return None
    after = today if repeat.from_completion or first is None else max(first, today)
    return f"repeat {repeat.rule!r} {_none_after(after)}"


def ended_why(repeat: Repeat, due: date, today: date) -> str:
    """Why a repeating task completed on its last date stopped repeating (its result says)."""
    problem = rule_problem(repeat.rule)
    if problem is not None:
        return f"its rule {repeat.rule!r} can no longer be kept: {problem}"
    after = today if repeat.from_completion else max(due, today)
    return f"its repeat ({describe(repeat)}) {_none_after(after)}"


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _said(repeat: Repeat) -> str:
    """The words for a rule of the shapes the phrases make (a guess for any other)."""
    parts = _parts(repeat.rule)
    unit = _UNIT_OF[parts["FREQ"]]
    interval = int(parts.get("INTERVAL", "1"))
    every = f"every {interval} {unit}s" if interval != 1 else f"every {unit}"
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


@lru_cache(maxsize=1024)
def describe(repeat: Repeat) -> str:
    """ "every month on the 1st", "every weekday", "every 2 weeks on Tuesday", "every 3 days
    after completion". A rule the words cannot say ("FREQ=MONTHLY;BYDAY=1MO") is shown as it
    is: a label must read back as its own rule (the web UI sends an edited one back), and
    every task has one, so none may fail."""
    try:
        said = _said(repeat)
        if read_repeat(said) == repeat:
            return said
    except (KeyError, ValueError, IndexError):
        pass  # a rule of another shape, or one stored before rules were checked
    return f"{repeat.rule} after completion" if repeat.from_completion else repeat.rule


# "FREQ=MONTHLY;BYDAY=1MO after completion": the label of such a rule, read back.
_RULE_AFTER_COMPLETION = re.compile(r"\s+after\s+completion\s*$", _I)


def read_repeat(text: str, *, from_completion: bool | None = None) -> Repeat:
    """A repeat as a client gives it: an RRULE body ("FREQ=WEEKLY;BYDAY=MO", "RRULE:" in
    front is fine) or a phrase ("every monday", "3 days after I finish it"). `from_completion`
    overrides the anchor a phrase implies. ValueError says what is expected, or why the rule
    cannot be kept."""
    said = text.strip()
    anchored = _RULE_AFTER_COMPLETION.search(said)
    body = said[: anchored.start()] if anchored else said
    body = body.removeprefix("RRULE:").upper().replace(" ", "")
    if body.startswith("FREQ=") or ";FREQ=" in body:
        repeat = Repeat(body, anchored is not None)
    else:
        found = find_repeat(said)
        if found is None:
            raise ValueError(
                f"repeat {said!r} must be an RRULE (FREQ=WEEKLY;BYDAY=MO) or a phrase such as "
                "'every monday', 'every 1st of the month' or '3 days after I finish it'"
            )
        repeat = found[0]
    problem = rule_problem(repeat.rule)
    if problem is not None:
        raise ValueError(f"repeat {said!r} cannot be kept: {problem}")
    if from_completion is not None:
        repeat = Repeat(repeat.rule, from_completion)
    return repeat


def first_due(repeat: Repeat, today: date) -> date | None:
    """The first due day of a new repeat given no date: the rule's first day from today
    ("every monday" said on a Tuesday: next Monday); from completion, today. None if the rule
    never comes round (within SEARCH_YEARS, by LAST_DAY) or is no rule this service keeps."""
    if rule_problem(repeat.rule) is not None:
        return None
    if repeat.from_completion:
        return today
    start = datetime.combine(today, time(0))
    return _first_after(repeat.rule, start, start, inclusive=True)
