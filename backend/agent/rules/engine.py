"""The rule engine: a message and its conversation in, a plan of steps out.

`interpret` turns the user's message into a `Plan` (an answer to the open question, or one
step per clause of the message) and records which rule decided each part; `advance` replays
the tool outcomes of this turn through the plan and returns the next tool call(s), or the
finished reply. Both are pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from backend.agent.rules import choices, replies, steps, task_actions
from backend.agent.rules.answers import answer_to_pending
from backend.agent.rules.builders import steps_for
from backend.agent.rules.choices import choices_for, chosen_in_words, picked_message
from backend.agent.rules.clauses import distribute_rename_verb, merge_pronoun_tail, split_clauses
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import extract_status, names_a_task_number
from backend.agent.rules.field_requests import field_change
from backend.agent.rules.field_titles import fields_for_the_task_just_changed, fields_said_alone
from backend.agent.rules.followups import (
    continue_last_action,
    corrected_due,
    corrected_title,
    left_out_of_completion,
    puts_back_the_deleted,
    same_fields_again,
    swapped_completion,
    the_other_one,
)
from backend.agent.rules.grounding import grounded_reading
from backend.agent.rules.intents import detect_intent
from backend.agent.rules.numbers import positions_inside
from backend.agent.rules.respelling import respelt_title
from backend.agent.rules.rewrites import rewritten
from backend.agent.rules.safety import renames_confirmed, safe_reading
from backend.agent.rules.sharing_requests import SharingRequest, sharing_request
from backend.agent.rules.sharing_steps import sharing_step
from backend.agent.rules.slot_reading import (
    SlotChange,
    grounded_task,
    names_no_task,
    points_back,
    slot_change,
)
from backend.agent.rules.snoozes import snooze_request, snooze_step
from backend.agent.rules.steps import Step
from backend.agent.rules.text import as_typed, core_request, prepare
from backend.agent.rules.types import (
    ACTIONS_ON_A_TASK,
    Action,
    Batch,
    Detection,
    Intent,
    PendingKind,
    PendingQuestion,
    ReplyMeta,
    RuleKind,
    Say,
    ToolCall,
    ToolOutcome,
    act_of,
    pending_kind,
)

_I = re.IGNORECASE


@dataclass(frozen=True)
class Plan:
    steps: list[Step]
    intents: list[Intent]
    rules: list[str]
    acts: list[str] = field(default_factory=list)
    # A reading the rules are unsure of (the learned model's alone, a field named in a
    # delete): they ask; the hybrid brain hands such a turn to the LLM instead.
    unsure: bool = False
    # The message answered the open question (`answers.py`), whatever its intent.
    answered: bool = False


# The readings the rules ask about rather than act on.
UNSURE_ACTIONS = (Action.CONFIRM, Action.WHICH_FIELD)


@dataclass(frozen=True)
class FinalReply:
    text: str
    meta: ReplyMeta = field(default_factory=lambda: ReplyMeta())


def run_steps(
    plan_steps: list[Step], outcomes: list[ToolOutcome]
) -> tuple[ToolCall | Batch | None, list[Say], list[ToolOutcome]]:
    """Replays `outcomes` through the steps in order: the next call(s) still needed (or
    None when every step has said its part), the parts said so far, and the outcomes left
    over. A part that says `stop` ends the run."""
    remaining = list(outcomes)
    said: list[Say] = []
    for index, step in enumerate(plan_steps):
        mine: list[ToolOutcome] = []
        while True:
            action = step(mine)
            if isinstance(action, Say):
                said.append(action)
                break
            needed = len(action.calls) if isinstance(action, Batch) else 1
            if len(remaining) < needed:
                return action, said, remaining
            mine.extend(remaining[:needed])
            del remaining[:needed]
        if said[-1].stop and not (
            said[-1].adds_may_follow and all(is_add(s) for s in plan_steps[index + 1 :])
        ):
            break
    return None, said, remaining


def marked_as_add(step: Step) -> Step:
    """The same step, known to only add tasks (so a "not found" before it need not stop it)."""

    def add(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        return step(outcomes)

    setattr(add, "only_adds", True)  # noqa: B010 - a marker on a plain function
    return add


def is_add(step: Step) -> bool:
    return getattr(step, "only_adds", False) is True


# From this many plain adds in a row, one sentence names them instead of one each.
SUMMED_ADDS = 3


def _summed_adds(parts: list[Say]) -> list[str]:
    texts: list[str] = []
    run: list[Say] = []
    for part in [*parts, Say("")]:
        if part.added is not None:
            run.append(part)
            continue
        if len(run) >= SUMMED_ADDS:
            places = {(added.added_where, added.added_shared) for added in run}
            where, shared = places.pop() if len(places) == 1 else (None, False)
            titles = [str(added.added) for added in run]
            texts.append(replies.tasks_added(titles, where, shared=shared))
        else:
            texts.extend(added.text for added in run)
        run = []
        if part.text:
            texts.append(part.text)
    return texts


def _joined(parts: list[Say]) -> Say:
    meta = ReplyMeta()
    for part in parts:
        meta.update(part.meta)
    undos = [part.meta["undo"] for part in parts if part.meta.get("undo")]
    if len(undos) > 1:  # "add milk and delete the eggs": undone together, or not at all
        made: list[dict[str, Any]] = []
        for undo in undos:
            made.extend(reversed(undo["steps"]) if undo.get("steps") else [undo])
        # The last change still describes the turn to follow-ups ("and X too"); "undo"
        # reverses them all.
        several = steps.several_undone(made)
        meta["undo"] = {**undos[-1], "steps": several["steps"]} if several else undos[-1]
    texts = _summed_adds(parts)
    text = texts[0] if texts else ""
    for before, after in zip(texts, texts[1:], strict=False):
        # After a list (one task per line) the next sentence starts on a line of its own.
        text += ("\n" if "\n" in before else " ") + after
    return Say(text, meta, stop=any(part.stop for part in parts))


def advance(plan: Plan, outcomes: list[ToolOutcome]) -> ToolCall | Batch | FinalReply:
    """The next call(s) the plan needs, or its reply once every step has finished."""
    pending, said, _ = run_steps(plan.steps, outcomes)
    if pending is not None:
        return pending
    reply = _joined(said)
    meta = ReplyMeta(
        intents=[i.value for i in plan.intents],
        acts=plan.acts or [act_of(i) for i in plan.intents],
        rules=plan.rules,
    )
    meta.update(reply.meta)
    choices = choices_for(meta.get("pending"))
    if choices:
        meta["choices"] = choices
    return FinalReply(reply.text, meta)


def after_new_task(first: list[Step], follow: Callable[[int], list[Step]]) -> Step:
    """ "Add pay rent and mark it done": runs the adding steps, then the steps `follow`
    builds for the task just added (its number is known only from the add's result). So for
    a field change: "make pay rent high priority and tag it #home" tags the task just
    changed."""

    def step(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        pending, said, rest = run_steps(first, outcomes)
        if pending is not None:
            return pending
        used = outcomes[: len(outcomes) - len(rest)]
        added = [
            o
            for o in used
            if o.call.name in ("add_task", "update_task") and o.ok and isinstance(o.data, dict)
        ]
        if any(part.stop for part in said) or not added:
            return _joined(said)
        pending, more, _ = run_steps(follow(int(added[-1].data["task_id"])), rest)
        return pending if pending is not None else _joined(said + more)

    return step


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


# A later clause about "it" right after an add means the task just added.
_NEW_TASK_PRONOUN = re.compile(r"\b(?:it|that one|this one|that|this)\b", _I)


def _about_the_new_task(detection: Detection, clause: str) -> bool:
    if detection.intent not in ACTIONS_ON_A_TASK or detection.action is Action.UNDO:
        return False
    if names_a_task_number(core_request(clause)):
        return False
    return _NEW_TASK_PRONOUN.search(core_request(clause)) is not None or _fields_of_no_task(
        detection, clause
    )


def _fields_of_no_task(detection: Detection, clause: str) -> bool:
    """ "add X by Friday, and remind me on Thursday at 4": a field change that names no task
    of its own is about the one just added."""
    if detection.action is not Action.FIELDS:
        return False
    change = field_change(clause, datetime.now(UTC))
    return change is not None and _NEW_TASK_PRONOUN.fullmatch(change.target.strip()) is not None


def _shows_the_list(detection: Detection) -> bool:
    return detection.intent is Intent.LIST and detection.action is Action.PLAIN


# Arguments that carry the user's own words into a task or a title search.
_TYPED_ARGUMENTS = ("title", "description", "query")


def _as_typed(call: ToolCall, message: str) -> ToolCall:
    typed = {
        name: as_typed(value, message)
        if name in _TYPED_ARGUMENTS and isinstance(value, str)
        else value
        for name, value in call.arguments.items()
    }
    return ToolCall(call.name, typed)


def _as_sent(step: Step, message: str, fields: Callable[[str], dict[str, Any] | None]) -> Step:
    """The same step (and its markers), its calls carrying the user's words as typed (the
    engine reads a normalised message, and a task keeps the characters it was given), and a
    rename it asks for made a change of the fields the message said when it said only those
    (`field_titles`: "make it an hour" never renames a task "An hour")."""

    def sent(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        action = step(outcomes)
        if isinstance(action, ToolCall):
            return _as_typed(_fields_not_titles(action, fields), message)
        if isinstance(action, Batch):
            return Batch(tuple(_as_typed(call, message) for call in action.calls))
        return _fields_not_asked(action, fields)

    sent.__dict__.update(step.__dict__)
    return sent


def _fields_not_titles(call: ToolCall, fields: Callable[[str], dict[str, Any] | None]) -> ToolCall:
    if call.name != "update_task" or "title" not in call.arguments or len(call.arguments) != 2:
        return call
    said = fields(str(call.arguments["title"]))
    return (
        call
        if said is None
        else ToolCall("update_task", {"task_id": call.arguments["task_id"], **said})
    )


def _fields_not_asked(said: Say, fields: Callable[[str], dict[str, Any] | None]) -> ToolCall | Say:
    """A guessed rename the safety stage would ask about, when the message says only fields
    ("actually make that saturday"), is those fields' change: nothing to ask."""
    pending: PendingQuestion | None = said.meta.get("pending")
    if not (
        pending
        and pending_kind(pending) is PendingKind.CONFIRM_TASK
        and pending.get("tool") == "update_task"
        and "task_id" in pending
        and set(pending.get("fields") or {}) == {"title"}
    ):
        return said
    new = fields(str((pending.get("fields") or {}).get("title", "")))
    return said if new is None else ToolCall("update_task", {"task_id": pending["task_id"], **new})


