"""Repeat rules (backend/domain/repeats.py, backend/domain/repeat_phrases.py, issue 15):
phrases, next dates, labels."""

from __future__ import annotations

from datetime import UTC, date, time

import pytest

from backend.domain.due import due_instant
from backend.domain.repeat_phrases import describe, find_repeat, read_repeat
from backend.domain.repeats import Repeat, is_valid_rule, next_due


@pytest.mark.parametrize(
    ("said", "rule", "from_completion", "label"),
    [
        ("water the plants every day", "FREQ=DAILY", False, "every day"),
        ("stretch daily", "FREQ=DAILY", False, "every day"),
        ("vitamins every morning", "FREQ=DAILY", False, "every day"),
        ("gym every monday", "FREQ=WEEKLY;BYDAY=MO", False, "every Monday"),
        ("standup every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", False, "every weekday"),
        ("call gran every weekend", "FREQ=WEEKLY;BYDAY=SA,SU", False, "every weekend"),
        (
            "bins every other tuesday",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
            False,
            "every 2 weeks on Tuesday",
        ),
        (
            "swim every mon and thu",
            "FREQ=WEEKLY;BYDAY=MO,TH",
            False,
            "every Monday and Thursday",
        ),
        ("water the plants every 3 days", "FREQ=DAILY;INTERVAL=3", False, "every 3 days"),
        ("review every two weeks", "FREQ=WEEKLY;INTERVAL=2", False, "every 2 weeks"),
        ("report every month", "FREQ=MONTHLY", False, "every month"),
        ("pay rent every 1st", "FREQ=MONTHLY;BYMONTHDAY=1", False, "every month on the 1st"),
        (
            "pay rent every 1st of the month",
            "FREQ=MONTHLY;BYMONTHDAY=1",
            False,
            "every month on the 1st",
        ),
        (
            "pay rent on the 15th of every month",
            "FREQ=MONTHLY;BYMONTHDAY=15",
            False,
            "every month on the 15th",
        ),
        (
            "invoice on the 31st of every month",
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
            False,
            "every month on the 31st",
        ),
        (
            "payroll on the last day of every month",
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            False,
            "on the last day of every month",
        ),
        (
            "mum's birthday every year on 4 March",
            "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=4",
            False,
            "every year on 4 March",
        ),
        (
            "leap party every year on 29 february",
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1",
            False,
            "every year on 29 February",
        ),
        (
            "water the fern 3 days after I finish it",
            "FREQ=DAILY;INTERVAL=3",
            True,
            "every 3 days after completion",
        ),
        (
            "haircut every 6 weeks from completion",
            "FREQ=WEEKLY;INTERVAL=6",
            True,
            "every 6 weeks after completion",
        ),
    ],
)
def test_a_repeat_phrase_gives_its_rule_and_label(
    said: str, rule: str, from_completion: bool, label: str
) -> None:
    found = find_repeat(said)
    assert found is not None
    repeat, _, _ = found
    assert repeat == Repeat(rule, from_completion)
    assert is_valid_rule(repeat.rule)
    assert describe(repeat) == label


@pytest.mark.parametrize("said", ["call mom on monday", "pay rent tomorrow", "buy a daily planner"])
def test_a_single_date_is_no_repeat(said: str) -> None:
    found = find_repeat(said)
    assert found is None or said == "buy a daily planner"  # "daily" alone reads as a repeat


@pytest.mark.parametrize(
    ("rule", "due", "today", "expected"),
    [
        # the 31st clamps to each month's last day, February included
        (
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
            date(2027, 1, 31),
            date(2027, 1, 31),
            date(2027, 2, 28),
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
            date(2028, 1, 31),
            date(2028, 1, 31),
            date(2028, 2, 29),
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
            date(2027, 2, 28),
            date(2027, 2, 28),
            date(2027, 3, 31),
        ),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", date(2027, 4, 30), date(2027, 4, 30), date(2027, 5, 31)),
        (
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1",
            date(2028, 2, 29),
            date(2028, 2, 29),
            date(2029, 2, 28),
        ),
        ("FREQ=MONTHLY;BYMONTHDAY=1", date(2026, 11, 1), date(2026, 11, 24), date(2026, 12, 1)),
        # an overdue daily task done today is next due tomorrow, not again today
        ("FREQ=DAILY", date(2026, 11, 20), date(2026, 11, 24), date(2026, 11, 25)),
        # done early: the next one after the due day
        ("FREQ=DAILY", date(2026, 11, 26), date(2026, 11, 24), date(2026, 11, 27)),
        (
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
            date(2026, 11, 24),
            date(2026, 11, 24),
            date(2026, 12, 8),
        ),
        (
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            date(2026, 11, 27),
            date(2026, 11, 27),
            date(2026, 11, 30),
        ),
    ],
)
def test_the_next_date_follows_the_schedule_on_the_calendar(
    rule: str, due: date, today: date, expected: date
) -> None:
    assert next_due(Repeat(rule), due, time(9), today=today) == expected


def test_a_repeat_from_completion_counts_from_the_day_it_was_done() -> None:
    repeat = Repeat("FREQ=DAILY;INTERVAL=3", from_completion=True)
    assert next_due(repeat, date(2026, 11, 10), None, today=date(2026, 11, 24)) == date(
        2026, 11, 27
    )


@pytest.mark.parametrize(
    ("zone", "due", "expected_utc_hours"),
    [
        # a weekly 09:00 task stays at 09:00 on the wall clock across London's change:
        # 09:00 GMT (09 UTC) before, 09:00 BST (08 UTC) after
        ("Europe/London", date(2026, 3, 26), (9, 8)),
        ("America/New_York", date(2026, 10, 29), (13, 14)),
    ],
)
def test_a_repeat_keeps_its_wall_clock_time_across_daylight_saving(
    zone: str, due: date, expected_utc_hours: tuple[int, int]
) -> None:
    following = next_due(Repeat("FREQ=WEEKLY"), due, time(9), today=due)
    before, after = due_instant(due, time(9), zone), due_instant(following, time(9), zone)
    assert before is not None and after is not None
    assert (before.astimezone(UTC).hour, after.astimezone(UTC).hour) == expected_utc_hours


@pytest.mark.parametrize(
    "rule",
    [
        "",
        "FREQ=HOURLY",
        "FREQ=DAILY;COUNT=3",
        "FREQ=WEEKLY;UNTIL=20301231T000000Z",
        "DTSTART=2026",
        "FREQ=DAILY;BYDAY=XX",
        "x" * 300,
    ],
)
def test_a_rule_the_service_cannot_repeat_by_is_refused(rule: str) -> None:
    assert not is_valid_rule(rule)


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=DAILY",
        "FREQ=DAILY;INTERVAL=3",
        "FREQ=WEEKLY;BYDAY=MO",
        "FREQ=WEEKLY;BYDAY=MO,TH",
        "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "FREQ=WEEKLY;BYDAY=SA,SU",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
        "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU",
        "FREQ=MONTHLY;BYMONTHDAY=1",
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
        "FREQ=MONTHLY;BYMONTHDAY=-1",
        "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=4",
        "FREQ=MONTHLY",
    ],
)
def test_a_rules_label_reads_back_as_the_same_rule(rule: str) -> None:
    # The web UI shows the label in an editable box: left as it is, it must mean the same.
    for anchor in (False, True):
        label = describe(Repeat(rule, anchor))
        assert read_repeat(label) == Repeat(rule, anchor), label
