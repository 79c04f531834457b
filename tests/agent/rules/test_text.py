from __future__ import annotations

import pytest

from backend.agent.rules.text import as_typed, clean_title, core_request, correct_typos, prepare


@pytest.mark.parametrize(
    ("message", "core"),
    [
        ("Could you please add milk?", "add milk"),
        ("ok so, hey, show my tasks thanks!", "show my tasks"),
        ("would you mind adding eggs", "add eggs"),
        ("task 6 ✅", "task 6 done"),
        ("that's done now", "that is done"),
        ("Actually, make it oat milk", "make it oat milk"),
    ],
)
def test_core_request_sets_aside_filler_and_politeness(message: str, core: str) -> None:
    assert core_request(message) == core


def test_prepare_turns_bulleted_lines_into_items_and_straightens_quotes() -> None:
    assert prepare("add:\n- milk\n- eggs") == "add:; milk; eggs"
    assert prepare("“quoted”  title’s") == '"quoted" title\'s'


def test_typo_fixes_touch_only_near_misses_of_command_words() -> None:
    assert correct_typos("shwo my tasks") == "show my tasks"
    assert correct_typos("remidn me to call") == "remind me to call"
    assert correct_typos("that thing") == "that thing"
    assert correct_typos("lost keys") == "lost keys"


def test_clean_title_strips_quotes_and_trailing_punctuation_only() -> None:
    assert clean_title("  'call mom!'  ") == "call mom"
    assert clean_title("buy 2 apples.") == "buy 2 apples"
    assert clean_title("café ☕") == "café ☕"


def test_a_new_line_that_starts_with_a_command_is_a_new_request() -> None:
    assert prepare("add buy milk\nadd call mom") == "add buy milk; add call mom"
    assert prepare("add pick up\nthe kids") == "add pick up the kids"


def test_real_words_next_to_command_words_are_not_corrected() -> None:
    assert correct_typos("how are you") == "how are you"
    assert correct_typos("mask shopping") == "mask shopping"
    assert correct_typos("clean the kitchen") == "clean the kitchen"


def test_invisible_characters_and_informal_contractions_are_normalised() -> None:
    assert prepare("add \u200bmilk\u200d") == "add milk"
    assert prepare("I wanna add go jogging") == "I want to add go jogging"


def test_a_fragment_gets_back_the_invisible_characters_typed_inside_it() -> None:
    family = "👨\u200d👩\u200d👧"
    assert (
        as_typed("👨👩👧 birthday gift", f"add {family} birthday gift") == f"{family} birthday gift"
    )
    assert as_typed("Cooperate", "add Co\u00adoperate please") == "Co\u00adoperate"
    # the rest of the message may have been read differently ("wanna" as "want to")
    assert as_typed("want to hug 👨👩👧", f"I wanna hug {family}") == f"want to hug {family}"


def test_invisible_characters_around_a_fragment_or_elsewhere_stay_out_of_it() -> None:
    assert as_typed("milk", "add \u200bmilk\u200d") == "milk"
    assert as_typed("buy milk", "add buy milk 👨\u200d👩") == "buy milk"
    assert as_typed("buy milk", "add buy milk") == "buy milk"


@pytest.mark.parametrize(
    ("message", "prepared"),
    [("no i said flour f l o u r", "no i said flour"), ("add s-h-a-m-p-o-o", "add shampoo")],
)
def test_a_word_spelt_out_letter_by_letter_is_read_as_the_word(message: str, prepared: str) -> None:
    assert prepare(message) == prepared