def interpret(message: str, context: ConversationContext) -> Plan:
    plan = _interpreted(message, context)
    # Read only when a step would rename: most messages never need it.
    read: list[dict[str, Any] | None] = []

    def fields(title: str) -> dict[str, Any] | None:
        """What a rename to `title` says, when it says only fields: the message's fields, or
        the would-be title's own ("an hour before instead" after a long story)."""
        if not read:
            read.append(
                fields_said_alone(prepare(message), context.local_now(), context.last_change)
            )
        return read[0] or fields_said_alone(title, context.local_now(), context.last_change)

    return replace(plan, steps=[_as_sent(step, message, fields) for step in plan.steps])


def _interpreted(message: str, context: ConversationContext) -> Plan:
    said = prepare(message)
    picked = picked_message(said, context.choices) or _picked_in_words(said, context)
    if picked is not None:  # "the second one": as if that choice's button was pressed
        said = prepare(picked)
    snooze = snooze_request(said, context.local_now())
    if snooze is not None:  # "remind me again in an hour": never an add, never an answer
        step = snooze_step(snooze, context)
        return Plan([step], [Intent.UPDATE], ["snooze a reminder"], ["update"])
    sharing = sharing_request(said, typed=picked or message)
    plan = _understood(said, context)
    if sharing is not None:  # "share the packing list with alex@example.com"
        return _sharing_plan(sharing, context, plan)
    return plan


