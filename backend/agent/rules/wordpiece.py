"""BERT's uncased WordPiece tokenizer in plain Python: the static word embedding the intent
model adds to its n-grams (`intent_model.py`) is looked up by these tokens.

Lower case, accents removed, punctuation split off, then each word cut into the longest
pieces the vocabulary has ("groceries" -> "groceries", "grocerys" -> "grocery", "##s");
a word no pieces cover is unknown and left out. The same tokens as the `tokenizers`
library's BertWordPieceTokenizer for the model's vocabulary (checked on every training text
when the model was built), without its native dependency at run time.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

_ASCII_PUNCT = "".join(
    chr(c) for c in (*range(33, 48), *range(58, 65), *range(91, 97), *range(123, 127))
)
_ASCII_WORDS = re.compile(rf"[^\s{re.escape(_ASCII_PUNCT)}]+|[{re.escape(_ASCII_PUNCT)}]")
_LONGEST_WORD = 100
_MOST_TOKENS = 512


def _is_punctuation(char: str) -> bool:
    return char in _ASCII_PUNCT or unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return any(
        low <= code <= high
        for low, high in (
            (0x4E00, 0x9FFF),
            (0x3400, 0x4DBF),
            (0x20000, 0x2A6DF),
            (0x2A700, 0x2B73F),
            (0x2B740, 0x2B81F),
            (0x2B820, 0x2CEAF),
            (0xF900, 0xFAFF),
            (0x2F800, 0x2FA1F),
        )
    )


def _words(text: str) -> list[str]:
    """BERT's basic tokenizer: cleaned, lower-cased, accents stripped, punctuation apart."""
    if text.isascii():
        return _ASCII_WORDS.findall(text.lower().replace("\x00", ""))
    lowered = unicodedata.normalize("NFD", _cleaned(text).lower())
    plain = "".join(c for c in lowered if unicodedata.category(c) != "Mn")
    return [word for chunk in plain.split() for word in _punctuation_apart(chunk)]


def _cleaned(text: str) -> str:
    """Control characters dropped, whitespace made a space, CJK characters spaced apart."""
    kept: list[str] = []
    for char in text:
        code, category = ord(char), unicodedata.category(char)
        if code in (0, 0xFFFD) or (category.startswith("C") and char not in "\t\n\r"):
            continue
        if char in "\t\n\r" or category == "Zs":
            kept.append(" ")
        elif _is_cjk(code):
            kept.append(f" {char} ")
        else:
            kept.append(char)
    return "".join(kept)


def _punctuation_apart(chunk: str) -> list[str]:
    """A chunk without spaces as words, each punctuation mark a word of its own."""
    words: list[str] = []
    current = ""
    for char in chunk:
        if _is_punctuation(char):
            if current:
                words.append(current)
                current = ""
            words.append(char)
        else:
            current += char
    if current:
        words.append(current)
    return words


class WordPiece:
    """Token ids of a text under `vocabulary` (piece -> id); unknown words are dropped."""

    def __init__(self, vocabulary: Mapping[str, int], unknown: str = "[UNK]") -> None:
        self._vocabulary = vocabulary
        self._unknown = vocabulary.get(unknown)
        self._known: dict[str, list[int]] = {}

    def _pieces(self, word: str) -> list[int]:
        known = self._known.get(word)
        if known is not None:
            return known
        vocabulary = self._vocabulary
        pieces: list[int] = []
        if word in vocabulary:
            pieces = [vocabulary[word]]
        elif len(word) <= _LONGEST_WORD:
            start = 0
            while start < len(word):
                end, found = len(word), None
                while start < end:
                    piece = word[start:end] if start == 0 else f"##{word[start:end]}"
                    found = vocabulary.get(piece)
                    if found is not None:
                        break
                    end -= 1
                if found is None:
                    pieces = []  # no pieces cover the word: unknown
                    break
                pieces.append(found)
                start = end
        if len(self._known) < 50_000:
            self._known[word] = pieces
        return pieces

    def ids(self, text: str) -> list[int]:
        found = [i for word in _words(text) for i in self._pieces(word)]
        return [i for i in found if i != self._unknown][:_MOST_TOKENS]
