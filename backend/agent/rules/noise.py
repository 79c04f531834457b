"""Speech and texting noise, read once before anything else (the normalise stage).

In: a message as typed or dictated. Out: the same request in plain written words, so that no
later stage needs its own spelling of "tmrw" or "question mark":

- **spoken punctuation** from dictation: "question mark", "comma", "full stop", "new line",
  "hashtag work" (a tag);
- **fillers** a speech engine writes down: "um", "uh", "erm";
- **texting shorthand**: "2day", "2moro", "2nite", "b4", "hav", "nxt", and "2" for "to"
  between a verb and what follows it ("push it 2 friday", "need 2 call mom");
- **emoji that carry meaning**: a tick is "done", a bin is "delete" ("milk ✅", "🗑️ the
  eggs"); every other emoji is left as typed (a title may hold one);
- **self-corrections inside one message** of a slot that has a type: "the third one's done —
  sorry, the fourth", "what's due tomorrow, no wait, Thursday", "at 4, I mean 5": the
  corrected slot replaces the one it corrects. A correction of anything else is left to the
  follow-up readers (`followups`, `respelling`).
"""

from __future__ import annotations

import re
from functools import lru_cache

_I = re.IGNORECASE

_SPOKEN_MARKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\s*\bquestion\s+mark\b", _I), "?"),
    (re.compile(r"\s*\bexclamation\s+(?:mark|point)\b", _I), "!"),
    (re.compile(r"\s*\bfull\s+stop\b", _I), "."),
    (re.compile(r"\s*\bperiod\s*$", _I), "."),  # mid-sentence, "period" may be a word
    (re.compile(r"\s*\bcomma\b", _I), ","),
    (re.compile(r"\s*\bcolon\b", _I), ":"),
    (re.compile(r"\s*\b(?:new|next)\s+(?:line|paragraph)\b", _I), ";"),
    (re.compile(r"\bhash\s*tag\s+(?=[a-z])", _I), "#"),
)
# "hmm" stays: alone it is a hesitation the follow-up readers answer.
_FILLER = re.compile(r"(?<![\w'-])(?:u+m+|u+h+|e+r+m+|e+r+)(?![\w'-])[,.]?\s*", _I)
_SHORTHAND = {
    "2day": "today",
    "2moro": "tomorrow",
    "2morro": "tomorrow",
    "2morrow": "tomorrow",
    "2mrw": "tomorrow",
    "2mro": "tomorrow",
    "2nite": "tonight",
    "2nyt": "tonight",
    "tonite": "tonight",
    "b4": "before",
    "hav": "have",
    "nxt": "next",
    "wk": "week",
    "wknd": "weekend",
    "tho": "though",
    "cuz": "because",
    "coz": "because",
    "w/e": "whatever",
    "evry": "every",
    "alrdy": "already",
    "alr": "already",
    "w": "with",
    "bc": "because",
    "eva": "every",
    "prio": "priority",
    "hv": "have",
}
_SHORTHAND_WORD = re.compile(
    r"(?<![\w/])(?:" + "|".join(re.escape(w) for w in _SHORTHAND) + r")(?![\w/])", _I
)
# "remind me bout groceries", "how bout": "about" typed short (never "a bout of flu")
_BOUT = re.compile(r"(?<!\ba )(?<!\bthe )(?<!\bthis )(?<!\bthat )\bbout\b", _I)
# "2" for "to": after a word and before a verb, a day or a place word, never before a count's
# thing ("add 2 eggs") or after a number.
_TWO_FOR_TO = re.compile(
    r"(?<=[a-z] )2(?= (?:the|my|a|an|do|go|be|get|call|buy|pick|pay|send|book|see|fix|finish|"
    r"next|this|tomorrow|today|tonight|mon|tue|wed|thu|fri|sat|sun|work|friday|monday|"
    r"tuesday|wednesday|thursday|saturday|sunday)\b)",
    _I,
)
# Short day names: those that are no other word anywhere; "mon", "wed", "sat" and "sun" only
# where a day goes (at the end, or before a time or a part of the day): "sun cream" stays.
_DAY_SHORT = {
    "tue": "tuesday",
    "tues": "tuesday",
    "weds": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "mon": "monday",
    "wed": "wednesday",
    "sat": "saturday",
    "sun": "sunday",
}
_DAY_ALWAYS = re.compile(r"(?<![\w'-])(?:tues?|weds|thu|thurs?|fri)(?![\w'-])\.?", _I)
_DAY_WHERE_A_DAY_GOES = re.compile(
    r"(?<![\w'-])(?:mon|wed|sat|sun)(?![\w'-])\.?"
    r"(?=\s*(?:$|[,.;!?]|\d|at\b|morning|afternoon|evening|night|am\b|pm\b|noon|midday))",
    _I,
)
# ... or after a word that puts a day next: "sorry sat not fri", "move it to sat"
_DAY_AFTER_A_DAY_WORD = re.compile(
    r"\b(?P<lead>on|to|till|until|by|from|next|this|every|sorry|no|not|or|and|than)\s+"
    r"(?P<day>mon|wed|sat|sun)(?![\w'-])\.?"
    # ... and nothing after it but what may follow a day: "put on sun cream" stays
    r"(?=\s*(?:$|[,.;!?]|\d|(?:not|please|instead|at|then|and|or|morning|afternoon|evening|"
    r"night)\b))",
    _I,
)
# "pick up parcel n post it": "n" for "and" between words
_N_FOR_AND = re.compile(r"(?<=\w) n (?=\w)|^n (?=\w)", _I)
_TICK = "\u2705\u2714\u2611\u2713"  # ✅ ✔ ☑ ✓
_BIN = "\U0001f5d1"  # 🗑
_VARIATION = "\ufe0f"
# "1️⃣": a digit, its variation selector and the keycap
_KEYCAP = re.compile(r"(\d)\ufe0f?\u20e3")
# "passport ✅ mom ✅": each tick closes what it follows
_TICK_BETWEEN = re.compile(rf"\s*[{_TICK}]{_VARIATION}?\s+(?=\S)")
_MEANING = re.compile(rf"[{_TICK}]|{_BIN}")
_PLUS = re.compile(r"(?<=\w) \+ (?=\w)")
_TICK_FIRST = re.compile(rf"^\s*[{_TICK}]{_VARIATION}?\s*(?P<rest>\S.*)$")
_TICK_LAST = re.compile(rf"^(?P<rest>.*\S)\s*[{_TICK}]{_VARIATION}?\s*$")
_BIN_FIRST = re.compile(rf"^\s*{_BIN}{_VARIATION}?\s*(?P<rest>\S.*)$")
_BIN_LAST = re.compile(rf"^(?P<rest>.*\S)\s*{_BIN}{_VARIATION}?\s*$")

