"""Numbers in words and positions in the last list shown (backend/agent/rules/numbers.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.extract import extract_task_id
from backend.agent.rules.numbers import number_value, positions_in

LISTED = (1, 2, 3, 4, 6, 8)


@pytest.mark.parametrize(
    ("phrase", "value"),
    [("four hundred", 400), ("twenty-one", 21), ("a hundred and five", 105), ("12", 12)],
)
def test_a_number_in_words_is_read_whole(phrase: str, value: int) -> None:
    assert number_value(phrase) == value


def test_task_nine_hundred_is_never_task_nine() -> None:
    assert extract_task_id("olly complete task nine hundred") == 900
    assert extract_task_id("mark task fifteen done") == 15


@pytest.mark.parametrize(
    ("phrase", "chosen"),
    [
        ("item five", [6]),
        ("the second row", [2]),
        ("the last one", [8]),
        ("the first two", [1, 2]),
        ("the last two items", [6, 8]),
        ("the third and fourth ones", [3, 4]),
        ("the fifth one on the list", [6]),
    ],
)
def test_a_position_names_tasks_of_the_list_last_shown(phrase: str, chosen: list[int]) -> None:
    assert positions_in(phrase, LISTED) == chosen


@pytest.mark.parametrize("phrase", ["item nine", "the first ten", "the milk"])
def test_a_position_the_list_lacks_or_a_title_is_not_a_position(phrase: str) -> None:
    assert positions_in(phrase, LISTED) is None
