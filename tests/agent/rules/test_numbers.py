"""Numbers in words and positions in the last list shown (backend/agent/rules/numbers.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.extract import extract_task_id
from backend.agent.rules.numbers import (
    names_a_position,
    number_value,
    position_phrases,
    positions_in,
    positions_inside,
)

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


_PENDING = (1, 2, 3, 4, 6, 8, 9, 10, 11, 12, 14, 15)


@pytest.mark.parametrize(
    ("sentence", "chosen"),
    [
        ("hold on, the last one on there, I never actually picked that up", [15]),
        ("did the 7th and 9th ones already", [9, 11]),
        ("the second one I did in the car, and the one right at the bottom last night", [2, 15]),
        ("Okay so the second-to-last one, I picked those up", [14]),
        ("the top one is sorted", [1]),
    ],
)
def test_a_position_said_in_passing_names_its_task(sentence: str, chosen: list[int]) -> None:
    assert positions_inside(sentence, _PENDING) == chosen


@pytest.mark.parametrize(
    "sentence", ["I waited for one more minute", "the twentieth one", "cancel that last thing"]
)
def test_a_sentence_without_a_position_the_list_has_names_none(sentence: str) -> None:
    assert positions_inside(sentence, _PENDING) == [] or not names_a_position(sentence)


def test_last_inside_a_sentence_is_not_taken_for_a_position_on_its_own() -> None:
    assert not names_a_position("please cancel that last task")
    assert names_a_position("did the 7th and 9th ones")
    assert position_phrases("the second one I did and the one at the bottom too") == [
        "the second one",
        "the one at the bottom",
    ]


@pytest.mark.parametrize(
    "text", ["first things first, I finished the Q4 report", "first thing first, add milk"]
)
def test_first_things_first_names_no_row(text: str) -> None:
    assert position_phrases(text) == []