# A slot's kinds that a correction can replace, each its own pattern.
_ORDINAL = (
    r"(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|"
    r"\d{1,2}(?:st|nd|rd|th))(?:\s+one)?"
)
_DAY = (
    r"(?:today|tonight|tomorrow|(?:next\s+|this\s+)?(?:monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday))"
)
_CLOCK = r"(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?"
# A thing named with a determiner ("the eggs — no, the milk"): it corrects only the phrase of
# the same kind right before the correction, never one further back.
_THING = r"(?:the|my)\s+[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}"
_THING_BEFORE = re.compile(rf"(?<![\w']){_THING}\s*[-—–,]*\s*$", _I)
_SLOTS: tuple[str, ...] = (_ORDINAL, _DAY, _CLOCK)
_CORRECTION = re.compile(
    r"\s*(?:[,;]|\s-+|\s—|\s–)?\s*\b(?:no\s+wait|no\s+sorry|sorry|no|wait|i\s+mean|i\s+meant|"
    r"actually|oops|or\s+rather|rather)\s*[,.]?\s+(?P<new>[^,.;!?]+?)\s*(?P<end>[,.;!?].*)?$",
    _I,
)


# Cheap first looks: most messages have none of a stage's words, and skip it whole.
_MAY_BE_SPOKEN = re.compile(
    r"question\s+mark|exclamation|full\s+stop|period|comma|(?:new|next)\s+(?:line|paragraph)|"
    r"colon|hash",
    _I,
)
_MAY_BE_SHORTHAND = re.compile(
    r"\b2[a-z]|\bb4\b|\s2\s|\+|\b(?:n|w|tonite|evry|eva|alr\w*|tho|cuz|coz|bc|nxt|wk\w*|hav|hv|prio|bout|"
    r"tue|tues|weds?|thu|thur|thurs|fri|mon|sat|sun)\b",
    _I,
)
# "make it 5 instead of 6", "for 11 o'clock rather than 10", "to 4, not 3": a time said in
# place of another corrects the time; the old one only tells the half of the day.
_HOUR = r"\d{1,2}(?:[:.]\d{2})?(?:\s*(?:am|pm|o'?clock))?"
_TIME_INSTEAD = re.compile(
    rf"(?<![\w'])(?:(?P<lead>for|to|at)\s+)?(?P<new>{_HOUR})\s*(?:(?:instead\s+of|rather\s+than)|"
    rf",?\s+not)\s+(?:at\s+)?(?P<old>{_HOUR})(?![\w'])",
    _I,
)
# Times and dates said in words or run together: "two thirty pm" is 2:30 pm, "fri 1230" is
# friday 12:30, "december tenth" is december 10th.
_HOUR_WORDS = {
    w: n
    for n, w in enumerate(
        "one two three four five six seven eight nine ten eleven twelve".split(), start=1
    )
}
_MINUTE_WORDS = {"fifteen": 15, "thirty": 30, "forty five": 45, "forty-five": 45, "o'clock": 0}
_SPOKEN_CLOCK = re.compile(
    r"(?<![\w'-])(?P<hour>" + "|".join(_HOUR_WORDS) + r")\s+(?P<minute>fifteen|thirty|"
    r"forty[\s-]five|o'?clock)(?P<half>\s*[ap]\.?\s?m\.?)?(?![\w'-])",
    _I,
)
_RUN_TOGETHER_CLOCK = re.compile(
    r"(?P<lead>\b(?:at|@|[a-z]*day)\s+)(?P<hour>[01]?\d|2[0-3])(?P<minute>[0-5]\d)"
    r"(?=\s*(?:$|[,;!?)]|\.(?!\d)|[ap]\.?m\b|(?:on|tomorrow|today|tonight|and|please|pls)\b))",
    _I,
)
_ORDINAL_WORDS = {
    w: n
    for n, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
        "twentieth".split(),
        start=1,
    )
} | {"twenty first": 21, "twenty second": 22, "twenty third": 23, "thirtieth": 30}
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_ORDINAL_WORD = (
    r"(?P<ordinal>twenty[\s-](?:first|second|third)|"
    + "|".join(w for w in _ORDINAL_WORDS if " " not in w)
    + r")"
)
_MONTH_ORDINAL = re.compile(
    rf"(?<![\w'-])(?P<month>{_MONTHS})\s+(?:the\s+)?{_ORDINAL_WORD}(?![\w'-])"
    rf"|(?<![\w'-])(?:the\s+)?{_ORDINAL_WORD.replace('ordinal', 'ordinal2')}\s+of\s+"
    rf"(?P<month2>{_MONTHS})(?![\w'-])",
    _I,
)
_MAY_BE_A_TIME_IN_WORDS = re.compile(
    r"thirty|fifteen|forty|o'?clock|\d{3,4}\b|"
    + "|".join(w for w in _ORDINAL_WORDS if " " not in w),
    _I,
)


