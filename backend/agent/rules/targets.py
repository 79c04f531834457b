"""Which task a request means (Rule 5): numbers, list positions, pronouns, titles."""

from __future__ import annotations

import re

from backend.agent.rules import replies, steps, task_actions
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import (
    extract_task_id,
    extract_task_ids,
    unclear_task_number,
)
from backend.agent.rules.numbers import is_position, positions_in, positions_inside
from backend.agent.rules.resolve import before_an_exception, strip_reference_noise
from backend.agent.rules.shopping_items import items_in_a_run
from backend.agent.rules.text import LIST_SEPARATOR, clean_title, core_request
from backend.agent.rules.types import PendingKind

_I = re.IGNORECASE

PRONOUN = re.compile(
    r"^(?:it|that|this|that one|this one|that task|this task|the task|the one|that item|"
    r"same one|the same one|the last one i added|what i just added|the one i just added|them|"
    # "did I call mom?" ... "I just called her": the person the task is about
    r"her|him)$",
    _I,
)


_LONGEST_TITLE_PART = 5

# Words around a pronoun that do not say which task: "done w/ it", "it yet", "its done now lol".
_AROUND_A_PRONOUN = frozenset(
    "yet now lol off too also already done again then anyway as well finally for me with w just "
    "completely entirely on there list the from my all of please pls really actually so is".split()
)
_PRONOUN_WORDS = frozenset("it its it's that this them those these both her him".split())
_PRONOUN_WORD = re.compile(r"\b(?:it|its|it's|them|those|these)\b", _I)


# When it was done, and the request to mark it: "it like an hour ago actually so you can tick it"
_WHEN_AND_ASKED = re.compile(
    r"\b(?:(?:like|about|around)\s+)?(?:an?|one|two|three|few|couple of|\d+)\s+"
    r"(?:minutes?|mins?|hours?|days?|weeks?)\s+ago\b|\b(?:this|last)\s+(?:morning|night|"
    r"afternoon|evening|week)\b|\byesterday\b|\btoday\b|\bearlier\b|"
    r"\bso\s+(?:you\s+can|can\s+you|please)\s+(?:tick|check|cross|mark)\b.*$",
    _I,
)


def is_pronoun_reference(reference: str) -> bool:
    """Whether a reference is a pronoun with only filler around it ("w/ it", "it yet")."""
    reference = _WHEN_AND_ASKED.sub(" ", reference)
    words = [w for w in re.findall(r"[\w']+", reference.lower()) if w not in _AROUND_A_PRONOUN]
    return all(w in _PRONOUN_WORDS or w in ("one", "ones") for w in words) and any(
        w in _PRONOUN_WORDS for w in words
    )


# A part that is a statement, not a task: "take the paper towels off, we switched to cloth".
_STATEMENT = re.compile(
    r"^(?:i|we|you|she|he|they|i've|we've|i'm|we're|they're|she's|he's)\s+\w", _I
)


_DONE_LEAD = re.compile(r"^(?:got|bought|grabbed|picked up|have|i got|i bought)\s+", _I)
_DONE_TAIL = re.compile(
    r"(?:\s+(?:all|both|now|already|too))*\s+(?:bought|done|got|gotten|finished|picked up|sorted|"
    r"handled)$|\s+(?:all|both|too)$",
    _I,
)


def _items(parts: list[str]) -> list[str]:
    """The parts that name items: "scissors, have those" is one item and a reason about it."""
    # A statement after a named task is an aside; after a statement, the story goes on.
    told = bool(parts) and _STATEMENT.match(parts[0]) is not None
    named = [
        p
        for n, p in enumerate(parts)
        if not _PRONOUN_WORD.search(p) and (told or not (n and _STATEMENT.match(p)))
    ]
    return named or parts


def position_in(text: str, listed: tuple[int, ...]) -> int | None:
    """The one task a position names ("the second one", "item three"), if it names one."""
    chosen = positions_in(text.strip(" :,-"), listed)
    return chosen[0] if chosen and len(chosen) == 1 else None


_SEVERAL_POINTED = re.compile(r"^(?:both|both of them|them|them both|all of them|those|these)$", _I)


