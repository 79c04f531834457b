"""The golden phrases of an add's fields: over 200 ways people say when, which list, how
important and which tags, each with the slots it must fill (backend/agent/rules/task_fields.py).

Each date phrase runs for a user in Pacific/Kiritimati (UTC+14), Pacific/Honolulu (UTC-10)
and Europe/London, at 23:30 local and just after midnight, on ordinary days, on both London
daylight-saving nights, at month ends, the year's end and around the leap day. What a phrase
means is stated from the user's local "now" (`expect`), so every moment checks it afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from dateutil.relativedelta import relativedelta

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.task_fields import take_fields

Expect = Callable[[datetime], tuple[date, time | None]]

ZONES = ("Pacific/Kiritimati", "Pacific/Honolulu", "Europe/London")
# Local wall-clock moments: 23:30 and 00:10 on days that test something.
LOCAL_MOMENTS = [
    datetime(2026, 11, 24, 23, 30),  # an ordinary Tuesday night
    datetime(2026, 11, 25, 0, 10),  # just after midnight: Wednesday now
    datetime(2026, 3, 28, 23, 30),  # the night London springs forward
    datetime(2026, 3, 29, 0, 10),
    datetime(2026, 10, 24, 23, 30),  # the night London falls back
    datetime(2026, 10, 25, 0, 10),
    datetime(2026, 1, 31, 23, 30),  # a month's end
    datetime(2026, 12, 31, 23, 30),  # the year's end
    datetime(2028, 2, 28, 23, 30),  # before the leap day
    datetime(2028, 2, 29, 0, 10),  # on it
]


def _in(days: int, clock: time | None = None) -> Expect:
    return lambda now: (now.date() + timedelta(days=days), clock)


def _next_weekday(weekday: int, clock: time | None = None) -> Expect:
    """The next day of that weekday after today (a bare weekday never means today)."""

    def expect(now: datetime) -> tuple[date, time | None]:
        ahead = (weekday - now.weekday() - 1) % 7 + 1
        return now.date() + timedelta(days=ahead), clock

    return expect


def _at(clock: time) -> Expect:
    """A time with no day: today's if still ahead, else tomorrow's."""

    def expect(now: datetime) -> tuple[date, time | None]:
        today = now.date()
        return (today if clock > now.time() else today + timedelta(days=1)), clock

    return expect


def _after(minutes: int) -> Expect:
    """Real minutes from now (counted in UTC, so DST nights keep the length)."""

    def expect(now: datetime) -> tuple[date, time | None]:
        moment = (now.astimezone(UTC) + timedelta(minutes=minutes)).astimezone(now.tzinfo)
        return moment.date(), time(moment.hour, moment.minute)

    return expect


def _month_end(now: datetime) -> tuple[date, time | None]:
    return now.date() + relativedelta(day=31), None


def _months(count: int) -> Expect:
    return lambda now: (now.date() + relativedelta(months=count), None)


def _day_of_month(day: int) -> Expect:
    def expect(now: datetime) -> tuple[date, time | None]:
        first = now.date().replace(day=1)
        for months in range(13):
            try:
                candidate = (first + relativedelta(months=months)).replace(day=day)
            except ValueError:
                continue
            if candidate >= now.date():
                return candidate, None
        raise AssertionError(day)

    return expect


def _next_month_start(now: datetime) -> tuple[date, time | None]:
    return now.date().replace(day=1) + relativedelta(months=1), None


def _coming_saturday(now: datetime) -> tuple[date, time | None]:
    return now.date() + timedelta(days=(5 - now.weekday()) % 7), None


def _on(month: int, day: int) -> Expect:
    """A month-day: this year's, or next year's once it has passed."""

    def expect(now: datetime) -> tuple[date, time | None]:
        this_year = date(now.year, month, day)
        return (this_year if this_year >= now.date() else date(now.year + 1, month, day)), None

    return expect


NINE, THREE_PM, FIVE_PM = time(9), time(15), time(17)
DATE_PHRASES: list[tuple[str, str, Expect]] = [
    ("pay rent tomorrow", "pay rent", _in(1)),
    ("pay rent tomorrow at 9", "pay rent", _in(1, NINE)),
    ("pay rent tomorrow at 9am", "pay rent", _in(1, NINE)),
    ("pay rent tomorrow at 9 am", "pay rent", _in(1, NINE)),
    ("pay rent tomorrow at 9:00", "pay rent", _in(1, NINE)),
    ("pay rent at 9am tomorrow", "pay rent", _in(1, NINE)),
    ("pay rent tomorrow 9am", "pay rent", _in(1, NINE)),
    ("pay rent tomorrow morning", "pay rent", _in(1, NINE)),
    ("pay rent tomorrow afternoon", "pay rent", _in(1, time(15))),
    ("pay rent tomorrow evening", "pay rent", _in(1, time(18))),
    ("pay rent tomorrow night", "pay rent", _in(1, time(20))),
    ("pay rent tmrw", "pay rent", _in(1)),
    ("pay rent tomorow", "pay rent", _in(1)),
    ("pay rent tommorow", "pay rent", _in(1)),
    ("pay rent by tomorrow", "pay rent", _in(1)),
    ("pay rent due tomorrow", "pay rent", _in(1)),
    ("pay rent the day after tomorrow", "pay rent", _in(2)),
    ("pay rent day after tomorrow", "pay rent", _in(2)),
    ("pay rent today", "pay rent", _in(0)),
    ("pay rent later today", "pay rent", _in(0)),
    ("pay rent by today", "pay rent", _in(0)),
    ("pay rent tonight", "pay rent", _in(0, time(20))),
    ("pay rent tonight at 10", "pay rent", _in(0, time(22))),
    ("pay rent tonight at 9pm", "pay rent", _in(0, time(21))),
    ("pay rent in 2 days", "pay rent", _in(2)),
    ("pay rent in two days", "pay rent", _in(2)),
    ("pay rent in a day", "pay rent", _in(1)),
    ("pay rent in 10 days", "pay rent", _in(10)),
    ("pay rent in a week", "pay rent", _in(7)),
    ("pay rent in 2 weeks", "pay rent", _in(14)),
    ("pay rent in three weeks", "pay rent", _in(21)),
    ("pay rent in a month", "pay rent", _months(1)),
    ("pay rent in 2 months", "pay rent", _months(2)),
    ("pay rent a week from today", "pay rent", _in(7)),
    ("pay rent two weeks from today", "pay rent", _in(14)),
    ("pay rent 3 days from now", "pay rent", _in(3)),
    ("pay rent a week from tomorrow", "pay rent", _in(8)),
    ("check oven in 2 hours", "check oven", _after(120)),
    ("check oven in an hour", "check oven", _after(60)),
    ("check oven in a hour", "check oven", _after(60)),
    ("check oven in one hour", "check oven", _after(60)),
    ("check oven in 3 hrs", "check oven", _after(180)),
    ("check oven in 45 minutes", "check oven", _after(45)),
    ("check oven in 10 mins", "check oven", _after(10)),
    ("check oven in ten minutes", "check oven", _after(10)),
    ("check oven in half an hour", "check oven", _after(30)),
    ("call mom on monday", "call mom", _next_weekday(0)),
    ("call mom monday", "call mom", _next_weekday(0)),
    ("call mom next monday", "call mom", _next_weekday(0)),
    ("call mom this monday", "call mom", _next_weekday(0)),
    ("call mom on mon", "call mom", _next_weekday(0)),
    ("call mom by tuesday", "call mom", _next_weekday(1)),
    ("call mom on tues", "call mom", _next_weekday(1)),
    ("call mom wednesday", "call mom", _next_weekday(2)),
    ("call mom on wed", "call mom", _next_weekday(2)),
    ("call mom thursday", "call mom", _next_weekday(3)),
    ("call mom on thurs", "call mom", _next_weekday(3)),
    ("call mom by thu", "call mom", _next_weekday(3)),
    ("call mom friday", "call mom", _next_weekday(4)),
    ("call mom by fri", "call mom", _next_weekday(4)),
    ("call mom this coming friday", "call mom", _next_weekday(4)),
    ("call mom saturday", "call mom", _next_weekday(5)),
    ("call mom on sat", "call mom", _next_weekday(5)),
    ("call mom sunday", "call mom", _next_weekday(6)),
    ("call mom on sun", "call mom", _next_weekday(6)),
    ("call mom before friday", "call mom", _next_weekday(4)),
    ("call mom until friday", "call mom", _next_weekday(4)),
    ("call mom friday at 5pm", "call mom", _next_weekday(4, FIVE_PM)),
    ("call mom friday at 5", "call mom", _next_weekday(4, FIVE_PM)),
    ("call mom on friday at 3:30pm", "call mom", _next_weekday(4, time(15, 30))),
    ("call mom 9am friday", "call mom", _next_weekday(4, NINE)),
    ("call mom friday morning", "call mom", _next_weekday(4, NINE)),
    ("call mom friday afternoon", "call mom", _next_weekday(4, THREE_PM)),
    ("call mom friday evening", "call mom", _next_weekday(4, time(18))),
    ("call mom next tuesday evening", "call mom", _next_weekday(1, time(18))),
    ("call mom on monday at noon", "call mom", _next_weekday(0, time(12))),
    ("call mom on sunday at 10:30", "call mom", _next_weekday(6, time(10, 30))),
    ("call mom on saturday at eight am", "call mom", _next_weekday(5, time(8))),
    ("call mom on saturday at two pm", "call mom", _next_weekday(5, time(14))),
    ("water plants at 9am", "water plants", _at(NINE)),
    ("water plants at 9 pm", "water plants", _at(time(21))),
    ("water plants at 5pm", "water plants", _at(FIVE_PM)),
    ("water plants at 5:45pm", "water plants", _at(time(17, 45))),
    ("water plants at 17:45", "water plants", _at(time(17, 45))),
    ("water plants at 7", "water plants", _at(time(7))),
    ("water plants at 11", "water plants", _at(time(11))),
    ("water plants at 12", "water plants", _at(time(12))),
    ("water plants at 3", "water plants", _at(THREE_PM)),
    ("water plants at 6", "water plants", _at(time(18))),
    ("water plants at 20", "water plants", _at(time(20))),
    ("water plants at noon", "water plants", _at(time(12))),
    ("water plants at midday", "water plants", _at(time(12))),
    ("water plants by noon", "water plants", _at(time(12))),
    ("water plants at midnight", "water plants", _at(time(23, 59))),
    ("water plants 14:00", "water plants", _at(time(14))),
    ("water plants @ 4pm", "water plants", _at(time(16))),
    ("water plants by 5pm", "water plants", _at(FIVE_PM)),
    ("water plants before 8", "water plants", _at(time(8))),
    ("water plants around 4", "water plants", _at(time(16))),
    ("water plants at nine am", "water plants", _at(NINE)),
    ("water plants at eight", "water plants", _at(time(8))),
    ("water plants at five", "water plants", _at(FIVE_PM)),
    ("water plants at 7 a.m.", "water plants", _at(time(7))),
    ("water plants at 4 p.m.", "water plants", _at(time(16))),
    ("water plants in the morning", "water plants", _at(NINE)),
    ("water plants in the afternoon", "water plants", _at(THREE_PM)),
    ("water plants in the evening", "water plants", _at(time(18))),
    ("water plants this evening", "water plants", _at(time(18))),
    ("water plants this afternoon", "water plants", _at(THREE_PM)),
    ("bills on the 1st", "bills", _day_of_month(1)),
    ("bills on the 3rd", "bills", _day_of_month(3)),
    ("bills by the 15th", "bills", _day_of_month(15)),
    ("bills on the 28th", "bills", _day_of_month(28)),
    ("bills on the 29th", "bills", _day_of_month(29)),
    ("bills on the 30th", "bills", _day_of_month(30)),
    ("bills on the 31st", "bills", _day_of_month(31)),
    ("bills the 22nd", "bills", _day_of_month(22)),
    ("bills due the 10th", "bills", _day_of_month(10)),
    ("bills on the 5th of this month", "bills", _day_of_month(5)),
    ("invoice end of the month", "invoice", _month_end),
    ("invoice by the end of the month", "invoice", _month_end),
    ("invoice by end of month", "invoice", _month_end),
    ("invoice eom", "invoice", _month_end),
    ("invoice by the end of the day", "invoice", _in(0)),
    ("invoice eod", "invoice", _in(0)),
    ("invoice next month", "invoice", _next_month_start),
    ("bins this weekend", "bins", _coming_saturday),
    ("bins on the weekend", "bins", _coming_saturday),
    ("bins over the weekend", "bins", _coming_saturday),
    ("bins next weekend", "bins", lambda now: (_coming_saturday(now)[0] + timedelta(days=7), None)),
    ("flights on 3 december", "flights", _on(12, 3)),
    ("flights dec 3", "flights", _on(12, 3)),
    ("flights on december 3rd", "flights", _on(12, 3)),
    ("flights on the 3rd of december", "flights", _on(12, 3)),
    ("flights jan 5", "flights", _on(1, 5)),
    ("flights on 5 january", "flights", _on(1, 5)),
    ("flights on march 3", "flights", _on(3, 3)),
    ("flights on may 1st", "flights", _on(5, 1)),
    ("flights on the 14th of february", "flights", _on(2, 14)),
    ("flights sept 9", "flights", _on(9, 9)),
    ("flights on aug. 20", "flights", _on(8, 20)),
    ("flights on 25/12", "flights", _on(12, 25)),
    ("flights on 12/25", "flights", _on(12, 25)),
    ("flights on 2030-06-01", "flights", lambda now: (date(2030, 6, 1), None)),
    ("flights on 1 june 2030", "flights", lambda now: (date(2030, 6, 1), None)),
    ("flights on june 1, 2030", "flights", lambda now: (date(2030, 6, 1), None)),
]


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("local", LOCAL_MOMENTS, ids=lambda m: m.strftime("%Y-%m-%dT%H:%M"))
def test_every_date_phrase_means_its_day_and_time_in_every_zone_and_moment(
    zone: str, local: datetime
) -> None:
    now_utc = local.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)
    now = ConversationContext(zone=zone, now=now_utc).local_now()
    wrong = []
    for said, title, expect in DATE_PHRASES:
        fields, rest = take_fields(said, now)
        got = (fields.due.day, fields.due.clock) if fields.due else None
        if got != expect(now) or rest != title:
            wrong.append(f"{said!r}: got {got} {rest!r}, want {expect(now)} {title!r}")
    assert not wrong, "\n".join(wrong)


def test_the_golden_suite_holds_over_two_hundred_phrasings() -> None:
    assert len(DATE_PHRASES) + len(FIELD_PHRASES) + len(NEVER_FIELDS) >= 200


# Lists, priorities and tags: (said, title left, list, priority, tags).
FIELD_PHRASES: list[tuple[str, str, str | None, str | None, tuple[str, ...]]] = [
    ("milk to my shopping list", "milk", "Shopping", None, ()),
    ("milk on the shopping list", "milk", "Shopping", None, ()),
    ("milk onto my grocery list", "milk", "Shopping", None, ()),
    ("milk to my groceries list", "milk", "Shopping", None, ()),
    ("milk to our shopping list", "milk", "Shopping", None, ()),
    ("nails to my hardware list", "nails", "Hardware", None, ()),
    ("nails on the hardware list", "nails", "Hardware", None, ()),
    ("report to my work list", "report", "Work", None, ()),
    ("report in my Work list", "report", "Work", None, ()),
    ("tent to my camping trip list", "tent", "Camping trip", None, ()),
    ("milk to my list", "milk to my list", None, None, ()),
    ("milk to my to do list", "milk to my to do list", None, None, ()),
    ("milk to my to-do list", "milk to my to-do list", None, None, ()),
    ("milk to my todo list", "milk to my todo list", None, None, ()),
    ("milk to my task list", "milk to my task list", None, None, ()),
    ("urgent: call the bank", "call the bank", None, "high", ()),
    ("URGENT - call the bank", "call the bank", None, "high", ()),
    ("important: call the bank", "call the bank", None, "high", ()),
    ("asap: call the bank", "call the bank", None, "high", ()),
    ("call the bank, it's urgent", "call the bank", None, "high", ()),
    ("call the bank, urgent", "call the bank", None, "high", ()),
    ("call the bank - very important", "call the bank", None, "high", ()),
    ("call the bank asap", "call the bank", None, "high", ()),
    ("call the bank urgently", "call the bank", None, "high", ()),
    ("call the bank (high priority)", "call the bank", None, "high", ()),
    ("call the bank high priority", "call the bank", None, "high", ()),
    ("call the bank as top priority", "call the bank", None, "high", ()),
    ("call the bank with low priority", "call the bank", None, "low", ()),
    ("call the bank, low priority", "call the bank", None, "low", ()),
    ("call the bank medium priority", "call the bank", None, "medium", ()),
    ("call the bank priority: high", "call the bank", None, "high", ()),
    ("call the bank priority low", "call the bank", None, "low", ()),
    ("call the bank #money", "call the bank", None, None, ("money",)),
    ("#money call the bank", "call the bank", None, None, ("money",)),
    ("call the bank #money #Home", "call the bank", None, None, ("money", "home")),
    ("call the bank #money #money", "call the bank", None, None, ("money",)),
    ("call the bank #work-stuff", "call the bank", None, None, ("work-stuff",)),
    ("urgent: nails to my hardware list #diy", "nails", "Hardware", "high", ("diy",)),
    ("milk to my shopping list, low priority", "milk", "Shopping", "low", ()),
    # a quoted title stays whole beside the fields said after it
    ("'book the Christmas do' to the work list", "'book the Christmas do'", "Work", None, ()),
    ('"call bob" #work', '"call bob"', None, None, ("work",)),
]


@pytest.mark.parametrize(
    ("said", "title", "list_name", "priority", "tags"),
    FIELD_PHRASES,
    ids=[p[0] for p in FIELD_PHRASES],
)
def test_a_list_priority_or_tag_phrase_fills_its_slot(
    said: str, title: str, list_name: str | None, priority: str | None, tags: tuple[str, ...]
) -> None:
    fields, rest = take_fields(said, datetime(2026, 11, 24, 12, tzinfo=UTC))
    assert (rest, fields.list_name, fields.priority, fields.tags) == (
        title,
        list_name,
        priority,
        tags,
    )
    assert fields.due is None


# Titles that only look like they carry fields: nothing is taken from them.
NEVER_FIELDS = [
    "call mark about the car",
    "buy a monitor",
    "march in the parade",
    "i may go to the gym",
    "buy sun cream",
    "sat nav update",
    "second hand shop",
    "2nd draft of essay",
    "the 3rd draft of the novel",
    "read chapter 5",
    "buy 2 apples",
    "call 911",
    "buy one apple",
    "mon ami pierre",
    "fix the wed pipe",
    "august rush dvd",
    "wednesday addams costume",
    "buy 3 eggs at 2 for 1",
    "'call Mark on Monday'",
    '"pay rent tomorrow at 9"',
    "'urgent: call the bank'",
    "'#work' sticker",
    "send important email to boss",
    "book a room for 2",
    "task #3 follow up",
    "read the may issue of the magazine",
    "watch the times review",
    "buy a daily planner",
    "'every friday' sticker",
]


@pytest.mark.parametrize("said", NEVER_FIELDS)
def test_a_title_that_only_looks_like_it_has_fields_keeps_every_word(said: str) -> None:
    fields, rest = take_fields(said, datetime(2026, 11, 24, 12, tzinfo=UTC))
    assert not fields, fields
    assert rest == said


# Repeats in an add (issue 15): (said, title left, rule, from completion).
REPEAT_PHRASES = [
    ("go to the store every friday", "go to the store", "FREQ=WEEKLY;BYDAY=FR", False),
    (
        "pay rent on the 30th of every month",
        "pay rent",
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1",
        False,
    ),
    ("water the plants daily", "water the plants", "FREQ=DAILY", False),
    ("pay rent every 1st", "pay rent", "FREQ=MONTHLY;BYMONTHDAY=1", False),
    ("bins every other tuesday", "bins", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", False),
    ("water the fern 3 days after I finish it", "water the fern", "FREQ=DAILY;INTERVAL=3", True),
]


@pytest.mark.parametrize(("said", "title", "rule", "from_completion"), REPEAT_PHRASES)
def test_a_repeat_in_an_add_is_its_own_slot(
    said: str, title: str, rule: str, from_completion: bool
) -> None:
    fields, rest = take_fields(said, datetime(2026, 11, 24, 12, tzinfo=UTC))
    assert fields.repeat is not None
    assert (rest, fields.repeat.rule, fields.repeat.from_completion) == (
        title,
        rule,
        from_completion,
    )


def test_a_repeat_with_a_time_starts_on_its_first_day_still_ahead() -> None:
    # Tuesday 24 November, 12:00: "every weekday at 9" first falls on Wednesday (09:00 today
    # has passed); "every friday at 5pm" on Friday the 27th
    now = datetime(2026, 11, 24, 12, tzinfo=UTC)
    weekday, _ = take_fields("standup every weekday at 9", now)
    assert weekday.due is not None and (weekday.due.day, weekday.due.clock) == (
        date(2026, 11, 25),
        time(9),
    )
    friday, _ = take_fields("report every friday at 5pm", now)
    assert friday.due is not None and (friday.due.day, friday.due.clock) == (
        date(2026, 11, 27),
        time(17),
    )
