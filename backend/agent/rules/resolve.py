"""Task resolution by title (the spec's Rule 5, priorities 2 and 3)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import DamerauLevenshtein

from backend.agent.rules.spelling import is_english_word
from backend.agent.rules.text import SETTLE_LIMIT, visible
from backend.agent.rules.vocabulary import is_task_verb
from backend.domain.title_words import canonical

SIMILARITY_THRESHOLD = 60.0  # percent; the spec accepts matches above 60% similarity
STRONG = 90.0  # exact, substring, or every word of the query found in the title
WORD_MATCH = 98.0  # the query is the title, or whole words of it
WHOLE_WORDS = 95.0  # every word of the query is a word of the title (never part of a word)
MISSPELT = 91.0  # every word of the query is a title word with one typing slip
_STEM = 4

_LEADING_NOISE = re.compile(
    r"^(?:(?:the|my|a|an|that|this|our|task|todo|to-do|item|one|called|named|titled|about|"
    r"for|to|with)\s+)+",
    re.IGNORECASE,
)
_TRAILING_NOISE = re.compile(
    r"(?:\s+(?:task|tasks|todo|to-do|item|one|thing|stuff|reminder|off|on my list|from my list|"
    r"off my list|"
    r"on the list|from the list|off the list))+$",
    re.IGNORECASE,
)
_STOPWORDS = frozenset(
    "the a an my to of for and or with on in at by from it i i'm i've didn't did not don't "
    "have haven't just already actually really anymore any more need "
    # when it was done says nothing about which task: "I did the grocery run yesterday"
    "yesterday today tonight earlier finally".split()
)
# Words that name an outing, not its purpose: "the grocery run" is the groceries.
_ERRAND_WORDS = frozenset(w[:_STEM] for w in "run trip errand errands".split())


def strip_reference_noise(text: str) -> str:
    """ "the groceries task" -> "groceries" (the user's casing kept)."""
    text = text.strip().strip("'\"").strip()
    previous = None
    for _ in range(SETTLE_LIMIT):
        if previous == text:
            break
        previous = text
        text = _LEADING_NOISE.sub("", text).strip()
        text = _TRAILING_NOISE.sub("", text).strip()
    return text.strip("'\"").strip()


def normalize_query(query: str) -> str:
    return strip_reference_noise(query).lower()


def _stems(text: str) -> set[str]:
    words = re.findall(r"\w+(?:'\w+)?", text.lower())
    words = [canonical(w).removesuffix("'s") for w in words]
    return {w[:_STEM] for w in words if len(w) > 1 and w not in _STOPWORDS}


def score(query: str, title: str) -> float:
    """How well `query` names `title`: 100 exact, >= 90 strong, > 60 a fuzzy match."""
    # A stored title keeps the joiners of its emoji; the query was read without them.
    wanted, candidate = normalize_query(query), visible(title).strip().lower()
    if not wanted:
        return 0.0
    if wanted == candidate:
        return 100.0
    if re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", candidate):
        return 98.0
    query_stems = _stems(wanted)
    title_stems = _stems(candidate)
    if query_stems and query_stems <= title_stems:
        return WHOLE_WORDS
    purpose = query_stems - _ERRAND_WORDS
    if purpose and purpose != query_stems and purpose <= title_stems:
        return STRONG
    if wanted in candidate:
        return 92.0
    if _words_misspelt(wanted, candidate):
        return MISSPELT
    if _another_word(wanted, candidate):
        return 0.0  # "call dad" is not "call mom": the same frame, another thing
    return max(fuzz.ratio(wanted, candidate), fuzz.token_set_ratio(wanted, candidate) * 0.95)


# Words of the request around a reference, not of the task: "honestly take the bathroom",
# "out from list the passport", "papr towels then".
_FRAME_WORDS = frozenset(
    "take out from off list then honestly please pls also too one ones thing things task "
    "tasks item items remove delete cross tick mark get rid put back away so well ok okay "
    "now that this those these them all both entirely completely altogether".split()
)


def is_a_guess(query: str, title: str) -> bool:
    """Whether `query` names `title` only by likeness while saying a real word the title does
    not have ("email john" for "Email Sarah about the project", "pay water bill" for "Pay
    electricity bill"), or only by some of its words ("the dog list" for "Walk the dog"):
    right for a look-up, a guess for a deletion."""
    likeness = score(query, title)
    if likeness >= MISSPELT:
        return False
    if likeness <= SIMILARITY_THRESHOLD:
        return True  # named by shared words alone (`overlapping_tasks`, `mentioned_tasks`)
    wanted = normalize_query(query)
    if len(wanted.split()) > 5:
        # A sentence that mentions the task ("I'm not renewing my passport ..."): named when
        # it says every word of the title in some form; otherwise the words around it may be
        # about something else.
        return not _stems(visible(title)) <= _stems(wanted)
    titled = _stems(visible(title))
    title_words = re.findall(r"\w+", visible(title).lower())
    for word in re.findall(r"\w+", wanted):
        if word in _STOPWORDS or word in _FRAME_WORDS or word[:_STEM] in titled:
            continue
        if not is_english_word(word):
            continue
        if any(DamerauLevenshtein.distance(word, other) <= 1 for other in title_words):
            continue
        return True
    return False


def _another_word(query: str, title: str) -> bool:
    """Whether the query shares words with the title but puts another real word where the
    title has its own ("call dad" for "call mom"), rather than a typing slip of it."""
    said = set(re.findall(r"\w+", query)) - _STOPWORDS
    titled = set(re.findall(r"\w+", title)) - _STOPWORDS
    extra, missing = said - titled, titled - said
    if len(extra) != 1 or len(missing) != 1 or len(said) != len(titled) or not said & titled:
        return False
    word, other = next(iter(extra)), next(iter(missing))
    return (
        is_english_word(word)
        and not (is_task_verb(word) or is_task_verb(other))  # "make the report": its doing
        and word[:_STEM] != other[:_STEM]  # "watered" is "water" said another way
        and DamerauLevenshtein.distance(word, other) > 1
    )


def _words_misspelt(query: str, title: str) -> bool:
    """Every word of the query is a word of the title typed with one slip ("reprot" for
    "report", "dentst" for "dentist"); words of four letters or fewer must match exactly."""
    words = [w for w in re.findall(r"\w+", query) if w not in _STOPWORDS]
    title_words = re.findall(r"\w+", title)
    if not words:
        return False
    for word in words:
        if word in title_words:
            continue
        if len(word) < 5:
            if not any(_short_slip(word, other) for other in title_words):
                return False
            continue
        if not any(DamerauLevenshtein.distance(word, other) <= 1 for other in title_words):
            return False
    return True


def _short_slip(word: str, other: str) -> bool:
    """A short word typed with a letter dropped, doubled or swapped ("egs", "mlik"), never a
    letter replaced ("call dad" is not "call mom") and never another real word."""
    if len(word) < 3 or is_english_word(word) or DamerauLevenshtein.distance(word, other) != 1:
        return False
    return len(word) != len(other) or sorted(word) == sorted(other)


def match_tasks(query: str, tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks `query` names: an exact title if there is one, else the strong matches,
    else the fuzzy ones above the threshold; best first, then by task number."""
    scored = [(score(query, str(task["title"])), task) for task in tasks]
    scored = [(s, task) for s, task in scored if s > SIMILARITY_THRESHOLD]
    if not scored:
        return mentioned_tasks(query, tasks) or overlapping_tasks(query, tasks)
    best = max(s for s, _ in scored)
    if best == 100.0:
        scored = [(s, t) for s, t in scored if s == 100.0]
    elif best >= STRONG:
        scored = [(s, t) for s, t in scored if s >= STRONG]
    scored.sort(key=lambda pair: (-pair[0], int(pair[1]["id"])))
    return [task for _, task in scored]


# A sentence names a task when it holds most of the task's words: "I finally called my mom
# last night, we talked for hours" names "call mom".
MENTION_SHARE = 0.6
_MENTION_MIN_WORDS = 4


def mentioned_tasks(sentence: str, tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks a whole sentence talks about (most of the title's words are in it), best
    first; only for sentences, not for short titles (those are matched by `score`)."""
    said = _stems(normalize_query(sentence))
    if len(said) < _MENTION_MIN_WORDS:
        return []
    shares: list[tuple[float, dict[str, Any]]] = []
    for task in tasks:
        words = _stems(str(task["title"]))
        found = len(words & said)
        if words and (found == len(words) or (found >= 2 and found / len(words) >= MENTION_SHARE)):
            shares.append((found / len(words), task))
    if not shares:
        return []
    best = max(share for share, _ in shares)
    return [task for share, task in sorted(shares, key=lambda p: int(p[1]["id"])) if share == best]


# Words that point at a task without being of it: "the task regarding the dentist".
_POINTING_WORDS = frozenset(
    w[:_STEM]
    for w in "regarding concerning re about related involving relating thing bit whole".split()
)
# A reference names a task by its words when at least this share of them is in the title.
OVERLAP_SHARE = 0.5


def reference_stems(query: str) -> set[str]:
    """The stems of what a reference names: no frame, pointing or doing words ("buy" alone
    names no task: the thing bought does; "remove 'buy stamps'" is no "Buy groceries")."""
    frame = {w[:_STEM] for w in _FRAME_WORDS}
    words = re.findall(r"\w+", normalize_query(query))
    verbs = {canonical(w)[:_STEM] for w in words if is_task_verb(w)}
    return _stems(normalize_query(query)) - frame - _POINTING_WORDS - verbs


def title_stems(title: str) -> set[str]:
    """The stems a stored title is matched by (its emoji joiners set aside)."""
    return _stems(visible(title))


def overlapping_tasks(query: str, tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks that hold most of the reference's own words, when neither likeness nor a
    whole sentence named one: "the task regarding the dentist" is "Book dentist appointment",
    "the grocery shopping one" "Buy groceries". Every task sharing the most words is returned
    (several: the caller asks which)."""
    said = reference_stems(query)
    if not said:
        return []
    shared = [(len(said & title_stems(str(t["title"]))), t) for t in tasks]
    best = max((n for n, _ in shared), default=0)
    if best == 0 or best / len(said) < OVERLAP_SHARE:
        return []
    return [t for n, t in sorted(shared, key=lambda p: int(p[1]["id"])) if n == best]


def similar_tasks(title: str, tasks: Sequence[dict[str, Any]], *, exclude: int) -> list[str]:
    """Titles of other tasks that look like the same errand (for the "you also have" note)."""
    stems = _stems(title)
    similar = []
    for task in tasks:
        if int(task["id"]) == exclude:
            continue
        other = str(task["title"])
        looks_alike = fuzz.token_set_ratio(visible(title).lower(), visible(other).lower()) > 70
        if stems & _stems(other) or looks_alike:
            similar.append(other)
    return similar


def misspelt_match(query: str, task: dict[str, Any]) -> bool:
    """Whether `task` is named by `query` with typing slips only (no looser fuzzy match: a
    whole list read back is matched strictly)."""
    return _words_misspelt(normalize_query(query), str(task["title"]).strip().lower())


# "eggs, but not the milk", "all of them except the passport": what comes after names what
# stays as it is.
_EXCEPTION = re.compile(
    r"\b(?:but\s+not|not\s+the|except(?:\s+for)?|apart\s+from|other\s+than|besides|"
    r"leave\s+(?:out\s+)?the|keep\s+the)\b",
    re.IGNORECASE,
)


def before_an_exception(text: str) -> str:
    """`text` up to an exception ("but not the eggs"): what it says of the tasks to act on."""
    return _EXCEPTION.split(text, maxsplit=1)[0]


def named_in_full(query: str, tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks whose every title word the query says, outside an exception ("but not the
    eggs"), each only when no longer title named in full holds its words ("call mom" is not
    named apart from "call mom about dinner"): how many tasks one reference names outright."""
    said = _stems(normalize_query(before_an_exception(query)))
    full = [t for t in tasks if (words := title_stems(str(t["title"]))) and words <= said]
    return [
        t
        for t in full
        if not any(
            title_stems(str(t["title"])) < title_stems(str(other["title"])) for other in full
        )
    ]


_PART_BREAK = re.compile(r"\s*(?:[,;]|\band\b|\bthen\b|\balso\b|\bplus\b)\s*", re.IGNORECASE)


def named_apart(query: str, tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks a reference names, each in full or by a part of its own ("the dry cleaning,
    and the paper towels put in work list" names two): more than one is no single target."""
    kept = before_an_exception(query)
    named = {int(t["id"]): t for t in named_in_full(kept, tasks)}
    for part in _PART_BREAK.split(kept):
        if not reference_stems(part):
            continue
        found = match_tasks(part, tasks)
        if len(found) == 1 and score(part, str(found[0]["title"])) >= STRONG:
            named.setdefault(int(found[0]["id"]), found[0])
    return sorted(named.values(), key=lambda t: int(t["id"]))


def named_only_as_an_exception(query: str, title: str) -> bool:
    """Whether the query names `title` only after "but not", "except" and the like."""
    parts = _EXCEPTION.split(query, maxsplit=1)
    if len(parts) < 2:
        return False
    words = title_stems(title)
    return bool(words) and words <= _stems(parts[1]) and not words <= _stems(parts[0])
