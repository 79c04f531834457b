"""Questions about when: "what's on Thursday?", "anything for tomorrow?", "have I fallen
behind?", "what's next?", "anything due before Friday?", "just today's?".

In: a clause and the user's clock. Out: the `list_tasks` filters of the period asked about
(`due` for the tools' named periods, `due_from` / `due_to` for a day or a range), or None when
the clause asks no date question. Each way of asking is a row of `ROWS` with the examples it
must read and the ones it must leave alone; tests/agent/rules/test_date_questions.py runs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from backend.agent.rules.social import names_another_job
from backend.agent.rules.text import core_request
from backend.agent.rules.when import find_due

_I = re.IGNORECASE

Filters = dict[str, str]

# How a date question starts: asking (what / anything / do I have / am I), showing (show /
# list / read), or a fragment that narrows the last list ("just today's?", "and friday?").
_ASKING = re.compile(
    r"^(?:(?:ok|okay|so|and|hey|hi|um+|uh+|right|also|oh|quick question)\b[,.!]?\s+)*"
    r"(?:what(?:'s|s|\s+is|\s+are)\s+(?:on|up|due|happening|planned|left|there|coming|next)"
    r"|what(?:'s|s|\s+is)\s+(?:my|the)\s+(?:to[- ]?do|todo|task)s?(?:\s+list)?\s+(?:for|on)"
    r"|what\s+(?:do|have|did)\s+i\s+(?:have|got|need|missed|miss)|what\s+have\s+i\s+got"
    r"|(?:is\s+there\s+)?anything|any\s+(?:tasks?|things?|stuff|jobs?|to-?dos?)"
    r"|are\s+there\s+any|do\s+i\s+have|have\s+i|am\s+i\s+(?:behind|late|on\s+track)"
    r"|did\s+i\s+miss|show(?:\s+me)?|list|read(?:\s+me)?|tell\s+me\s+what|give\s+me"
    r"|check|just|only|what\s+about|how\s+about"
    r"|(?:what|which)\s+(?:tasks|things|jobs|ones|to-?dos|stuff))\b",
    _I,
)
# Between the way of asking and the period, only words about tasks: "do i have anything to do
# on monday", never "do i have any get togethers this week" or "tell me what day today is".
_TASK_WORDS = frozenset(
    """
    a all and any anything are be do due else everything for got have i is it jobs just left s re
    list me my need of on only planned scheduled so stuff task tasks that the there things
    to to-do to-dos todo todos what what's whats what're which due? happening coming up going
    """.split()
)
# "today" said of the list itself means now: "what's on my to-do list today" is the list.
_LIST_TODAY = re.compile(
    r"\b(?:list|to[- ]?do|todo)\b.*\btoday\b|\btoday'?s?\s+(?:list|to[- ]?do)", _I
)
# A change asked for names its task: never a question about a period.
_CHANGE_WORDS = re.compile(
    r"\b(?:add|put|remind\s+me\s+to|move|push|reschedule|delete|remove|mark|tick|complete|"
    r"rename|change|set)\b",
    _I,
)
# A calendar's, a clock's or the weather's question is another assistant's job ("what's on my
# calendar friday", "what day is it", "the weekend forecast").
_ANOTHER_JOB = re.compile(
    r"\b(?:calendar|events?|meetings?|appointments?|scheduled?|agenda|weather|forecast|"
    r"temperature|rain|snow|sunny|holiday|date\s+(?:is|today)|the\s+date|day\s+is\s+it|"
    r"day\s+of\s+the\s+week|time\s+is\s+it|what\s+time)\b",
    _I,
)
# About the assistant, a stretch of hours (when one is free) or a day itself.
_NOT_TASKS = re.compile(r"\b(?:your|you|between\b.+\band|what\s+day|free|busy|off\s+days?)\b", _I)
# What was done on a day is no question about what is due then.
_DONE_WORDS = re.compile(r"\b(?:finish(?:ed)?|done|complete[d]?|did\s+i\s+do)\b", _I)


@dataclass(frozen=True)
class DateQuestionRow:
    """One way of asking about a period: its pattern, the filters it gives (from the match
    and today), and its examples and not-examples (tests)."""

    name: str
    pattern: re.Pattern[str]
    filters: Callable[[re.Match[str], datetime], Filters | None]
    examples: tuple[str, ...]
    not_examples: tuple[str, ...] = ()
    # Its own words ask about tasks ("have I fallen behind"): any words may come before them.
    asks_alone: bool = False
    # "today" may mean now when it is said of the list itself ("my to-do list today").
    today_may_mean_now: bool = False


def _day_range(first: date, last: date) -> Filters:
    return {"due_from": first.isoformat(), "due_to": last.isoformat()}


def _one_day(day: date, today: date) -> Filters:
    if day == today:
        return {"due": "today"}
    if day == today + timedelta(days=1):
        return {"due": "tomorrow"}
    return _day_range(day, day)


def _day_said(found: re.Match[str], now: datetime) -> Filters | None:
    due = find_due(found["day"], now)
    if due is None or due.unclear is not None or not due.day_said:
        return None
    return _one_day(due.day, now.date())


def _before_day(found: re.Match[str], now: datetime) -> Filters | None:
    due = find_due(found["day"], now)
    if due is None or due.unclear is not None or not due.day_said:
        return None
    inclusive = found["how"].lower() in ("by", "until", "till", "up to", "through")
    last = due.day if inclusive else due.day - timedelta(days=1)
    return _day_range(now.date(), last) if last >= now.date() else None


def _week(found: re.Match[str], now: datetime) -> Filters:
    today = now.date()
    monday = today - timedelta(days=today.weekday())
    which = found["which"].lower()
    if "next" in which:
        return _day_range(monday + timedelta(days=7), monday + timedelta(days=13))
    if "weekend" in found.group(0).lower():
        saturday = monday + timedelta(days=5)
        return _day_range(max(saturday, today), saturday + timedelta(days=1))
    return {"due": "this_week"}


def _month(found: re.Match[str], now: datetime) -> Filters:
    today = now.date()
    first_of_next = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
    return _day_range(today, first_of_next - timedelta(days=1))


_DAY_WORDS = (
    r"(?:today|tonight|tomorrow|tmrw|tmr|2morrow|the\s+day\s+after\s+tomorrow|"
    r"(?:this\s+|next\s+|on\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)"
    r"(?:day)?|the\s+\d{1,2}(?:st|nd|rd|th)(?:\s+of\s+\w+|(?!\s+[a-z]))|"
    r"\d{1,2}(?:st|nd|rd|th)\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)\w*\s+\d{1,2}(?:st|nd|rd|th)?)"
)

ROWS: tuple[DateQuestionRow, ...] = (
    DateQuestionRow(
        "overdue",
        re.compile(
            r"\b(?:overdue|past\s+due|late|behind|missed|slipped|slipping|catch(?:\s+|-)up|"
            r"forgotten|forgot)\b",
            _I,
        ),
        lambda found, now: {"due": "overdue"},
        (
            "have I fallen behind?",
            "anything overdue",
            "what have I missed",
            "am I late on anything",
        ),
        ("I'll be late tonight",),
        asks_alone=True,
    ),
    DateQuestionRow(
        "next",
        re.compile(
            r"\b(?:what'?s|what\s+is)\s+(?:next|coming(?:\s+up)?|up\s+next|ahead)\b|\bcoming\s+up\b"
            r"|\bupcoming\b|\bthe\s+next\s+(?:few|7|seven)\s+days\b",
            _I,
        ),
        lambda found, now: {"due": "next_7_days"},
        ("what's next?", "anything coming up", "show me what's upcoming"),
        asks_alone=True,
    ),
    DateQuestionRow(
        "before a day",
        re.compile(
            rf"\b(?P<how>before|by|until|till|up\s+to|through)\s+(?P<day>{_DAY_WORDS})\b", _I
        ),
        _before_day,
        ("anything due before friday?", "what do I have to do by thursday"),
    ),
    DateQuestionRow(
        "a week",
        re.compile(r"\b(?P<which>this|next|the)\s+(?:week(?:end)?)\b", _I),
        _week,
        ("what's on this week?", "anything next week", "what have I got on the weekend"),
    ),
    DateQuestionRow(
        "the month",
        re.compile(r"\b(?:this|the\s+rest\s+of\s+the|rest\s+of\s+the)\s+month\b", _I),
        _month,
        ("what's due this month", "anything for the rest of the month"),
    ),
    DateQuestionRow(
        "a day",
        re.compile(rf"(?<![\w'])(?P<day>{_DAY_WORDS})(?:'s)?\b", _I),
        _day_said,
        (
            "anything for tomorrow?",
            "what's happening thursday",
            "what's on Friday?",
            "just today's?",
            "what do I have on the 3rd",
        ),
        ("what did I finish today",),
        today_may_mean_now=True,
    ),
)


# A first look: a message naming no period at all asks about none (most messages).
_SOME_PERIOD = re.compile(
    r"\b(?:today|tonight|tomorrow|tmr|2mor|mon|tue|wed|thu|fri|sat|sun|week|month|overdue|"
    r"late|behind|miss|slip|catch|forg|next|coming|upcoming|ahead)"
    r"|\d(?:st|nd|rd|th)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)",
    _I,
)


def date_filters(clause: str, now: datetime) -> Filters | None:
    """The filters of the period `clause` asks about, or None if it asks about none. The
    question may come wrapped in a request ("can you tell me what's on friday")."""
    if _SOME_PERIOD.search(clause) is None:
        return None
    asked = _date_question(clause)
    if asked is None:
        return None
    text, asking = asked
    for row in ROWS:
        found = row.pattern.search(text)
        if found is None or (row.today_may_mean_now and _LIST_TODAY.search(text)):
            continue
        if _only_task_words_around(text, asking, found, asks_alone=row.asks_alone):
            return row.filters(found, now)
    return None


def _date_question(clause: str) -> tuple[str, re.Match[str]] | None:
    """(the question, how it starts) when `clause` asks about tasks, not for a change, a
    finished task or another assistant's job; None otherwise."""
    text = clause.strip()
    if _ASKING.match(text) is None:
        text = core_request(text).strip()
    asking = _ASKING.match(text)
    if asking is None or _CHANGE_WORDS.search(text) or _DONE_WORDS.search(text):
        return None
    if _ANOTHER_JOB.search(clause) or names_another_job(clause) or _NOT_TASKS.search(text):
        return None
    return text, asking


def _only_task_words_around(
    text: str, asking: re.Match[str], found: re.Match[str], *, asks_alone: bool
) -> bool:
    """Whether only words about tasks follow the period found and, unless its row asks
    alone, lie between the way of asking and the period."""
    between = re.findall(r"\w[\w'-]*", text[asking.end() : found.start()].lower())
    after = re.findall(r"\w[\w'-]*", text[found.end() :].lower())
    return all(word in _TASK_WORDS for word in after) and (
        asks_alone or all(word in _TASK_WORDS for word in between)
    )


def asks_about_a_period(clause: str, now: datetime) -> bool:
    return date_filters(clause, now) is not None