def targets_steps(
    tool: str, obj: str, clause: str, context: ConversationContext
) -> list[steps.Step]:
    """Several tasks named at once ("tasks 2 and 9", "the groceries and the plants")."""
    if unclear_task_number(core_request(clause)) is not None:
        # "task 4 hundred and two" is no list of titles: which task is asked (`target_step`)
        return [target_step(tool, obj, clause, context)]
    rows = _several_numbered(obj, clause, context)
    if rows:
        return _each(tool, rows, context)
    return _several_titled(tool, obj, clause, context)


def _several_numbered(obj: str, clause: str, context: ConversationContext) -> list[int]:
    """The tasks named by number or list position, when there are several; else none."""
    ids = extract_task_ids(core_request(clause))
    if len(ids) > 1:
        return _rows_or_ids(ids, clause, context.listed_task_ids)
    positioned = positions_in(clean_title(obj).strip(" :,-"), context.listed_task_ids)
    if positioned and len(positioned) > 1:
        return positioned
    if _SEVERAL_POINTED.match(obj.strip(" .!?")) and context.listed_task_ids:
        # "the second and the fourth, I finish both": the rows said before the pronoun
        said_first = core_request(clause).split(",")[0]
        rows = positions_in(clean_title(said_first), context.listed_task_ids)
        if rows and len(rows) > 1:
            return rows
    # "hold on, the last one on there, I never picked that up": a position said in passing
    return positions_inside(obj, context.listed_task_ids)


def _several_titled(
    tool: str, obj: str, clause: str, context: ConversationContext
) -> list[steps.Step]:
    """The tasks several titles name, or the one task a reference names."""
    reference = strip_reference_noise(clean_title(obj))
    said = _said_items(reference)
    parts = _items(said)
    if len(parts) == 1 and len(said) > 1:
        obj = parts[0]
    # A sentence about the task ("Sarah left, so there's no point emailing her") is one
    # reference, not a list of titles.
    sentence = max((len(p.split()) for p in parts), default=0) > _LONGEST_TITLE_PART
    if (
        extract_task_id(core_request(clause)) is None
        and len(parts) > 1
        and all(parts)
        and not sentence
    ):
        return [task_actions.act_on_titles(tool, parts, reference, completions=context.completions)]
    return [target_step(tool, obj, clause, context)]


def _said_items(reference: str) -> list[str]:
    return [
        item
        for p in LIST_SEPARATOR.split(reference)
        if p.strip()
        # "milk eggs paper towels all bought": things bought, named without commas
        for item in (
            items_in_a_run(_DONE_LEAD.sub("", _DONE_TAIL.sub("", strip_reference_noise(p))))
            or [strip_reference_noise(p)]
        )
    ]


def _each(tool: str, task_ids: list[int], context: ConversationContext) -> list[steps.Step]:
    """One step per task, in order, each counting toward the completion praise."""
    return [
        task_actions.act_on_task(tool, task_id, completions=context.completions + n)
        for n, task_id in enumerate(task_ids)
    ]


_NUMBER_WORD = re.compile(r"\bnumber\s+\w", _I)


_BARE_NUMBER = re.compile(r"^\s*(?:#|no\.?\s*)?(\d{1,6})\s*$", re.IGNORECASE)


def _row_or_id(task_id: int | None, clause: str, listed: tuple[int, ...]) -> int | None:
    """ "the number seven" right after a list without a task 7 on it is its seventh row: the
    user cannot mean a number they were not shown. "task 7" is always task 7."""
    if (
        task_id is None
        or not listed
        or task_id in listed
        or not 0 < task_id <= len(listed)
        or _NUMBER_WORD.search(clause) is None
    ):
        return task_id
    return listed[task_id - 1]


def _rows_or_ids(task_ids: list[int], clause: str, listed: tuple[int, ...]) -> list[int]:
    """ "number 2 and number 5 is done" after a list that does not show task 5: rows, all of
    them (whoever counts rows counts every number that way)."""
    if any(_row_or_id(n, clause, listed) != n for n in task_ids) and all(
        0 < n <= len(listed) for n in task_ids
    ):
        return [listed[n - 1] for n in task_ids]
    return task_ids