def _picked_in_words(said: str, context: ConversationContext) -> str | None:
    """ "the Family one" to "which list do you mean?": the reading whose words it says."""
    if not context.pending or pending_kind(context.pending) is not PendingKind.CHOOSE_REQUEST:
        return None
    return chosen_in_words(said, context.choices)


def _sharing_plan(request: SharingRequest, context: ConversationContext, plan: Plan) -> Plan:
    """A sharing request's plan (`sharing_steps.py`); what the rest of the engine reads in the
    message (`plan`) answers when its words turn out to name no list or no task, and, for
    words that may be about a task ("remove alex from the packing list"), goes first."""

    def otherwise(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        return _replayed(plan, outcomes)

    if request.may_be_a_task:
        step = _task_first(plan, lambda found: sharing_step(request, context, found))
    else:
        step = sharing_step(request, context, otherwise)
    return Plan([step], [Intent.SHARING], [request.rule], ["sharing"])


def _replayed(plan: Plan, outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
    """`plan` run on `outcomes`, its reply carrying the plan's intents, acts and rules."""
    pending, said, _ = run_steps(plan.steps, outcomes)
    if pending is not None:
        return pending
    return _with_plan_meta(_joined(said), plan)


def _with_plan_meta(reply: Say, plan: Plan) -> Say:
    meta = ReplyMeta(
        intents=[i.value for i in plan.intents],
        acts=plan.acts or [act_of(i) for i in plan.intents],
        rules=plan.rules,
    )
    meta.update(reply.meta)
    return replace(reply, meta=meta)


def _task_first(plan: Plan, build: Callable[[Callable[[list[ToolOutcome]], Say]], Step]) -> Step:
    """`plan` (the message read as about a task); when it finds no such task, the step
    `build` makes, which falls back on that reply."""

    def step(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        pending, said, rest = run_steps(plan.steps, outcomes)
        if pending is not None:
            return pending
        reply = _with_plan_meta(_joined(said), plan)
        asked = reply.meta.get("pending")
        if not asked or pending_kind(asked) not in (PendingKind.OFFER_LIST, PendingKind.OFFER_ADD):
            return reply
        return build(lambda _: reply)(rest)

    return step


def _understood(said: str, context: ConversationContext) -> Plan:
    """The message as the rest of the engine reads it: an answer, a follow-up, clauses."""
    text = distribute_rename_verb(merge_pronoun_tail(rewritten(said)))
    answer = answer_to_pending(text, context)
    if answer is not None:
        answer_steps, intent, rule = answer
        return Plan(answer_steps, [intent], [rule], answered=True)
    for follow_up in _FOLLOW_UPS:
        plan = follow_up(text, said, context)
        if plan is not None:
            return plan
    continued = continue_last_action(text, context)
    return _clauses_plan(text if continued is None else continued, said, context)


# A follow-up that fixes the turn before ("no, Friday", "not the milk, the eggs") plans the
# fix; None when the message is no such follow-up.
_FollowUp = Callable[[str, str, ConversationContext], Plan | None]


def _due_corrected(text: str, said: str, context: ConversationContext) -> Plan | None:
    due_fixed = corrected_due(text, context)
    if due_fixed is None:
        return None
    task_id, due = due_fixed
    step = task_actions.act_on_task("update_task", task_id, {"due": due})
    return Plan([step], [Intent.UPDATE], ["correction of the due just set"], ["update"])


def _fields_of_the_last_task(text: str, said: str, context: ConversationContext) -> Plan | None:
    found = fields_for_the_task_just_changed(said, context)
    if found is None:
        return None
    task_id, fields = found
    step = task_actions.act_on_task("update_task", task_id, fields)
    return Plan([step], [Intent.UPDATE], ["fields of the task just changed"], ["update"])


def _same_fields_again(text: str, said: str, context: ConversationContext) -> Plan | None:
    again = same_fields_again(said, context)
    if again is None:
        return None
    reference, fields = again
    step = task_actions.act_on_title("update_task", reference, fields)
    return Plan([step], [Intent.UPDATE], ["the same fields, another task"], ["update"])


def _title_corrected(text: str, said: str, context: ConversationContext) -> Plan | None:
    correction = corrected_title(text, context) or respelt_title(text, context)
    if correction is None:
        return None
    task_id, title = correction
    step = task_actions.act_on_task(
        "update_task", task_id, {"title": title}, old_title=context.known_title(task_id)
    )
    step = renames_confirmed(step, said, context.known_title)
    return Plan([step], [Intent.UPDATE], ["correction of the task just added"], ["update"])


def _put_back(text: str, said: str, context: ConversationContext) -> Plan | None:
    if not puts_back_the_deleted(text, context):
        return None
    return Plan([steps.undo(context.last_change)], [Intent.UPDATE], ["put back"], ["undo"])


def _reopened_left_out(text: str, said: str, context: ConversationContext) -> Plan | None:
    left_out = left_out_of_completion(text, context)
    if left_out is None:
        return None
    reopen = task_actions.act_on_title("update_task", left_out, {"completed": False})
    return Plan([reopen], [Intent.UPDATE], ["left out of the completion"], ["reopen"])


def _swapped(text: str, said: str, context: ConversationContext) -> Plan | None:
    swapped = swapped_completion(text, context)
    if swapped is None:
        return None
    # "sorry, not the milk, the eggs I buy", "no wait put eggs back, I meant milk": the
    # completion or deletion moves to the other task
    tool, instead = swapped
    swap = [steps.undo(context.last_change), task_actions.act_on_title(tool, instead)]
    intent = _TOOL_INTENT[tool]
    act = act_of(intent, Action.PLAIN)
    return Plan(swap, [intent], ["the wrong task was changed"], [act])


def _the_other_one(text: str, said: str, context: ConversationContext) -> Plan | None:
    other = the_other_one(core_request(text), context)
    if other is None:
        return None
    tool, task_id = other
    swap = [steps.undo(context.last_change), task_actions.act_on_task(tool, task_id)]
    return Plan(swap, [_TOOL_INTENT[tool]], ["the other one of the last choice"])


# In the order they are tried: the first that reads the message as its follow-up plans it.
_FOLLOW_UPS: tuple[_FollowUp, ...] = (
    _due_corrected,
    _fields_of_the_last_task,
    _same_fields_again,
    _title_corrected,
    _put_back,
    _reopened_left_out,
    _swapped,
    _the_other_one,
)


@dataclass
class _Clauses:
    """A message's plan as its clauses are read, one after another."""

    steps: list[Step] = field(default_factory=list)
    intents: list[Intent] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    acts: list[str] = field(default_factory=list)
    unsure: bool = False
    # The steps of the clause before, when it added tasks (or named one by its fields).
    created: list[Step] = field(default_factory=list)
    shown: str | None = None  # the status of a list this message already shows
    # Every clause's reading changes nothing, or only guesses: the slots may say more.
    guessed: bool = True
    # An add read again as a reminder of a task it names: only a task holding all its words.
    names_whole: bool = False

    def shows_again(self, detection: Detection, clause: str) -> bool:
        """ "go through my list and tell me what's on it": one list, not two."""
        if not _shows_the_list(detection):
            return False
        status = extract_status(clause)
        if self.shown is not None and status in (self.shown, "all"):
            return True
        self.shown = status
        return False

    def add(
        self,
        detection: Detection,
        clause: str,
        clause_steps: list[Step],
        context: ConversationContext,
    ) -> None:
        self.steps.extend(clause_steps)
        named_its_task = detection.intent is Intent.CREATE or detection.action is Action.FIELDS
        self.created = clause_steps if named_its_task else []
        self.unsure = self.unsure or detection.action in UNSURE_ACTIONS
        reminds = _reminds_about_a_task(detection, clause)
        self.guessed = self.guessed and _only_guessed(detection, clause, context, reminds=reminds)
        self.names_whole = self.names_whole or reminds
        self.intents.append(_intent_of(detection, context))
        self.acts.append(act_of(detection.intent, detection.action))
        self.rules.append(detection.rule)

    def plan(self) -> Plan:
        return Plan(self.steps, self.intents, self.rules, self.acts, self.unsure)


def _clauses_plan(text: str, said: str, context: ConversationContext) -> Plan:
    """One or more steps for each clause of the message, in order."""
    planned = _Clauses()
    clauses = split_clauses(text) or [text]
    # One request in the message: the rest of it is what was said about that request.
    context = replace(context, message=said if len(clauses) == 1 else "")
    for clause in clauses:
        detection = _reading(clause, said, context, whole_message=len(clauses) == 1)
        if planned.shows_again(detection, clause):
            continue
        if planned.created and _about_the_new_task(detection, clause):
            del planned.steps[-len(planned.created) :]
            clause_steps = [_on_the_new_task(planned.created, detection, clause, context)]
        else:
            clause_steps = _clause_steps(detection, clause, context, planned.intents)
        planned.add(detection, clause, _marked(clause_steps, detection, said, context), context)
    plan = planned.plan()
    if not planned.guessed:
        return plan
    return _by_slots(plan, said, context, whole=planned.names_whole)


# Readings that change nothing or only guess, which a slot reading may replace (never a
# reading a sentence rule was sure of).
_GUESSED_KINDS = frozenset(
    {RuleKind.MODEL, RuleKind.NO_RULE, RuleKind.GUESS, RuleKind.NOTHING_TO_ACT_ON}
)
_NOTHING_CHANGED = frozenset({Intent.OFF_TOPIC, Intent.UNCLEAR})


# What an add that names no task says (a pointer, a reminder, a placing verb): only such adds
# are read again by their slots (the slot reading costs a full field parse).
_MAY_NAME_NOTHING = re.compile(
    r"\b(?:it|that|this|there|one|remind\w*|nudge|ping|alert|put|stick|goes|go|should|shud|"
    r"in|on)\b",
    _I,
)


# A reminder said of a thing named with "the" or "my": "remind me about the library books at 4".
_REMINDS_ABOUT_A_TASK = re.compile(
    r"\bremind\w*\b.*\b(?:for|about|of|on)\s+(?:the|my)\s+\w"
    r"|\b(?:for|about|with)\s+(?:the|my)\s+\w[^,.;]*\bremind\w*\b",
    _I,
)
# Adds read from a keyword or a leading verb (a sentence rule about reminders reads its own).
_SAID_AS_AN_ADD = frozenset({RuleKind.KEYWORD, RuleKind.KEYWORD_ADD, RuleKind.LEADING_ADD})
# "remind me to call the bank": a thing to do, new.
_REMIND_TO_DO = re.compile(r"\bremind\w*\s+(?:me|us)\s+to\b", _I)


def _reminds_about_a_task(detection: Detection, clause: str) -> bool:
    return (
        detection.kind in _SAID_AS_AN_ADD
        and _REMINDS_ABOUT_A_TASK.search(clause) is not None
        and not _REMIND_TO_DO.search(clause)
    )


def _only_guessed(
    detection: Detection, clause: str, context: ConversationContext, *, reminds: bool
) -> bool:
    """Whether the clause's reading changes nothing or only guesses; `reminds`: it is an add
    read again as a reminder of a task it names (`_reminds_about_a_task`)."""
    if detection.intent in _NOTHING_CHANGED or detection.kind in _GUESSED_KINDS:
        return True
    # "and remnd me half an hour before", "put in Inbox": an add whose words name nothing
    # but fields is the task talked about, changed
    if detection.intent is not Intent.CREATE or _MAY_NAME_NOTHING.search(clause) is None:
        return False
    if reminds:
        # "and for the passport remind me the day before at 9am": the passport's reminder
        # when a task is called that (the slots' grounding), else the add as read
        return slot_change(clause, context.local_now()) is not None
    # the clause may be what a rewrite made of the message ("give me a reminder ..." read as
    # an add): the message as said is read too
    said = (clause, context.message) if context.message else (clause,)
    changes = (slot_change(text, context.local_now()) for text in said)
    return any(change is not None and names_no_task(change) for change in changes)


def _by_slots(plan: Plan, said: str, context: ConversationContext, *, whole: bool) -> Plan:
    """The message read by its slots as one task's field change (`slot_reading`) when the
    rules only guessed: the task its words name, or the one pointed at; else the rules' plan."""
    change = slot_change(said, context.local_now())
    if change is None:
        return plan
    step = _slot_step(change, context, plan.steps, whole=whole)
    return replace(plan, steps=[step], rules=[*plan.rules, "fields read by their slots"])


def _slot_step(
    change: SlotChange, context: ConversationContext, otherwise: list[Step], *, whole: bool
) -> Step:
    rows = positions_inside(change.rest, context.listed_task_ids)
    pointed = points_back(change)

    def step(outcomes: list[ToolOutcome]) -> ToolCall | Batch | Say:
        tasks = steps.every_task(outcomes)
        if not isinstance(tasks, list):
            return tasks
        named = grounded_task(change.rest, tasks, whole=whole)
        target = _slot_target(named, rows, context, pointed=pointed)
        if len(named) > 1:
            return task_actions.which_of(
                "update_task", change.rest, named[: choices.MAX_CHOICES], change.fields
            )
        if target is None:
            pending, said, _ = run_steps(otherwise, outcomes[1:])
            return pending if pending is not None else _joined(said)
        task = next((t for t in tasks if int(t["id"]) == target), {"id": target})
        update = task_actions.act_on_task("update_task", target, change.fields, read=task)
        return steps.with_meta(update, {"acts": ["update"]})(outcomes[1:])

    return step


def _slot_target(
    named: list[steps.Task], rows: list[int], context: ConversationContext, *, pointed: bool
) -> int | None:
    """The task a slot change is about: the one its words name, else a row of the list shown,
    else the task talked about (a pronoun, or nothing said of it)."""
    if len(named) == 1:
        return int(named[0]["id"])
    if named:
        return None
    if len(rows) == 1:
        return rows[0]
    return context.focus_task_id if pointed and not context.focus_is_a_row else None


def _reading(
    clause: str, said: str, context: ConversationContext, *, whole_message: bool
) -> Detection:
    detection = detect_intent(clause, has_task_id=names_a_task_number(core_request(clause)))
    detection = safe_reading(detection, clause, said)
    if whole_message:  # the reading a whole message's tasks decide
        detection = grounded_reading(detection, clause, context.local_now())
    return detection


def _on_the_new_task(
    created: list[Step], detection: Detection, clause: str, context: ConversationContext
) -> Step:
    """ "add pay rent and mark it done": the clause's steps, on the task just added."""

    def follow(task_id: int) -> list[Step]:
        return steps_for(
            detection, clause, replace(context, focus_task_id=task_id, focus_is_a_row=False)
        )

    return after_new_task(created, follow)


def _clause_steps(
    detection: Detection, clause: str, context: ConversationContext, intents: list[Intent]
) -> list[Step]:
    if detection.intent is Intent.CREATE and any(i in ACTIONS_ON_A_TASK for i in intents):
        # The "you also have" note reads the conversation as it was before this message,
        # whose earlier clauses may just have deleted or completed the task it would name.
        return steps_for(detection, clause, replace(context, known_tasks=()))
    # "dentist done. passport done.": each completion gets its own encouragement
    done_before = context.completions + intents.count(Intent.COMPLETE)
    counted = context
    if done_before != context.completions:
        counted = replace(context, completions=done_before)
    return steps_for(detection, clause, counted)


def _marked(
    clause_steps: list[Step], detection: Detection, said: str, context: ConversationContext
) -> list[Step]:
    """An add's steps marked as one; a rename's confirmed when it may be a mistake."""
    if detection.intent is Intent.CREATE:
        return [marked_as_add(s) for s in clause_steps]
    if detection.action is not Action.UNDO:
        return [renames_confirmed(s, said, context.known_title) for s in clause_steps]
    return clause_steps
