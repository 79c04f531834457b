"""The assistant's first duty: change nothing that was not asked.

Checks on a clause's reading before it becomes steps (`engine`), whatever rule read it:

- **A question never changes data.** A clause that asks by its form (an auxiliary or a
  wh-word first, "or not?" at the end, a trailing "?") is answered, never acted on, unless it
  is a request worded as a question ("can you add milk?", "would you mind ticking it off?").
- **A rename keeps something of the task, or is asked.** A new title that shares no word with
  the old one, from a message that does not ask for a rename in so many words ("oh shoot,
  it's 5:30 actually"), is a guess: "Do you want me to rename 'X' to 'Y'?".
- **A field is never a task.** "take the home tag off the plumber task", "delete the
  reminder from it": the words name a tag, a reminder, a date, a repeat, a priority or a note,
  so the request is about that field and never deletes the task. A field change the rules
  read is made (`field_requests`); any other is asked about.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rapidfuzz import fuzz

from backend.agent.rules import replies
from backend.agent.rules.steps import Step
from backend.agent.rules.types import (
    Action,
    Batch,
    Detection,
    Intent,
    PendingKind,
    PendingQuestion,
    RuleKind,
    Say,
    ToolCall,
    ToolOutcome,
)
from backend.domain.title_words import canonical

_I = re.IGNORECASE

# The intents that change tasks (a LIST never does).
_CHANGES = frozenset({Intent.CREATE, Intent.COMPLETE, Intent.DELETE, Intent.UPDATE})

# "is"/"are" first always ask ("is milk on there"); "do", "have", "should"... ask only with a
# pronoun after them: "do the dishes" and "have to call mom" are tasks.
_BE = r"(?:is|are|was|were|isn't|aren't|wasn't|weren't|isnt|arent)\s+\w"
_AUXILIARY = (
    r"(?:do|does|did|am|have|has|had|should|shall|will|haven't|hasn't|hadn't|didn't|don't|"
    r"doesn't|shouldn't|dont|didnt|doesnt|havent|hasnt)"
)
_SUBJECT = r"(?:i|you|u|ya|we|they|he|she|it|there|anything|everything|something|any)"
_WH = r"(?:what|which|when|where|who|whose|how|why)"
# A wh-word asks when a verb of asking follows ("what's due", "when is", "which ones are");
# "when you get a chance, add milk" is a request.
_WH_ASKS = (
    rf"{_WH}(?:'s|'re|s)?\b(?:\s+[\w-]+){{0,2}}?\s+"
    r"(?:is|are|was|were|do|does|did|will|would|can|could|should|have|has|had|left|due|on)\b"
    rf"|{_WH}(?:'s|s)\b"
)
# Where the question starts: after greetings, fillers and a wake word.
_LEAD_IN = (
    r"^(?:(?:hey|hi|hello|ok|okay|so|um+|uh+|er+|well|oh|and|but|also|quick question)\b[,.!]?\s+)*"
)
_ASKS_BY_FORM = re.compile(
    _LEAD_IN + rf"(?:{_BE}|{_AUXILIARY}\s+{_SUBJECT}\b|{_WH_ASKS})"
    r"|\b(?:or\s+not|or\s+no|or\s+what|right|yes\s+or\s+no)\s*\?*\s*$"
    r"|\?\s*$",
    _I,
)
# A request worded as a question, anywhere in it: the person asks the assistant (or for leave)
# to act ("If it's no trouble, could you add ...?", "Hi there, would you please ...?").
_REQUEST_AS_QUESTION = re.compile(
    r"\b(?:can|could|would|will|won't|wont|might)\s+(?:you|u|ya)\b|\b(?:you|u)\s+(?:can|could)\b"
    r"|\b(?:can|could|may|might)\s+(?:i|we)\s+(?:get|have|add|put|please)\b"
    r"|\b(?:would|do)\s+you\s+mind\b"
    r"|\b(?:is|would)\s+it\s+be\s+(?:possible|ok|okay)\b|\bis\s+it\s+(?:possible|ok|okay)\b"
    r"|\bif\s+you\s+(?:would|could|can)\b"
    r"|\bwhy\s+(?:don't|dont)\s+you\b"
    r"|\bhow\s+about\s+(?:you\s+)?(?:add|put|delete|remov|mark|tick|mov|chang)\w*\b"
    r"|\b(?:please|pls|plz|kindly)\b",
    _I,
)
# A question that leads with a request verb is a request with a question tag ("add milk,
# would you?", "delete it, ok?").
_REQUEST_FIRST = re.compile(
    r"^(?:please\s+)?(?:add|put|remind|delete|remove|mark|tick|cross|check|complete|finish|"
    r"move|push|change|rename|set|make|show|list|take|clear|undo|cancel|tag|schedule)\b",
    _I,
)


def asks_without_requesting(clause: str, message: str = "") -> bool:
    """Whether `clause` is a question by its form and not a request worded as one. The
    request's wording is looked for in the whole `message` too: the clause may be what is left
    of it once "could you please" was read ("reopen it?")."""
    said = clause.strip()
    return bool(
        _ASKS_BY_FORM.search(said)
        and not _REQUEST_AS_QUESTION.search(f"{said} {message}")
        and not _REQUEST_FIRST.search(said)
    )


_FIELD_NOUN = (
    r"(?:tags?|hashtags?|labels?|reminders?|alerts?|notifications?|due\s+dates?|deadlines?|"
    r"dates?|times?|priority|priorities|repeats?|recurrence|schedule|notes?|descriptions?)"
)
_REMOVAL = (
    r"(?:remove|delete|take|drop|clear|strip|get\s+rid\s+of|lose|scrap|ditch|kill|cancel|"
    r"turn\s+off|switch\s+off|unset|erase|wipe|untag)"
)
# "take the home tag off X", "delete the reminder on it", "remove #work from X"; never "delete
# the date night task" or "delete the reminder to call mom" (the field noun is in a title).
_REMOVES_A_FIELD = re.compile(
    rf"\b{_REMOVAL}\s+(?:the\s+|that\s+|this\s+|its\s+|my\s+|all\s+(?:the\s+|its\s+)?)?"
    rf"(?:#?[\w-]+\s+)?{_FIELD_NOUN}(?:\s+(?:from|off|on|of|for|in)\b|[^\w]*$)"
    r"|\b(?:remove|delete|take|drop|strip)\s+#[a-z][\w-]*"
    r"|\buntag\b",
    _I,
)


def removes_a_field(clause: str) -> bool:
    """Whether the clause asks to take a field off a task rather than to delete a task."""
    return _REMOVES_A_FIELD.search(clause) is not None


def safe_reading(detection: Detection, clause: str, message: str = "") -> Detection:
    """The reading the engine may act on: a changing reading of a question becomes a look-up,
    and a delete that names a field becomes a question back."""
    if detection.intent not in _CHANGES or detection.action in (Action.LOOKUP, Action.COUNT):
        return detection
    if detection.intent is Intent.DELETE and removes_a_field(clause):
        return Detection(
            Intent.UNCLEAR,
            "safety: a field named, never a delete",
            detection.obj,
            Action.WHICH_FIELD,
            kind=RuleKind.SAFETY,
        )
    if asks_without_requesting(clause, message):
        return Detection(
            Intent.LIST,
            "safety: a question never changes data",
            detection.obj,
            Action.LOOKUP,
            kind=RuleKind.SAFETY,
        )
    return detection


# A rename asked for in so many words: "rename", "change X to Y", "call it", "should be",
# "I meant", "instead", "not X, Y" / "X not Y" (a correction naming what it replaces).
_RENAME_SAID = re.compile(
    r"\b(?:rename|renamed|retitle|change|changed|call\s+it|name\s+it|should\s+(?:be|say|read)|"
    r"meant|mean|instead|make\s+it|correct|fix|spelled|spelt|typo|edit|update)\b",
    _I,
)
_RESPELT = 60.0  # percent alike: the title typed again, not another one
_TITLE_WORD = re.compile(r"[a-z0-9]+", _I)
_LITTLE = frozenset("a an the my to of for and or on in at by with it is".split())


def _words(title: str) -> set[str]:
    return {
        canonical(w.lower())[:4] for w in _TITLE_WORD.findall(title) if w.lower() not in _LITTLE
    }


def is_a_guessed_rename(old: str, new: str, message: str) -> bool:
    """Whether renaming `old` to `new` would be a guess: nothing of the old title is kept and
    the message never asks for a rename in words."""
    if _words(old) & _words(new) or _RENAME_SAID.search(message):
        return False
    if fuzz.ratio(old.lower(), new.lower()) >= _RESPELT:
        return False  # "chiken" to "chicken", "flower" to "flour": the same word respelt
    # "not the plumber, the landlord": a correction naming the words it replaces
    replaced = {
        canonical(w.lower())[:4] for w in re.findall(r"\bnot\s+(?:the\s+)?(\w+)", message, _I)
    }
    return not (replaced & _words(old))


# What a due day, a time, a repeat or a priority is said with: a title made of these alone
# ("monday mornign", "fortnightly rather than weekly", "medium") is a field misread.
_FIELD_VALUE_WORDS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs
    fri sat sun morning afternoon evening night tonight tomorrow today week weeks weekly daily
    monthly yearly fortnight fortnightly every other each day days month high medium low
    normal priority urgent rather than instead of am pm noon midday next this at on to the a
    by before after half quarter past o'clock oclock weekend weekends that in of
    """.split()
)
_FIELD_VALUE_LIKENESS = 80.0  # "mornign" is "morning" mistyped
_MISTYPED_LENGTH = 6  # shorter words are too alike by chance ("water", "after")
_LONG_FIELD_VALUE_WORDS = tuple(w for w in _FIELD_VALUE_WORDS if len(w) >= _MISTYPED_LENGTH)


