"""Numbers said in words, and positions in the list the user last saw.

"task nine hundred" is task 900 (never task 9); "item three", "the fifth one", "the second
row", "the last one", "the first two", "the third and fourth ones" are positions in the last
list shown.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

UNITS: dict[str, int] = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
}
TENS: dict[str, int] = {
    word: 10 * n
    for n, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
_ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
)
ORDINALS: dict[str, int] = {word: n for n, word in enumerate(_ORDINAL_WORDS.split(), 1)}
_NUMBER_WORD = "|".join([*UNITS, *TENS, "hundred", "thousand", "a", "and"])
# A run of number words: "four hundred", "twenty-one", "a hundred and five".
NUMBER_PHRASE = rf"(?:\d{{1,9}}|(?:{'|'.join([*UNITS, *TENS])})(?:[\s-]+(?:{_NUMBER_WORD})\b)*)"


# Words right after a number that make it another number ("4 hundred" is 400, "4.5", "4-6"),
# one of several ("4 or 5", "4 or task 5", "four or maybe five") or a guess ("4 or so"). A
# task number they follow is not that task's number: the assistant asks which task.
_CHANGES_IT = re.compile(
    r"(?:[\s-]+(?:hundred|thousand|million|billion)\b"
    r"|\s*(?:\bor\b|/)\s*(?:(?:maybe|perhaps|possibly)\s+)?(?:(?:task|number|no\.?)\s*|#\s*)?"
    rf"{NUMBER_PHRASE}\b"
    r"|\.\d+|-\d+|\s+or\s+so\b)",
    _I,
)


def meaning_changed(after: str) -> str | None:
    """The words at the start of `after` (what follows a number) that change the number,
    if any: " hundred", " or 5", ".5"."""
    found = _CHANGES_IT.match(after)
    return found.group(0) if found else None


def number_value(phrase: str) -> int | None:
    """ "four hundred" -> 400, "twenty-one" -> 21, "12" -> 12; None when it is not a number."""
    phrase = phrase.strip().lower()
    if phrase.isdigit():
        return int(phrase)
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", phrase):
        if word in ("and", "a"):
            current = current or (1 if word == "a" else 0)
            continue
        if word in UNITS:
            current += UNITS[word]
        elif word in TENS:
            current += TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total += (current or 1) * 1000
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


_SECOND_TO_LAST = (
    r"(?:next|second|2nd)[\s-]+to[\s-]+last|one before (?:the )?last|penultimate|"
    r"(?:second|2nd)(?:\s+one)?\s+from\s+(?:the\s+)?(?:end|bottom|last)|(?:second|2nd)[\s-]+last"
)
_ORDINAL = "|".join(
    [*ORDINALS, r"\d{1,2}(?:st|nd|rd|th)", _SECOND_TO_LAST, "last", "final", "bottom", "top"]
)
_ITEM_NOUN = r"(?:ones?|tasks?|items?|todos?|entries|entry|rows?|lines?|things?)"
_ON_THE_LIST = (
    r"(?:\s+(?:on|in|from|of)\s+(?:(?:the|my|that|this)\s+list|those|them|these|the list))?"
)
# "the third and fourth ones", "the first two", "the last 3 items", "item three", "row 2".
_POSITIONS = re.compile(
    rf"^(?:the\s+)?(?:(?P<edge>first|last)\s+(?P<count>{NUMBER_PHRASE})(?:\s+{_ITEM_NOUN})?"
    rf"|(?P<ordinals>(?:{_ORDINAL})(?:\s*(?:,|and|&)\s*(?:the\s+)?(?:{_ORDINAL}))*)"
    rf"(?:\s+{_ITEM_NOUN})?"
    rf"|(?:item|row|entry|line|position|no\.?)\s*#?(?P<number>{NUMBER_PHRASE}))"
    rf"{_ON_THE_LIST}(?:\s+(?:too|as well|also|already|now|yesterday|today|earlier|"
    rf"this morning|last night|tonight))*$",
    _I,
)


def _ordinal_value(word: str) -> int | None:
    word = word.lower().strip()
    if word in ORDINALS:
        return ORDINALS[word]
    if word in ("last", "final", "bottom"):
        return -1
    if word == "top":
        return 1
    if re.fullmatch(_SECOND_TO_LAST, word, _I):
        return -2
    digits = re.match(r"\d+", word)
    return int(digits.group(0)) if digits else None


def is_position(text: str) -> bool:
    return _POSITIONS.match(text.strip()) is not None


def positions_in(text: str, listed: tuple[int, ...]) -> list[int] | None:
    """The task numbers at the positions a phrase names in `listed`; None when the phrase is
    not a position or names one the list does not have."""
    match = _POSITIONS.match(text.strip())
    if not match or not listed:
        return None
    if match.group("edge"):
        count = number_value(match.group("count"))
        if not count or count > len(listed):
            return None
        return list(listed[:count] if match.group("edge").lower() == "first" else listed[-count:])
    if match.group("number"):
        places = [number_value(match.group("number"))]
    else:
        places = _ordinal_places(match.group("ordinals"))
    chosen = _tasks_at(places, listed)
    return list(dict.fromkeys(chosen)) if chosen is not None else None


def _ordinal_places(ordinals: str) -> list[int | None]:
    """ "third and fourth" -> [3, 4]; "last" -> [-1] (None for a word that is no place)."""
    words = re.split(r"\s*(?:,|\band\b|&)\s*(?:the\s+)?", ordinals, flags=_I)
    return [_ordinal_value(word) for word in words if word.strip()]


def _tasks_at(places: list[int | None], listed: tuple[int, ...]) -> list[int] | None:
    """The tasks at 1-based places (negative from the end) in `listed`; None when a place is
    not one the list has."""
    chosen: list[int] = []
    for place in places:
        if place is None or place == 0 or abs(place) > len(listed):
            return None
        chosen.append(listed[place - 1] if place > 0 else listed[place])
    return chosen


# A position inside a longer sentence: "hold on, the last one on there, I never picked that
# up", "the number two, I call her today already", "the second-to-last one ... and the very
# last one". A noun after the ordinal (or "number"/"item" before a number) makes it a position.
_POSITION_INSIDE = re.compile(
    rf"\b(?:the\s+)?(?:very\s+)?(?P<ordinal>(?:{_ORDINAL})"
    rf"(?:\s*(?:,|and|&)\s*(?:the\s+)?(?:{_ORDINAL}))*)\s+{_ITEM_NOUN}\b"
    r"(?!\s+first\b)"  # "first things first": a way of speaking
    rf"|\b(?:the\s+)?(?:item|number|no\.|#)\s*(?P<number>{NUMBER_PHRASE})\b(?!\s+(?:of|more|minutes?))"
    # "the one right at the bottom", "the one at the top of the list"
    rf"|\bthe\s+{_ITEM_NOUN}\s+(?:right\s+)?at\s+the\s+(?:very\s+)?(?P<edge>bottom|top|end)\b",
    _I,
)


def positions_inside(text: str, listed: tuple[int, ...]) -> list[int]:
    """The tasks at every position a sentence names in `listed`, in the order said; empty
    when it names none, or one the list does not have."""
    if not listed:
        return []
    chosen: list[int] = []
    for match in _POSITION_INSIDE.finditer(text):
        if match.group("edge"):
            places: list[int | None] = [1 if match.group("edge").lower() == "top" else -1]
        elif match.group("ordinal"):
            places = _ordinal_places(match.group("ordinal"))
        else:
            places = [number_value(match.group("number"))]
        found = _tasks_at(places, listed)
        if found is None:
            return []
        chosen.extend(found)
    return list(dict.fromkeys(chosen))


def names_a_position(text: str) -> bool:
    """Whether a phrase is, or holds, a position ("did the 7th and 9th ones", "the fourth
    item"); "last" inside a sentence is too often not one ("cancel that last thing")."""
    return is_position(text) or any(
        (match.group("ordinal") or "").lower() != "last"
        for match in _POSITION_INSIDE.finditer(text)
    )


def position_phrases(text: str) -> list[str]:
    """The positions a sentence names, as said: "the second one", "the one at the bottom"."""
    return [match.group(0) for match in _POSITION_INSIDE.finditer(text)]