# Acts after which a bare "done" means the one task just talked about.
_TALKED_ABOUT = ("update", "query")


def target_step(
    tool: str,
    obj: str,
    clause: str,
    context: ConversationContext,
    fields: dict[str, object] | None = None,
) -> steps.Step:
    """Rule 5: explicit id, then list position or pronoun from context, then the title."""
    verb = steps.ACTION_VERB[tool]
    unclear = unclear_task_number(core_request(clause))
    if unclear is not None:  # "delete task 4 hundred": not task 4, whatever else it names
        return steps.say(
            replies.ask_which_number(verb, unclear),
            pending={"kind": PendingKind.ASK_TASK, "tool": tool, "fields": fields or {}},
        )
    task_id = _row_or_id(extract_task_id(core_request(clause)), clause, context.listed_task_ids)
    if task_id is not None:
        return task_actions.act_on_task(
            tool,
            task_id,
            fields,
            completions=context.completions,
            old_title=context.known_title(task_id),
        )
    reference = clean_title(obj)
    listed = _listed_number(reference, context.listed_task_ids)
    if listed is not None:
        return task_actions.act_on_task(tool, listed, fields, completions=context.completions)
    pronoun = PRONOUN.match(reference) is not None or is_pronoun_reference(reference)
    if pronoun or is_position(reference.strip(" :,-")):
        return _pointed_at(tool, reference, obj, clause, context, fields, pronoun=pronoun)
    return _titled(tool, reference, obj, clause, context, fields)


def _listed_number(reference: str, listed: tuple[int, ...]) -> int | None:
    """The task a bare number or a list position names."""
    bare_number = _BARE_NUMBER.match(reference)
    if bare_number:  # "14 done": the number the list shows beside the task
        return int(bare_number.group(1))
    positioned = position_in(reference, listed)
    if positioned is None:
        inside = positions_inside(reference, listed)
        positioned = inside[0] if len(inside) == 1 else None
    return positioned


# A task said first, then a request about "it": "the bathroom, can you move it to sunday".
# (a sentence of its own, "the bank is closed on thursday, make it friday", names no topic)
_TOPIC_FIRST = re.compile(
    r"^(?:(?:and|also|oh|ok|okay|so|right)\W+)*(?:the|my)\s+"
    r"(?:(?!\b(?:is|are|was|were|has|have|had|will|can|'s)\b)[^,]){1,40},",
    _I,
)


def _said_first(
    tool: str,
    obj: str,
    clause: str,
    context: ConversationContext,
    fields: dict[str, object] | None,
) -> steps.Step:
    """ "and the last one, the bathroom, can you move it to sunday": "it" is the task said
    first, never the one talked about before; asked when those words name none."""
    said = clues(clause, obj, context)
    return task_actions.act_on_clues(tool, said, fields, completions=context.completions)


def _the_focus(
    tool: str, context: ConversationContext, fields: dict[str, object] | None
) -> steps.Step:
    """The task talked about; only the first row of several shown is a guess: a deletion of
    it is confirmed ("delete that"), a field change asks which ("remind me about it at 5")."""
    focus = context.focus_task_id
    assert focus is not None
    if context.focus_is_a_row and tool == "delete_task":
        return task_actions.confirm_task(tool, focus, context.known_title(focus))
    if context.focus_is_a_row and tool == "update_task":
        return _ask_which_task(tool, fields)
    return task_actions.act_on_task(tool, focus, fields, completions=context.completions)


def _pointed_at(
    tool: str,
    reference: str,
    obj: str,
    clause: str,
    context: ConversationContext,
    fields: dict[str, object] | None,
    *,
    pronoun: bool,
) -> steps.Step:
    """The task a pronoun points at, or a position no list shows: asked when unknown."""
    if pronoun and re.match(r"^both\b", reference, _I):
        # "both" with no two tasks just shown or named: never the one task talked about
        return _ask_which_task(tool, fields)
    if pronoun and _TOPIC_FIRST.match(core_request(context.message or clause)):
        return _said_first(tool, obj, clause, context, fields)
    if context.focus_task_id is not None and pronoun:
        return _the_focus(tool, context, fields)
    found = clues(clause, obj, context) if pronoun and context.message else None
    if found is not None and any(len(part.split()) > 1 for part in found.parts):
        # "my sister reckons I can do the whole passport thing online, can you put a note
        # on that one": the task the message names elsewhere, or the question stays
        return task_actions.act_on_clues(tool, found, fields, completions=context.completions)
    return _ask_which_task(tool, fields)