def _like_a_field_word(word: str) -> bool:
    return any(
        fuzz.ratio(word, known) >= _FIELD_VALUE_LIKENESS for known in _LONG_FIELD_VALUE_WORDS
    )


# Words that only join a field value's words: a title of these alone ("a", "at the") is no
# field value.
_JOINING_WORDS = frozenset("a at on to the by in of that this next every each other".split())


def names_only_a_field_value(title: str) -> bool:
    words = re.findall(r"[a-z']+|\d+(?::\d+)?", title.lower())
    return bool(set(words) - _JOINING_WORDS) and all(
        word[0].isdigit()
        or word in _FIELD_VALUE_WORDS
        or (len(word) >= _MISTYPED_LENGTH and _like_a_field_word(word))
        for word in words
    )


# Words that say when or how often: "every other week now, the council changed it" is a
# repeat changed, not a new title.
_WHEN_WORDS = re.compile(
    r"\b(?:every\s+(?:other\s+|second\s+|\d+\s+)?(?:day|week|month|year|weekday|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?|fortnightly|weekly|daily|monthly|yearly|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|tomorrow|tonight|next\s+week|"
    r"at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?)\b",
    _I,
)


def _says_when(new: str, old: str) -> bool:
    """Whether a new title that drops the old one says a when or a repeat it did not."""
    if _words(old) <= _words(new):
        return False  # "no I said call the vet tomorrow morning": the title said again, longer
    return _WHEN_WORDS.search(new) is not None and _WHEN_WORDS.search(old) is None


def renames_confirmed(step: Step, message: str, old_title: Callable[[int], str | None]) -> Step:
    """The same step, a rename it would make on a guess asked about first."""

    def confirmed(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        action = step(outcomes)
        if not isinstance(action, ToolCall) or action.name != "update_task":
            return action
        if set(action.arguments) != {"task_id", "title"}:
            return action
        task_id, new = int(action.arguments["task_id"]), str(action.arguments["title"])
        old = old_title(task_id)
        guessed = old is not None and is_a_guessed_rename(old, new, message)
        when = not _RENAME_SAID.search(message) and _says_when(new, old or "")
        if not (guessed or names_only_a_field_value(new) or when):
            return action
        old = old or f"task {task_id}"
        pending = PendingQuestion(
            kind=PendingKind.CONFIRM_TASK,
            tool="update_task",
            task_id=task_id,
            title=old,
            fields={"title": new},
        )
        return Say(
            replies.confirm_rename(old, new), {"pending": pending, "focus": task_id}, stop=True
        )

    return confirmed
