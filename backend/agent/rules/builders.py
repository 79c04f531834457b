"""From one detected clause to the steps that carry it out (extraction and Rule 5)."""

from __future__ import annotations

import re

from backend.agent.rules import replies, steps
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import extract_status, extract_task_id, split_title_description
from backend.agent.rules.intents import Action, Detection, Intent
from backend.agent.rules.resolve import strip_reference_noise
from backend.agent.rules.text import clean_title, core_request

_I = re.IGNORECASE
TOOL_OF = {Intent.COMPLETE: "complete_task", Intent.DELETE: "delete_task",
           Intent.UPDATE: "update_task"}


def steps_for(detection: Detection, clause: str, context: ConversationContext) -> list[steps.Step]:
    intent, action = detection.intent, detection.action
    if intent is Intent.GREETING:
        return [steps.say(replies.GREETING)]
    if intent is Intent.HELP:
        return [steps.say(replies.HELP)]
    if intent is Intent.UNCLEAR:
        return [steps.say(replies.UNCLEAR)]
    if action is Action.UNDO:
        return [steps.undo(context.last_change)]
    if intent is Intent.CREATE:
        return create_steps(detection.obj, clause, context)
    if intent is Intent.LIST:
        if action is Action.LOOKUP:
            return [steps.lookup(strip_reference_noise(clean_title(detection.obj)))]
        return [steps.list_tasks(extract_status(clause))]
    if action is Action.CLEAR:
        return [steps.confirm_clear(detection.obj or "all")]
    if action is Action.REOPEN:
        return [target_step("update_task", detection.obj, clause, context, {"completed": False})]
    if intent is Intent.UPDATE:
        return [update_step(detection.obj, clause, context)]
    return [target_step(TOOL_OF[intent], detection.obj, clause, context)]


# --- create ----------------------------------------------------------------------------

_ADD_LEAD = re.compile(
    r"^(?:(?:a|an|the|one)\s+)?(?:new\s+)?(?:task|todo|to-do|item|reminder|note|entry)s?\s*"
    r"(?:to|for|called|named|titled|that says|saying|:|-)?\s+|^(?:that\s+)?(?:i\s+|we\s+)?"
    r"(?:need|have|should|must|gotta|got|want)\s+to\s+|^to\s+|^that\s+",
    _I,
)
_ADD_TAIL = re.compile(
    r"\s+(?:to|on|onto|in|into|for)\s+(?:my|the|our)\s+(?:[\w'-]+\s+)?(?:list|tasks|to-?dos?|"
    r"to-do list|todo list|reminders|agenda)$|\s+(?:as an?|as)\s+(?:new\s+)?(?:task|todo|"
    r"to-do|reminder|item)$|\s+to (?:the|my) list$|\s+(?:please|for me|thanks|thank you)$",
    _I,
)
_CASUAL = re.compile(r"^\W*(?:please\s+)?(?:remember|remind|don'?t forget|do not forget|make a note)",
                     _I)
_SEVERAL = re.compile(r"^(?:these|the following|the following tasks|these tasks|tasks)\s*:\s*", _I)


def _title_text(obj: str) -> str:
    text = obj.strip()
    previous = None
    while previous != text:
        previous = text
        text = _ADD_LEAD.sub("", text, count=1).strip()
        text = _ADD_TAIL.sub("", text).strip()
    return text


def create_steps(obj: str, clause: str, context: ConversationContext) -> list[steps.Step]:
    casual = bool(_CASUAL.match(core_request(clause)))
    several = _SEVERAL.match(obj)
    if several:
        items = [i for i in re.split(r"\s*(?:,|;|\band\b)\s*", obj[several.end():]) if i.strip()]
        return [steps.add_task(*split_title_description(_title_text(item)), casual=casual,
                               adds_in_a_row=context.adds_in_a_row + n, check_similar=False)
                for n, item in enumerate(items)]
    title, description = split_title_description(_title_text(obj))
    if not title:
        return [steps.say(replies.ask_title_to_add(), pending={"kind": "ask_title"})]
    return [steps.add_task(title, description, casual=casual, adds_in_a_row=context.adds_in_a_row)]


# --- which task ------------------------------------------------------------------------

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3,
             "4th": 4, "5th": 5, "last": -1}
