"""How people say a repeat, and how a rule is said back (issue 15): "every other tuesday",
"on the last day of every month", "3 days after I finish it" read as RRULE bodies, and a
rule's words that read back as the same rule. A day of the month that a month lacks is
clamped to its last day ("every 31st" falls on 28 or 29 February), the way people mean it,
where plain RRULE would skip the month. The rules themselves: `repeats`.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from backend.domain.repeats import (
    DAY_CODES,
    UNIT_OF,
    Repeat,
    none_after,
    rule_parts,
    rule_problem,
)

_I = re.IGNORECASE
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
            r"\b(?:every|each)\s+"
            + _ordinal_group("day", suffix="")
            + r"(?:\s+of\s+the\s+month)?\b"
            # "every month on the 5", "each month on the 15th"
            + r"|\b(?:every|each)\s+month\s+on\s+the\s+"
            + _ordinal_group("day4")
            + r"\b"
            # "the 30th of every month", "on the 15th every month"
            + r"|\b(?:on\s+)?the\s+"
            + _ordinal_group("day2")
            + r"\s+(?:of\s+(?:every|each|the)|every|each)\s+month\b"
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
            # "every 4 weeks, always a thursday": the day said after it is the rule's too
            r"(?:(?:\s+on|\s*,?\s+always(?:\s+on)?(?:\s+an?)?)\s+(?P<on_days>"
            + _WEEKDAY
            + r"(?:\s*(?:,|and|&)\s*"
            + _WEEKDAY
            + r")*))?",
        ),
        (
            "unit",
            r"\b(?:every|each)\s+(?:single\s+)?(?P<unit>day|week|month|year|morning|evening|night)\b"
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


def weekday_codes(text: str) -> list[str]:
    """The RRULE day codes of the weekdays `text` names, in order, each once ("thurs and
    fri" -> TH, FR)."""
    codes = []
    for word in re.findall(r"[a-z]+", text.lower()):
        for code, name in zip(DAY_CODES, _DAY_NAMES, strict=True):
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
        day = int(groups["day"] or groups["day2"] or groups["day3"] or groups["day4"])
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
        codes = weekday_codes(groups["days"])
        interval = ";INTERVAL=2" if groups["other"] else ""
        return Repeat(f"FREQ=WEEKLY{interval};BYDAY={','.join(codes)}") if codes else None
    if name == "interval":
        unit = _UNITS[groups["unit"].lower()]
        count = _count(groups["count"])
        rule = f"FREQ={unit}" + (f";INTERVAL={count}" if count != 1 else "")  # 0: refused
        days = weekday_codes(groups["on_days"]) if groups.get("on_days") else []
        return Repeat(f"{rule};BYDAY={','.join(days)}" if days and unit == "WEEKLY" else rule)
    unit_word = (groups.get("unit") or _ADVERBS[(groups.get("adverb") or "daily").lower()]).lower()
    return Repeat(f"FREQ={_UNITS.get(unit_word, 'DAILY')}")


def ended_why(repeat: Repeat, due: date, today: date) -> str:
    """Why a repeating task completed on its last date stopped repeating (its result says)."""
    problem = rule_problem(repeat.rule)
    if problem is not None:
        return f"its rule {repeat.rule!r} can no longer be kept: {problem}"
    after = today if repeat.from_completion else max(due, today)
    return f"its repeat ({describe(repeat)}) {none_after(after)}"


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _said(repeat: Repeat) -> str:
    """The words for a rule of the shapes the phrases make (a guess for any other)."""
    parts = rule_parts(repeat.rule)
    unit = UNIT_OF[parts["FREQ"]]
    interval = int(parts.get("INTERVAL", "1"))
    every = f"every {interval} {unit}s" if interval != 1 else f"every {unit}"
    days = parts.get("BYDAY", "")
    if days == "MO,TU,WE,TH,FR":
        said = "every weekday"
    elif days == "SA,SU":
        said = "every weekend"
    elif days:
        names = [_DAY_NAMES[DAY_CODES.index(code)] for code in days.split(",")]
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
