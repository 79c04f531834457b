"""From one detected clause to the steps that carry it out."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from backend.agent.rules import replies, steps, task_actions
from backend.agent.rules.bulk import bulk_scope, scoped_clear, with_exception_said_after
from backend.agent.rules.bulk_actions import scoped_change
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.create import create_steps
from backend.agent.rules.date_questions import date_filters
from backend.agent.rules.extract import (
    extract_status,
    names_a_task_number,
)
from backend.agent.rules.field_requests import asks_for_the_lists, field_change, list_filters
from backend.agent.rules.grounding import complete_if_named, remind_or_else
from backend.agent.rules.intents import detect_intent
from backend.agent.rules.named_filters import list_by_names, words_beyond_asking
from backend.agent.rules.query import STILL_YET, asks_when_due, query_slot
from backend.agent.rules.reminder_requests import says_the_tasks_day
from backend.agent.rules.resolve import strip_reference_noise
from backend.agent.rules.social import off_topic_reply, social_reply
from backend.agent.rules.targets import target_step, targets_steps
from backend.agent.rules.text import clean_title, core_request
from backend.agent.rules.types import Action, Detection, Intent, PendingKind, RuleKind
from backend.agent.rules.update import update_step

_I = re.IGNORECASE

_THEM = re.compile(
    r"\b(?:them|those|these|they)\b|^\W*(?:and\s+)?which\s+(?:ones?|tasks?|are they)\W*$", _I
)
_ALL = re.compile(r"\ball\b", _I)  # "show me all of them": not just the ones counted
# "what's on the work list?", "work list": a question about a list the user keeps (not "my
# shopping list", which shows the whole list) asks what is still to do on it.
_ASKS_WHAT_IS_LEFT = re.compile(
    r"^(?!(?:show|read|list|print|display|give|tell)\b)"
    r"(?!.*\b(?:all|everything|my|our|shopping|grocery|groceries)\b)",
    _I,
)
_POINTS_BACK = re.compile(r"^(?:it|that|this|that one|this one|)$", _I)
TOOL_OF = {
    Intent.COMPLETE: "complete_task",
    Intent.DELETE: "delete_task",
    Intent.UPDATE: "update_task",
}


# A builder gives the steps for a clause its reading decides, or None when the reading is
# not enough (a field change that names no fields) and the next one decides.
_Builder = Callable[[Detection, str, ConversationContext], list[steps.Step] | None]


def steps_for(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    """The steps for one clause: the first reading in `_READINGS` that its intent or action
    names decides, else the clause acts on the tasks it names."""
    for key, build in _READINGS:
        if key is detection.intent or key is detection.action:
            built = build(detection, clause, context)
            if built is not None:
                return built
    return _on_named_tasks(detection, clause, context)


def _greeting(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return [steps.say(replies.GREETING)]


def _help(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return [steps.say(replies.HELP)]


def _social(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return [steps.say(social_reply(clause))]


def _remind_or_add(
    detection: Detection, clause: str, context: ConversationContext
) -> list[steps.Step]:
    plain = steps_for(replace(detection, action=Action.PLAIN), clause, context)
    if len(plain) != 1:
        return plain
    return [remind_or_else(detection.obj, context.local_now(), plain[0])]


def _off_topic(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    if detection.action is Action.DONE_IF_NAMED:
        return [complete_if_named(detection.obj)]
    return [steps.say(off_topic_reply(clause))]


def _unclear(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    text = replies.WHICH_FIELD if detection.action is Action.WHICH_FIELD else replies.UNCLEAR
    return [steps.say(text, pending={"kind": PendingKind.REPHRASE})]


def _undo(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return [steps.undo(context.last_change)]


def _create(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return create_steps(detection.obj, clause, context)


def _field_change(
    detection: Detection, clause: str, context: ConversationContext
) -> list[steps.Step] | None:
    change = field_change(clause, context.local_now())
    if change is None:
        return None
    fields = _on_the_tasks_day(clause, change.target, change.fields, context)
    return [target_step("update_task", change.target, change.rest, context, fields)]


def _on_the_tasks_day(
    clause: str, target: str, fields: dict[str, Any], context: ConversationContext
) -> dict[str, Any]:
    """ "remind me at 9 that morning" after a task was given a day: 09:00 on that day."""
    at, due = fields.get("remind_at"), context.last_due
    if not isinstance(at, str) or "T" not in at or due is None or not says_the_tasks_day(clause):
        return fields
    if due[0] != context.focus_task_id or target.lower() not in ("it", "that", "this"):
        return fields
    return {**fields, "remind_at": f"{due[1]}T{at.split('T', 1)[1]}"}


def _list(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    if detection.action is Action.FILTERED:
        return [_filtered_list(clause, context)]
    if detection.action is Action.COUNT:
        return [steps.count(extract_status(clause))]
    if detection.action is Action.LOOKUP:
        return [_lookup(detection, clause, context)]
    status = extract_status(clause)
    if status == "all" and context.counted and _THEM.search(clause) and not _ALL.search(clause):
        status = context.counted  # "How many have I completed?" ... "show them to me"
    return [_by_names(clause, status, {})]


def _by_names(clause: str, status: str, filters: dict[str, str]) -> steps.Step:
    """The list asked for, narrowed at run time by a list or tag its words name ("work
    stuff?"); a request saying nothing more is shown without a look-up."""
    words = words_beyond_asking(clause)
    if not words:
        return steps.list_tasks(status, filters)
    # a list or a tag asked about is what is still to do on it, unless all is said
    narrowed = "pending" if status == "all" and not _ALL.search(clause) else status
    return list_by_names(status, filters, words, narrowed_status=narrowed)


def _filtered_list(clause: str, context: ConversationContext) -> steps.Step:
    if asks_for_the_lists(clause):
        return steps.list_lists()
    dates = date_filters(clause, context.local_now())
    if dates is None:
        filters = list_filters(clause)
        status = extract_status(clause)
        if "list" in filters and status == "all" and _ASKS_WHAT_IS_LEFT.match(core_request(clause)):
            status = "pending"  # "what's on the work list?", "work list": what is left on it
        if set(filters) == {"list"}:  # a list the user may call by another name
            return _by_names(clause, status, filters)
        return steps.list_tasks(status, filters)
    # A question about when is about what is still to do, unless it says otherwise.
    status = extract_status(clause)
    status = "pending" if status == "all" and not _ALL.search(clause) else status
    others = {name: value for name, value in list_filters(clause).items() if name != "due"}
    return steps.list_tasks(status, {**others, **dates})


def _lookup(detection: Detection, clause: str, context: ConversationContext) -> steps.Step:
    # The question's own slot when it has one: "did I already put bread on there?"
    item, asked = query_slot(clause)
    looked_up = item if asked is Action.LOOKUP else detection.obj
    looked_up = STILL_YET.sub("", clean_title(looked_up))  # "rung my mother yet"
    if _POINTS_BACK.match(looked_up) and context.focus_task_id is not None:
        # "what does the note on it say": the task talked about
        looked_up = context.known_title(context.focus_task_id) or looked_up
    when = asks_when_due(clause) is not None
    return steps.lookup(strip_reference_noise(looked_up), when=when)


def _clear(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    scoped = scoped_clear(clause)
    if scoped is not None:  # "delete everything on the work list except the report"
        return [scoped_change("delete_task", scoped)]
    return [steps.confirm_clear(detection.obj or "all")]


def _reopen(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return [target_step("update_task", detection.obj, clause, context, {"completed": False})]


def _update(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    return [update_step(detection.obj, clause, context)]


def _confirm(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    scoped = scoped_clear(clause) if detection.intent is Intent.DELETE else None
    if scoped is not None:  # "clear everything on the work list but the report" is no title
        return [scoped_change("delete_task", scoped)]
    return [task_actions.confirm_on_title(TOOL_OF[detection.intent], detection.obj)]


def _on_named_tasks(
    detection: Detection, clause: str, context: ConversationContext
) -> list[steps.Step]:
    """A completion or deletion: of every task (or every one listed), or of the ones named."""
    intent = detection.intent
    bulk = bulk_scope(
        with_exception_said_after(detection.obj, context.message or clause),
        listed=len(context.listed_task_ids),
        completing=intent is Intent.COMPLETE,
    )
    if bulk is None:
        return targets_steps(TOOL_OF[intent], detection.obj, clause, context)
    if bulk.scoped:  # "everything on my Work list except the report": read, never widened
        return [scoped_change(TOOL_OF[intent], bulk)]
    only = list(context.listed_task_ids) if bulk.listed else None
    if intent is Intent.DELETE:
        return [steps.confirm_clear(bulk.status, only)]
    return [task_actions.complete_all(only)]


# The order readings win in: a chat intent whatever its action, a reminder before what it
# falls back to, an undo before the intent it reverses, and so on down to the actions that
# only some intents have.
_READINGS: tuple[tuple[Intent | Action, _Builder], ...] = (
    (Intent.GREETING, _greeting),
    (Intent.HELP, _help),
    (Intent.SOCIAL, _social),
    (Action.REMIND_OR_ADD, _remind_or_add),
    (Intent.OFF_TOPIC, _off_topic),
    (Intent.UNCLEAR, _unclear),
    (Action.UNDO, _undo),
    (Intent.CREATE, _create),
    (Action.FIELDS, _field_change),
    (Intent.LIST, _list),
    (Action.CLEAR, _clear),
    (Action.REOPEN, _reopen),
    (Intent.UPDATE, _update),
    (Action.CONFIRM, _confirm),
)


def new_request(text: str) -> Detection | None:
    """The request a reply to a question makes instead of answering it, or None."""
    detection = detect_intent(text, has_task_id=names_a_task_number(text))
    if (
        detection.intent is not Intent.UNCLEAR
        and detection.action is not Action.CONFIRM
        and detection.kind not in (RuleKind.TASK_PHRASE, RuleKind.KEYWORD, RuleKind.KEYWORD_ADD)
    ):
        return detection
    return None


def is_command(text: str) -> bool:
    """Whether a reply to a question is a new request rather than an answer."""
    return new_request(text) is not None
