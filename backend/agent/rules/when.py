"""The due slot: "tomorrow at 9", "by friday", "next tuesday evening", "on the 3rd", "in 2 hours".

Two layers (specs/decisions/0019-date-phrases-front-layer.md):
- a front layer of patterns decides *where* a date or time is said. It is deliberately
  narrow: a month name counts only beside a day number ("march 3", never "march in the
  parade"), a three-letter weekday only after "on", "by", "next" or "this" ("on sat", never
  "sun cream"), a bare number only after "at" ("at 9", never "call 911"), and quoted text
  is never read. False positives cost more than misses: a miss leaves the phrase in the title,
  where the user sees it; a false date silently moves a task;
- `parsedatetime` reads the weekday and month-day phrases found, and `dateutil`'s
  relativedelta does the calendar arithmetic of the rest (the 3rd, month ends, "in 2 weeks").

Everything is on the user's clock (`now` is their local time): "today" is their today.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

import parsedatetime
from dateutil.relativedelta import FR, SA, relativedelta

from backend.agent.rules.numbers import UNITS

_I = re.IGNORECASE
_CALENDAR = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)
# Its first reading builds its tables (~2 ms): done at import, not in a user's turn.
_CALENDAR.parseDT("friday", sourceTime=datetime(2026, 1, 1, 12))

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_FULL = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_WEEKDAY_SHORT = r"(?:mon|tues?|weds?|thurs?|thu|fri|sat|sun)"
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?"
)
_DAY_NUMBER = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_ORDINAL = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)"
# What may follow a number read as a date or an hour: the end, a stop, or more of the phrase.
_ENDS = (
    r"(?=\s*(?:$|[,;!?)]|[.:](?!\d)|o'?clock\b|to\s+(?:my|the|our)\b|(?:on|by|at|today|tonight|tomorrow|tmrw|this|next|and|"
    r"then|please|pls|sharp|every|actually|instead|rather|though|thanks|"
    r"in\s+(?:the\s+)?(?:morning|afternoon|evening)|" + _WEEKDAY_FULL + r")\b))"
)
_HOUR_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_COUNT = r"(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,3})"
_UNIT = r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|years?)"

# A day. Each alternative is its own named group; `_read_day` reads the one that matched.
_DAY = re.compile(
    r"(?<![\w'])(?:"
    r"(?P<after>(?:the\s+)?day\s+after\s+tomorrow)"
    r"|(?:later\s+)?(?P<relative>today|tonight|tomorrow|tmrw|tmr|tomorow|tommorow|tommorrow|"
    r"2morrow|2moro|2mrw|tmoro|tomoz|tmz)"
    # "tuesday week": the tuesday after next (British)
    r"|(?P<week_after>" + _WEEKDAY_FULL + r")\s+week(?![\w'])"
    r"|(?P<from_amount>" + _COUNT + r")\s+(?P<from_unit>days?|weeks?)\s+from\s+(?P<from>today|now|"
    r"tomorrow)"
    # "next friday", "on friday" with anything after; a bare "friday" only at the end of the
    # phrase ("call mom friday", "friday at 5"), never "wednesday addams costume"
    r"|(?:(?:next|this|coming|this\s+coming|on|by|for|before|until|till|due)\s+)"
    r"(?P<weekday>" + _WEEKDAY_FULL + r")"
    r"|(?P<bare_weekday>" + _WEEKDAY_FULL + r")(?=\s*(?:$|[,.;:!?)]|(?:at|by|@|morning|"
    r"afternoon|evening|night|noon|and|then|please|\d)\b|\d{1,2}(?::\d\d)?\s*[ap]\.?m\b))"
    r"|(?:on|by|next|this|till|until|before)\s+(?P<short>" + _WEEKDAY_SHORT + r")\.?"
    # "sat morning", "thurs at 3"; a short weekday that is no word ("thurs") also at the end
    r"|(?P<short_part>" + _WEEKDAY_SHORT + r")\.?(?=\s+(?:morning|afternoon|evening|night|at\b|@))"
    r"|(?P<short_end>thurs?|tues?|weds)\.?(?=\s*(?:$|[,.;:!?]))"
    r"|(?P<month_day>" + _MONTH + r"\s+" + _DAY_NUMBER + r"(?:,?\s+\d{4})?"
    r"|(?:the\s+)?" + _DAY_NUMBER + r"\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+\d{4})?)"
    # "on the 3rd" always; "the 3rd" only where no noun follows ("the 2nd draft" is no date)
    r"|on\s+(?:the\s+)?(?P<ordinal>" + _ORDINAL + r")(?!\s+(?:of\s+)?" + _MONTH + r")"
    r"(?:\s+of\s+(?:the|this)\s+month)?"
    r"|the\s+(?P<ordinal_only>" + _ORDINAL + r")(?:\s+of\s+(?:the|this)\s+month|" + _ENDS + r")"
    r"|in\s+(?P<amount>" + _COUNT + r")\s+(?P<unit>" + _UNIT + r")"
    r"|in\s+(?P<half>half\s+an\s+hour)"
    r"|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<end>day|week|month|year)|(?P<eod>eod|eow|eom)"
    r"|(?P<period>next\s+week|next\s+month|next\s+weekend|this\s+weekend"
    r"|(?:on|at|for|over)\s+the\s+weekend)(?!\s+[a-z])"
    r"|(?P<iso>\d{4}-\d{2}-\d{2})"
    r"|(?P<slashed>(?:[12]\d|3[01]|0?[1-9])/(?:[12]\d|3[01]|0?[1-9])(?:/(?:\d{4}|\d{2}))?)"
    r")(?![\w'/-])",
    _I,
)
# A time of day: "9am", "at 9", "at 10:30", "14:00", "noon", "in the evening".
_TIME = re.compile(
    r"(?<![\w'])(?:"
    r"(?:at\s+|@\s*)?(?P<hour>1[0-2]|0?[1-9]|" + _HOUR_WORD + r")(?:[:.](?P<minute>[0-5]\d))?\s*"
    r"(?P<half>[ap])\.?m\.?"
    # "half five" (British: half past five), "a quarter past two", "quarter to six"
    r"|(?:(?:at|by|around|about)\s+)?half\s+(?:past\s+)?(?P<half_past>1[0-2]|0?[1-9]|"
    + _HOUR_WORD
    + r")"
    + _ENDS
    + r"|(?:(?:at|by|around|about)\s+)?(?:a\s+)?quarter\s+(?P<quarter>past|after|to|til|till)\s+"
    r"(?P<quarter_hour>1[0-2]|0?[1-9]|"
    + _HOUR_WORD
    + r")"
    + _ENDS
    # "first thing" only beside a day or "in the morning": "1. first thing" is a title
    + r"|(?P<first_thing>(?<=tomorrow\s)first\s+thing|first\s+thing(?=\s+(?:in\s+the\s+"
    r"morning|tomorrow|tmrw|today|(?:on\s+|next\s+|this\s+)?(?:mon|tue|wed|thu|fri|sat|sun))))"
    r"(?:\s+in\s+the\s+morning)?"
    r"|(?:(?:at|by|before|until|around|about)\s+|@\s*)(?P<bare>[01]?\d|2[0-3]|" + _HOUR_WORD + r")"
    # "at three thirty", "at 8 in the evening" (the part is the time's: 20:00)
    r"(?::(?P<bare_minute>[0-5]\d)|\s+(?P<minute_word>fifteen|thirty|forty[- ]five))?"
    + _ENDS
    + r"(?:\s+in\s+the\s+(?:afternoon|evening)|\s+at\s+night)?"
    # "ten-ish", "around 10ish": the hour itself
    + r"|(?:(?:at|around|about)\s+)?(?P<ish>1[0-2]|0?[1-9]|"
    + _HOUR_WORD
    + r")\s*-?\s*ish"
    + r"|(?P<clock>(?:[01]?\d|2[0-3]):[0-5]\d)(?!\s*[ap]\.?m)"
    r"|(?:at\s+)?(?P<named>noon|midday|midnight)"
    r"|(?:in\s+the\s+|this\s+)(?P<part>morning|afternoon|evening)"
    r")(?![\w'])",
    _I,
)
# After a day, a part of it: "tomorrow morning", "friday evening", "tonight".
_PART_AFTER_DAY = re.compile(r"\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night)\b", _I)
_LATE = re.compile(r"\b(?:tonight|evening|night|afternoon)\b", _I)
_PART_TIMES = {"morning": 9, "afternoon": 15, "evening": 18, "night": 20, "tonight": 20}
# What joins a day and a time into one phrase ("tomorrow at 9", "9am, friday").
# "tomorrow morning, ten-ish" and "today. 5pm." too: the part of the day said between them
# is read with the time ("tomorrow evening at 7" is 19:00).
_JOINER = re.compile(
    r"^\s*(?:(?:in\s+the\s+)?(?:morning|afternoon|evening|night)\s*)?(?:[,.]\s*)?"
    r"(?:on\s+|at\s+|by\s+)?$",
    _I,
)
# Words that belong to the phrase when they lead it: "due friday", "by 5pm", "on the 3rd".
_LEAD = re.compile(
    r"(?:\b(?:due|by|on|for|before|until|till|starting|from)\s+(?:(?:on|by|the)\s+)?|"
    r"\b(?:due|by)\s+)$",
    _I,
)
_REPEATS = re.compile(r"\bevery\b|\beach\s+(?:day|week|month|morning|evening)\b|\bdaily\b", _I)
_CURLY_QUOTE = re.compile("[\u2018\u201c]")
_QUOTED = re.compile(r"(['\"]).*?\1|[‘“].*?[’”]")
# "a week", "two days", "at five": the number words of numbers.py, and "a"/"an" for one.
_WORD_COUNTS = {**UNITS, "a": 1, "an": 1}


@dataclass(frozen=True)
class DueSlot:
    """A due day (and time) said in a message, and where: the title drops `start:end`."""

    day: date
    clock: time | None
    start: int
    end: int
    # Set when the phrase could mean two things ("3/4"): ask rather than guess.
    unclear: str | None = None
    # Whether a day was said, or only a time ("at 5"): a correction keeps the day then.
    day_said: bool = True

    @property
    def argument(self) -> str:
        """The day (and time) as the tools take it, on the user's clock: "2026-11-25T09:00"."""
        clock = f"T{self.clock:%H:%M}" if self.clock else ""
        return f"{self.day.isoformat()}{clock}"

    def remove_from(self, text: str) -> str:
        """`text` without the phrase (and the comma or "and" it leaves dangling)."""
        cut = f"{text[: self.start].rstrip()} {text[self.end :].lstrip()}".strip()
        return re.sub(r"\s*[,;-]+\s*$|^\s*[,;-]+\s*", "", re.sub(r"\s{2,}", " ", cut)).strip()