_POSITION = re.compile(
    r"^(?:the\s+)?(?P<ordinal>" + "|".join(_ORDINALS) + r")(?:\s+(?:one|task|item|todo|entry))?"
    r"(?:\s+(?:on|in|from)\s+(?:the|my|that)\s+list)?$",
    _I,
)
_PRONOUN = re.compile(
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


def target_step(tool: str, obj: str, clause: str, context: ConversationContext,
                fields: dict[str, object] | None = None) -> steps.Step:
    """Rule 5: explicit id, then list position or pronoun from context, then the title."""
    verb = steps.ACTION_VERB[tool]
    task_id = extract_task_id(core_request(clause))
    if task_id is not None:
        return steps.act_on_task(tool, task_id, fields, completions=context.completions)
    reference = clean_title(obj)
    positioned = position_in(reference, context.listed_task_ids)
    if positioned is not None:
        return steps.act_on_task(tool, positioned, fields, completions=context.completions)
    if _PRONOUN.match(reference) or _POSITION.match(reference):
        if context.focus_task_id is not None and _PRONOUN.match(reference):
            return steps.act_on_task(tool, context.focus_task_id, fields,
                                     completions=context.completions)
        return steps.say(replies.ask_which_task(verb), pending={"kind": "ask_task", "tool": tool,
                                                               "fields": fields or {}})
    query = strip_reference_noise(reference)
    if not query:
        return steps.say(replies.ask_which_task(verb), pending={"kind": "ask_task", "tool": tool,
                                                               "fields": fields or {}})
    return steps.act_on_title(tool, query, fields, completions=context.completions)


# --- update ----------------------------------------------------------------------------

_DESCRIPTION = re.compile(
    r"(?:^|,\s*|\s+and\s+|\s+with\s+|\s+(?=(?:add|set|change|update|give it|put)\s))"
    r"(?:(?:add|set|change|update|give it|put)\s+)?"
    r"(?:a\s+|the\s+|its\s+|new\s+|an?\s+)?(?:description|desc|details?|notes?)\b"
    r"(?:\s+(?:of|for|on|to)\s+(?P<target>task\s*#?\d+|#\d+|it|that|this))?"
    r"\s*(?:to|as|:|=|saying|that says|which says|reading)?\s*(?P<description>.*)$",
    _I,
)
_NEW_TITLE = re.compile(
    r"(?:^|\s+|(?<=\w):)\s*(?:(?:its|the)\s+)?(?:(?:title|name)\s+)?(?:to(?:\s+(?:say|read))?|into|"
    r"as|:|so (?:it|that it) (?:says|reads)|with the title|with title)\s+(?P<title>.+)$",
    _I,
)
_MAKE_IT = re.compile(r"^(?P<target>it|that|this)\s+(?:to\s+|into\s+|say\s+|read\s+)?(?P<title>.+)$",
                      _I)
_TARGET_NOISE = re.compile(r"\b(?:the\s+)?(?:title|name)(?:\s+(?:of|for))?\b|'s\b", _I)


def update_step(obj: str, clause: str, context: ConversationContext) -> steps.Step:
    fields: dict[str, object] = {}
    rest = obj.strip()
    description = _DESCRIPTION.search(rest)
    if description and description.group("description").strip():
        fields["description"] = clean_title(description.group("description"))
        rest = (rest[: description.start()] + " " + (description.group("target") or "")).strip()
    make_it = _MAKE_IT.match(rest) if re.match(r"^\W*(?:make|call)\b", core_request(clause),
                                                  _I) else None
    title = make_it or _NEW_TITLE.search(rest)
    if title:
        fields["title"] = clean_title(title.group("title"))
        rest = make_it.group("target") if make_it else rest[: title.start()]
    fields = {name: value for name, value in fields.items() if value}
    target = clean_title(_TARGET_NOISE.sub(" ", rest))
    if not fields:
        task_id = extract_task_id(core_request(clause))
        if task_id is None and _PRONOUN.match(target or "it"):
            task_id = context.focus_task_id
        if task_id is None:
            return steps.say(replies.ask_which_task("update"),
                             pending={"kind": "ask_task", "tool": "update_task"})
        return steps.say(replies.ask_what_to_update(task_id),
                         pending={"kind": "ask_fields", "task_id": task_id}, focus=task_id)
    if not target and extract_task_id(core_request(clause)) is None:
        target = "it"
    return target_step("update_task", target, clause, context, fields)


def is_command(text: str) -> bool:
    """Whether a reply to a question is a new request rather than an answer."""
    from backend.agent.rules.intents import detect_intent

    detection = detect_intent(text, has_task_id=extract_task_id(text) is not None)
    return detection.intent not in (Intent.UNCLEAR,) and not detection.rule.startswith(
        ("a task phrase", "keyword")
    )
