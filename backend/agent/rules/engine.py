"""The rule engine: a message and its conversation in, a plan of steps out.

`interpret` turns the user's message into a `Plan` (an answer to the open question, or one
step per clause of the message) and records which rule decided each part; `advance` replays
the tool outcomes of this turn through the plan and returns the next tool call(s), or the
finished reply. Both are pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from backend.agent.rules.answers import answer_to_pending
from backend.agent.rules.builders import steps_for
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import extract_task_id
from backend.agent.rules.intents import detect_intent
from backend.agent.rules.steps import Step
from backend.agent.rules.text import core_request, prepare
from backend.agent.rules.types import Action, Batch, Detection, Intent, Say, ToolCall, ToolOutcome

_I = re.IGNORECASE


@dataclass(frozen=True)
class Plan:
    steps: list[Step]
    intents: list[Intent]
    rules: list[str]


@dataclass(frozen=True)
class FinalReply:
    text: str
    meta: dict[str, Any] = field(default_factory=dict)


def advance(plan: Plan, outcomes: list[ToolOutcome]) -> ToolCall | Batch | FinalReply:
    """The next call(s) the plan needs, or its reply once every step has finished."""
    remaining = list(outcomes)
    said: list[Say] = []
    for step in plan.steps:
        mine: list[ToolOutcome] = []
        while True:
            action = step(mine)
            if isinstance(action, Say):
                said.append(action)
                break
            needed = len(action.calls) if isinstance(action, Batch) else 1
            if len(remaining) < needed:
                return action
            mine.extend(remaining[:needed])
            del remaining[:needed]
        if said[-1].stop:
            break
    meta: dict[str, Any] = {"intents": [i.value for i in plan.intents], "rules": plan.rules}
    for part in said:
        meta.update(part.meta)
    return FinalReply(" ".join(part.text for part in said if part.text), meta)


# Compound messages: "add milk and show my tasks", "delete task 3. What's left?"
_ACTION_START = (
    r"(?:please\s+)?(?:show|list|tell me|what|what's|whats|display|give me|add|create|put|"
    r"remind me|delete|remove|cancel|drop|complete|mark|finish|check off|tick off|change|"
    r"update|rename|edit|set|let me see|how many)\b"
)
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:[,;]\s*)?\b(?:and then|and also|and|then|also|plus)\b\s+"
    # "... and add a description X" continues an update; it is not a new add.
    r"(?!(?:add|set|change|update)\s+(?:a\s+|the\s+|its\s+|new\s+)?(?:description|details|notes?)\b)"
    rf"(?={_ACTION_START})"
    rf"|(?<=[.!?;\u2190-\u2bff\U0001f000-\U0001faff])\s+(?={_ACTION_START})",
    _I,
)


def split_clauses(text: str) -> list[str]:
    """The message's clauses; pure filler ("oh", "ok so") is dropped when something else is said."""
    clauses = [clause.strip() for clause in _CLAUSE_SPLIT.split(text) if clause and clause.strip()]
    meaningful = [c for c in clauses if core_request(c) or _GREETING_ONLY.match(c)]
    return meaningful or clauses


_TOOL_INTENT = {
    "add_task": Intent.CREATE,
    "delete_task": Intent.DELETE,
    "complete_task": Intent.COMPLETE,
    "update_task": Intent.UPDATE,
}


def _intent_of(detection: Detection, context: ConversationContext) -> Intent:
    """An undo is the intent of the change that reverses the last one."""
    if detection.action is Action.UNDO and context.last_change and context.last_change.get("tool"):
        return _TOOL_INTENT.get(str(context.last_change.get("tool")), detection.intent)
    return detection.intent


_GREETING_ONLY = re.compile(r"^(?:hi|hello|hey|yo|hiya|howdy)\b", _I)


# "I walked the dog, mark it done": the pronoun points back into the same message.
_PRONOUN_TAIL = re.compile(
    r"^(?P<statement>.+?),\s*(?:so\s+|and\s+)?(?:you can\s+|please\s+|go ahead and\s+|just\s+)?"
    r"(?P<verb>mark|tick|check|cross|take|delete|remove|complete|reopen|uncheck|get rid of|drop)"
    r"\s+(?:it|that|that one|this)\b(?P<tail>.*)$",
    _I,
)


def merge_pronoun_tail(text: str) -> str:
    """Applies a trailing "..., <verb> it" to the task the first part of the message names."""
    match = _PRONOUN_TAIL.match(text)
    if match is None:
        return text
    statement, verb, tail = match.group("statement"), match.group("verb"), match.group("tail")
    if not core_request(statement):
        return text  # "Actually, mark it as done": nothing before the comma names a task
    said = detect_intent(statement)
    asked = detect_intent(f"{verb} it{tail}")
    if said.intent is asked.intent and said.action is asked.action:
        return statement
    return f"{verb} {core_request(statement)}{tail}"


def interpret(message: str, context: ConversationContext) -> Plan:
    text = merge_pronoun_tail(prepare(message))
    answer = answer_to_pending(text, context)
    if answer is not None:
        answer_steps, intent, rule = answer
        return Plan(answer_steps, [intent], [rule])
    plan_steps: list[Step] = []
    intents: list[Intent] = []
    rules: list[str] = []
    for clause in split_clauses(text) or [text]:
        detection = detect_intent(
            clause, has_task_id=extract_task_id(core_request(clause)) is not None
        )
        plan_steps.extend(steps_for(detection, clause, context))
        intents.append(_intent_of(detection, context))
        rules.append(detection.rule)
    return Plan(plan_steps, intents, rules)
