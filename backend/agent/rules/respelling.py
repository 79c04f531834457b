"""A word of the task just added or renamed, spelt again: "sorry, shampoo with two o",
"I spelled his name wrong, it's John with an h", "oops oat milk i mean".

The new spelling replaces the one word of the title it is a typing slip of (at most two
edits apart); everything else in the title stays as it was.
"""

from __future__ import annotations

import re

from rapidfuzz.distance import DamerauLevenshtein

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.followups import last_action, renamed_last

_I = re.IGNORECASE

# Something in the message says it is about spelling, not a new request.
_RESPELLING_CUE = re.compile(
    r"\b(?:spell\w*|spelt|typo|misspel\w*|wrong(?:ly)?|oops|i mean|i meant|i said|"
    r"with (?:an?|two|double|one)\s+\w)\b",
    _I,
)
# Words that are never a respelling of a title's word.
_NOT_RESPELT = frozenset(
    "the that this then there their they them these those than what when where with wrong "
    "write wrote spell spelled spelt sorry mean meant name".split()
)
# Words said around a respelling ("sorry i write wrong, shampoo with two o").
_ABOUT_SPELLING = frozenset(
    """
    sorry oops oh no ah wait i i'm it it's its is was not the a an with two double one letter
    letters his her their name names spell spelled spelt spelling typo typed misspelled
    misspelt wrong wrongly write wrote written mean meant should be sorry my bad mistake
    please pls ok okay right correct correctly actually this that of in on o e h y s
    lol haha lmao oopsie whoops said alexa google siri hey
    """.split()
)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_MAX_WORDS = 14
_MAX_EDITS = 2
_SHORTEST = 3


def respelt_title(text: str, context: ConversationContext) -> tuple[int, str] | None:
    """(task number, title with the word spelt anew), or None when the message is not that."""
    task_id = _task_just_named(context)
    if task_id is None or "?" in text:
        return None
    words = _WORD.findall(text)
    if len(words) > _MAX_WORDS:
        return None
    title = context.known_title(task_id)
    if title is None:
        return None
    title_words = _WORD.findall(title)
    lowered = {w.lower() for w in title_words}
    if not _about_spelling(text, lowered):
        return None
    slip = _typing_slip(words, title_words, lowered)
    if slip is None:
        return None
    old, new = slip
    if _said_besides(words, lowered, new) - _ABOUT_SPELLING:
        return None  # "I meant iced tea, not ice cream": another thing named, not a respelling
    return task_id, re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, title, count=1)


def _about_spelling(text: str, lowered: set[str]) -> bool:
    """Whether the message says it is about spelling, or names a word of the title beside."""
    # "is shoes not shoos": the old spelling named beside the new one is cue enough
    names_old = re.search(rf"\bnot\s+(?:{'|'.join(map(re.escape, lowered))})\b", text, _I)
    return bool(_RESPELLING_CUE.search(text) or names_old)


def _typing_slip(
    words: list[str], title_words: list[str], lowered: set[str]
) -> tuple[str, str] | None:
    """(old word, new word): the title's word a said word is fewest edits from; None when
    none is, or when two words of the title are equally near."""
    best: tuple[int, str, str] | None = None  # (edits, old word, new word)
    for said in words:
        if said.lower() in lowered or len(said) < _SHORTEST or said.lower() in _NOT_RESPELT:
            continue
        for old in title_words:
            edits = DamerauLevenshtein.distance(said.lower(), old.lower())
            if len(old) >= _SHORTEST and 0 < edits <= min(_MAX_EDITS, len(old) - 1):
                if best is None or edits < best[0]:
                    best = (edits, old, said)
                elif edits == best[0] and old != best[1]:
                    return None  # two words of the title could be meant: not a guess to make
    if best is None:
        return None
    return best[1], best[2]


def _said_besides(words: list[str], lowered: set[str], new: str) -> set[str]:
    """The words said that are neither the title's nor the new spelling."""
    return {
        w.lower()
        for w in words
        # "flour f l o u r": the word spelt out, a letter at a time
        if w.lower() not in lowered and w.lower() != new.lower() and len(w) > 1
    }


def _task_just_named(context: ConversationContext) -> int | None:
    """The task the last change added or renamed."""
    if last_action(context) != "add" and not renamed_last(context):
        return None
    return context.focus_task_id
