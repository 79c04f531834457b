"""The title slot of an add request: what a person would have typed in a todo app.

People wrap the thing to add in a request: "make sure walnuts is on my shopping list",
"may i suggest we put paper towels on my list for shopping", "put milk on my list i just used
the last of it", "add flour if it's not already on it". Each rewrite below removes one kind of
wrapper (a list reference, a request frame, a reason, a condition), and they run until nothing
changes. The condition is kept as a slot (`if_missing`): the add then checks the list first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from backend.agent.rules.text import SETTLE_LIMIT

_I = re.IGNORECASE

_LIST_WORDS = (
    r"(?:list|lists|to-?do'?s|todos|to do's|to[- ]?do|reminders|agenda|checklist|chores|errands|"
    r"shopping|groceries)(?:\s+(?:shopping|grocery|task|chores?))?(?:\s+lists?)?"
)
# "to my shopping list", "on the list of things to do", "to my list for shopping",
# "to the to do list for today" (the day stays: it is about the task, see below).
_LIST_REFERENCE = re.compile(
    rf"\s*,?\s*\b(?:to|on|onto|in|into|at|for|from|under)\s+(?:my|the|our|your|a|this|that)\s+"
    rf"(?:[\w'-]+\s+){{0,3}}?{_LIST_WORDS}"
    r"(?:\s+(?:of|for)\s+(?:things\s+(?:to\s+(?:do|buy|get)|i\s+need(?:\s+to\s+\w+)?)|"
    r"groceries|shopping|chores|errands|pending tasks|tasks|items|reminders|housework|"
    r"stuff(?: to (?:do|buy))?)"
    r"(?:\s+to\s+(?:complete|do|buy|accomplish|get done))?)?\b(?:\s+(?:app|please))?"
    # "put dishes on to do list": the list named without "my" or "the"
    r"|\s+(?:on|to|onto)\s+(?:to[- ]?do|shopping|grocery)\s+list\b"
    # "add mop to hardware store list", "add wine to list": a list named last, bare
    r"|\s+(?:on|to|onto)\s+(?:[\w'-]+\s+){0,2}?lists?$"
    # "put bread in list": non-native, no article
    r"|\s+(?:in|into)\s+(?:to[- ]?do\s+|shopping\s+|grocery\s+)?list$",
    _I,
)
# "to my to do list for today", "to today's to do list": the day is the task's, the list goes
_DAYS_LIST = re.compile(
    r"\s+(?:to|on|onto)\s+(?:(?:my|the)\s+(?:to[- ]?do|todo)\s+list\s+for\s+|"
    r"(?=(?:today|tomorrow|tonight)'s\s+(?:to[- ]?do|todo)\s+list$))"
    r"(?P<day>today|tomorrow|tonight)(?:'s\s+(?:to[- ]?do|todo)\s+list)?$",
    _I,
)
_LEADING_LIST = re.compile(
    rf"^(?:(?:on|to|in|for)\s+)?(?:(?:my|the|our)\s+)?(?:[\w'-]+\s+){{0,2}}?{_LIST_WORDS}"
    r"(?:(?:\s+(?:of|for)\s+[^,:;]+)?\s*[,:;-]\s*(?:please\s+)?(?:add|put|include)?\s*|"
    r"\s+(?:please\s+)?(?:add|put|include)\s+)",
    _I,
)
_CONDITION = re.compile(
    r"\s*[,;]?\s*(?:but\s+)?(?:only\s+)?(?:if|unless|in case)\s+(?:it'?s|it is|they'?re|they are|"
    r"i|we|it|they|you|that|there|their|theyre|not|this|is|isn't|are|aren't)\b[^,;]*$"
    # "add milk if missing", "add milk under the same condition"
    r"|\s+(?:only\s+)?if\s+(?:missing|not there|not on (?:it|there|the list)|absent)$"
    r"|\s+(?:under|with|on)\s+the\s+same\s+conditions?$",
    _I,
)
_REASON = re.compile(
    # "... before it slips my mind again", "... so I don't forget", "... before I forget"
    r"\s*[,;.]?\s*\b(?:before|so|in case|or else|otherwise)\s+(?:i|it|that|we)\s+(?:don't\s+|"
    r"do not\s+|won't\s+)?(?:forget|slips?|goes)\b.*$|"
    r"\s*[,;.]?\s*(?:\b(?:cause|because|'cause|cuz|since|as|so)\s+(?:i|we|i'm|we're|i've|"
    r"we've|there|my|it|they|the)\b.*|\b(?:i'm|i am|we're|we are)\s+(?:all\s+|completely\s+|"
    r"running\s+)?out(?:\s+of\s+(?:it|them|that))?\b.*|\bi\s+(?:just\s+)?(?:used|ran out|finished|"
    r"need them|need it)\b.*)$",
    _I,
)
_FRAME = re.compile(
    r"^(?:(?:hey\s+)?(?:alexa|olly|google|siri|computer|assistant)\b[\s,]*|(?:hey|hi|ok|okay)\b[\s,]+|"
    # "i need to be reminded to pray", "i want to get reminded to clean my room"
    r"(?:(?:i\s+)?(?:need|want|would like|'d like)\s+to\s+)?(?:be|get)\s+reminded\s+"
    r"(?:to|about|of)\s+|"
    r"(?:if you could\s+)?remind me\s+(?:about|to|of)\s+|tell me to\s+|"
    r"(?:just\s+)?set me (?:a\s+)?reminders?\s+(?:about|for|to)\s+(?:pending\s+)?|"
    r"do me a favou?r and\s+|(?:set|create|make|add|put in|give me|write)\s+(?:a\s+|an\s+)?"
    r"(?:new\s+)?"
    r"(?:remind(?:e|a)?r|note|task|to-?do)(?:\s*:\s*|\s+)(?:for me\s+|for\s+|about\s+)?(?:to\s+)?|"
    r"(?:me|myself)\s+(?:to|about|of)\s+|(?:to\s+)?remem?b(?:er|re)\s+to\s+|i\s+need\s+to\s+remem?ber\s+to\s+|"
    r"you\s+(?:put|add)\s+(?:for\s+me\s+)?|for\s+me\s+|"
    r"(?:may|can|could|should|shall|might|would)\s+(?:i suggest\s+)?(?:we|you)\s+(?:also\s+)?|"
    r"(?:that\s+)?(?:i|we)\s+(?:must|have to|should|need to|got to|gotta)\s+|"
    r"i\s+(?:would|'d)\s+like\s+(?:you\s+)?(?:to\s+)?|i\s+(?:want|need)\s+you\s+to\s+|"
    r"let's\s+|lets\s+|please\s+|kindly\s+|go ahead and\s+|make sure\s+(?:that\s+)?(?:to\s+)?|"
    r"be sure\s+(?:to\s+)?|(?:i|we)\s+(?:want|need)\s+(?!to\b)(?=\S)|"
    r"for you to\s+(?:get\s+)?|(?:re-?\s?)?(?:add|jot down|note down|write down|pop)\s+"
    r"(?:down\s+)?(?:the\s+item\s+)?|"
    r"(?:a\s+)?(?:new\s+)?(?:item|entry)\s+(?:called|named|for)?\s*)",
    _I,
)
_PASSIVE_TAIL = re.compile(
    r"\s+(?:gets?|to be|be|is|are|was)?\s*(?:added|included|put|written|listed|there)?"
    r"(?:\s+(?:on|to)\s+(?:it|there))?$|\s+(?:is|are)$",
    _I,
)
_ADD_ON = re.compile(r"\s+(?:added|included)$", _I)
# "i need to take out the trash please remind me", "... i would appreciate it"
_ASK_TAIL = re.compile(
    r"\s+(?:to|on|onto|in)\s+(?:it|there|that)$|\s+instead$|"
    r"\s*,?\s+(?:(?:so\s+)?(?:please\s+)?remind me(?:\s+(?:about it|of it|please))?|"
    r"i would appreciate it|i'd appreciate it|that would be great|thanks in advance)$",
    _I,
)
_IMPATIENCE = r"\s*[.!]+\s*(?:come on|hurry(?: up)?|quick(?:ly)?|asap|now|pls|please|thanks)[.!]*$"
# Impatience said after a title ("... for tuesday. come on"): not part of it.
IMPATIENT_END = re.compile(_IMPATIENCE, _I)
_EDGE_WORDS = re.compile(
    r"^(?:the\s+)?(?:chore|errand|job) of\s+(?=\S)"
    r"|^(?:some|more|a few|few|also|too)\s+(?=\S)"
    # "add a trip to the post office": the article, not a quantity ("a dozen eggs")
    r"|^(?:a|an)\s+(?!(?:dozen|couple|pair|bag|bottle|box|pack|loaf|carton|jar|can|kilo|pound|"
    r"lot|half|few|little|bit|bunch|case|tin|tub|roll|head|piece)\b)(?=\S+\s)"
    r"|\s+(?:too|as well|also|please|now|hurry|quick|asap|then|obviously|obvs|of course|lol)$"
    # "to book dentist for tuesday. come on": impatience after the title
    rf"|{_IMPATIENCE}"
    # "stick bin bags on the list while I remember", "... because I will absolutely forget"
    r"|\s*,?\s+(?:while i (?:remember|think of it)|before i forget|so (?:i|we) (?:don't|won't) "
    r"forget(?: it)?|(?:because|cause|cos|as) (?:i|i'll|i will)(?: \w+)? forget(?: it)?)$"
    # "add buy an umbrella to my list then, mine snapped": the "then" before the aside
    r"|\s+then(?=\s*,)"
    r"|\s*,?\s+(?:thanks|thank you|thx|ty|cheers)(?:\s+(?:a lot|so much))?$"
    r"|\s+-\s+add it$"
    # "ad dog fod to my shoping list we ran out": why, said after it
    r"|\s*,?\s+(?:we|i)(?:'ve| have)?\s+(?:ran|run|are|'re|just ran|just run)\s+out(?:\s+of\s+"
    r"(?:it|them|that))?$",
    _I,
)
# What someone says after the thing to add: ", we're totally out", ". He's been sneezing".
_CHATTER_HEAD = (
    r"\s*[,;]\s+(?:(?:i|we|they|he|she|it|you|there|that)(?:'re|'ve|'m|'s|'d|'ll)?|theyre|"
    r"im|ive|its|my|our|his|her|their|the kids|but(?!\s+(?:only\s+)?if\b)|"
    r"and\s+(?:she|he|they|it|we|i)(?:'s|'re|'ve|'d)?|poor thing|ugh|long story|wish me luck|"
    r"hopefully|finally|again|ugh|yikes|lol|haha|oh well|no rush|eek|sadly|luckily|"
    # ", almost out", ", these two", ", can't have tacos without cheese"
    r"almost|nearly|running\s+(?:low|out)|ran out|all out|out of|these two|those two|the two|"
    r"can't|cannot|couldn't|won't|don't|didn't|obviously|of course|"
    # ", sorry, my brain is fried", ", put that down too", "12 eggs, not only eggs"
    r"sorry|my bad|oops|put (?:that|it|this) (?:down|on)|not (?:only|just)|"
    # ", mine snapped last week", ", is for the party on saturday", ", for the cake"
    r"mine|ours|is for|it's for|its for|they're for|are for|for the (?:party|cake|trip|kids|"
    r"weekend|dinner|lunch|breakfast|bbq|barbecue|picnic|guests|holiday|holidays)|"
    # ", the kitchen tap's been dripping for a week": what has been going on
    r"(?:the\s+|my\s+|our\s+)?[a-z]+(?:\s+[a-z]+)?(?:'s|\s+has|\s+have|\s+had)\s+been|"
    r"it(?:'s| has) been|"
    # ", guests are coming on friday": a sentence of its own
    r"(?:the\s+|my\s+|our\s+)?[a-z]+\s+(?:are|is|were|was)\s+(?:coming|going|visiting|arriving|"
    r"staying|here|over|out|gone|empty|low|finished)|"
    # ", the garden centre's shut Saturdays", ", the fridge is literally empty": a sentence of
    # its own about something named with its determiner
    r"(?:the|my|our|his|her|their)\s+[a-z]+(?:\s+[a-z]+)?(?:'s|\s+(?:is|are|was|were))\s+"
    r"(?!(?:and|or|on|in|to|at|for|due|done|finished|complete|completed)\b)[a-z]+|"
    # ", the council changed it": what someone did, the reason for the change
    r"(?:the|my|our|his|her|their)\s+[a-z]+(?:\s+[a-z]+)?\s+[a-z]{3,}ed\s+"
    r"(?:it|that|this|them|everything)|"
    # ", since the big shop's sort of done": a reason
    r"since|because|cos|coz|cause)\b"
    r"(?!\s+(?:and|or)\b)"
)
CHATTER_AFTER_COMMA = re.compile(rf"{_CHATTER_HEAD}.*$", _I)
# Where such an aside may start (a message can have several commas).
CHATTER_START = re.compile(_CHATTER_HEAD, _I)
_CHATTER = re.compile(
    rf"{CHATTER_AFTER_COMMA.pattern}|(?<=\w{{3}})[.?!]+\s+(?=[A-Z]).*$",
    _I,
)
# A title the user put in quotes: "add 'sign up for the 5k' to my list, my friend talked me
# into it" is exactly what they want stored.
QUOTED = re.compile(r"(?<![\w'\"])(['\"])(?P<text>[^'\"]*?\w[^'\"]*?)\1(?![\w'])")


@dataclass(frozen=True)
class TitleSlot:
    title: str
    if_missing: bool = False


_PLACING = re.compile(
    r"^(?:(?:can|could|would|will|may|might|shall|should)\s+(?:i suggest\s+)?(?:we|you|i)\s+"
    r"(?:also\s+|please\s+)?)?(?:please\s+)?(?:put|write|include|insert|enter|place|stick)\s+"
    r"(?:down\s+)?(?:the\s+item\s+)?",
    _I,
)
_ONTO_A_LIST = re.compile(
    r"\b(?:on|to|onto|in|into)\s+(?:(?:my|the|our|this|a)\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:list|lists|to-?do|todos|reminders?)\b|\b(?:on|in)\s+(?:there|it|that)\b",
    _I,
)


def onto_a_list_said(text: str) -> bool:
    """Whether a request says where its item goes ("on my list", "on there")."""
    return _ONTO_A_LIST.search(text) is not None


def add_title(text: str, *, onto_a_list: bool | None = None) -> TitleSlot:
    """The title inside an add request, and whether the user asked to add it only if missing.
    `onto_a_list`: whether the request said where the item goes (read from `text` if None)."""
    title = text.strip().strip(" .!?")
    if_missing = False
    quoted = [m["text"] for m in QUOTED.finditer(title)]
    if len(quoted) == 1:
        condition = _CONDITION.search(title[title.rfind(quoted[0]) :])
        return TitleSlot(quoted[0].strip(), _asks_if_missing(condition))
    # "put milk on my list", but "put the bins out", "write a letter to grandma": the verb is
    # a frame only when the message says where the item goes
    if onto_a_list is None:
        onto_a_list = _ONTO_A_LIST.search(title) is not None
    previous = None
    for _ in range(SETTLE_LIMIT):
        if previous == title:
            break
        previous = title
        if onto_a_list:
            title = _PLACING.sub("", title, count=1)
        condition = _CONDITION.search(title)
        if condition and _asks_if_missing(condition):
            if_missing = True
            title = title[: condition.start()]
        title = _CHATTER.sub("", title)
        title = _REASON.sub("", title)
        title = _FRAME.sub("", title, count=1)
        title = _LEADING_LIST.sub("", title, count=1)
        title = _DAYS_LIST.sub(r" \g<day>", title)
        title = _LIST_REFERENCE.sub("", title)
        title = _PASSIVE_TAIL.sub("", title) if _looks_passive(title) else title
        title = _ADD_ON.sub("", title)
        title = _ASK_TAIL.sub("", title)
        title = _EDGE_WORDS.sub("", title).strip(" ,;:.!?")
    return TitleSlot(_when_last(title), if_missing)


# "remind me friday to call my mother", "set a reminder for monday pay taxes": when it is
# due, said first, goes after the task, as a person types it ("call my mother friday").
_WHEN = (
    # "sun cream", "wed the dress": a short day name only after "on"
    r"(?:(?:on\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on\s+(?:mon|tue|"
    r"tues|wed|thu|thur|thurs|fri|sat|sun)\b|today|tonight|tomorrow|tommorow|tomorow|tmrw|"
    r"next\s+(?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"this\s+(?:weekend|week|morning|afternoon|evening)|(?:in\s+the\s+)?(?:morning|afternoon|"
    r"evening)|at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|\d{1,2}(?::\d{2})?\s*(?:am|pm))"
)
_WHEN_FIRST = re.compile(
    rf"^(?P<when>{_WHEN}(?:\s+{_WHEN})*)\s*,?\s+(?:(?:to|that|i have|i've got|i got|we have)\s+"
    r"(?:an?\s+)?)?(?P<task>\S.*)$",
    _I,
)
_TASK_LIKE = re.compile(r"^(?!(?:is|are|was|will|it|its|it's)\b)\w", _I)


def _when_last(title: str) -> str:
    moved = _WHEN_FIRST.match(title)
    if moved is None or not _TASK_LIKE.match(moved["task"]):
        return title
    if re.fullmatch(rf"(?:{_WHEN}\s*)+", moved["task"], _I):
        return title  # "at 9 that morning": all of it says when, nothing to move after

    return f"{moved['task']} {moved['when']}"


def _asks_if_missing(condition: re.Match[str] | None) -> bool:
    return condition is not None and bool(
        re.search(
            r"\b(?:not|already|isn't|aren't|there|did|have|missing|absent|same condition)",
            condition.group(0),
            _I,
        )
    )


def _looks_passive(title: str) -> bool:
    return (
        re.search(
            r"\s(?:gets?|to be|be|is|are|was)?\s*(?:added|included|listed)$|\s(?:is|are)$",
            title,
            _I,
        )
        is not None
    )
