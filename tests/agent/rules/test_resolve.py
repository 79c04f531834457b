from __future__ import annotations

import pytest

from backend.agent.rules.resolve import (
    MISSPELT,
    SIMILARITY_THRESHOLD,
    is_a_guess,
    match_tasks,
    mentioned_tasks,
    normalize_query,
    score,
    similar_tasks,
)

TASKS = [
    {"id": 3, "title": "Finish Q4 Report"},
    {"id": 7, "title": "Review Report Draft"},
    {"id": 8, "title": "renew passport"},
    {"id": 9, "title": "Buy Groceries"},
    {"id": 10, "title": "walk the dog"},
    {"id": 2, "title": "call mom"},
]


def test_exact_title_wins_case_insensitively() -> None:
    assert match_tasks("buy groceries", TASKS) == [TASKS[3]]
    assert score("BUY GROCERIES", "Buy Groceries") == 100.0


def test_a_substring_matching_several_titles_returns_all_in_number_order() -> None:
    assert [t["id"] for t in match_tasks("the report", TASKS)] == [3, 7]


def test_the_60_percent_threshold_is_strict() -> None:
    # "report" vs "renew passport" scores exactly 60 on plain similarity: not a match.
    assert 8 not in [t["id"] for t in match_tasks("report", TASKS)]
    assert match_tasks("zebra crossing", TASKS) == []


def test_word_stems_match_in_any_order() -> None:
    assert match_tasks("the dog walking task", TASKS) == [TASKS[4]]


def test_a_typo_still_matches_one_task() -> None:
    assert match_tasks("grocries", TASKS) == [TASKS[3]]


def test_query_noise_is_removed_but_casing_is_not_needed() -> None:
    assert normalize_query("the 'Buy Groceries' task") == "buy groceries"


def test_similar_tasks_share_a_word_and_exclude_the_new_one() -> None:
    pending = [{"id": 1, "title": "buy groceries"}, {"id": 2, "title": "call mom"}]
    assert similar_tasks("buy milk", pending, exclude=5) == ["buy groceries"]
    assert similar_tasks("buy groceries", pending, exclude=1) == []


def test_a_task_mentioned_inside_a_sentence_is_found() -> None:
    sentence = "I finally called my mom last night, we talked for hours about her garden"
    assert [t["id"] for t in match_tasks(sentence, TASKS)] == [2]


def test_a_short_phrase_is_not_read_as_a_mention() -> None:
    assert mentioned_tasks("mom", TASKS) == []


def test_a_sentence_naming_no_task_finds_none() -> None:
    assert mentioned_tasks("the weather was lovely on our stroll to the shops today", TASKS) == []


def test_a_stored_title_is_matched_without_the_joiners_of_its_emoji() -> None:
    family = "👨\u200d👩\u200d👧"
    assert score("👨👩👧 birthday gift", f"{family} birthday gift") == 100.0
    assert score("👨👩👧", f"{family} birthday gift") >= 90.0


def test_sharing_only_a_joined_emoji_does_not_make_two_tasks_look_alike() -> None:
    family = "👨\u200d👩\u200d👧"
    tasks = [{"id": 1, "title": f"{family} gift"}]
    assert similar_tasks(f"{family} bbq", tasks, exclude=2) == []


@pytest.mark.parametrize(
    ("query", "title"),
    [("call dad", "call mom"), ("email Tom", "email Sarah")],
)
def test_another_word_in_the_same_frame_names_another_task(query: str, title: str) -> None:
    assert score(query, title) <= SIMILARITY_THRESHOLD


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("plants watered", "water the plants"),
        ("make the report of Q4", "finish Q4 report"),
        ("finish the Q4 reprot", "finish Q4 report"),
    ],
)
def test_the_same_task_said_another_way_still_matches(query: str, title: str) -> None:
    assert score(query, title) > SIMILARITY_THRESHOLD


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("email john", "Email Sarah about the project"),
        ("pay water bill", "Pay electricity bill"),
        ("buy grocery bags", "Buy groceries"),
        ("call mother in law", "Call mom"),
    ],
)
def test_a_reference_saying_a_word_its_task_lacks_is_a_guess(query: str, title: str) -> None:
    assert is_a_guess(query, title)


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("papr towels then", "Paper towels"),
        ("honestly take the bathroom", "Clean the bathroom"),
        ("out from list the passport", "Renew passport"),
        ("groceries", "Buy groceries"),
        ("dentst appointment", "Book dentist appointment"),
    ],
)
def test_a_reference_with_slips_or_request_words_is_no_guess(query: str, title: str) -> None:
    assert not is_a_guess(query, title)


@pytest.mark.parametrize(("typed", "title"), [("egs", "eggs"), ("mlik", "milk"), ("milkk", "milk")])
def test_a_short_word_with_a_letter_dropped_doubled_or_swapped_names_its_task(
    typed: str, title: str
) -> None:
    assert score(typed, title) >= MISSPELT


@pytest.mark.parametrize(("typed", "title"), [("dad", "mom"), ("cat", "car"), ("pan", "pay")])
def test_a_short_real_word_or_a_replaced_letter_is_not_a_typing_slip(
    typed: str, title: str
) -> None:
    assert score(typed, title) < MISSPELT


def test_a_reference_names_the_task_that_holds_most_of_its_own_words() -> None:
    tasks = [
        {"id": 1, "title": "buy groceries"},
        {"id": 6, "title": "book dentist appointment"},
    ]
    assert [t["id"] for t in match_tasks("regarding the dentist", tasks)] == [6]
    assert [t["id"] for t in match_tasks("the grocery shopping one", tasks)] == [1]


def test_a_doing_word_alone_names_no_task() -> None:
    # "buy stamps" shares only "buy" with "buy groceries": no task is named
    assert match_tasks("buy stamps", [{"id": 1, "title": "buy groceries"}]) == []


def test_a_task_named_by_shared_words_alone_is_a_guess_for_a_deletion() -> None:
    assert is_a_guess("the dog list", "walk the dog")
