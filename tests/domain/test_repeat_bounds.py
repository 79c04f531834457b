"""Repeat rules the service can compute with (issue 30): a step of at least one unit and at
most ten years, parts a task's date can follow, and a next date found in a bounded search, so
no rule, new or stored, costs more than a bounded walk through the calendar."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date, datetime, time
from typing import TypeVar

import pytest
from dateutil.rrule import rrulestr

from backend.core.timeutil import LAST_DAY
from backend.domain.repeat_phrases import describe, read_repeat
from backend.domain.repeats import (
    SEARCH_YEARS,
    Repeat,
    first_due,
    is_valid_rule,
    next_due,
    repeat_problem,
)

T = TypeVar("T")
TODAY = date(2026, 11, 25)


def finishing(work: Callable[[], T], *, within: float = 120.0) -> T:
    """`work()`'s result; a test failure, not a hung run, if it never returns (the guard is
    generous: the bound under test is structural, never a time)."""
    outcome: list[T] = []
    worker = threading.Thread(target=lambda: outcome.append(work()), daemon=True)
    worker.start()
    worker.join(within)
    assert not worker.is_alive(), "still running: the search is unbounded"
    assert outcome, "raised instead of returning"
    return outcome[0]


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("FREQ=WEEKLY;INTERVAL=-1", "INTERVAL must be from 1 to 520 for a weekly repeat"),
        ("FREQ=MONTHLY;INTERVAL=121", "INTERVAL must be from 1 to 120 for a monthly repeat"),
        ("FREQ=YEARLY;INTERVAL=11", "INTERVAL must be from 1 to 10 for a yearly repeat"),
        ("FREQ=DAILY;INTERVAL=99999999999999999999", "INTERVAL must be from 1 to 3650"),
        ("0 days after I finish it", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("every 0 weeks", "INTERVAL must be from 1 to 520 for a weekly repeat"),
        ("every 999 months", "INTERVAL must be from 1 to 120 for a monthly repeat"),
    ],
)
def test_a_rule_whose_step_is_not_one_to_ten_years_of_its_unit_is_refused_saying_why(
    said: str, why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        read_repeat(said)


@pytest.mark.parametrize(
    "rule",
    ["FREQ=DAILY;INTERVAL=3650", "FREQ=WEEKLY;INTERVAL=520", "FREQ=MONTHLY;INTERVAL=120"]
    + ["FREQ=YEARLY;INTERVAL=10", "FREQ=DAILY;INTERVAL=1"],
)
def test_a_step_of_up_to_ten_years_is_kept(rule: str) -> None:
    assert read_repeat(rule) == Repeat(rule)
    assert next_due(Repeat(rule), TODAY, None, today=TODAY) is not None


@pytest.mark.parametrize(
    ("rule", "why"),
    [
        ("FREQ=DAILY;BYHOUR=9,17", "BYHOUR is not a part a task's repeat can have"),
        ("FREQ=YEARLY;BYEASTER=0", "BYEASTER is not a part a task's repeat can have"),
        ("FREQ=DAILY;INTERVAL=2;INTERVAL=3", "INTERVAL is given twice"),
        ("FREQ=MONTHLY;BYMONTHDAY=40", "BYMONTHDAY must be from 1 to 31 or -31 to -1"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH must be from 1 to 12"),
        ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO must be from 1 to 53 or -53 to -1"),
        ("FREQ=YEARLY;BYYEARDAY=0", "BYYEARDAY must be from 1 to 366 or -366 to -1"),
        ("FREQ=YEARLY;BYSETPOS=367", "BYSETPOS must be from 1 to 366 or -366 to -1"),
    ],
)
def test_a_rule_with_parts_no_date_can_follow_is_refused_saying_why(rule: str, why: str) -> None:
    assert not is_valid_rule(rule)
    with pytest.raises(ValueError, match=why):
        read_repeat(rule)


# Rules that no day ever matches: dateutil alone looks for one up to the year 9999.
NEVER = [
    "FREQ=YEARLY;BYSETPOS=366",
    "FREQ=MONTHLY;BYSETPOS=366",
    "FREQ=WEEKLY;BYSETPOS=366",
    "FREQ=DAILY;BYSETPOS=366",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6",
    "FREQ=WEEKLY;BYWEEKNO=53;BYMONTH=6",
]


@pytest.mark.parametrize("rule", NEVER)
def test_a_rule_no_day_matches_has_no_first_or_next_date_and_says_why(rule: str) -> None:
    repeat = read_repeat(rule)  # well formed: only a search finds it never comes round
    assert finishing(lambda: first_due(repeat, TODAY)) is None
    assert finishing(lambda: next_due(repeat, TODAY, time(9), today=TODAY)) is None
    from_completion = Repeat(rule, from_completion=True)
    assert finishing(lambda: next_due(from_completion, TODAY, None, today=TODAY)) is None
    why = finishing(lambda: repeat_problem(repeat, TODAY, time(9), today=TODAY))
    assert why == (
        f"repeat {rule!r} never comes round: no day after 2026-11-25 up to 2056-12-31 matches it"
    )


@pytest.mark.parametrize(
    "rule", ["FREQ=DAILY;INTERVAL=0", "FREQ=YEARLY;INTERVAL=0", "FREQ=DAILY;INTERVAL=-1"]
)
def test_a_stored_rule_with_a_step_of_nothing_has_no_next_date(rule: str) -> None:
    # Stored before rules were checked: its completion must end the series, not hang or fail.
    for repeat in (Repeat(rule), Repeat(rule, from_completion=True)):
        assert finishing(lambda: next_due(repeat, TODAY, None, today=TODAY)) is None  # noqa: B023
    assert finishing(lambda: first_due(Repeat(rule), TODAY)) is None


def test_a_rule_that_comes_round_rarely_is_found_within_the_search() -> None:
    # 29 February on a Monday: 2044 from 2026, inside the search; after 2044, 2072
    leap_monday = Repeat("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO")
    assert first_due(leap_monday, TODAY) == date(2044, 2, 29)
    assert next_due(leap_monday, date(2044, 2, 29), None, today=TODAY) == date(2072, 2, 29)
    assert SEARCH_YEARS == 30


def test_a_next_date_past_the_last_supported_day_ends_the_series() -> None:
    yearly = Repeat("FREQ=YEARLY")
    assert next_due(yearly, date(2998, 12, 31), None, today=TODAY) == LAST_DAY
    assert next_due(yearly, LAST_DAY, time(23, 59), today=TODAY) is None
    # stored before dates were bounded: no next date, not an overflow
    assert finishing(lambda: next_due(yearly, date(9999, 12, 31), None, today=TODAY)) is None
    assert finishing(lambda: next_due(Repeat("FREQ=DAILY"), date(1, 1, 1), None, today=TODAY)) == (
        date(2026, 11, 26)
    )


@pytest.mark.parametrize(
    ("rule", "label"),
    [
        ("FREQ=MONTHLY;BYDAY=1MO", "FREQ=MONTHLY;BYDAY=1MO"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"),
        ("FREQ=YEARLY;BYMONTH=2,3;BYMONTHDAY=5", "FREQ=YEARLY;BYMONTH=2,3;BYMONTHDAY=5"),
        ("FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;INTERVAL=0"),
    ],
)
def test_a_rule_without_words_for_it_is_labelled_as_itself_and_reads_back(
    rule: str, label: str
) -> None:
    # A label is shown for every task: none may fail, and the UI sends it back when edited.
    assert describe(Repeat(rule)) == label
    assert describe(Repeat(rule, from_completion=True)) == f"{label} after completion"
    if is_valid_rule(rule):
        for anchor in (False, True):
            assert read_repeat(describe(Repeat(rule, anchor))) == Repeat(rule, anchor)


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=DAILY",
        "FREQ=DAILY;INTERVAL=3",
        "FREQ=DAILY;INTERVAL=17;BYDAY=MO",
        "FREQ=WEEKLY",
        "FREQ=WEEKLY;INTERVAL=2",
        "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,FR",
        "FREQ=WEEKLY;WKST=SU;INTERVAL=2;BYDAY=MO,SU",
        "FREQ=MONTHLY",
        "FREQ=MONTHLY;INTERVAL=5",
        "FREQ=MONTHLY;BYSETPOS=-1",
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
        "FREQ=MONTHLY;BYDAY=1MO",
        "FREQ=MONTHLY;INTERVAL=7;BYDAY=-1FR",
        "FREQ=YEARLY",
        "FREQ=YEARLY;INTERVAL=3",
        "FREQ=YEARLY;INTERVAL=7",
        "FREQ=YEARLY;BYMONTH=2",
        "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29",
        "FREQ=YEARLY;BYWEEKNO=53;BYDAY=MO",
    ],
)
@pytest.mark.parametrize(
    "due",
    [date(1900, 1, 31), date(1904, 2, 29), date(1987, 6, 15), date(2016, 2, 29), date(2025, 8, 31)],
)
def test_a_long_overdue_task_moves_to_the_date_a_walk_through_every_year_finds(
    rule: str, due: date
) -> None:
    # The search starts whole steps on, near today: the same date as dateutil's whole walk.
    start = datetime.combine(due, time(9))
    walked = rrulestr(f"RRULE:{rule}", dtstart=start).after(
        datetime.combine(TODAY, time(23, 59, 59))
    )
    expected = walked.date() if walked is not None else None  # 31 February: never
    assert next_due(Repeat(rule), due, time(9), today=TODAY) == expected
