"""Grounded in the user's own tasks: a message read against the tasks it may be about.

In: a clause's reading (`Detection`) and the clause. Out: a reading the user's tasks decide,
at run time, once the list is read:

- "I paid the rent", "gas bill sorted": a done statement that another assistant's words
  ("pay", "bill") made off topic completes the pending task it names, if exactly one; else
  the off-topic answer stands.
- "remind me about the library books at 4": with a task those words name outright, its
  reminder is set (never a second task about the library books); without one, the reading
  stands (an add due then, or another assistant's job: "remind me about the meeting at 10").
- "pay rent every 1st of the month": a thing to do with a date or a repeat is a task, typed
  without "add", never another assistant's job.
"""

from __future__ import annotations

import re
from datetime import datetime

from backend.agent.rules import steps, task_actions
from backend.agent.rules.field_requests import NOT_A_TASK
from backend.agent.rules.resolve import match_tasks, strip_reference_noise
from backend.agent.rules.social import off_topic_reply
from backend.agent.rules.steps import Step, Task
from backend.agent.rules.task_fields import take_fields
from backend.agent.rules.text import core_request
from backend.agent.rules.types import Action, Detection, Intent, RuleKind, Say, ToolOutcome
from backend.agent.rules.vocabulary import is_task_verb
from backend.agent.rules.when import whole_due
from backend.domain.title_words import canonical

_I = re.IGNORECASE

# What another assistant keeps even with a date: an alarm, a timer, a calendar (the field
# requests' list), and the weather.
_FORECAST = re.compile(r"\b(?:weather|forecast)\b", _I)
# "I paid the rent", "we've sent the forms", "gas bill paid", "rent's sorted".
_DONE_STATEMENT = re.compile(
    r"^\W*(?:(?:hey|so|ok|okay|well|oh|and|anyway|just|finally|good\s+news)\W+)*"
    r"(?:i|we|i've|we've|i\s+have|we\s+have)\s+(?:just\s+|finally\s+|already\s+|now\s+)?"
    r"(?:\w+ed|paid|did|sent|bought|got|made|took|rang|wrote|went|sorted|gave|met|put|"
    r"sold|spoke|told|dealt\s+with)\b"
    r"|\b(?:paid|done|sorted|sent|bought|finished|completed|dealt\s+with)\s*(?:now|already)?"
    r"\s*[.!]*$",
    _I,
)
# "pay rent", "pay the gas bill", "renew the car insurance": a bill to pay is a thing to do; a
# payment to make now is the bank's ("pay john 20 dollars" has no date and stays off topic).
_A_BILL_TO_PAY = re.compile(
    r"^(?:pay|renew|settle|top\s+up)\s+(?:the\s+|my\s+|our\s+)?[\w' -]{0,30}?"
    r"\b(?:rent|bills?|mortgage|tax(?:es)?|invoice|insurance|subscription|fees?|fine|"
    r"tuition|council|utilities|phone|internet|electric(?:ity)?|gas|water|card)\b",
    _I,
)
_REMIND_ABOUT = re.compile(
    r"^(?:please\s+)?(?:remind|ping|nudge)\s+me\s+(?:about|of|re)\s+(?P<ref>.+?)\s+"
    r"(?P<when>(?:at|on|tomorrow|tonight|today|this|next|in|by|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b.+)$",
    _I,
)
# The readings the user's tasks may change: an add, another assistant's job, nothing clear.
_GROUNDED = frozenset({Intent.CREATE, Intent.OFF_TOPIC, Intent.UNCLEAR})
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?", _I)
_LITTLE_WORDS = frozenset(
    "a an the my our to of for and or on in at by with it i we i've we've just finally "
    "already now so ok okay well oh have has had".split()
)


def _stems(text: str) -> set[str]:
    return {canonical(w.lower())[:4] for w in _WORD.findall(text) if w.lower() not in _LITTLE_WORDS}


def _never_a_task(clause: str) -> bool:
    return NOT_A_TASK.search(clause) is not None or _FORECAST.search(clause) is not None


def names_the_task(statement: str, title: str) -> bool:
    """Whether a done statement names the task: every word of its title, bar the verb it
    starts with ("pay" in "pay rent": "I paid the rent"), is in the statement."""
    words = [w for w in _WORD.findall(title.lower()) if w not in _LITTLE_WORDS]
    if words and is_task_verb(words[0]):
        words = words[1:]
    wanted = {canonical(w)[:4] for w in words}
    return bool(wanted) and wanted <= _stems(statement)


def grounded_reading(detection: Detection, clause: str, now: datetime) -> Detection:
    """The reading, or the one the user's own tasks decide (see the module's doc)."""
    if detection.intent not in _GROUNDED:
        return detection
    core = core_request(clause).strip()
    found = _REMIND_ABOUT.match(core)
    if found is not None and whole_due(found["when"], now) is not None:
        # the reading stands when no task is named ("remind me about the meeting at 10")
        rule = "remind about a task"
        return Detection(detection.intent, rule, core, Action.REMIND_OR_ADD, kind=RuleKind.GROUNDED)
    if detection.intent is not Intent.OFF_TOPIC or _never_a_task(clause):
        return detection
    if _DONE_STATEMENT.search(core):
        rule = "done: the task it names"
        return Detection(Intent.OFF_TOPIC, rule, core, Action.DONE_IF_NAMED, kind=RuleKind.GROUNDED)
    fields, rest = take_fields(core, now)
    if (fields.due is not None or fields.repeat is not None) and _A_BILL_TO_PAY.match(rest):
        rule = "a bill to pay with a date, not banking"
        return Detection(Intent.CREATE, rule, core, kind=RuleKind.GROUNDED)
    return detection


def complete_if_named(statement: str) -> Step:
    """Completes the one pending task `statement` names; else another assistant's job."""

    def step(outcomes: list[ToolOutcome]) -> steps.Action:
        tasks = steps.every_task(outcomes)
        if not isinstance(tasks, list):
            return tasks
        named = [
            t for t in tasks if not t.get("completed") and names_the_task(statement, t["title"])
        ]
        if len(named) != 1:
            return Say(off_topic_reply(statement))
        done = steps.with_meta(
            task_actions.act_on_task("complete_task", int(named[0]["id"])), {"acts": ["complete"]}
        )
        return done(outcomes[1:])

    return step


def remind_or_else(request: str, now: datetime, otherwise: Step) -> Step:
    """ "remind me about X <when>": X's reminder when one task is X, else `otherwise` (the
    reading without the user's tasks: an add of X due then, or another assistant's job)."""
    found = _REMIND_ABOUT.match(request)
    due = whole_due(found["when"], now) if found is not None else None
    reference = strip_reference_noise(found["ref"]) if found is not None else ""

    def step(outcomes: list[ToolOutcome]) -> steps.Action:
        tasks = steps.every_task(outcomes)
        if not isinstance(tasks, list):
            return tasks
        pending: list[Task] = [t for t in tasks if not t.get("completed")]
        matches = match_tasks(reference, pending) if reference and due is not None else []
        # Only a task the words name outright: a likeness is no reason to leave it unadded.
        matches = [t for t in matches if steps.named_and_pending(reference, t)]
        if len(matches) != 1 or due is None:
            return otherwise(outcomes[1:])
        remind = task_actions.act_on_task(
            "update_task", int(matches[0]["id"]), {"remind_at": due.argument}
        )
        return steps.with_meta(remind, {"acts": ["update"]})(outcomes[1:])

    return step
