"""Which task a request means (Rule 5): numbers, list positions, pronouns, titles."""

from __future__ import annotations

import re

from backend.agent.rules import replies, steps, task_actions
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import (
    extract_task_id,
    extract_task_ids,
)
from backend.agent.rules.resolve import strip_reference_noise
from backend.agent.rules.text import clean_title, core_request

_I = re.IGNORECASE

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
    "last": -1,
}
_POSITION = re.compile(
    r"^(?:the\s+)?(?P<ordinal>" + "|".join(_ORDINALS) + r")(?:\s+(?:one|task|item|todo|entry))?"
    r"(?:\s+(?:on|in|from)\s+(?:the|my|that)\s+list)?$",
    _I,
)
PRONOUN = re.compile(
    r"^(?:it|that|this|that one|this one|that task|this task|the task|the one|that item|"
    r"same one|the same one|the last one i added|what i just added|the one i just added|them)$",
    _I,
)


def position_in(text: str, listed: tuple[int, ...]) -> int | None:
    match = _POSITION.match(text.strip())
    if not match or not listed:
        return None
    position = _ORDINALS[match.group("ordinal").lower()]
    if position == -1:
        return listed[-1]
    return listed[position - 1] if position <= len(listed) else None


_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|\band\b|&)\s*", _I)


def targets_steps(
    tool: str, obj: str, clause: str, context: ConversationContext
) -> list[steps.Step]:
    """Several tasks named at once ("tasks 2 and 9", "the groceries and the plants")."""
    ids = extract_task_ids(core_request(clause))
    if len(ids) > 1:
        return [
            task_actions.act_on_task(tool, task_id, completions=context.completions + n)
            for n, task_id in enumerate(ids)
        ]
    reference = strip_reference_noise(clean_title(obj))
    parts = [strip_reference_noise(p) for p in _AND.split(reference) if p.strip()]
    if extract_task_id(core_request(clause)) is None and len(parts) > 1 and all(parts):
        return [task_actions.act_on_titles(tool, parts, reference, completions=context.completions)]
    return [target_step(tool, obj, clause, context)]


def target_step(
    tool: str,
    obj: str,
    clause: str,
    context: ConversationContext,
    fields: dict[str, object] | None = None,
) -> steps.Step:
    """Rule 5: explicit id, then list position or pronoun from context, then the title."""
    verb = steps.ACTION_VERB[tool]
    task_id = extract_task_id(core_request(clause))
    if task_id is not None:
        return task_actions.act_on_task(tool, task_id, fields, completions=context.completions)
    reference = clean_title(obj)
    positioned = position_in(reference, context.listed_task_ids)
    if positioned is not None:
        return task_actions.act_on_task(tool, positioned, fields, completions=context.completions)
    if PRONOUN.match(reference) or _POSITION.match(reference):
        if context.focus_task_id is not None and PRONOUN.match(reference):
            return task_actions.act_on_task(
                tool, context.focus_task_id, fields, completions=context.completions
            )
        return steps.say(
            replies.ask_which_task(verb),
            pending={"kind": "ask_task", "tool": tool, "fields": fields or {}},
        )
    query = strip_reference_noise(reference)
    if not query:
        return steps.say(
            replies.ask_which_task(verb),
            pending={"kind": "ask_task", "tool": tool, "fields": fields or {}},
        )
    return task_actions.act_on_title(tool, query, fields, completions=context.completions)


_I = re.IGNORECASE
