"""Snoozing a reminder from chat (issue 34, item 4): "snooze that for 10 minutes", "snooze it",
"snooze for an hour", "remind me again in an hour", "remind me again later", "remind me tomorrow
instead", "remind me about it at 5pm instead", "snooze the report reminder until tomorrow
morning".

Read before anything else of the message (a snooze is never an add: "remind me again in an
hour" adds no task "again"), and only as a whole message: a snooze verb, or a reminder asked
for again ("again", "later", "instead"), then at most a task and a time.

Which reminder: the task named; else, for "that" / "it" / nothing, the most recently fired
reminder still shown (the card the user is looking at, `list_tasks(reminder="fired")`); else the
task talked about; else the question which one, offering the tasks due soonest. "... instead"
right after a reminder was set in chat corrects that one.

When: a duration from now ("for 10 minutes", "in an hour", "10 more minutes"), a time on the
user's clock ("until tomorrow morning", "at 5pm"; a day alone is 09:00 on it, as the card's
"tomorrow" is), "later" an hour, nothing at all 10 minutes (the reply says which).

How: `update_task(task_id, remind_at=...)`: the service dismisses the card it supersedes. Its
undo gives the old reminder fields back with `restore_reminder`, which shows the card again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from backend.agent.rules import replies
from backend.agent.rules.choices import MAX_CHOICES
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.field_requests import NOT_A_TASK
from backend.agent.rules.reminder_requests import OFFSET_AMOUNT, offset_minutes
from backend.agent.rules.resolve import match_tasks
from backend.agent.rules.steps import Action, Step, Task, failure
from backend.agent.rules.task_actions import act_on_task, act_on_title, which_of
from backend.agent.rules.types import (
    PendingKind,
    PendingQuestion,
    ReplyMeta,
    Say,
    ToolCall,
    ToolOutcome,
)
from backend.agent.rules.when import whole_due

_I = re.IGNORECASE

# A snooze said with no time, and "later".
DEFAULT_MINUTES = 10
LATER_MINUTES = 60
# The day's hour a snooze to a day alone ("tomorrow instead") fires at: the card's own.
DAY_SNOOZE_CLOCK = "09:00"
# The fired reminders read to find the one meant (most recent first).
FIRED_LOOKUP = 10

_LEAD = (
    r"^(?:(?:ok(?:ay)?|hey|hi|oh|so|um|uh|just|please|pls|not\s+now|not\s+yet|"
    r"(?:can|could|would|will)\s+you|i\s+(?:want|need)\s+(?:you\s+)?to)[,\s]+)*"
)
# "snooze", "snooze me", "hit snooze on"
_SNOOZE = re.compile(
    rf"{_LEAD}(?:hit\s+)?snooze(?:\s+(?:me|on|button\s+on))?(?:\s+(?P<rest>.*?))?[\s.!?]*$", _I
)
_REMIND = re.compile(
    rf"{_LEAD}(?:remind|ping|nudge|alert|notify)\s+me(?:\s+(?P<rest>.*?))?[\s.!?]*$", _I
)
# Words that make "remind me ..." a reminder asked for again, not a new one.
_AGAIN = re.compile(r"(?:^|\s)(?:again|once\s+more|one\s+more\s+time|instead)(?=\s|$)", _I)
_INSTEAD = re.compile(r"\binstead\b", _I)
_LATER = re.compile(
    r"^(?:(?:a\s+(?:bit|little(?:\s+bit)?|while|little\s+while))\s+)?later(?:\s+on)?$"
    r"|^in\s+(?:a\s+(?:bit|while|little(?:\s+(?:bit|while))?))$",
    _I,
)
_FILLER = re.compile(
    r"(?:^|\s)(?:again|once\s+more|one\s+more\s+time|instead|please|pls|thanks|thank\s+you|"
    r"for\s+me|then|ok|okay)(?=\s|$)",
    _I,
)
# "for 10 minutes", "in an hour", "another 10 minutes", "10 more minutes", "for 20m"
_DURATION = re.compile(
    rf"^(?:(?:for|in|by)\s+)?(?:another\s+|an\s+extra\s+|a\s+further\s+)?{OFFSET_AMOUNT}"
    r"(?:\s+(?:more|longer|from\s+now))?$",
    _I,
)
_MORE_UNIT = re.compile(r"\b(?:more|extra)\s+(?=(?:minute|min|hour|hr|day)s?\b)", _I)
_TIME_LEAD = re.compile(r"^(?:until|till|til|to|for|by)\s+", _I)
_REMINDER_WORDS = re.compile(r"\b(?:reminder|alert|notification|notif|ping)s?\b", _I)
_POINTER = re.compile(
    r"^(?:(?:about|of|for|on)\s+)?(?:it|that|this|that\s+one|this\s+one|the|my|its|one|me|"
    r"the\s+(?:last|latest|newest|current)(?:\s+one)?)?$",
    _I,
)
_TARGET_LEAD = re.compile(r"^(?:(?:the|my|that|this)\s+)?(?:(?:for|about|of|on|to)\s+)?", _I)
_NUMBER = re.compile(r"^(?:task\s*#?|#|number\s+)(?P<n>\d+)$", _I)
# "snooze all of them", "remind me again what's due": no one reminder's snooze
_NOT_ONE = re.compile(r"^(?:all|every|everything|them|those|these|what|which|who|how|why)\b", _I)
_ABOUT = re.compile(r"^(?:about|of|for|re)\s+", _I)


@dataclass(frozen=True)
class Snooze:
    """A snooze asked for: when ("YYYY-MM-DDTHH:MM" on the user's clock), the minutes when a
    duration was said (or assumed), the task as said (None: the one meant), the task's
    number when said, and whether it was said with "remind me" and "instead"."""

    at: str
    minutes: int | None
    target: str | None
    task_id: int | None = None
    reminds: bool = False
    instead: bool = False
    # "snooze" and nothing else: with no reminder shown and no task talked about, most
    # likely an alarm's (another app's), never a question
    bare: bool = False


def snooze_request(text: str, now: datetime) -> Snooze | None:
    """The snooze `text` asks for, read on the user's clock `now`; None if it is none."""
    text = text.strip()
    if NOT_A_TASK.search(text):
        return None  # "snooze my alarm": another app's
    snoozed = _SNOOZE.match(text)
    reminds = snoozed is None
    found = snoozed or _REMIND.match(text)
    if found is None:
        return None
    rest = (found["rest"] or "").strip(" ,")
    if reminds and re.match(r"^to\b", rest, _I):
        return None  # "remind me to ...": a task
    # "remind me at 5" is a reminder set (reminder_requests.py); "again", "instead" or a time
    # that is only "later" make it one asked for again
    again = not reminds or _AGAIN.search(f" {rest} ") is not None
    instead = _INSTEAD.search(rest) is not None
    rest = re.sub(r"\s+", " ", _FILLER.sub(" ", rest)).strip(" ,")
    found_time = _split(rest.split(), now, again=again)
    if found_time is None:
        return None
    target, (at, minutes) = found_time
    one, said = _target_said(target, reminds=reminds)
    if not one:
        return None
    number = _NUMBER.match(said or "")
    return Snooze(
        at,
        minutes,
        None if number else said,
        int(number["n"]) if number else None,
        reminds=reminds,
        instead=instead,
        bare=not reminds and not rest,
    )


def _split(
    words: list[str], now: datetime, *, again: bool
) -> tuple[str, tuple[str, int | None]] | None:
    """(the task as said, the time) of the words after the verb: the time is the longest
    tail they end on (nothing said: the default); without "again" or "instead", only
    "later" makes it a snooze."""
    for cut in range(len(words) + 1):
        target, when = " ".join(words[:cut]), " ".join(words[cut:])
        timed = _time_said(when, now)
        if timed is not None and (again or _LATER.match(when)):
            return target, timed
    return None


def _clock_after(now: datetime, minutes: int) -> str:
    """The wall clock `minutes` of real time from now (counted in UTC: across a change of
    the clocks it is still that long), to the minute, as the tools take it."""
    moment = (now.astimezone(UTC) + timedelta(minutes=minutes)).astimezone(now.tzinfo)
    return f"{moment:%Y-%m-%dT%H:%M}"


def _time_said(when: str, now: datetime) -> tuple[str, int | None] | None:
    """(the instant, the minutes of a duration) that `when` says, all of it; nothing said is
    the default snooze. None if it says something else."""
    if not when:
        return _clock_after(now, DEFAULT_MINUTES), DEFAULT_MINUTES
    if _LATER.match(when):
        return _clock_after(now, LATER_MINUTES), LATER_MINUTES
    duration = _DURATION.match(_MORE_UNIT.sub("", when))
    minutes = offset_minutes(duration) if duration else None
    if minutes is not None and minutes > 0:
        return _clock_after(now, minutes), minutes
    said = whole_due(_TIME_LEAD.sub("", when), now) or whole_due(when, now)
    if said is None or said.unclear is not None:
        return None
    at = said.argument if said.clock is not None else f"{said.argument}T{DAY_SNOOZE_CLOCK}"
    return at, None


def _target_said(target: str, *, reminds: bool) -> tuple[bool, str | None]:
    """Whether the words name one reminder to snooze (not "all of them", "what's due"), and
    the task as said (None: the one meant, "that" / "it" / nothing)."""
    plain = re.sub(r"\s+", " ", _REMINDER_WORDS.sub(" ", target)).strip()
    if _POINTER.match(plain):
        # "snooze reminders": which of them is not said
        return bool(plain) or not re.search(r"\b\w+s\b", target), None
    if _NOT_ONE.match(plain):
        return False, None
    if reminds and not _ABOUT.match(plain):
        return False, None  # "remind me again what the code is": a question, no task named
    named = _TARGET_LEAD.sub("", plain).strip()
    return True, named or None


# --- steps -------------------------------------------------------------------------------


def snooze_step(request: Snooze, context: ConversationContext) -> Step:
    """The snooze's tool calls and reply (see the module's docstring)."""
    fields: dict[str, Any] = {"remind_at": request.at}
    if request.task_id is not None:
        return _replied(act_on_task("update_task", request.task_id, fields), request)
    corrected = _reminder_just_set(context)
    if request.instead and corrected is not None:
        return _replied(act_on_task("update_task", corrected, fields), request)

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall(
                "list_tasks", {"status": "pending", "reminder": "fired", "limit": FIRED_LOOKUP}
            )
        if not outcomes[0].ok:
            return failure(outcomes[0])
        fired: list[Task] = outcomes[0].data
        rest = outcomes[1:]
        if request.target is not None:
            named = match_tasks(request.target, fired)
            if len(named) > 1:
                return which_of("update_task", request.target, named[:MAX_CHOICES], fields)
            if not named:
                return _replied(act_on_title("update_task", request.target, fields), request)(rest)
            return _replied(act_on_task("update_task", int(named[0]["id"]), fields), request)(rest)
        if fired:
            return _replied(act_on_task("update_task", int(fired[0]["id"]), fields), request)(rest)
        if context.focus_task_id is not None and not context.focus_is_a_row:
            return _replied(act_on_task("update_task", context.focus_task_id, fields), request)(
                rest
            )
        if request.bare:
            return Say(replies.NO_REMINDER_SHOWN, ReplyMeta(acts=["off_topic"], focus=None))
        return _ask_which(fields)(rest)

    return step


def _reminder_just_set(context: ConversationContext) -> int | None:
    """The task whose reminder the last change set, when it is the one talked about."""
    fields = context.last_fields or {}
    if context.focus_task_id is None or not {"remind_at", "remind_before"} & set(fields):
        return None
    return context.focus_task_id


def _ask_which(fields: dict[str, Any]) -> Step:
    """No reminder shown and no task talked about: which one, offering those due soonest."""

    def step(outcomes: list[ToolOutcome]) -> ToolCall | Say:
        if not outcomes:
            return ToolCall(
                "list_tasks", {"status": "pending", "sort": "due", "limit": MAX_CHOICES}
            )
        if not outcomes[0].ok:
            return failure(outcomes[0])
        likely: list[Task] = outcomes[0].data
        if not likely:
            return Say(replies.NOTHING_TO_SNOOZE, ReplyMeta(focus=None), stop=True)
        candidates = [int(t["id"]) for t in likely]
        pending = PendingQuestion(
            kind=PendingKind.CHOOSE_TASK,
            tool="update_task",
            candidates=candidates,
            titles=[str(t["title"]) for t in likely],
            fields=fields,
        )
        meta = ReplyMeta(pending=pending, listed=candidates, focus=None)
        return Say(replies.which_to_snooze(likely), meta, stop=True)

    return step


def _replied(change: Step, request: Snooze) -> Step:
    """`change` (an update of the reminder), its reply saying the snooze, and its undo
    showing the superseded reminder again."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        action = change(outcomes)
        done = outcomes[-1] if outcomes else None
        if not isinstance(action, Say) or done is None or not _snoozed(done):
            return action
        meta = ReplyMeta(**action.meta)
        undo = meta.get("undo")
        if undo and undo.get("tool") == "update_task":
            meta["undo"] = {**undo, "arguments": {**undo["arguments"], "restore_reminder": True}}
        text = replies.snoozed(done.data, request.minutes, reminds=request.reminds)
        return Say(text, meta, stop=action.stop)

    return step


def _snoozed(outcome: ToolOutcome) -> bool:
    return (
        outcome.ok
        and outcome.call.name == "update_task"
        and "remind_at" in outcome.call.arguments
        and isinstance(outcome.data, dict)
    )
