"""Intent detection (the spec's Rule 1), deterministic and explainable.

Patterns look at the whole sentence: a greeting or help question is recognised as such, then
an action verb leading the sentence decides, and only when none leads do the spec's keyword
lists decide, in the spec's order (CREATE, LIST, COMPLETE, DELETE, UPDATE, HELP, GREETING).
Every detection names the rule that fired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

_I = re.IGNORECASE


class Intent(StrEnum):
    CREATE = "create_task"
    LIST = "list_tasks"
    COMPLETE = "complete_task"
    DELETE = "delete_task"
    UPDATE = "update_task"
    HELP = "help"
    GREETING = "greeting"
    UNCLEAR = "unclear"


@dataclass(frozen=True)
class Detection:
    intent: Intent
    rule: str
    # Where the action's object starts in the prepared text (after the trigger words).
    rest_start: int = 0


# The spec's keyword lists, in its order of precedence.
SPEC_KEYWORDS: tuple[tuple[Intent, tuple[str, ...]], ...] = (
    (
        Intent.CREATE,
        (
            "add",
            "create",
            "remember",
            "remind",
            "need to",
            "don't forget",
            "make a note",
            "task to",
        ),
    ),
    (Intent.LIST, ("show", "list", "see", "what", "view", "display", "tell me")),
    (Intent.COMPLETE, ("done", "complete", "finish", "completed", "mark as done", "finished")),
    (Intent.DELETE, ("delete", "remove", "cancel", "clear", "get rid of")),
    (Intent.UPDATE, ("change", "update", "edit", "rename", "modify", "revise")),
    (Intent.HELP, ("help", "how", "what can you do", "commands", "usage")),
    (Intent.GREETING, ("hi", "hello", "hey", "good morning", "good afternoon")),
)

_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|day))"
    r"(?:\s+(?:there|bot|assistant|again|friend|everyone))?[\s,!.?]*$",
    _I,
)
_HELP = re.compile(
    r"^(?:help(?: me)?|what can you do|what do you do|what are (?:the|your) commands|commands|"
    r"usage|how does (?:this|it) work|how do i use (?:this|you)|how do i\b.*|how can i\b.*|"
    r"what can i (?:say|do|ask)\b.*)[\s!.?]*$",
    _I,
)

_POLITE_LEAD = (
    r"^(?:(?:ok(?:ay)?|so|and|also|please|hey|pls|kindly|can you|could you|would you|"
    r"will you|i want to|i'd like to|i would like to|let's|let me)[\s,]+)*"
)

_LEADING_VERBS: tuple[tuple[Intent, str], ...] = (
    (
        Intent.CREATE,
        r"add|create|remind me(?: to)?|remember(?: to)?|don't forget(?: to)?|"
        r"make a note(?: to)?|note down|jot down|new task",
    ),
    (Intent.LIST, r"show|list|display|view|see|tell me|give me|what's|what is|what are|what"),
    (
        Intent.COMPLETE,
        r"complete|finish|mark|tick off|tick|check off|i finished|i've finished|"
        r"i completed|i've completed|i'm done with|i am done with|done with|finished",
    ),
    (Intent.DELETE, r"delete|remove|cancel|get rid of|clear|drop|erase|scrap"),
    (Intent.UPDATE, r"change|update|edit|rename|modify|revise"),
)
_LEADING = re.compile(
    _POLITE_LEAD
    + "(?:"
    + "|".join(f"(?P<{intent.name}>{verbs})" for intent, verbs in _LEADING_VERBS)
    + r")\b[\s,:]*",
    _I,
)
_KEYWORD_PATTERNS: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, re.compile(r"\b(?:" + "|".join(re.escape(k) for k in words) + r")\b", _I))
    for intent, words in SPEC_KEYWORDS
)


_ACTIONS_ON_A_TASK = (Intent.COMPLETE, Intent.DELETE, Intent.UPDATE)


def detect_intent(text: str, *, has_task_id: bool = False) -> Detection:
    """The intent of one prepared message, and the rule that decided it.

    With a task number present, an action on a task beats CREATE and LIST keywords
    (the spec's contextual rule "task id presence").
    """
    if _GREETING.match(text):
        return Detection(Intent.GREETING, "greeting")
    if _HELP.match(text):
        return Detection(Intent.HELP, "help question")
    leading = _LEADING.match(text)
    if leading:
        intent = Intent[next(name for name, value in leading.groupdict().items() if value)]
        return Detection(
            intent, f"leading verb '{leading.group(intent.name).lower()}'", leading.end()
        )
    found = [(intent, m) for intent, pattern in _KEYWORD_PATTERNS if (m := pattern.search(text))]
    if has_task_id:
        on_task = [(intent, m) for intent, m in found if intent in _ACTIONS_ON_A_TASK]
        if on_task:
            intent, match = on_task[0]
            return Detection(
                intent, f"keyword '{match.group(0).lower()}' with a task id", match.end()
            )
    if found:
        intent, match = found[0]
        return Detection(intent, f"keyword '{match.group(0).lower()}'", match.end())
    return Detection(Intent.UNCLEAR, "no rule matched")
