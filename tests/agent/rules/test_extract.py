from __future__ import annotations

import pytest

from backend.agent.rules.extract import extract_status, extract_task_id, split_title_description


@pytest.mark.parametrize(
    ("text", "task_id"),
    [
        ("complete task 3", 3),
        ("delete #5", 5),
        ("update id 12", 12),
        ("number 7 is done", 7),
        ("mark 3 as complete", 3),
        ("task #8", 8),
        ("buy 2 apples", None),
        ("show my tasks", None),
    ],
)
def test_task_id_patterns(text: str, task_id: int | None) -> None:
    assert extract_task_id(text) == task_id


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("show pending tasks", "pending"),
        ("what's left to do", "pending"),
        ("anything not done", "pending"),
        ("show completed tasks", "completed"),
        ("what did I finish", "completed"),
        ("show all tasks", "all"),
        ("show my tasks", "all"),
        ("read my complete todo list to me", "all"),
        ("tell me what is on the list of things to do", "all"),
        ("go through my whole list, done stuff included", "all"),
        ("what do i need to buy at the store", "pending"),
        ("which things i not do yet", "pending"),
        ("what's next on my list", "pending"),
        ("what are the jobs to be done today", "pending"),
        ("open my list", "all"),
        ("list to do", "all"),
    ],
)
def test_status_filters_and_the_all_default(text: str, status: str) -> None:
    assert extract_status(text) == status


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("report with executive summary", ("report", "executive summary")),
        ("call mom: about the weekend", ("call mom", "about the weekend")),
        ("plan trip — book flights", ("plan trip", "book flights")),
        ("groceries including milk and eggs", ("groceries", "milk and eggs")),
        ("buy milk", ("buy milk", None)),
        ("'quoted title'", ("quoted title", None)),
        ("meet with steve at one pm", ("meet with steve at one pm", None)),
        ("the meeting with carla", ("the meeting with carla", None)),
        ("go shopping with my mom", ("go shopping with my mom", None)),
        ("cake with candles", ("cake", "candles")),
    ],
)
def test_description_is_split_off_the_title(text: str, expected: tuple[str, str | None]) -> None:
    assert split_title_description(text) == expected
