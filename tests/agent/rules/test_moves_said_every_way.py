"""Due changes of existing tasks, said every way: vocabulary and structure, not sentences."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from backend.agent.rules.field_requests import field_change
from backend.agent.rules.when import whole_due

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("said", "target", "due"),
    [
        ("Shove it to Monday, would you?", "it", "2026-11-30"),
        ("mom to sunday", "mom", "2026-11-29"),
        ("move passport 👉 thursday 📅", "passport", "2026-11-26"),
        ("eggs due saturday", "eggs", "2026-11-28"),
        (
            "reschedule book dentist appointment to december second at two pm",
            "book dentist appointment",
            "2026-12-02T14:00",
        ),
        ("the third one, put it for next Monday", "the third one", "2026-11-30"),
        ("Make it Friday morning", "it", "2026-11-27T09:00"),
        ("chg sarah email to thursday 2pm", "sarah email", "2026-11-26T14:00"),
        ("the date put it for monday", "it", "2026-11-30"),
    ],
)
def test_a_due_change_is_read_however_it_is_said(said: str, target: str, due: str) -> None:
    change = field_change(said, NOW)
    assert change is not None
    assert (change.target.strip(), change.fields) == (target, {"due": due})


@pytest.mark.parametrize(
    "said",
    [
        "make dinner friday",
        "put bread for tomorrow",
        "buy eggs due saturday",
        "add milk to friday",
        "anything due before friday",
    ],
)
def test_something_new_or_a_question_is_no_due_change(said: str) -> None:
    assert field_change(said, NOW) is None


def test_a_repeat_said_with_make_it_is_no_move() -> None:
    # "make it" + a day is a move only when nothing but the pointer stands between them
    change = field_change("make it repeat every monday", NOW)
    assert change is None or "due" not in change.fields


def test_a_day_of_the_month_said_in_words_is_read() -> None:
    due = whole_due("december second at two pm", NOW)
    assert due is not None and due.argument == "2026-12-02T14:00"


def test_a_weekday_with_a_clock_time_right_after_it_is_read() -> None:
    due = whole_due("thursday 2pm", NOW)
    assert due is not None and due.argument == "2026-11-26T14:00"
