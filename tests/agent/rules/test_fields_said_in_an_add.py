"""Fields said inside an add, in the words people use: the repeat, tag, list and time said
are cut from the title and kept as fields (backend/agent/rules/task_fields.py, when.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from backend.agent.rules.task_fields import take_fields

NOW = datetime(2026, 11, 24, 12, 0)  # Tue 24 Nov 2026, noon


@pytest.mark.parametrize(
    ("said", "title", "fields"),
    [
        (
            "pay the rent, it is every month on the 5",
            "pay the rent",
            {"due": "2026-12-05", "repeat": "FREQ=MONTHLY;BYMONTHDAY=5"},
        ),
        (
            "pay phone bill on the 15th every month",
            "pay phone bill",
            {"due": "2026-12-15", "repeat": "FREQ=MONTHLY;BYMONTHDAY=15"},
        ),
        (
            "take my tablets at 8 in the evening, every single day",
            "take my tablets",
            {"due": "2026-11-24T20:00", "repeat": "FREQ=DAILY"},
        ),
        (
            "book club for thursday at 7pm, every 4 weeks, always a thursday",
            "book club",
            {"due": "2026-11-26T19:00", "repeat": "FREQ=WEEKLY;INTERVAL=4;BYDAY=TH"},
        ),
        # the part of the day said after the repeat is its time
        (
            "put the bins out every tuesday evening",
            "put the bins out",
            {"due": "2026-11-24T18:00", "repeat": "FREQ=WEEKLY;BYDAY=TU"},
        ),
        # a list named with no "my" or "the", several fields after commas
        (
            "order toner to office list, due friday, high priority, every month",
            "order toner",
            {
                "due": "2026-11-27",
                "list": "Office",
                "priority": "high",
                "repeat": "FREQ=MONTHLY",
            },
        ),
    ],
)
def test_a_repeat_said_in_an_add_leaves_the_title_and_starts_on_its_first_day(
    said: str, title: str, fields: dict[str, Any]
) -> None:
    found, rest = take_fields(said, NOW, new_task=True)
    assert (rest.strip(" ,"), found.arguments()) == (title, fields)


def test_a_repeat_said_in_an_update_sets_no_due() -> None:
    found, _ = take_fields("every month on the 5", NOW)
    assert found.arguments() == {"repeat": "FREQ=MONTHLY;BYMONTHDAY=5"}


@pytest.mark.parametrize(
    ("said", "title", "fields"),
    [
        ("buy printer paper tag it office", "buy printer paper", {"tags": ["office"]}),
        ("prep slides, tag work", "prep slides", {"tags": ["work"]}),
        (
            "order dad's present for the 10th and tag it xmas",
            "order dad's present",
            {"due": "2026-12-10", "tags": ["xmas"]},
        ),
    ],
)
def test_a_tag_said_in_words_is_a_tag_not_title(
    said: str, title: str, fields: dict[str, Any]
) -> None:
    found, rest = take_fields(said, NOW, new_task=True)
    assert (rest, found.arguments()) == (title, fields)


@pytest.mark.parametrize(
    ("said", "title", "fields"),
    [
        ("yoghurt and bin bags to groceries", "yoghurt and bin bags", {"list": "Groceries"}),
        (
            "expenses claim to work for monday",
            "expenses claim",
            {"list": "Work", "due": "2026-11-30"},
        ),
        ("go to work tomorrow", "go to work", {"due": "2026-11-25"}),
        ("drive to work", "drive to work", {}),
    ],
)
def test_a_well_known_list_named_alone_is_the_list_but_going_to_work_is_a_title(
    said: str, title: str, fields: dict[str, Any]
) -> None:
    found, rest = take_fields(said, NOW, new_task=True)
    assert (rest, found.arguments()) == (title, fields)


@pytest.mark.parametrize(
    ("said", "due"),
    [
        ("call the garage tomorrow morning, ten-ish", "2026-11-25T10:00"),
        ("call the garage tomorrow morning at 10", "2026-11-25T10:00"),
        ("pick up the kids at three thirty today", "2026-11-24T15:30"),
        ("call the plumber. today. 5pm.", "2026-11-24T17:00"),
        ("call the plumber wednesday 6pm", "2026-11-25T18:00"),
    ],
)
def test_a_clock_time_said_beside_its_day_is_read_with_it(said: str, due: str) -> None:
    found, _ = take_fields(said, NOW, new_task=True)
    assert found.arguments() == {"due": due}
