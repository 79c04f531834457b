"""Whole-message phrasings that say one request in a roundabout way, rewritten as that request.

- "do i have cheese on my shopping list, if not please add it" / "are eggs on my list, if not
  add them" / "is bacon on my list, add if it's not": a conditional add;
- "i'm out of apples, add that to my list" / "i ran out of cheerios so add that" / "i have no
  oranges, put them onto my list": an add of the thing run out of.
"""

from __future__ import annotations

import re

from backend.agent.rules.intents import rule_intent
from backend.agent.rules.query import query_slot
from backend.agent.rules.types import Action

_I = re.IGNORECASE

_ADD_IT = (
    r"(?:please\s+)?(?:(?:can|could|will|would)\s+you\s+)?(?:please\s+)?(?:add|put|include)\s+"
    r"(?:it|them|that|those|one|some)?"
    r"(?:\s+(?:on|in|onto|to)\s+(?:there|it|(?:(?:my|the)\s+)?(?:[\w-]+\s+){0,2}list))?"
    r"(?:\s+please)?"
)
_IF_NOT = (
    r"(?:if\s+not|if\s+(?:it|they|that)(?:'s|'re|\s+is|\s+are)?\s+not(?:\s+(?:there|on it))?|"
    r"if\s+(?:it\s+isn't|they\s+aren't|it's\s+not|they're\s+not)(?:\s+(?:there|on it))?|"
    r"if\s+(?:it|they)\s+(?:isn't|aren't)(?:\s+(?:there|on it))?)"
)
# "<question>, if not add it", "<question>, add it if it's not", "<question>, please add it"
_QUESTION_THEN_ADD = re.compile(
    rf"^(?P<question>.+?)[\s,;]+(?:and\s+|but\s+|then\s+)?(?:{_IF_NOT}[\s,]*{_ADD_IT}|"
    rf"{_ADD_IT}\s+{_IF_NOT}|{_ADD_IT}|add\s+if\s+(?:it's|it is|they're|they are)\s+not)"
    r"[\s.!?]*$",
    _I,
)
_RAN_OUT = re.compile(
    r"^(?:(?:i'm|i am|we're|we are|i've|we've)\s+(?:all\s+|completely\s+|nearly\s+|almost\s+)?"
    r"(?:out of|low on|running (?:low on|out of)|run out of|finished)\s+(?P<item>.+?)"
    r"|(?:i|we)\s+(?:just\s+)?(?:ran out of|have no|don't have any(?:\s+more)?|do not have any"
    r"(?:\s+more)?|need more|used up)\s+(?P<item2>.+?))\s*$",
    _I,
)
_THEN_ADD_IT = re.compile(
    rf"(?:\s*[,;]\s*|\s+(?:so|and)\s+|\s+)(?:so\s+)?(?:{_ADD_IT}|remind me(?:\s+on\s+my\s+list)?|"
    r"need (?:them|it) (?:to be )?added)(?:\s+(?:on|to|onto)\s+(?:my|the)\s+[\w\s-]*?list)?"
    r"[\s.!?]*$",
    _I,
)


def rewritten(text: str) -> str:
    """The message as the plain request it amounts to, or unchanged."""
    question = _QUESTION_THEN_ADD.match(text)
    if question:
        item, action = query_slot(question["question"])
        if action is not Action.LOOKUP or not item:
            asked = rule_intent(question["question"])
            item, action = asked.obj, asked.action
        if action is Action.LOOKUP and item:
            return f"add {item} if it's not already there"
    ran_out = _THEN_ADD_IT.search(text)
    if ran_out:
        said = _RAN_OUT.match(text[: ran_out.start()].strip())
        if said:
            item = (said["item"] or said["item2"] or "").strip(" ,;")
            return f"add {item}" if item else text
    return text
