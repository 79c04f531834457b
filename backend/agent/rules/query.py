"""The slot of a question about the list: the item asked about, or a count.

"is ice cream on my shopping list", "did i include butter in my shopping list", "does my
list have goodwill on it", "do i need to get milk", "check my list to see if X is listed":
the item. "how many items are on my list", "is there anything left": a count.
"""

from __future__ import annotations

import re

from backend.agent.rules.text import clean_title, core_request
from backend.agent.rules.types import Action

_I = re.IGNORECASE
_LIST = (
    r"(?:(?:my|the|our|your|this)\s+)?(?:[\w'-]+\s+){0,3}?(?:list|lists|reminders|to-?dos?|"
    r"todos|tasks|things to do|errands|chores)"
)
_ITEM_PATTERNS = tuple(
    re.compile(pattern, _I)
    for pattern in (
        rf"^(?:is|are)\s+(?:there\s+)?(?:an?\s+|any\s+|some\s+)?(?P<item>.+?)\s+"
        r"(?:currently\s+|already\s+|still\s+)?"
        rf"(?:on|in|listed on|listed in|part of|included in)\s+{_LIST}(?:\s+.*)?$",
        r"^(?:is|are)\s+(?P<item>.+?)\s+(?:still\s+|already\s+)?(?:listed|on there|in there|on it|"
        r"included|there|ther)$",
        rf"^(?:did|have)\s+i\s+(?:already\s+|ever\s+)?(?:add|added|put|include|included|write|"
        rf"written|list|listed|save|saved|mention|mentioned|note|noted)\s+(?P<item>.+?)\s+"
        rf"(?:on|in|to|onto|into)\s+(?:{_LIST}|there|it)(?:\s+.*)?$",
        # "and rice, I have it in the list?"
        rf"^(?:and\s+)?(?P<item>[^,]+?)\s*,\s*(?:do\s+)?(?:i|we)\s+(?:have|got|put|added)\s+"
        rf"(?:it|them)\s+(?:in|on)\s+(?:{_LIST}|there)$",
        rf"^(?:does|do)\s+{_LIST}\s+(?:have|include|contain|mention|list|say)\s+(?P<item>.+?)"
        r"(?:\s+(?:on|in)\s+it)?(?:\s+.*)?$",
        rf"^(?:check|see|look|find out)\s+(?:on\s+|in\s+)?(?:{_LIST}\s+)?(?:to see\s+|and see\s+)?"
        rf"(?:if|whether)\s+(?:i\s+(?:have|added|put)\s+)?(?P<item>.+?)(?:\s+(?:is|are)\s+"
        rf"(?:on|in|listed|there|already)\b.*|\s+(?:on|in)\s+{_LIST}.*)?$",
        r"^(?:do|did)\s+(?:i|we)\s+(?:still\s+|already\s+)?(?:need|have)\s+to\s+(?:buy|get|pick up|"
        r"purchase|grab)\s+(?:any\s+|some\s+|more\s+)?(?P<item>.+)$",
        r"^(?:do|did)\s+(?:i|we)\s+(?:still\s+)?need\s+(?:any\s+|some\s+|more\s+)?(?P<item>.+)$",
        r"^(?:(?:do|did)\s+i\s+have\s+|is\s+there\s+|there\s+is\s+)?"
        r"(?:anything|something|any tasks?|"
        r"any reminders?)\s+(?:(?:on|in)\s+(?:there|(?:my|the)\s+list)\s+)?"
        r"(?:about|for|regarding|with|on|concerning)\s+(?P<item>.+)$",
        # after "whether": "the passport renewal is still outstanding", "I still need to pick
        # up the dry cleaning"
        # "report stuff still open?": the verb left out
        r"^(?P<item>.+?)\s+(?:(?:is|are)\s+(?:still\s+|already\s+)?|still\s+)(?:outstanding|pending|open|"
        r"done|finished|complete|completed|unfinished|bought|paid|booked|sent|called|cleaned)$",
        # "i walk the dog already today or not?": done, asked in the present tense
        r"^(?:i|we)\s+(?P<item>(?!(?:want|need|have|think|wonder|don't|do)\b)\w+\s+.+?)\s+"
        r"already(?:\s+(?:today|yesterday|this week))?$",
        r"^(?:i|we)\s+(?:still|already)\s+(?:need|have)\s+to\s+(?P<item>.+)$",
        rf"^(?:do|did)\s+(?:i|we)\s+(?:still\s+|already\s+)?have\s+(?:any\s+)?(?P<item>.+?)\s+"
        rf"(?:on|in)\s+(?:{_LIST}|there)$",
        r"^(?P<item>.+?)\s+(?:(?:is|are)\s+)?(?:already\s+|still\s+)?(?:there\s+)?(?:on|in)\s+"
        r"(?:(?:the|my)\s+)?(?:list|there)$",
    )
)
# One to three words that name a thing, none of them a question or a reply word.
BARE_THING = re.compile(
    r"^(?!.*\b(?:what|why|how|who|when|where|which|really|seriously|yes|no|yeah|nope|ok|okay|"
    r"sure|huh|hmm|right|sorry|you|me|i|it|that|this|done|again|anything|everything|nothing|"
    r"something|more|else)\b)[a-z][\w'-]*(?:\s+[\w'-]+){0,2}$",
    _I,
)
# "is there something for Sarah in my list?": the topic, Sarah
_ANYTHING_FOR = re.compile(
    r"^(?:something|anything|stuff|things?|tasks?)\s+(?:for|about|with|regarding|to do with)\s+",
    _I,
)
# What a question adds after its item: "have I rung my mother yet"
STILL_YET = re.compile(r"\s+(?:yet|already|still|again)$", _I)
_COUNT = re.compile(r"\b(?:how many|how much|number of|count)\b", _I)
_VAGUE = re.compile(r"^(?:anything|something|stuff|things|items?|it|that|this|there)$", _I)


