"""Preparing user text for matching and formatting titles for display."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from backend.agent.rules.noise import without_noise
from backend.agent.rules.spelling import correct_spelling

_SPACES = re.compile(r"\s+")
# Sentences: "Fair enough. Then add 'get pizza dough'", "Yikes. Okay, read them out to me."
# An abbreviation's full stop ("Dr. Lee", "St. Louis") does not end a sentence.
SENTENCE_END = re.compile(
    r"(?<!\b(?:dr|mr|ms|st|vs|jr|sr|mt)\.)(?<!\bmrs\.)(?<=[.!?])\s+(?=\S)", re.IGNORECASE
)
# "eggs too", "the fifth as well": one more of the same, said at the end
ALSO_TAIL = re.compile(r"\s+(?:too|as well|also)$", re.IGNORECASE)
# Between the items of a spoken list: "a, b and c", "a & b".
LIST_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and\s+)?|\band\b|&)\s*", re.IGNORECASE)
_SMART_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "´": "'"})
_EDGE_QUOTES = "'\"`"
_I = re.IGNORECASE

# Rewrites run until the text stops changing, but never more than this many times: two
# rewrites that undo each other ("at 9 morning" <-> "morning at 9") would loop for ever.
SETTLE_LIMIT = 12

# A voice assistant's wake word said before the request: "ok google, add rice".
WAKE_WORD = r"alexa|(?:hey |ok |okay )?google|(?:hey )?siri|computer"
# Conversational padding around the request itself.
_LEAD_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|kk?|ah|no(?=\s*,)|alright|all right|so|um+|uh+|hm+|well|oh|and|also|then|"
    r"hey|yo|hi|hello|"
    r"actually|anyway|anyways|anyhow|additionally|furthermore|moreover|"
    # apologies before a request: "I'm terribly sorry, could you undo that?"
    r"(?:i'm|i am) (?:so |terribly |really |very |awfully )?sorry|i (?:do )?apologi[sz]e|"
    r"my apologies|"
    r"my bad|my mistake|(?:i'm|i am) afraid(?: that)?|"
    rf"{WAKE_WORD}|olly|"
    r"no wait|wait|hold on|hang on|oops|sorry|no problem|no worries|never mind|"
    r"(?:i|i've|i have)\s+change[ds]?\s+my mind|is (?:a )?mistake|it was a mistake|"
    r"please|pls|plz|kindly|quick(?:ly)?|great|cool|thanks|thank you|now|right|"
    # interjections and asides before a request: "Oh gosh, scratch the streamers"
    r"gosh|oh no|oh dear|ugh|wow|yikes|whoops|phew|darn|dang|jeez|geez|blimey|lovely|"
    r"perfect|brilliant|excellent|awesome|nice|good news|fine|splendid|super|very well|"
    r"you know what|on second thought|first things? first|first thing|first of all|firstly|"
    r"to start with|before i forget|real quick|quick one|"
    # "quick question before I head to the shops, is bread on there?", "random question but"
    r"(?:(?:a|one|quick|random|silly|small|dumb)\s+)*question(?:\s+(?:before|for|about|while)"
    r"\b[^,.?!]{0,60})?(?:\s+but)?|"
    # "okay two things: ...": a count of the requests to come
    r"(?:two|three|a couple of|a few|couple of|some|2|3) (?:things|requests|quick ones)(?=\s*:)|"
    r"while (?:i'm|i am|we're|we are|you're|you are) at it|"
    r"come to think of it|by the way|btw|just so you know|fyi|for the record|in that case|"
    r"either way|in any case|regardless|"
    r"if so|if that's the case|(?:right|alright|ok|okay) then|"
    r"(?:i am|i'm) (?:pleased|happy|glad|delighted) to (?:say|report|tell you)(?: that)?|"
    r"happy to report(?: that)?|if (?:it's|it is) no trouble|if you (?:don't|do not|wouldn't|would "
    r"not) mind|when you (?:get|have) a (?:chance|minute|moment|sec|second)|if possible|"
    r"if you can|if you could|many thanks|thanks a lot|thank you kindly|one more|another one|"
    r"while (?:you're|you are|we're|we are) at it)\b[\s,.!:;-]*)+",
    _I,
)
_POLITE_LEAD = re.compile(
    r"^(?:would you mind|do you mind|would you be so (?:kind|good) as to|"
    r"(?:i would|i'd|i should|i shall|i will|i'll) (?:be (?:very |most )?grateful|appreciate it) "
    r"if you (?:could|would)|"
    r"(?:may|might|can|could) i (?:now |just |please )?(?=(?:see|view|have a look at)\b)|"
    r"(?:may|might|can|could) i (?:ask|trouble) you to|please you|you can|"
    r"you(?=\s+(?:delete|add|remove|mark|show|put|change|clear)\b)|"
    r"(?:can|could|would|will|might|may) (?:you|u)(?: please| kindly| just| pls)?|"
    r"(?:would it be|is it|will it be) possible (?:for you )?to|"
    r"i(?:'d| would) like to(?=\s+(?:add|put|remove|delete|mark|see|know|check|change|rename|"
    r"update|clear|complete)\b)|"
    # "I want see what things I need buy"
    r"i want(?: to)?(?=\s+(?:see|know)\s+(?:what|which|my|the|all|everything)\b)|"
    r"can i (?:get you to|ask you to)|i'd like you to|i would like you to|i want you to|"
    r"i need you to|help me|please|pls|kindly|just|go ahead and|let's|lets|let us)\b[\s,]*",
    _I,
)
_TRAIL_FILLER = re.compile(
    r"(?:[\s,]+(?:please|pls|plz|thanks|thank you|thx|for me|asap|now|right now|ok|okay|too|"
    r"if you would|if you (?:don't|do not|wouldn't|would not) mind|if you could|when you get a "
    r"chance|if possible|if (?:it's|it is) no trouble|"
    # tag questions and asides at the end: "take it off the list, would you?"
    r"(?:would|could|will|can|won't) you|by any chance|by chance|at all|yeah|right|"
    r"while (?:we're|you're|we are|you are|your|youre|ur) at it|"
    r"move on|moving on|next|cheers|or not|yes or no|or no|fast|quick|quickly|hurry(?: up)?|"
    r"according to (?:my|the) (?:list|to-?do list)|"
    r"as well|lol|haha|:\)|:d|"
    # "cross it off, got it": what was done to the item, said after the request
    r"(?:i\s+)?(?:already\s+)?(?:got|have|had|did|done|bought|sorted|finished|handled|grabbed|"
    r"picked up)\s+(?:it|them|those|that|these|both)(?:\s+already)?|"
    # "mark that one done i booked it this morning": how it got done, said after
    r"(?:i|we)\s+(?:just\s+|already\s+|finally\s+)?\w*[^\We]ed\s+(?:it|them|those|that|her|him)"
    r"(?:\s+\w+){0,3}|"
    r"(?:so\s+)?(?:you can|please|go ahead and)\s+(?:tick|check|cross|"
    r"mark)\s+(?:that|it)\s+(?:off|as done|done)))+"
    r"(?:\s*[\u2190-\u2bff\U0001f000-\U0001faff\ufe0f\u200d]+)?[\s.!?]*$",
    _I,
)
_CHECK_MARK = re.compile(r"\s*(?:✅|✔️|✔|☑️|☑|✓)\s*$")
_TRAILING_SYMBOLS = re.compile(r"(?:\s*[^\w\s'\"),.!?]+)+\s*$")


_BULLET_LINE = re.compile(r"\s*\n\s*(?:[-*•·]|\d{1,2}[.)])\s+")
# A new line that starts with a command is a new request ("add milk\nadd bread").
_COMMAND_LINE = re.compile(
    r"(?<![;:,.!?])\s*\n\s*(?=(?:please\s+)?(?:add|create|put|remind me|delete|remove|cancel|"
    r"complete|finish|mark|show|list|update|change|rename|edit)\b)",
    _I,
)


# Zero-width and other invisible format characters: a title made of them looks empty.
_INVISIBLE = re.compile(r"[\u200b-\u200d\u2060-\u2064\ufeff\u00ad\u180e]")
# "rename eggs -> free range eggs"
_ARROW = re.compile(r"\s*(?:->|=>|→|⇒)\s*")
_INFORMAL = {
    "wanna": "want to",
    "gonna": "going to",
    "gotta": "have to",
    "hafta": "have to",
    "w/": "with",
    "w/o": "without",
}
_INFORMAL_WORD = re.compile(r"\b(?:wanna|gonna|gotta|hafta|w/o|w/)(?!\w)", _I)
# "k", "kk", "okie": a whole message that is only an "ok"
_OK_TYPED_SHORT = re.compile(r"^\s*(?:k+|okie|okey|oki|okk+|mk+|kk+ay)(?=[\s.!]*$)", _I)
# "its done now": the possessive typed for "it's" before what is said about "it".
_ITS = re.compile(
    r"\bits(?=\s+(?:done|finished|sorted|complete|completed|gone|been|not|already|still|all|"
    r"on (?:there|the list|my list)|in (?:there|the list|my list))\b)",
    _I,
)


def visible(text: str) -> str:
    """The text as matching reads it: without invisible format characters."""
    return _INVISIBLE.sub("", text)


def as_typed(fragment: str, message: str) -> str:
    """`fragment` (a title, description or search the engine took from `message`) with the
    invisible characters `prepare` dropped for matching put back where the user typed them:
    "👨\u200d👩\u200d👧" keeps its joiners. A character is put back only between two that
    stand next to each other both in `fragment` and in what the user typed."""
    if not _INVISIBLE.search(message):
        return fragment
    shown: list[str] = []
    hidden: list[str] = []  # the invisible characters typed just before each shown one
    before = ""
    for char in message:
        if _INVISIBLE.match(char):
            before += char
        else:
            shown.append(char)
            hidden.append(before)
            before = ""
    matcher = SequenceMatcher(None, fragment, "".join(shown), autojunk=False)
    inserted: dict[int, str] = {}
    for start, start_shown, size in matcher.get_matching_blocks():
        for offset in range(1, size):
            inserted[start + offset] = hidden[start_shown + offset]
    return "".join(inserted.get(index, "") + char for index, char in enumerate(fragment))


# "cross of eggs", "tick of the milk": "off" typed with one f
_CROSS_OF = re.compile(
    r"\b(?P<verb>cross|tick|check|knock|scratch)\s+of\b(?!\s+(?:the|my)\s+list)", _I
)


# "flour f l o u r", "s-h-a-m-p-o-o": a word spelt out a letter at a time, read as the word
# (before "u" and "r" are read as "you" and "are").
_SPELT_OUT = re.compile(
    r"(?:(?P<word>[a-z]+)[\s,:]+)?(?<![\w'])(?P<letters>[a-z](?:[ -][a-z]){3,})(?![\w'])",
    re.IGNORECASE,
)


_LETTER_RUN = re.compile(r"\b[a-z][ -][a-z][ -][a-z][ -][a-z]\b", re.IGNORECASE)


def _spelt_word(match: re.Match[str]) -> str:
    spelt = re.sub(r"[ -]", "", match["letters"])
    said = match["word"]
    if said is None:
        return spelt
    return said if said.lower() == spelt.lower() else f"{said} {spelt}"  # "flour f l o u r"


def prepare(message: str) -> str:
    """Single spaces and straight quotes, bulleted lines as "; "-separated items, no invisible
    characters, "wanna" as "want to", speech and texting noise read (`noise`); the user's
    casing is kept (patterns ignore case)."""
    message = without_noise(_ARROW.sub(" to ", _INVISIBLE.sub("", message)))
    if _LETTER_RUN.search(message):  # cheap look first: the full pattern is costly
        message = _SPELT_OUT.sub(_spelt_word, message)
    message = _OK_TYPED_SHORT.sub("ok", message)
    message = _INFORMAL_WORD.sub(lambda m: _INFORMAL[m.group(0).lower()], message)
    message = _ITS.sub("it's", message)
    message = _CROSS_OF.sub(r"\g<verb> off", message)
    text = _BULLET_LINE.sub("; ", message.translate(_SMART_QUOTES))
    text = _COMMAND_LINE.sub("; ", text)
    return correct_spelling(_SPACES.sub(" ", text).strip())


def strip_end_punctuation(text: str) -> str:
    return text.rstrip(" .!?…")


GERUNDS = {
    "adding": "add",
    "creating": "create",
    "putting": "put",
    "deleting": "delete",
    "removing": "remove",
    "marking": "mark",
    "completing": "complete",
    "showing": "show",
    "listing": "list",
    "changing": "change",
    "updating": "update",
    "renaming": "rename",
    "clearing": "clear",
    "checking": "check",
    "finishing": "finish",
    "cancelling": "cancel",
    "canceling": "cancel",
    "editing": "edit",
    "reminding": "remind",
    "noting": "note",
    "emptying": "empty",
    "wiping": "wipe",
    "erasing": "erase",
    "crossing": "cross",
    "ticking": "tick",
    "reopening": "reopen",
    "taking": "take",
    "getting": "get",
    "dropping": "drop",
    "scratching": "scratch",
    "ditching": "ditch",
    "striking": "strike",
    "knocking": "knock",
    "unchecking": "uncheck",
    "unmarking": "unmark",
    "setting": "set",
    "switching": "switch",
    "swapping": "swap",
    "reading": "read",
    "telling": "tell",
    "giving": "give",
    "letting": "let",
    "making": "make",
}
_GERUND = re.compile(r"^(?P<word>" + "|".join(GERUNDS) + r")\b", _I)
# Command words people mistype; a close miss of one of these is read as it.
COMMAND_WORDS = (
    "add",
    "create",
    "remind",
    "remember",
    "show",
    "list",
    "display",
    "delete",
    "remove",
    "complete",
    "finish",
    "mark",
    "change",
    "update",
    "rename",
    "what",
    "cancel",
    "clear",
    "help",
    "tasks",
    "have",
    "still",
    "finished",
    "completed",
    "deleted",
    "removed",
)


# Real words one letter away from a command word.
_NOT_TYPOS = frozenset(
    "that task than then chat hat what list lost last mist fist hint mark park dark bark "
    "lead read heed need dad add odd aid shop shoe snow slow stow have hive hove hate gave "
    "cave save wave how shot chow shown mask mart mare murk clean cleat lift lust lest lint "
    "gist and ado hare haze halve haven held hell helm heap kelp yelp stall stilt skill spill "
    "swill stile tanks talks tacks masks whet wheat whit crate remote chance charge cancer "
    "finnish".split()
)


def correct_typos(text: str) -> str:
    """Close misses of command words among the first words (\"shwo my tasks\")."""
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    words = text.split(" ")
    for index, word in enumerate(words[:6]):
        lowered = word.lower()
        if (
            len(lowered) < 3
            or lowered in COMMAND_WORDS
            or lowered in _NOT_TYPOS
            or not lowered.isalpha()
        ):
            continue
        best = process.extractOne(lowered, COMMAND_WORDS, scorer=DamerauLevenshtein.distance)
        if best is not None and best[1] == 1 and abs(len(best[0]) - len(lowered)) <= 1:
            words[index] = best[0]
    return " ".join(words)


def without_trailing_symbols(text: str) -> str:
    """ "plants are watered 🌱" -> "plants are watered" (emoji say nothing about intent)."""
    return _TRAILING_SYMBOLS.sub("", text).strip()


_CONTRACTIONS = re.compile(r"^(that|it|this|what|there)'s\b", _I)
# "dog's been walked", "the bills've been paid"
# "Mark the first two like done": "like" for "as".
_LIKE_DONE = re.compile(r"\blike\s+(?=(?:done|complete|completed|finished)\b)", _I)
_HAS_BEEN = re.compile(r"(?<=\w)'s been\b|(?<=\w)'ve been\b", _I)


# One message asks for its core request several times (clauses, patterns, slots).
@lru_cache(maxsize=4096)
def core_request(clause: str) -> str:
    """The request without filler, politeness or end punctuation: the part patterns read."""
    text = _CHECK_MARK.sub(" done", strip_end_punctuation(clause))
    text = _CONTRACTIONS.sub(lambda m: f"{m.group(1)} is", text)
    text = _HAS_BEEN.sub(" has been", text)
    text = _LIKE_DONE.sub("as ", text)
    previous = None
    for _ in range(SETTLE_LIMIT):
        if previous == text:
            break
        previous = text
        text = _LEAD_FILLER.sub("", text, count=1)
        text = _POLITE_LEAD.sub("", text, count=1)
        text = strip_end_punctuation(_TRAIL_FILLER.sub("", text))
    text = _GERUND.sub(lambda m: GERUNDS[m.group("word").lower()], text.strip(), count=1)
    return text


def is_question(message: str) -> bool:
    return message.strip().endswith("?")


def clean_title(raw: str) -> str:
    """Trims spaces, surrounding quotes and trailing punctuation from an extracted title."""
    title = _SPACES.sub(" ", raw).strip().strip(",;").rstrip(" .!?,;:")
    while len(title) >= 2 and title[0] in _EDGE_QUOTES and title[-1] == title[0]:
        title = title[1:-1].strip().rstrip(" .!?,;:")
    return title