def _suffixed(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _clock_in_words(found: re.Match[str]) -> str:
    minute = _MINUTE_WORDS[
        re.sub(r"[\s-]+", " ", found["minute"].lower()).replace("oclock", "o'clock")
    ]
    half = re.sub(r"[.\s]", "", found["half"] or "").lower()
    return f"{_HOUR_WORDS[found['hour'].lower()]}:{minute:02d}{' ' + half if half else ''}"


def _day_in_words(found: re.Match[str]) -> str:
    word = re.sub(r"[\s-]+", " ", (found["ordinal"] or found["ordinal2"]).lower())
    month = found["month"] or found["month2"]
    return f"{month} {_suffixed(_ORDINAL_WORDS[word])}"


def _times_in_words(text: str) -> str:
    if not _MAY_BE_A_TIME_IN_WORDS.search(text):
        return text
    text = _SPOKEN_CLOCK.sub(_clock_in_words, text)
    text = _RUN_TOGETHER_CLOCK.sub(lambda m: f"{m['lead']}{m['hour']}:{m['minute']}", text)
    return _MONTH_ORDINAL.sub(_day_in_words, text)


_MAY_BE_CORRECTED = re.compile(r"\b(?:no|wait|sorry|mean|meant|actually|oops|rather)\b", _I)


def _spoken_marks(text: str) -> str:
    if not _MAY_BE_SPOKEN.search(text):
        return text
    for pattern, mark in _SPOKEN_MARKS:
        text = pattern.sub(mark, text)
    return text


def _day(found: re.Match[str]) -> str:
    return _DAY_SHORT[found.group(0).rstrip(".").lower()]


def _shorthand(text: str) -> str:
    if not _MAY_BE_SHORTHAND.search(text):
        return text
    text = _SHORTHAND_WORD.sub(lambda m: _SHORTHAND[m.group(0).lower()], text)
    text = _DAY_ALWAYS.sub(_day, text)
    text = _DAY_WHERE_A_DAY_GOES.sub(_day, text)
    text = _DAY_AFTER_A_DAY_WORD.sub(lambda m: f"{m['lead']} {_DAY_SHORT[m['day'].lower()]}", text)
    text = _N_FOR_AND.sub(lambda m: "and " if m.start() == 0 else " and ", text)
    text = _PLUS.sub(" and ", text)
    text = _BOUT.sub("about", text)
    return _TWO_FOR_TO.sub("to", text)


def _meaning_emoji(text: str) -> str:
    if text.isascii():
        return text
    if _MEANING.search(text):  # "1️⃣ and 2️⃣ ✅": keycaps are rows; in a title they stay
        text = _KEYCAP.sub(r"\1", text)
    if not _TICK_FIRST.match(text):
        text = _TICK_BETWEEN.sub(" done. ", text)
    for pattern, said in ((_TICK_FIRST, "{} done"), (_TICK_LAST, "{} done")):
        found = pattern.match(text)
        if found:
            return said.format(found["rest"].strip())
    for pattern in (_BIN_FIRST, _BIN_LAST):
        found = pattern.match(text)
        if found:
            return f"delete {found['rest'].strip()}"
    return text


def _kind_of(phrase: str) -> str | None:
    for slot in _SLOTS:
        if re.fullmatch(slot, phrase.strip(), _I):
            return slot
    return None


def _fitted(old: str, new: str) -> str:
    """The new slot with the words around the old one it left out: "at 4" -> "5" is "at 5",
    "the third one" -> "the fourth" is "the fourth one"."""
    for lead in ("the ", "at "):
        if old.lower().startswith(lead) and not new.lower().startswith(lead):
            new = lead + new
    if old.lower().endswith(" one") and not new.lower().endswith(" one"):
        new += " one"
    return new


def _kind_of_new(phrase: str) -> str | None:
    return _kind_of(phrase) or (_THING if re.fullmatch(_THING, phrase.strip(), _I) else None)


def _corrected_phrase(before: str, kind: str) -> re.Match[str] | None:
    """The last phrase of the kind before the correction; a thing only right before it."""
    if kind == _THING:
        return _THING_BEFORE.search(before)
    olds = list(re.finditer(rf"(?<![\w']){kind}(?![\w])", before, _I))
    return olds[-1] if olds else None


def _time_instead(found: re.Match[str]) -> str:
    new = re.sub(r"\s*o'?clock$", "", found["new"], flags=_I)
    half = re.search(r"[ap]m$", found["old"], _I)
    if half and not re.search(r"[ap]m$", new, _I):
        new += half.group(0).lower()
    return f"{'to' if (found['lead'] or '').lower() == 'to' else 'at'} {new}"


def _times_instead(text: str) -> str:
    low = text.lower()
    if "instead" not in low and "rather" not in low and " not " not in low:
        return text
    return _TIME_INSTEAD.sub(_time_instead, text)


def _the_correction(text: str, first: re.Match[str]) -> tuple[re.Match[str] | None, str | None]:
    """The correction that names a slot: the first one, else a later one ("I meant ...")."""
    found: re.Match[str] | None = first
    while found is not None:
        kind = _kind_of_new(found["new"].strip())
        if kind is not None:
            return found, kind
        found = _CORRECTION.search(text, found.start("new"))
    return None, None


# "add shampoo, conditioner, um no not conditioner, toothpaste": an item of a list taken back
_TAKEN_BACK = re.compile(
    r"(?P<lead>,|\band\b)\s*(?P<item>[^,;.!?]+?)\s*,\s*(?:no,?\s+)?not\s+(?:the\s+)?"
    r"(?P<again>[^,;.!?]+?)\s*(?=[,;.!?]|$)",
    _I,
)


def _taken_back(text: str) -> str:
    found = _TAKEN_BACK.search(text) if " not " in text.lower() else None
    if found is None or found["item"].strip().lower() != found["again"].strip().lower():
        return text
    return f"{text[: found.start()]}{text[found.end() :]}".strip()


def _self_corrected(text: str) -> str:
    """ "the third one's done — sorry, the fourth" -> "the fourth one's done": the last phrase
    of the corrected kind before the correction gives way to the new one."""
    first = _CORRECTION.search(text) if _MAY_BE_CORRECTED.search(text) else None
    if first is None:
        return _taken_back(text)
    found, kind = _the_correction(text, first)
    if found is None or kind is None:
        return _taken_back(text)
    new = found["new"].strip()
    # "mark the passport done - no wait, that's not till next week, I meant the email to
    # Sarah": what comes between the first mark and the one that names the new thing is why
    before = text[: first.start()]
    old = _corrected_phrase(before, kind)
    if old is None:
        return text
    tail = (found["end"] or "").lstrip(",; ")
    fixed = f"{before[: old.start()]}{_fitted(old.group(0), new)}{before[old.end() :]}"
    return f"{fixed}{' ' + tail if tail and tail[0] not in '.!?' else tail}".strip()


@lru_cache(maxsize=1024)  # a turn prepares the same message several times
def without_noise(message: str) -> str:
    """The message in plain written words (see the module's docstring)."""
    text = _spoken_marks(message)
    text = _FILLER.sub("", text) or text  # "um" alone is still something said
    text = _shorthand(text)
    text = _meaning_emoji(text.strip())
    return _self_corrected(_times_instead(_times_in_words(text)))
