"""The title inside an add request (backend/agent/rules/titles.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.titles import TitleSlot, add_title


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("paper towels on my list for shopping", "paper towels"),
        ("clean stovetop on my list of reminders", "clean stovetop"),
        ("washing the dishes on my list of tasks to accomplish", "washing the dishes"),
        ("dishes on to do list", "dishes"),
        ("clean refrigerator on my spring cleaning to do list", "clean refrigerator"),
        ("oranges to my to do shopping list", "oranges"),
        ("the chore of vacuuming to my task list", "vacuuming"),
        ("'sign up for the 5k' on my list, my friend talked me into it", "sign up for the 5k"),
        ("bread to the grocery list please, we're totally out", "bread"),
        ("return the library books, they're already two weeks late", "return the library books"),
    ],
)
def test_the_title_is_what_a_person_would_have_typed(said: str, title: str) -> None:
    assert add_title(said) == TitleSlot(title)


def test_a_condition_becomes_the_if_missing_slot() -> None:
    assert add_title("eggs if they're not already on there") == TitleSlot("eggs", if_missing=True)
    assert add_title("'olive oil' if it isn't on there yet") == TitleSlot(
        "olive oil", if_missing=True
    )
