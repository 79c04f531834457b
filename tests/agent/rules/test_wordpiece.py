"""BERT's uncased WordPiece in plain Python (backend/agent/rules/wordpiece.py)."""

from __future__ import annotations

from backend.agent.rules.wordpiece import WordPiece

VOCABULARY = {
    "[UNK]": 0,
    "grocery": 1,
    "##s": 2,
    "add": 3,
    "milk": 4,
    "!": 5,
    "cafe": 6,
    "groceries": 7,
}


def test_a_known_word_is_one_token_and_an_unknown_one_its_longest_pieces() -> None:
    pieces = WordPiece(VOCABULARY)
    assert pieces.ids("Add GROCERIES") == [3, 7]
    assert pieces.ids("grocerys") == [1, 2]


def test_punctuation_splits_off_and_accents_go() -> None:
    assert WordPiece(VOCABULARY).ids("milk! café") == [4, 5, 6]


def test_a_word_no_pieces_cover_is_left_out() -> None:
    assert WordPiece(VOCABULARY).ids("add zzzz milk") == [3, 4]