class _Unclear(Exception):
    """A phrase found but not readable as one date ("feb 30", "3/4")."""


def masked_quotes(text: str, fill: str = " ") -> str:
    """Quoted text replaced by `fill` to the same length: never read, positions kept."""
    if "'" not in text and '"' not in text and not _CURLY_QUOTE.search(text):
        return text  # most messages quote nothing
    return _QUOTED.sub(lambda m: fill * len(m.group(0)), text)


def _next_weekday(name: str, today: date) -> date:
    """The next day called `name` after today ("friday" on a Friday is next week's), as
    parsedatetime reads a bare weekday."""
    full = next(day for day in _WEEKDAYS if day.startswith(name.lower()[:3]))
    found, _ = _CALENDAR.parseDT(full, sourceTime=datetime.combine(today, time(12)))
    day: date = found.date()
    while day <= today:
        day += timedelta(days=7)
    return day


def _month_day(phrase: str, today: date) -> date:
    """ "dec 3", "3rd of december", "march 3 2027": parsedatetime reads the month and day (a
    date already past this year is next year's); a day the month lacks is unclear."""
    words = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", phrase.lower().replace(".", ""))
    words = re.sub(r"\bsept\b", "sep", words)  # parsedatetime knows "sep" and "september"
    words = re.sub(r"^the\s+", "", re.sub(r"\s+of\s+", " ", words)).replace(",", "")
    found, context = _CALENDAR.parseDT(words, sourceTime=datetime.combine(today, time(12)))
    if not context.hasDate:
        raise _Unclear(phrase)
    day: date = found.date()
    if not re.search(r"\d{4}", words) and day < today:
        day = day.replace(year=day.year + 1)
    return day


