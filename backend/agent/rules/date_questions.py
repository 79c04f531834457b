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

# A date question is a clause that (a) asks, (b) names a period one of `ROWS` reads and (c)
# says nothing else but words about asking and tasks (`_TASK_WORDS`).
#
# (a) How it asks: an asking start (what / anything / do I have / show me / I'd like to see),
# or a fragment that narrows the last list: "due today?", "and sun?", "just today's", "and
# today. quick" (see `_FRAGMENT`).
_LEAD = r"^(?:(?:ok|okay|so|and|hey|hi|um+|uh+|right|also|oh|quick\s+question)\b[,.!]?\s+)*"
_ASKING = re.compile(
    _LEAD + r"(?:what(?:'s|s|\s+is|\s+are|'re)\s+(?:on|up|due|happening|planned|left|there|"
    r"coming|next|else|outstanding|pending|lined\s+up)"
    r"|what(?:'s|s|\s+is)\s+(?:my|the)\s+(?:to[- ]?do|todo|task)s?(?:\s+list)?\s+(?:for|on)"
    # "what's tomorrow look like", "whats tmrw", "what else is on friday", "what am i behind on"
    # ("what is today" asks the date: today is left to the rows that say more)
    r"|what(?:'s|s|\s+is|\s+does|\s+do)\s+(?=(?:tonight|tomorrow|tmrw|this|next|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)"
    r"|what\s+else\s+(?:is|do\s+i\s+have)|what\s+am\s+i"
    # "what do I have", "what I have tomorrow?", "what've I got", "wat do i hav", "what else
    # have I got": the words after "what" are left to (c).
    r"|(?:what|wat|wht|wot)(?:'ve|\s+else)?(?:\s+(?:do|did|have|hav|d))?\s+i(?:'ve|'m)?"
    r"|(?:is\s+there\s+)?anything|any\s+(?:tasks?|things?|stuff|jobs?|to-?dos?)"
    r"|are\s+there\s+any|do\s+i\s+have|have\s+i|am\s+i\s+(?:behind|late|on\s+track)"
    r"|did\s+i\s+miss|show(?:\s+me)?|list|read(?:\s+me)?|tell\s+me|give\s+me"
    r"|let\s+me\s+(?:see|know)|i(?:'d|\s+would)\s+like\s+to\s+(?:see|review|know)|can\s+i\s+see"
    r"|check|just|only|what\s+about|how\s+about"
    r"|(?:what|wat|wht|which)\s+(?:tasks|things|jobs|ones|to-?dos|stuff|items))\b",
    _I,
)
# A fragment asks when it ends with "?" or starts with "and" / "just" / "only" ("and sun?",
# "and today. quick"): every word before its period is then one of `_TASK_WORDS` too.
_FRAGMENT = re.compile(_LEAD.replace("and|", "") + r"(?:and|just|only)\b\W*|^", _I)
# (c) The words a date question may say besides its period: about asking, about tasks, and
# fillers and politeness ("is there anything due before thursday that I ought to be aware
# of?", "and what's on for tomorrow now", "what's left at this point, please").
_TASK_WORDS = frozenset(
    """
    a all and any anything are be do due else everything for got have i is it jobs just left s re
    list me my need of on only planned scheduled so stuff task tasks that the there things
    to to-do to-dos todo todos what what's whats what're which due? happening coming up going
    wat wht wot hav what've i've i'm i'd ve m d does did am was were has get gotta gonna
    something items item ones one in at by still yet already lined outstanding pending open
    remaining waiting got to-do's should ought must aware know about worry care attention
    now then again quick quickly actually exactly really right um uh oh hmm ok okay anyway
    please pls plz point moment minute time currently rn like or so also too as well
    see show tell give check review look remind with that's thats there's theres it's
    looks looking like kindly would could can you inclusive inclusively go else behind
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
    r"\b(?:calendar|events?|meetings?|appointments?|schedule|agenda|weather|forecast|"
    r"temperature|rain|snow|sunny|holiday|date\s+(?:is|today)|the\s+date|day\s+is\s+it|"
    r"day\s+of\s+the\s+week|time\s+is\s+it|what\s+time)\b",
    _I,
)
# About the assistant, when one is free ("am i free between two and four") or a day itself.
# A stretch between two hours reads as no period: only `ROWS`' "between two days" does.
_NOT_TASKS = re.compile(
    r"\b(?:your|(?<!can\s)(?<!could\s)(?<!would\s)you|what\s+day|free|busy|off\s+days?)\b", _I
)
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


def _day(said: str, now: datetime) -> date | None:
    """The day `said` names; a short weekday alone is read as "on sun" ("and sun?")."""
    due = find_due(said, now) or find_due(f"on {said}", now)
    if due is None or due.unclear is not None or not due.day_said:
        return None
    return due.day


def _day_said(found: re.Match[str], now: datetime) -> Filters | None:
    day = _day(found["day"], now)
    return None if day is None else _one_day(day, now.date())


def _between_days(found: re.Match[str], now: datetime) -> Filters | None:
    """Both days inclusive; "between now and friday" is from today."""
    first = now.date() if found["first"].lower() == "now" else _day(found["first"], now)
    last = _day(found["last"], now)
    if first is None or last is None or last < first:
        return None
    return _day_range(first, last)


def _before_day(found: re.Match[str], now: datetime) -> Filters | None:
    day = _day(found["day"], now)
    if day is None:
        return None
    inclusive = found["how"].lower() in ("by", "until", "till", "up to", "through")
    last = day if inclusive else day - timedelta(days=1)
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
            r"forgotten|forgot|slip\s+past\s+(?:its|their|the)\s+(?:due\s+)?dates?)\b",
            _I,
        ),
        lambda found, now: {"due": "overdue"},
        (
            "have I fallen behind?",
            "anything overdue",
            "what have I missed",
            "am I late on anything",
            "quick one, have I let anything slip past its date?",
        ),
        ("I'll be late tonight",),
        asks_alone=True,
    ),
    DateQuestionRow(
        "next",
        re.compile(
            r"\b(?:what'?s|what\s+is)\s+(?:next|coming(?:\s+up)?|up\s+next|ahead)\b|\bcoming\s+up\b"
            r"|\bupcoming\b|\b(?:(?:in\s+)?the\s+)?(?:next|coming)\s+(?:few|7|seven)\s+days\b"
            r"|\b(?:(?:in|over)\s+)?the\s+next\s+week(?:\s+or\s+so)?\b",
            _I,
        ),
        lambda found, now: {"due": "next_7_days"},
        (
            "what's next?",
            "anything coming up",
            "show me what's upcoming",
            "so what's coming up for me in the next week or so?",
            "what's due next 7 days",
            "I would like to review my tasks for the coming seven days.",
            "Could you show me what's due over the next week, please?",
        ),
        ("what's the next step", "anything coming up at the cinema"),
        asks_alone=True,
    ),
    DateQuestionRow(
        "between two days",
        re.compile(
            rf"\b(?:between|from)\s+(?P<first>now|{_DAY_WORDS})\s+(?:and|to|till|until|through)"
            rf"\s+(?P<last>{_DAY_WORDS})(?:,?\s+(?:inclusive(?:ly)?|including\s+(?:the\s+)?"
            rf"(?:{_DAY_WORDS})(?:\s+this\s+time)?))?\b",
            _I,
        ),
        _between_days,
        (
            "What've I got on between now and Friday?",
            "which tasks are due between Thursday and Saturday, inclusive?",
            "anything from tomorrow to sunday",
            "right so, what have I got between now and Friday, including Friday this time",
        ),
        (
            "am i free on sunday between two and four",
            "what's between friday and saturday night on tv",
            "move everything between monday and friday to next week",
        ),
    ),
    DateQuestionRow(
        "no date",
        re.compile(
            r"\b(?:no|without\s+(?:a|any))\s+(?:due\s+)?dates?(?:\s+on\s+(?:it|them))?\b"
            r"|\bundated\b",
            _I,
        ),
        lambda found, now: {"due": "no_date"},
        ("wat stuff have i got with no date on it", "any tasks without a due date?"),
        ("what's the date today", "no date yet for the party"),
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
    r"late|behind|miss|slip|catch|forg|next|coming|upcoming|ahead|date)"
    r"|\d(?:st|nd|rd|th)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)",
    _I,
)


def date_filters(clause: str, now: datetime) -> Filters | None:
    """The filters of the period `clause` asks about, or None if it asks about none. The
    question may come wrapped in a request ("can you tell me what's on friday") or after
    talk that asks for no change ("okay be honest with me, what's due this week?", "right so
    I'm behind on everything. what have I got before friday")."""
    if _SOME_PERIOD.search(clause) is None:
        return None
    found = _filters_of(clause, now)
    if found is not None or _CHANGE_WORDS.search(clause):
        return found
    for lead in _LEAD_PART.finditer(clause):
        question = clause[lead.end() :]
        if _SOME_PERIOD.search(question) is None:
            break
        found = _filters_of(question, now)
        if found is not None:
            return found
    return None


# Where talk before a question ends: a comma, a full stop, a colon or a dash.
_LEAD_PART = re.compile(r"[,.;:!?—-]\s+")


def _filters_of(clause: str, now: datetime) -> Filters | None:
    asked = _date_question(clause)
    if asked is None:
        return None
    text, asking, fragment = asked
    for row in ROWS:
        found = row.pattern.search(text)
        if found is None or (row.today_may_mean_now and _LIST_TODAY.search(text)):
            continue
        # Another job is told by the words besides the period ("no date on it" is no dating).
        if names_another_job(text[: found.start()] + " " + text[found.end() :]):
            return None
        # A fragment's words before its period are checked whatever its row.
        alone = row.asks_alone and not fragment
        if _only_task_words_around(text, asking, found, row.pattern, asks_alone=alone):
            return row.filters(found, now)
    return None


def _date_question(clause: str) -> tuple[str, re.Match[str], bool] | None:
    """(the question, how it starts, whether it is a fragment) when `clause` asks about
    tasks, not for a change, a finished task or another assistant's job; None otherwise."""
    text = clause.strip()
    if _ASKING.match(text) is None:
        text = core_request(text).strip()
    # Not asked outright: a fragment of its own words ("and today. quick", "due today?").
    fragment = _ASKING.match(text) is None and _is_fragment(clause.strip())
    text = clause.strip() if fragment else text
    asking = _FRAGMENT.match(text) if fragment else _ASKING.match(text)
    if asking is None or _CHANGE_WORDS.search(text) or _DONE_WORDS.search(text):
        return None
    if _ANOTHER_JOB.search(clause) or _NOT_TASKS.search(text):
        return None
    return text, asking, fragment


def _is_fragment(text: str) -> bool:
    found = _FRAGMENT.match(text)
    return text.endswith("?") or (found is not None and found.end() > 0)


def _words(text: str) -> list[str]:
    return re.findall(r"\w[\w'-]*", text.lower())


def _only_task_words_around(
    text: str,
    asking: re.Match[str],
    found: re.Match[str],
    period: re.Pattern[str],
    *,
    asks_alone: bool,
) -> bool:
    """Whether only words about tasks follow the period found (the period said again is
    allowed: "coming up in the next week or so") and, unless its row asks alone, lie between
    the way of asking and the period."""
    after = _words(period.sub(" ", text[found.end() :]))
    between = _words(text[asking.end() : found.start()])
    return all(word in _TASK_WORDS for word in after) and (
        asks_alone or all(word in _TASK_WORDS for word in between)
    )


def asks_about_a_period(clause: str, now: datetime) -> bool:
    return date_filters(clause, now) is not None