def _titled(
    tool: str,
    reference: str,
    obj: str,
    clause: str,
    context: ConversationContext,
    fields: dict[str, object] | None,
) -> steps.Step:
    """The task a title names; with no title left, the task just talked about or a question."""
    query = strip_reference_noise(reference)
    if not query and context.focus_task_id is not None and context.last_act in _TALKED_ABOUT:
        # "passport on list?", "rename it renew passport online", "done now": that task
        return task_actions.act_on_task(
            tool, context.focus_task_id, fields, completions=context.completions
        )
    if not query:
        return _ask_which_task(tool, fields)
    return task_actions.act_on_title_or_clues(
        tool, query, lambda: clues(clause, obj, context), fields, completions=context.completions
    )


def _ask_which_task(tool: str, fields: dict[str, object] | None) -> steps.Step:
    return steps.say(
        replies.ask_which_task(steps.ACTION_VERB[tool]),
        pending={"kind": PendingKind.ASK_TASK, "tool": tool, "fields": fields or {}},
    )


# A pronoun said beside the reference: "..., so you can tick that one off", "so it is done".
_PRONOUN_BESIDE = re.compile(
    r"\b(?:it|that one|this one|her|him|that(?=\s+(?:off|as|done|too|one)\b|\s*[.!?]*\s*$))\b",
    _I,
)
_CIRCUMSTANCES = re.compile(
    r"(?:\s+(?:last night|this (?:morning|afternoon|evening)|yesterday(?: \w+)?|today|earlier|"
    r"finally|already|just now|on the way (?:home|back)|(?:while|when|before|after)\s.*))+$",
    _I,
)
# "I finished the laundry" (no such task), "... mark the report as finished": a part that only
# says something is done names no task, though "finish Q4 report" has the word.
_STATE_WORD = re.compile(
    r"^(?:(?:i|we|it|it's|its|is|was|are|were|been|has|have|had|just|already|finally|now|all|"
    r"as|got)\s+)*(?:done|finished|finish|complete|completed|sorted|handled|over|gone|bought|"
    r"paid)$",
    _I,
)
_PARTS = re.compile(r"\s*(?:[,;.!?]+|\bso\b|\bbut\b|\band\b)\s*", _I)


def clues(clause: str, obj: str, context: ConversationContext) -> task_actions.Clues:
    """What the rest of the message (one request) or clause says about the task when `obj`
    names none: its other parts, and the task talked about last if a pronoun points back."""
    # The whole message, when the clause is part of it: a story may name the task elsewhere.
    said = context.message if obj.strip().lower() in context.message.lower() else clause
    beside = re.sub(re.escape(obj), " ", said, flags=_I) if obj.strip() else said
    # "..., but not the eggs, eggs i don't buy yet": what is excepted names no task to act on
    beside = before_an_exception(beside)
    # "I just got off the phone with her, so tick that one off": a statement naming no task,
    # said of the task talked about last (the pronoun may have been read into the reference)
    statement = _STATEMENT.match(strip_reference_noise(clean_title(obj))) is not None
    pointed = statement or _PRONOUN_BESIDE.search(beside) is not None
    focus = context.focus_task_id if pointed else None
    parts = [strip_reference_noise(clean_title(p)) for p in _PARTS.split(beside)]
    # "the bathroom last night while listening to a podcast": when and how it was done go
    parts.append(_CIRCUMSTANCES.sub("", strip_reference_noise(clean_title(obj))))
    # "... mark the report as finished": the state said names no task ("finish Q4 report")
    return task_actions.Clues(
        focus=focus, parts=tuple(p for p in parts if p and not _STATE_WORD.match(p))
    )