def _day_of_month(number: int, today: date) -> date:
    """ "the 3rd": this month's if still ahead, else the next month that has that day."""
    for months in range(0, 13):
        first = today.replace(day=1) + relativedelta(months=months)
        try:
            day = first.replace(day=number)
        except ValueError:
            continue  # "the 31st" skips a 30-day month
        if day >= today:
            return day
    raise _Unclear(str(number))


def _slashed(phrase: str, today: date) -> date:
    """ "25/12" or "12/25": read only when just one way makes a date; "3/4" is unclear."""
    parts = [int(p) for p in phrase.split("/")]
    year = parts[2] + (2000 if parts[2] < 100 else 0) if len(parts) == 3 else None
    readings = set()
    for day_part, month_part in ((parts[0], parts[1]), (parts[1], parts[0])):
        try:
            readings.add(date(year or today.year, month_part, day_part))
        except ValueError:
            pass
    if len(readings) != 1:
        raise _Unclear(phrase)
    day = readings.pop()
    return day if year is not None or day >= today else day.replace(year=day.year + 1)


def _end_of(period: str, today: date) -> date:
    if period in ("day", "eod"):
        return today
    if period in ("week", "eow"):  # the working week's end: this Friday (or today's)
        return today + relativedelta(weekday=FR(0))
    if period in ("month", "eom"):
        return today + relativedelta(day=31)
    return date(today.year, 12, 31)


