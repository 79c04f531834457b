"""Repeating tasks (issue 15): a rule and its next dates.

A rule is an RFC 5545 RRULE body ("FREQ=MONTHLY;BYMONTHDAY=1") with an anchor: the schedule
(the next date follows the last due date) or the completion ("3 days after I finish it").
Dates are computed with dateutil's rrule on the task's wall clock in the account's zone, never
in UTC: a 09:00 task stays at 09:00 across a daylight-saving change. How people say a rule,
and read one back, is `repeat_phrases`.
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

DAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
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


_FREQS = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
UNIT_OF = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}
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


def rule_parts(rule: str) -> dict[str, str]:
    """An RRULE body's NAME=VALUE parts."""
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
    parts = rule_parts(rule)
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
        unit = UNIT_OF[freq]
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
    parts = rule_parts(rule)
    if parts.keys() & {"BYWEEKNO", "BYYEARDAY", "BYMONTHDAY", "BYDAY"}:
        return rule
    if parts["FREQ"] == "YEARLY":
        month = "" if "BYMONTH" in parts else f";BYMONTH={start.month}"
        return f"{rule}{month};BYMONTHDAY={start.day}"
    if parts["FREQ"] == "MONTHLY":
        return f"{rule};BYMONTHDAY={start.day}"
    if parts["FREQ"] == "WEEKLY":
        return f"{rule};BYDAY={DAY_CODES[start.weekday()]}"
    return rule


def _caught_up(rule: str, start: datetime, floor: datetime) -> tuple[str, datetime]:
    """The rule and a start, whole steps on from `start`, that give the same dates after
    `floor`, at most two steps before it: an overdue task (a daily one due in 1900, or in the
    year 1 if stored before dates were bounded) costs no walk through the years in between.
    The start stays a step before `floor`'s period, so the dates a later start leaves out of
    its own period all come before `floor`."""
    parts = rule_parts(rule)
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


def none_after(after: date) -> str:
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
    return f"repeat {repeat.rule!r} {none_after(after)}"


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
