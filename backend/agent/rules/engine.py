"""The rule engine: a message and its conversation in, a plan of steps out.

`interpret` turns the user's message into a `Plan` (and says which rule decided it);
`advance` replays the tool outcomes of this turn through the plan and returns the next tool
call, or the finished reply. Both are pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from backend.agent.rules import replies, steps
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import extract_status, extract_task_id, split_title_description
from backend.agent.rules.intents import Detection, Intent, detect_intent
from backend.agent.rules.text import clean_title, prepare, strip_end_punctuation
from backend.agent.rules.types import Say, ToolCall, ToolOutcome

_I = re.IGNORECASE


@dataclass(frozen=True)
class Plan:
    steps: list[steps.Step]
    intents: list[Intent]
    rules: list[str]


@dataclass(frozen=True)
class FinalReply:
    text: str
    meta: dict[str, Any] = field(default_factory=dict)


def advance(plan: Plan, outcomes: list[ToolOutcome]) -> ToolCall | FinalReply:
    """The next tool call the plan needs, or its reply once every step has finished."""
    remaining = list(outcomes)
    said: list[Say] = []
    for step in plan.steps:
        mine: list[ToolOutcome] = []
        while True:
            action = step(mine)
            if isinstance(action, Say):
                said.append(action)
                break
            if not remaining:
                return action
            mine.append(remaining.pop(0))
        if said[-1].stop:
            break
    meta: dict[str, Any] = {"intents": [i.value for i in plan.intents], "rules": plan.rules}
    for part in said:
        meta.update(part.meta)
    return FinalReply(" ".join(part.text for part in said if part.text), meta)


# Compound messages: "add milk and show my tasks", "delete task 3 and tell me what's left".
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:,\s*)?\b(?:and then|and also|and|then|also)\b\s+"
    # "... and add description X" continues an update; it is not a new add.
    r"(?!(?:add|set|change|update)\s+(?:a\s+|the\s+|its\s+)?(?:description|details|notes?)\b)"
    r"(?=(?:please\s+)?(?:show|list|tell me|"
    r"what|display|add|create|delete|remove|complete|mark|finish|change|update|rename)\b)",
    _I,
)


def interpret(message: str, context: ConversationContext) -> Plan:
    text = strip_end_punctuation(prepare(message))
    answered = _answer_to_pending(text, context)
    if answered is not None:
        return answered
    clauses = [c for c in _CLAUSE_SPLIT.split(text) if c.strip()] or [text]
    plan_steps: list[steps.Step] = []
    intents: list[Intent] = []
    rules: list[str] = []
    for clause in clauses:
        detection = detect_intent(clause, has_task_id=extract_task_id(clause) is not None)
        plan_steps.append(_step_for(detection, clause, context))
        intents.append(detection.intent)
        rules.append(detection.rule)
    return Plan(plan_steps, intents, rules)


# --- answers to the assistant's open question ---------------------------------------------

_YES = re.compile(r"^(?:yes|yeah|yep|yup|sure|ok|okay|please|yes please|go ahead|do it|y)$", _I)
_NO = re.compile(r"^(?:no|nope|nah|no thanks|no thank you|not now|n)$", _I)
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "last": -1,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
}
_POSITION = re.compile(
    r"^(?:the\s+)?(?:(?P<ordinal>first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)"
    r"(?:\s+one)?|(?:number|no\.?|option)\s*(?P<number>\d+)|(?P<bare>\d+))$",
    _I,
)


def _answer_to_pending(text: str, context: ConversationContext) -> Plan | None:
    pending = context.pending
    if not pending:
        return None
    kind = pending.get("kind")
    if kind == "offer_list":
        if _YES.match(text):
            return Plan([steps.list_tasks("pending")], [Intent.LIST], ["yes to the offered list"])
        if _NO.match(text):
            return Plan(
                [steps.say("Okay! Let me know if there's anything else I can do.")],
                [Intent.UNCLEAR],
                ["no to the offered list"],
            )
        return None
    if kind == "choose_task":
        task_id = _chosen_task(text, [int(c) for c in pending.get("candidates", [])])
        if task_id is None:
            return None
        tool = str(pending["tool"])
        step = steps.act_on_task(
            tool, task_id, dict(pending.get("fields") or {}), completions=context.completions
        )
        return Plan([step], [_TOOL_INTENT[tool]], ["answer to a clarification"])
    if kind == "ask_task":
        tool = str(pending["tool"])
        task_id = extract_task_id(text)
        position = _POSITION.match(text)
        if task_id is None and position and position.group("bare"):
            task_id = int(position.group("bare"))
        if task_id is not None:
            step = steps.act_on_task(tool, task_id, completions=context.completions)
            return Plan([step], [_TOOL_INTENT[tool]], ["answer naming the task"])
    return None


def _chosen_task(text: str, candidates: list[int]) -> int | None:
    explicit = re.match(r"^(?:task|id|#)\s*#?(\d+)$", text, _I)
    if explicit:
        return int(explicit.group(1))
    match = _POSITION.match(text)
    if not match:
        return None
    if match.group("ordinal"):
        position = _ORDINALS[match.group("ordinal").lower()]
    else:
        position = int(match.group("number") or match.group("bare"))
        if match.group("bare") and not 1 <= position <= len(candidates) and position in candidates:
            return position  # a bare number that is not a position but is a listed task id
    if position == -1:
        return candidates[-1] if candidates else None
    return candidates[position - 1] if 1 <= position <= len(candidates) else None


_TOOL_INTENT = {
    "complete_task": Intent.COMPLETE,
    "delete_task": Intent.DELETE,
    "update_task": Intent.UPDATE,
}
_INTENT_TOOL = {intent: tool for tool, intent in _TOOL_INTENT.items()}


# --- one clause, one step --------------------------------------------------------------------


def _step_for(detection: Detection, clause: str, context: ConversationContext) -> steps.Step:
    intent = detection.intent
    if intent is Intent.GREETING:
        return steps.say(replies.GREETING)
    if intent is Intent.HELP:
        return steps.say(replies.HELP)
    if intent is Intent.CREATE:
        return _create_step(detection, clause)
    if intent is Intent.LIST:
        return steps.list_tasks(extract_status(clause))
    if intent is Intent.UPDATE:
        return _update_step(detection, clause, context)
    if intent in (Intent.COMPLETE, Intent.DELETE):
        return _act_step(_INTENT_TOOL[intent], detection, clause, context)
    return steps.say(replies.UNCLEAR)


_ADD_LEAD = re.compile(
    r"^(?:(?:a\s+)?(?:new\s+)?(?:task|todo|to-do|item|reminder|note)\s*(?:to|called|named|:|for)?\s+|"
    r"to\s+)",
    _I,
)
_ADD_TAIL = re.compile(
    r"\s+(?:to|on|onto|in)\s+(?:my|the)\s+(?:\w+\s+)?(?:list|tasks|todos?|to-do list|todo list)$|"
    r"\s+(?:please|for me|thanks|thank you)$",
    _I,
)
_CASUAL_TRIGGERS = ("remember", "remind", "don't forget", "make a note")


def _create_step(detection: Detection, clause: str) -> steps.Step:
    rest = clause[detection.rest_start :].strip()
    rest = _ADD_LEAD.sub("", rest, count=1)
    previous = None
    while previous != rest:
        previous, rest = rest, _ADD_TAIL.sub("", rest).strip()
    title, description = split_title_description(rest)
    if not title:
        return steps.say(replies.ask_title_to_add())
    casual = any(t in detection.rule for t in _CASUAL_TRIGGERS)
    return steps.add_task(title, description, casual=casual)


_PRONOUN = re.compile(r"^(?:it|that|this|that one|this one|that task|this task|the task|them)$", _I)
_ACT_TAIL = re.compile(
    r"\s+(?:as\s+)?(?:done|complete|completed|finished|off)(?:\s+now)?$|\s+(?:off\s+)?(?:my|the)\s+"
    r"(?:\w+\s+)?(?:list|tasks|todos?)$|\s+(?:please|for me|now)$",
    _I,
)
_ACT_LEAD = re.compile(r"^(?:(?:off|with|as done|as complete)\s+)", _I)


def _task_reference(detection: Detection, clause: str) -> tuple[int | None, str]:
    """The task number in the clause (Rule 5 priority 1) or the words naming the task."""
    task_id = extract_task_id(clause)
    rest = clause[detection.rest_start :].strip()
    rest = _ACT_LEAD.sub("", rest)
    previous = None
    while previous != rest:
        previous, rest = rest, _ACT_TAIL.sub("", rest).strip()
    return task_id, clean_title(rest)


def _act_step(
    tool: str, detection: Detection, clause: str, context: ConversationContext
) -> steps.Step:
    task_id, reference = _task_reference(detection, clause)
    if task_id is not None:
        return steps.act_on_task(tool, task_id, completions=context.completions)
    if not reference or _PRONOUN.match(reference):
        if reference and context.focus_task_id is not None:
            return steps.act_on_task(tool, context.focus_task_id, completions=context.completions)
        return steps.say(
            replies.ask_which_task(steps.ACTION_VERB[tool]),
            pending={"kind": "ask_task", "tool": tool},
        )
    return steps.act_on_title(tool, reference, completions=context.completions)


_UPDATE_DESCRIPTION = re.compile(
    r"\s*(?:,\s*)?(?:and\s+)?(?:(?:add|set|change|update|with)\s+)?(?:the\s+|a\s+)?(?:its\s+)?"
    r"description\s*(?:to|as|:|=)?\s*(?P<description>.+)$",
    _I,
)
_UPDATE_TITLE = re.compile(
    r"(?:^|\s)(?:(?:the\s+)?(?:title|name)\s+)?(?:to|into|as|:)\s+(?P<title>.+)$", _I
)
_UPDATE_TARGET_NOISE = re.compile(r"(?:\b(?:the\s+)?(?:title|name)(?:\s+of)?\b)", _I)


def _update_step(detection: Detection, clause: str, context: ConversationContext) -> steps.Step:
    task_id = extract_task_id(clause)
    rest = clause[detection.rest_start :].strip()
    fields: dict[str, str] = {}
    description = _UPDATE_DESCRIPTION.search(rest)
    if description:
        fields["description"] = clean_title(description.group("description"))
        rest = rest[: description.start()]
    title = _UPDATE_TITLE.search(rest)
    if title:
        fields["title"] = clean_title(title.group("title"))
        rest = rest[: title.start()]
    fields = {name: value for name, value in fields.items() if value}
    target = clean_title(_UPDATE_TARGET_NOISE.sub(" ", rest))
    target = re.sub(r"^(?:task\s*#?\d+|#\d+|id\s*\d+|number\s*\d+)$", "", target, flags=_I).strip()
    if task_id is None and (not target or _PRONOUN.match(target)):
        task_id = context.focus_task_id if target else None
    if task_id is None and not target:
        return steps.say(
            replies.ask_which_task("update"), pending={"kind": "ask_task", "tool": "update_task"}
        )
    if not fields:
        if task_id is None:
            return steps.say(replies.ask_which_task("update"))
        return steps.say(
            replies.ask_what_to_update(task_id),
            pending={"kind": "ask_fields", "task_id": task_id},
            focus=task_id,
        )
    if task_id is not None:
        return steps.act_on_task("update_task", task_id, fields)
    return steps.act_on_title("update_task", target, fields)
