"""When a task's reminder fires as its fields change (backend/domain/reminder_times.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from backend.domain.errors import ReminderInPastError, ReminderNeedsDueError
from backend.domain.reminder_times import (
    OFF,
    Due,
    Reminding,
    after_due_change,
    after_move,
    asked,
    describe_before,
    fixed,
    rearmed,
    relative,
    reminder_label,
)

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
LONDON = "Europe/London"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_a_timed_task_reminds_at_its_time_by_default() -> None:
    due = Due(date(2026, 11, 25), time(9, 0), LONDON)
    assert asked(due, NOW, at=None, before=None, default=True) == Reminding(
        at("2026-11-25T09:00+00:00"), 0
    )


def test_an_all_day_task_or_an_undated_one_has_no_default_reminder() -> None:
    assert (
        asked(Due(date(2026, 11, 25), None, LONDON), NOW, at=None, before=None, default=True) == OFF
    )
    assert asked(Due(None, None, LONDON), NOW, at=None, before=None, default=True) == OFF


def test_an_explicit_no_reminder_wins_over_the_default() -> None:
    due = Due(date(2026, 11, 25), time(9, 0), LONDON)
    assert asked(due, NOW, at=None, before=None, default=False) == OFF


def test_minutes_before_count_back_from_the_due_time_on_the_accounts_clock() -> None:
    due = Due(date(2026, 11, 25), time(9, 0), "America/New_York")
    assert relative(due, 30, NOW) == Reminding(at("2026-11-25T13:30+00:00"), 30)


def test_an_all_day_tasks_reminder_counts_from_nine_in_the_morning() -> None:
    due = Due(date(2026, 11, 25), None, LONDON)
    # 09:00 the day before is already past at noon: kept, not armed
    assert relative(due, 24 * 60, NOW) == Reminding(None, 1440)
    assert relative(due, 60, NOW).at == at("2026-11-25T08:00+00:00")


def test_a_relative_reminder_without_a_due_is_refused() -> None:
    with pytest.raises(ReminderNeedsDueError):
        relative(Due(None, None, LONDON), 30, NOW)


def test_a_relative_reminder_whose_time_has_passed_is_kept_but_not_armed() -> None:
    due = Due(date(2026, 11, 24), time(12, 10), "UTC")
    assert relative(due, 30, NOW) == Reminding(None, 30)


def test_a_fixed_time_before_the_due_becomes_an_offset_so_it_moves_with_the_task() -> None:
    due = Due(date(2026, 11, 25), time(10, 0), "UTC")
    assert fixed(at("2026-11-25T08:00+00:00"), due, NOW) == Reminding(
        at("2026-11-25T08:00+00:00"), 120
    )


def test_a_fixed_time_after_the_due_or_without_one_stays_fixed() -> None:
    due = Due(date(2026, 11, 25), time(10, 0), "UTC")
    assert fixed(at("2026-11-25T11:00+00:00"), due, NOW).before is None
    assert fixed(at("2026-11-25T11:00+00:00"), Due(None, None, "UTC"), NOW).before is None


def test_a_fixed_time_with_seconds_is_kept_as_an_instant() -> None:
    due = Due(date(2026, 11, 25), time(10, 0), "UTC")
    assert fixed(at("2026-11-25T08:00:30+00:00"), due, NOW) == Reminding(
        at("2026-11-25T08:00:30+00:00"), None
    )


def test_a_fixed_time_without_an_offset_is_read_on_the_accounts_clock() -> None:
    found = fixed(datetime(2026, 11, 25, 8, 0), Due(None, None, "Asia/Tokyo"), NOW)
    assert found.at == at("2026-11-24T23:00+00:00")


def test_a_fixed_time_in_the_past_is_refused() -> None:
    with pytest.raises(ReminderInPastError):
        fixed(at("2026-11-24T11:59+00:00"), Due(None, None, "UTC"), NOW)


def test_a_reschedule_moves_a_relative_reminder_and_leaves_a_fixed_one() -> None:
    old = Due(date(2026, 11, 25), time(9, 0), "UTC")
    new = Due(date(2026, 11, 27), time(15, 0), "UTC")
    moved = after_due_change(Reminding(at("2026-11-25T08:30+00:00"), 30), old, new, NOW)
    assert moved == Reminding(at("2026-11-27T14:30+00:00"), 30)
    stays = Reminding(at("2026-11-26T08:00+00:00"), None)
    assert after_due_change(stays, old, new, NOW) == stays


def test_clearing_the_due_drops_a_relative_reminder() -> None:
    old = Due(date(2026, 11, 25), time(9, 0), "UTC")
    assert (
        after_due_change(
            Reminding(at("2026-11-25T09:00+00:00"), 0), old, Due(None, None, "UTC"), NOW
        )
        == OFF
    )


def test_a_task_given_its_first_time_gets_the_default_reminder() -> None:
    old = Due(date(2026, 11, 25), None, "UTC")
    new = Due(date(2026, 11, 25), time(9, 0), "UTC")
    assert after_due_change(OFF, old, new, NOW) == Reminding(at("2026-11-25T09:00+00:00"), 0)


def test_a_repeat_moves_a_fixed_reminder_by_as_much_as_the_due() -> None:
    old = Due(date(2026, 11, 25), time(10, 0), "UTC")
    new = Due(date(2026, 12, 2), time(10, 0), "UTC")
    found = after_move(Reminding(at("2026-11-25T11:00+00:00"), None), old, new, NOW)
    assert found == Reminding(at("2026-12-02T11:00+00:00"), None)


def test_a_repeat_keeps_a_relative_reminders_wall_clock_time_across_daylight_saving() -> None:
    # 09:00 New York on the Friday before and after the clocks go back (1 Nov 2026).
    old = Due(date(2026, 10, 30), time(9, 0), "America/New_York")
    new = Due(date(2026, 11, 6), time(9, 0), "America/New_York")
    now = datetime(2026, 10, 30, 14, 0, tzinfo=UTC)
    found = after_move(Reminding(None, 15), old, new, now)
    assert found == Reminding(at("2026-11-06T13:45+00:00"), 15)  # 08:45 EST


def test_reopening_a_task_arms_its_relative_reminder_again() -> None:
    due = Due(date(2026, 11, 25), time(9, 0), "UTC")
    assert rearmed(Reminding(None, 10), due, NOW) == Reminding(at("2026-11-25T08:50+00:00"), 10)
    fired = Reminding(None, None)
    assert rearmed(fired, due, NOW) == fired


@pytest.mark.parametrize(
    ("minutes", "said"),
    [
        (0, "at its time"),
        (1, "1 minute before"),
        (30, "30 minutes before"),
        (60, "1 hour before"),
        (90, "1 hour 30 minutes before"),
        (1440, "1 day before"),
        (2 * 1440 + 120, "2 days 2 hours before"),
    ],
)
def test_offsets_are_said_as_people_say_them(minutes: int, said: str) -> None:
    assert describe_before(minutes) == said


def test_the_label_says_when_on_the_accounts_clock() -> None:
    assert reminder_label(at("2026-11-25T08:30+00:00"), 30, LONDON, NOW) == (
        "tomorrow 08:30, 30 minutes before"
    )
    assert reminder_label(at("2026-11-24T15:00+00:00"), None, "Asia/Tokyo", NOW) == (
        "tomorrow 00:00"
    )
    assert reminder_label(None, 30, LONDON, NOW) is None
