"""A title is never a field said as a follow-up.

After "remind me 15 minutes before", "make it an hour" is a new reminder offset, not a task
called "An hour"; "change it to every 3 weeks" is a repeat, "that was meant to go on the work
list" a list and "no, thursday" a due day. Whatever rule read the message as a rename, a
message that says only fields (and words of asking) changes those fields: `fields_said_alone`
gives them, and the engine puts them in place of the title (`engine._fields_not_titles`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.numbers import NUMBER_PHRASE
from backend.agent.rules.reminder_requests import offset_minutes
from backend.agent.rules.safety import asks_without_requesting
from backend.agent.rules.task_fields import take_fields
from backend.agent.rules.titles import CHATTER_AFTER_COMMA
from backend.agent.rules.when import find_due

_I = re.IGNORECASE

# Words that ask for a change or correct one, and carry nothing of a task.
_ASKING_WORDS = frozenset(
    """
    a actually an and be can change could do for from go gonna hmm i i'm in instead into is it
    it's its just let's lets make me meant mean move no not of oh ok okay on onto oops please
    put rather remind reminder set should so sorry supposed switch than that that's the then
    this to uh um was wait want would yeah yes you set have need needs goes belongs belong hurry
    quick quickly asap too also as well there now while you're youre at one
    """.split()
)
# "an hour", "30 minutes", "half an hour" (before or not): a reminder's offset.
_OFFSET = re.compile(
    rf"\b(?:(?P<amount>{NUMBER_PHRASE}|an?|one)\s*-?\s*(?P<unit>minute|min|hour|hr|day)s?"
    r"|(?P<halfhour>half\s+an?\s+hour))(?:\s+(?:before(?:hand)?|early|earlier|ahead|prior))?\b",
    _I,
)
# "from monthly to every 3 weeks": what it becomes is said after the last "to".
_FROM_TO = re.compile(r"\bfrom\s+(?P<old>.+?)\s+to\s+(?P<new>.+)$", _I)


def _only_asking(rest: str) -> bool:
    words = re.findall(r"[\w']+", rest.lower())
    return all(word in _ASKING_WORDS for word in words)


def _reminder_offset(message: str, after_a_reminder: bool) -> dict[str, Any] | None:
    """ "30 minutes before", or after a reminder change "make it an hour"."""
    found = _OFFSET.search(message)
    if found is None or not _only_asking(message[: found.start()] + message[found.end() :]):
        return None
    said_before = re.search(r"\b(?:before|early|earlier|ahead|prior)", found.group(0), _I)
    minutes = offset_minutes(found)  # read as the reminder requests read it
    if minutes is None or not (said_before or after_a_reminder):
        return None
    return {"remind_before": minutes}


# "oh wait, it's every other week now": the mark of a correction, before the fields it says
_CORRECTION_LEAD = re.compile(
    r"^(?:(?:oh|ah|um+|uh+)\W+)?(?:wait|sorry|oops|actually|no|nope)\b[,.!]*\s+", re.IGNORECASE
)


def fields_said_alone(
    message: str, now: datetime, last_change: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The update_task fields `message` says when it says nothing else, or None."""
    # ", the garden centre's shut Saturdays": the reason after the fields is no field
    text = CHATTER_AFTER_COMMA.sub("", _CORRECTION_LEAD.sub("", message.strip())).rstrip(".!?")
    arguments = (last_change or {}).get("arguments") or {}
    after_a_reminder = bool({"remind_before", "remind_at"} & set(arguments))
    offset = _reminder_offset(text, after_a_reminder)
    if offset is not None:
        return offset
    said_new = _FROM_TO.search(text)
    fields, rest = take_fields(said_new["new"] if said_new else text, now)
    if not fields or not _only_asking(rest):
        return None
    if said_new is not None:
        # "change it from monthly to ...": what it was is a field too, and the rest is asking
        old, old_rest = take_fields(said_new["old"], now)
        if not old or not _only_asking(f"{text[: said_new.start()]} {old_rest}"):
            return None
    return fields.arguments()


# "not friday", "never mind the reminder": a negated field is a correction (`followups`) or a
# removal, never the field set.
_NEGATED = re.compile(r"\b(?:not|no|never|don't|dont|without|remove|cancel|off)\b", _I)
# "remind me at 8": a reminder's moment (`reminder_requests`), never the due time.
_REMINDER_SAID = re.compile(r"\b(?:remind\w*|alert|notif\w*|ping|nudge)\b", _I)
# The undo of the last change names its task: an add is undone by a delete, a field change by
# the old fields (a completion's undo reopens, and says nothing of fields).
_UNDONE_BY = frozenset({"delete_task", "update_task"})


def fields_for_the_task_just_changed(
    message: str, context: ConversationContext
) -> tuple[int, dict[str, Any]] | None:
    """(task number, fields) when, right after a task was added or changed, the message says
    only fields ("oh, the 5th actually", "high priority", "put it on the work list too"): they
    are that task's. None otherwise."""
    change = context.last_change or {}
    arguments = change.get("arguments") or {}
    task_id = arguments.get("task_id")
    if (
        change.get("bulk")
        or change.get("tool") not in _UNDONE_BY
        or "completed" in arguments
        or task_id is None
        or task_id != context.focus_task_id
    ):
        return None
    if _NEGATED.search(message) or asks_without_requesting(message):
        return None
    fields = fields_said_alone(message, context.local_now(), context.last_change)
    if not fields or ("due" in fields and _REMINDER_SAID.search(message)):
        return None
    return int(task_id), _keeping_its_day(fields, message, int(task_id), context)


def _keeping_its_day(
    fields: dict[str, Any], message: str, task_id: int, context: ConversationContext
) -> dict[str, Any]:
    """ "at 3pm" after "move the dentist to monday": the time on the day it has."""
    due = find_due(message, context.local_now()) if "due" in fields else None
    if due is None or due.day_said or due.clock is None or context.last_due is None:
        return fields
    last_task, day, _ = context.last_due
    if last_task != task_id:
        return fields
    return {**fields, "due": f"{day}T{due.clock:%H:%M}"}
