"""Misspelt command words are read as meant; real words and names are never rewritten."""

from __future__ import annotations

import pytest

from backend.agent.rules.spelling import correct_spelling
from backend.agent.rules.text import prepare


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("delet teh secnd one", "delete the second one"),
        ("shwo my lsit", "show my list"),
        ("ad eggs if its not alredy on ther", "add eggs if its not already on there"),
        ("mark item thre as done", "mark item three as done"),
        ("i finishd the q4 report", "i finished the q4 report"),
        ("walkd the dog", "walked the dog"),
        ("cleer out all the compleetd ones", "clear out all the completed ones"),
        ("delte everyting on my lsit", "delete everything on my list"),
        ("call mom shoud say call mom back", "call mom should say call mom back"),
        ("r u a real person", "are you a real person"),
        ("only the stuf i didnt finish", "only the stuff i didn't finish"),
        # the words of fields: when, which list, how
        ("and remnd me half an hour befor", "and remind me half an hour before"),
        ("shud be on the wrok list", "should be on the work list"),
        ("put the eggs in my inbox list insted", "put the eggs in my inbox list instead"),
        ("whats due thursdya", "whats due thursday"),
    ],
)
def test_a_misspelt_command_word_is_read_as_meant(typed: str, meant: str) -> None:
    assert correct_spelling(typed) == meant


@pytest.mark.parametrize(
    "text",
    [
        "add Lidl voucher",  # a name the dictionary lacks stays as typed
        "call Biscuit's vet",
        "how ya been",
        "buy a lost and found box",  # "lost" is a word, not a misspelt "list"
        "add shop hours to the agenda",
    ],
)
def test_real_words_and_names_are_left_alone(text: str) -> None:
    assert correct_spelling(text) == text


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("i didnt finish it", "i didn't finish it"), ("dont add it", "don't add it")],
)
def test_a_contraction_typed_without_its_apostrophe_gets_it_back(typed: str, meant: str) -> None:
    assert correct_spelling(typed) == meant


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("add batries and cross of eggs", "add batries and cross off eggs"),
        ("jsut the ones i havent done", "just the ones i haven't done"),
        ("olly put that back on", "olly put that back on"),  # a wake word, not a slip
    ],
)
def test_slips_in_command_words_are_read_as_meant(said: str, read: str) -> None:
    assert prepare(said) == read


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("the lst two r done", "the last two are done"),
        ("delete the lst one", "delete the last one"),
        ("show my lst", "show my list"),
    ],
)
def test_lst_before_a_row_is_last_and_elsewhere_list(typed: str, meant: str) -> None:
    assert correct_spelling(typed) == meant