def _period(phrase: str, today: date) -> date:
    words = " ".join(phrase.lower().split())
    if words == "next week":
        return today + relativedelta(days=1, weekday=0)  # next Monday
    if words == "next month":
        return today.replace(day=1) + relativedelta(months=1)
    saturday = today + relativedelta(weekday=SA(0))
    return saturday + timedelta(days=7) if words == "next weekend" else saturday


def _read_day(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    """The day a `_DAY` match names (and the time "in 2 hours" or "tonight" gives)."""
    for group, reader in _DAY_READERS.items():
        if found[group]:
            return reader(found, now)
    return _slashed(found["slashed"], now.date()), None


def _day_after_tomorrow(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    return now.date() + timedelta(days=2), None


def _days_from(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    """ "3 days from now", "two weeks from tomorrow"."""
    start = now.date() + timedelta(days=1 if found["from"].lower() == "tomorrow" else 0)
    amount = _WORD_COUNTS.get(found["from_amount"].lower()) or int(found["from_amount"])
    weeks = found["from_unit"].lower().startswith("w")
    return start + timedelta(days=amount * (7 if weeks else 1)), None


def _relative_day(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    """ "today", "tonight" (evening's time), "tomorrow" however it is spelled."""
    today = now.date()
    word = found["relative"].lower()
    if word in ("today", "tonight"):
        return today, time(_PART_TIMES["tonight"]) if word == "tonight" else None
    return today + timedelta(days=1), None


def _weekday(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    named = found["weekday"] or found["bare_weekday"] or found["short"]
    named = named or found["short_part"] or found["short_end"]
    return _next_weekday(named, now.date()), None


def _weekday_week(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    return _next_weekday(found["week_after"], now.date()) + timedelta(days=7), None


def _on_month_day(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    return _month_day(found["month_day"], now.date()), None


def _ordinal_day(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    ordinal = found["ordinal"] or found["ordinal_only"]
    return _day_of_month(int(re.sub(r"\D", "", ordinal)), now.date()), None


def _end_of_said(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    return _end_of((found["end"] or found["eod"]).lower(), now.date()), None


def _period_said(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    return _period(found["period"], now.date()), None


def _iso_day(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    try:
        return date.fromisoformat(found["iso"]), None
    except ValueError:
        raise _Unclear(found["iso"]) from None


def _clock_after(now: datetime, delta: timedelta) -> tuple[date, time]:
    """The wall clock `delta` of real time from now: counted in UTC, so "in 2 hours" across
    a daylight-saving change is still two hours away."""
    moment = (now.astimezone(UTC) + delta).astimezone(now.tzinfo) if now.tzinfo else now + delta
    return moment.date(), time(moment.hour, moment.minute)


def _in_amount(found: re.Match[str], now: datetime) -> tuple[date, time | None]:
    """ "in 2 hours" is a time; "in 3 days", "in 2 weeks" a day."""
    if found["half"]:
        return _clock_after(now, timedelta(minutes=30))
    word = found["amount"].lower()
    amount = _WORD_COUNTS.get(word) or int(word)
    unit = found["unit"].lower()
    if unit.startswith(("min", "h")):
        minutes = amount if unit.startswith("min") else amount * 60
        return _clock_after(now, timedelta(minutes=minutes))
    steps = {
        "d": relativedelta(days=amount),
        "w": relativedelta(weeks=amount),
        "f": relativedelta(weeks=2 * amount),  # "in a fortnight"
        "m": relativedelta(months=amount),  # "in a month" from the 31st: the month's last day
        "y": relativedelta(years=amount),
    }
    return now.date() + steps[unit[0]], None


_DayReader = Callable[[re.Match[str], datetime], tuple[date, time | None]]
# Which reader reads a `_DAY` match, by the named group that matched (one alternative
# matches, so one of these or `slashed`).
_DAY_READERS: dict[str, _DayReader] = {
    "after": _day_after_tomorrow,
    "from_amount": _days_from,
    "relative": _relative_day,
    **dict.fromkeys(("weekday", "bare_weekday", "short", "short_part", "short_end"), _weekday),
    "week_after": _weekday_week,
    "month_day": _on_month_day,
    "ordinal": _ordinal_day,
    "ordinal_only": _ordinal_day,
    "amount": _in_amount,
    "half": _in_amount,
    "end": _end_of_said,
    "eod": _end_of_said,
    "period": _period_said,
    "iso": _iso_day,
}


def _hour(text: str) -> int:
    return _WORD_COUNTS[text.lower()] if text.isalpha() else int(text)


def _by_day(hour: int) -> int:
    """A bare hour as people mean it by day: 1-6 the afternoon, the rest as said."""
    return hour + 12 if 1 <= hour <= 6 else hour


def _read_time(found: re.Match[str]) -> time:
    """The clock time a `_TIME` match names. A bare hour ("at 9") is the one people mean
    by day: 7-11 the morning, 12 noon, 1-6 the afternoon; "at 14" or "at 20:30" as said."""
    if found["hour"]:
        hour = _hour(found["hour"]) % 12 + (12 if found["half"].lower() == "p" else 0)
        return time(hour, int(found["minute"] or 0))
    if found["bare"] is not None or found["clock"]:
        return _bare_or_clock(found)
    if found["ish"]:
        return time(_by_day(_hour(found["ish"])))
    if found["half_past"]:
        return time(_by_day(_hour(found["half_past"])), 30)
    if found["quarter"]:
        return _quarter_time(found)
    if found["first_thing"]:
        return time(_PART_TIMES["morning"])
    if found["named"]:
        return time(12) if found["named"].lower() in ("noon", "midday") else time(23, 59)
    return time(_PART_TIMES[found["part"].lower()])


_MINUTE_WORDS = {"fifte": 15, "thirt": 30, "forty": 45}


def _bare_or_clock(found: re.Match[str]) -> time:
    """ "at 9", "by 5:30", "14:00": a bare hour by day, a clock time as said."""
    hour_text, _, minute_text = (found["clock"] or "").partition(":")
    hour = _hour(found["bare"] if found["bare"] is not None else hour_text)
    minute = _MINUTE_WORDS.get((found["minute_word"] or "").lower()[:5]) or int(
        found["bare_minute"] or minute_text or 0
    )
    return time(_by_day(hour), minute)


def _quarter_time(found: re.Match[str]) -> time:
    """ "a quarter past two", "quarter to six"."""
    hour = _by_day(_hour(found["quarter_hour"]))
    if found["quarter"].lower() in ("past", "after"):
        return time(hour, 15)
    return time((hour - 1) % 24, 45)


def _with_lead(text: str, start: int) -> int:
    """Where the phrase starts once a leading "due", "by" or "on the" is counted in."""
    lead = _LEAD.search(text[:start])
    return lead.start() if lead else start


def find_due(text: str, now: datetime) -> DueSlot | None:
    """The due day and time said in `text` (outside quotes), read on the user's clock `now`;
    None if it says none. A time already past today, said without a day, is tomorrow's."""
    masked = masked_quotes(text)
    if _REPEATS.search(masked):
        return None  # "every friday", "the 30th of every month": a repeat, not one date
    day_match = next(_DAY.finditer(masked), None)
    time_match = _time_near(masked, day_match)
    if day_match is None and time_match is None:
        return None
    day, clock = now.date(), None
    if day_match is not None:
        try:
            day, clock = _read_day(day_match, now)
        except _Unclear as unclear:
            return DueSlot(day, None, day_match.start(), day_match.end(), str(unclear))
    spans = [m.span() for m in (day_match, time_match) if m is not None]
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    if day_match is not None:
        part = _PART_AFTER_DAY.match(masked, day_match.end())
        if part is not None:
            end = max(end, part.end())
            if time_match is None:
                clock = time(_PART_TIMES[part["part"].lower()])
    if time_match is not None:
        day, clock = _time_on(
            day, time_match, masked[start:end], now, day_said=day_match is not None
        )
    return DueSlot(day, clock, _with_lead(masked, start), end, day_said=day_match is not None)


def _time_on(
    day: date, found: re.Match[str], phrase: str, now: datetime, *, day_said: bool
) -> tuple[date, time]:
    """The day and the clock time a `_TIME` match names within `phrase`: later in the day
    when the phrase says so; a time already past today, said without a day, is tomorrow's."""
    clock = _read_time(found)
    if _LATE.search(phrase) and clock.hour < 12 and not found["half"]:
        clock = clock.replace(hour=clock.hour + 12)  # "tonight at 10" is 22:00
    if not day_said and datetime.combine(day, clock) <= now.replace(tzinfo=None):
        day += timedelta(days=1)
    return day, clock


def whole_due(text: str, now: datetime, *, any_weekday: bool = False) -> DueSlot | None:
    """A day or time that is all of `text` ("thursday", "tomorrow at 3", "at 8"), never part
    of a title; None if `text` says more, or the day is unclear. `any_weekday`: "friday the
    4th" is read whatever day the 4th is (for whether a day is said, not which)."""
    found = find_due(text, now)
    if found is None or found.unclear is not None or found.remove_from(text):
        spoken = _SPOKEN_ORDINAL.sub(lambda m: m["month"] + _ORDINAL_WORDS[m["n"].lower()], text)
        if spoken != text:  # "december second at two pm"
            return whole_due(spoken, now, any_weekday=any_weekday)
        return _weekday_and_date(text, now, any_weekday=any_weekday)
    return found


# A day of the month said in words, after its month: "december second".
_ORDINAL_WORDS = {
    w: f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"
    for n, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
        "twentieth".split(),
        start=1,
    )
}
_SPOKEN_ORDINAL = re.compile(rf"\b(?P<month>{_MONTH}\s+)(?P<n>{'|'.join(_ORDINAL_WORDS)})\b", _I)


# "friday the 4th", "Sunday, the 6th": a weekday said with its date.
_WEEKDAY_AND_DATE = re.compile(
    rf"^\s*(?:on\s+)?(?P<weekday>{_WEEKDAY_FULL}|{_WEEKDAY_SHORT})\.?,?\s+(?P<date>(?:the\s+)?"
    rf"{_ORDINAL}\b.*)$",
    _I,
)


def _weekday_and_date(text: str, now: datetime, *, any_weekday: bool) -> DueSlot | None:
    """The date a weekday and a date name together, when they agree (else none is read)."""
    said = _WEEKDAY_AND_DATE.match(text)
    if said is None:
        return None
    date_said = said["date"] if said["date"].lower().startswith("the") else f"the {said['date']}"
    found = whole_due(date_said, now)
    weekday = said["weekday"].lower()[:3]
    if found is None or (not any_weekday and _WEEKDAYS[found.day.weekday()][:3] != weekday):
        return None
    return DueSlot(found.day, found.clock, 0, len(text), day_said=True)


def _time_near(text: str, day_match: re.Match[str] | None) -> re.Match[str] | None:
    """The time said with the day: right after it or right before it ("9am friday",
    "friday at 9"); any time if no day was said."""
    times = list(_TIME.finditer(text))
    if day_match is None:
        return times[0] if times else None
    for found in times:
        between = (
            text[day_match.end() : found.start()]
            if found.start() >= day_match.end()
            else text[found.end() : day_match.start()]
        )
        if _JOINER.match(between):
            return found
    return None
