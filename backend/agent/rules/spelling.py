"""Misspelt command words, read as meant: "delet teh secnd one" -> "delete the second one".

Only words that are not English words are touched (the word list is symspellpy's English
frequency dictionary), and only towards the small vocabulary the engine itself reads: command
verbs, list nouns, positions and function words. A title word like "Lidl" or "Biscuit" is never
rewritten into something the user did not type; a past tense missing its "e" ("walkd") gets it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

# Order breaks ties between equally close words: numbers before "there" before "the".
VOCABULARY: tuple[str, ...] = tuple(
    """
    add create remind reminder remember forget show list lists display read tell delete remove
    cancel clear erase empty complete completed finish finished done mark check tick cross
    change update rename edit undo task tasks item items todo everything anything something
    nothing already again still left pending back except first second third fourth fifth
    sixth seventh eighth ninth tenth last three seven eight eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty hundred there their the them they
    this that what which whats my your please thanks thank can could would you have need want
    shopping grocery groceries about from with not off yeah okay sure meant mean other one
    actually stuff things ones should say finally bought just only
    before after instead tomorrow tonight today morning evening afternoon every week weekly
    daily monthly minutes hour hours priority move push tag tagged inbox work monday tuesday
    wednesday thursday friday saturday sunday
    """.split()
)
# Short misspellings that are too close to too many words to find by distance.
_KNOWN: dict[str, str] = {
    "ad": "add",
    "ur": "your",
    "u": "you",
    "r": "are",
    "pls": "please",
    "plz": "please",
    "thx": "thanks",
    "lst": "list",
    "tsk": "task",
    "tht": "that",
    "abt": "about",
    "wat": "what",
    "wht": "what",
    "shud": "should",
    "shld": "should",
    "tmorow": "tomorrow",
    "tmoro": "tomorrow",
}
# Not in the word list, yet not misspelt: "uncheck" is not a misspelt "check".
_KEEP = frozenset(
    "uncheck untick unmark unticked unchecked reopen undone todos todo todolist tasklist "
    "wanna gonna gotta lemme gimme olly alexa siri".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_DICTIONARY = "frequency_dictionary_en_82_765.txt"


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    text = (resources.files("symspellpy") / _DICTIONARY).read_text(encoding="utf-8")
    return frozenset(line.split(" ", 1)[0] for line in text.splitlines() if line)


def _closest(word: str) -> str | None:
    limit = 2 if len(word) >= 7 else 1
    found = process.extract(
        word, VOCABULARY, scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=None
    )
    if not found:
        return None
    best = min(distance for _, distance, _ in found)
    closest = [candidate for candidate, distance, _ in found if distance == best]
    # Typing drops letters more often than it adds them; and the first letter is seldom wrong.
    closest.sort(key=lambda c: (c[0] != word[0], len(c) < len(word), VOCABULARY.index(c)))
    return closest[0]


def is_english_word(word: str) -> bool:
    return _is_word(word.lower())


def _is_word(lowered: str) -> bool:
    """An English word, or one of ours the word list lacks ("uncheck", "todos")."""
    return lowered in _KEEP or lowered in english_words()


def _contraction(word: str) -> str | None:
    """ "dont" -> "don't", "didnt" -> "didn't": a contraction typed without its apostrophe."""
    words = english_words()
    for cut in (-1, -2, -3):
        full = f"{word[:cut]}'{word[cut:]}"
        if full in words:
            return full
    return None


@lru_cache(maxsize=8192)
def corrected_word(word: str) -> str:
    lowered = word.lower()
    if lowered in _KNOWN:
        return _KNOWN[lowered]
    if len(lowered) < 3 or "'" in lowered or _is_word(lowered):
        return word
    contraction = _contraction(lowered)
    if contraction is not None:
        return contraction  # the apostrophe back, so patterns read "didn't" once
    closest = _closest(lowered)
    if closest is not None:
        return closest
    if lowered.endswith("d") and f"{lowered[:-1]}ed" in english_words():
        return f"{lowered[:-1]}ed"  # "walkd", "calld", "finishd"
    return word


# "the lst two r done": before a count or a row, "lst" is "last", not "list".
_LAST_BEFORE_A_ROW = re.compile(
    r"\blst(?=\s+(?:one|ones|two|three|four|five|\d+|item|items|task|tasks|thing|things|entry)\b)",
    re.IGNORECASE,
)


def correct_spelling(text: str) -> str:
    """The text with misspelt command words corrected; capitalised words (names) are kept."""
    text = _LAST_BEFORE_A_ROW.sub("last", text)

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        if word[0].isupper() and match.start() > 0 and word.lower() not in _KNOWN:
            return word
        fixed = corrected_word(word)
        return fixed if fixed.lower() != word.lower() else word

    return _WORD.sub(fix, text)


def has_misspelt_word(text: str) -> bool:
    """Whether a word of `text` (three letters or more) is not an English word ("reprot",
    "egs")."""
    return any(len(w) > 2 and not _is_word(w.lower()) for w in _WORD.findall(text))