# "Might I ask whether ...", "could you tell me, please, whether ...": the question itself.
_ASKING_LEAD = re.compile(
    r"^(?:(?:may|might|can|could)\s+i\s+(?:also\s+|just\s+)?ask(?:\s+you)?|(?:would|do)\s+you\s+"
    r"(?:happen\s+to\s+)?know|(?:can|could|would)\s+you\s+tell\s+me|"
    r"tell\s+me|i(?:'d| would)\s+like\s+to\s+know|i\s+want(?:\s+to)?\s+know|i\s+wonder)"
    r"[\s,]*(?:please[\s,]*)?(?:whether|if)\s+"
    # "quick question before I head to the shops, is bread on there?", "random question but"
    r"|^(?:(?:a|one|quick|random|silly|dumb|small)\s+)+question\b[^,?]*?(?:,\s*|\s+but\s+|:\s*)"
    r"(?=(?:is|are|did|do|does|have|has)\b)",
    _I,
)


# "... or not", "... or did I already tick that off": the other half of the question
_OR_ALREADY = re.compile(
    r"\s*,?\s+or\s+(?:not|no|did\s+(?:i|we)|have\s+(?:i|we)|is\s+it|was\s+it|has\s+it)\b.*$", _I
)


def query_slot(clause: str) -> tuple[str, Action]:
    """(item, LOOKUP) for a question about one item; ("", COUNT) otherwise."""
    text = _OR_ALREADY.sub("", _ASKING_LEAD.sub("", core_request(clause)))
    if not _COUNT.search(text):
        for pattern in _ITEM_PATTERNS:
            match = pattern.match(text)
            if match:
                item = clean_title(
                    _ANYTHING_FOR.sub(
                        "", re.sub(r"^(?:the|a|an|any|some)\s+", "", match["item"], flags=_I)
                    )
                )
                item = STILL_YET.sub("", item)
                if item and not _VAGUE.match(item):
                    return item, Action.LOOKUP
    return "", Action.COUNT


# "when's the draft review?", "when is my passport renewal due?", "when are the plants next
# due a water?": a question about one task's due date, never a list or a change.
_WHEN_DUE = (
    re.compile(
        r"^(?:and\s+|so\s+)?(?:tell\s+me\s+)?when(?:'s|\s+is|\s+are|\s+was|\s+were)\s+"
        r"(?P<item>.+?)(?:\s+(?:next\s+|actually\s+|meant\s+to\s+be\s+|supposed\s+to\s+be\s+)?"
        r"(?:due|happening|on|set\s+for|scheduled)\b.*)?$",
        _I,
    ),
    re.compile(
        r"^(?:and\s+|so\s+)?(?:tell\s+me\s+)?when\s+(?P<item>.+?)\s+(?:is|are)\s+"
        r"(?:next\s+)?(?:due|happening|on|set\s+for|scheduled)\b.*$",
        _I,
    ),
)
_NOT_ONE_TASK = re.compile(
    r"\b(?:everything|anything|something|nothing|tasks?|list|lists|stuff|things|i|we|you|"
    r"the\s+next\s+one|next\s+task)\b|^(?:it|that|this|they|them|today|tomorrow)$",
    _I,
)


# "when is babysitting on my to do list": whether it is there, a look-up of its own
_NAMES_THE_LIST = re.compile(r"\b(?:list|lists|to-?dos?|tasks|reminders)\b", _I)


def asks_when_due(clause: str) -> str | None:
    """The task asked about in a question about when it is due, or None."""
    text = core_request(clause).rstrip(" ?")
    if _NAMES_THE_LIST.search(text):
        return None
    for pattern in _WHEN_DUE:
        found = pattern.match(text)
        if found:
            item = re.sub(r"^(?:the|my|our)\s+", "", found["item"].strip(), flags=_I)
            if item and not _NOT_ONE_TASK.search(item) and len(item.split()) <= 5:
                return clean_title(item)
    return None
