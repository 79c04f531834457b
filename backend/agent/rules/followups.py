"""Messages that only make sense after the assistant's last change.

- "and coffee" / "also the eggs" right after an add, delete or completion: the same action on
  the new item ("add milk" ... "and coffee" adds coffee);
- "not tea, green tea" / "no, I meant rye bread" right after an add: the task just added gets
  the corrected title (the part named is replaced: "buy flowers" -> "buy tulips").

Both read the conversation's last change (`context.last_change`), so they work across
restarts and workers like everything else in the context.
"""

from __future__ import annotations

import re

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.numbers import is_position
from backend.agent.rules.text import core_request
from backend.agent.rules.titles import CHATTER_AFTER_COMMA

_I = re.IGNORECASE

_AND_MORE = re.compile(
    r"^(?:(?:hey\s+)?(?:alexa|google|siri|olly)[\s,]+|(?:oh|ok(?:ay)?|thanks|thank you|great|"
    r"cool|perfect|lovely|brilliant|right)[\s,.!]+)*"
    r"(?:and|also|plus|and also)\s+(?P<rest>.+?)(?:\s+too|\s+as well|\s+also)?[\s.!?]*$",
    _I,
)
_CORRECTION = re.compile(
    r"^(?:no|nope|oops|sorry|wait|actually)?[\s,.!]*(?:not\s+(?P<old>[^,.;!]+?)\s*[,.;!]\s*"
    r"(?:i meant\s+|make it\s+|it's\s+|but\s+)?(?P<new>.+)|"
    r"(?:no|nope|sorry|oops)[\s,.!]+(?:i meant|i mean|it should be|make it)\s+(?P<new2>.+))$",
    _I,
)
# The change the last turn made, read from what its undo would call.
_LAST_ACTION = {"delete_task": "add", "add_task": "delete", "update_task": "complete"}


def last_action(context: ConversationContext) -> str | None:
    change = context.last_change or {}
    tool = change.get("tool")
    if tool == "update_task" and change.get("arguments", {}).get("completed") is not False:
        return None  # an undo of a rename: "and X" has no clear meaning
    return _LAST_ACTION.get(str(tool)) if tool else None


def continue_last_action(text: str, context: ConversationContext) -> str | None:
    """ "and coffee" after an add -> "add coffee", "and eggs?" after "is bread on there?" ->
    "is eggs on my list"; None when the message is not such a tail. `text` is the message
    as said (its leading "and" is what makes it a tail)."""
    match = _AND_MORE.match(text) or _TOO_TAIL.match(text)
    if not match:
        bare = core_request(text)
        if context.last_act in _CHANGE_ACTS and is_position(_TOO.sub("", bare)):
            action = last_action(context)  # "delete the last one" ... "the first two too"
            return f"{action} {bare}" if action else None
        return None
    rest = core_request(match["rest"]) + (match.groupdict().get("condition") or "")
    if not rest or _ASKS_THE_ASSISTANT.match(match["rest"]) or _A_COMMAND.match(rest):
        return None
    if context.last_act == "query" and context.last_lookup:
        return f"is {rest} on my list"
    # "add eggs if they're missing" found the eggs there: nothing changed, yet "and bread"
    # is still one more add.
    action = last_action(context) or ("add" if context.last_act == "add" else None)
    if action is None or context.last_act not in _CHANGE_ACTS:
        return None
    return f"{action} {rest}"


# "bread too if missing", "eggs as well": one more item, said after it.
_TOO_TAIL = re.compile(
    r"^(?!.*\b(?:me|you|it|that|this|i|we|thanks|thank)\b.*\b(?:too|as well))"
    r"(?P<rest>[\w'-]+(?:\s+[\w'-]+){0,2})\s+(?:too|as well)"
    r"(?P<condition>\s+if\s+.+)?[\s.!?]*$",
    _I,
)


# "also please call my brother for me": a new request to the assistant, not one more item.
_ASKS_THE_ASSISTANT = re.compile(r"^(?:please|pls|can you|could you|would you|will you)\b", _I)
# "oh and delete it too": a request of its own, not one more item for the last action.
_A_COMMAND = re.compile(
    r"^(?:add|delete|remove|complete|mark|finish|show|list|change|rename|update|clear|undo|"
    r"tick|check|cross|put|take)\b",
    _I,
)
_TOO = re.compile(r"\s+(?:too|as well|also)$", _I)
_CHANGE_ACTS = ("add", "delete", "complete", "reopen", "update", None)


def corrected_title(text: str, context: ConversationContext) -> tuple[int, str] | None:
    """(task number, new title) for "not X, Y" right after an add; None otherwise."""
    if last_action(context) != "add" or context.focus_task_id is None:
        return None
    match = _CORRECTION.match(text)
    if not match:
        return None
    new = CHATTER_AFTER_COMMA.sub("", match["new"] or match["new2"] or "").strip(" .!?'\"")
    if not new:
        return None
    titles = {number: title for number, title, _ in context.known_tasks}
    current = titles.get(context.focus_task_id)
    old = (match["old"] or "").strip(" '\"")
    if current and old and old.lower() in current.lower() and old.lower() != current.lower():
        start = current.lower().index(old.lower())
        new = current[:start] + new + current[start + len(old) :]
    return context.focus_task_id, new


_OTHER_ONE = re.compile(
    r"^(?:(?:no|nope|oops|sorry|wait|actually|i do apologi[sz]e|my bad|my mistake)[\s,.!]+)*"
    r"(?:i\s+(?:meant|mean)\s+|it(?:'s| is| was)\s+|make it\s+)?(?:the\s+)?other\s+one"
    r"(?:\s+(?:please|instead))?[\s.!]*$",
    _I,
)


def the_other_one(text: str, context: ConversationContext) -> tuple[str, int] | None:
    """(tool, task) for "no, the other one" right after a choice between two tasks: the
    change made to the one chosen is undone and made to the other instead."""
    if len(context.alternatives) != 1 or not _OTHER_ONE.match(text):
        return None
    action = last_action(context)
    if action not in ("complete", "delete"):
        return None
    return f"{action}_task", context.alternatives[0]
