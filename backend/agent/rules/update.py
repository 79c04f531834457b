"""UPDATE: the new title and/or description, and the task they belong to."""

from __future__ import annotations

import re

from backend.agent.rules import replies, steps, task_actions
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import (
    extract_task_id,
    unclear_task_number,
)
from backend.agent.rules.numbers import NUMBER_PHRASE
from backend.agent.rules.resolve import strip_reference_noise
from backend.agent.rules.targets import PRONOUN, target_step
from backend.agent.rules.text import clean_title, core_request
from backend.agent.rules.types import PendingKind

_I = re.IGNORECASE

_DESCRIPTION_WORD = re.compile(
    r"(?P<lead>^|,\s*|\s+and\s+|\s+with\s+|'s\s+|\s+)(?:(?:add|set|change|update|give it|put|"
    r"attach)\s+)?(?:(?:a|an|the|its|new|some)\s+)?(?:description|desc|details?|notes?)\b",
    _I,
)
_SHORT_TARGET = rf"task\s*#?(?:\d+|{NUMBER_PHRASE})|#\d+|it|that|this|that one|this one"
_DESCRIPTION_TARGET = re.compile(
    rf"^\s*(?:of|for|on|to)\s+(?P<target>{_SHORT_TARGET}|the\s+[^:]+?\s+(?:task|one|item)"
    # "add a note to the Q4 report: include the figures", "... to my passport one saying ..."
    r"|(?:the|my)\s+[^:,]+?(?=\s*:|\s+(?:saying|that says|which says|to say|reading)\b))"
    r"(?:'s)?\s*(?:(?:to\s+(?:say|read)|to|as|saying|that says|which says|reading)\b|[:=-])?"
    r"\s*(?P<text>.*)$",
    _I,
)
_DESCRIPTION_TEXT = re.compile(
    # "change the note to say expires in February": what it says, not "say ..."
    r"^\s*(?:(?:to\s+(?:say|read)|to|as|saying|that says|which says|reading)\b|[:=-])?"
    r"\s*(?P<text>.*)$",
    _I,
)
_TRAILING_TARGET = re.compile(
    rf"^(?P<text>.+?)\s+(?:to|for|on|of)\s+(?P<target>{_SHORT_TARGET})$", _I
)
_NEW_TITLE = re.compile(
    r"(?:^|,\s*|\s+)(?:(?:new|its|the)\s+)?(?:title|name)\s*(?:[:=]|(?=[\"']))\s*(?P<t1>.+)$"
    r"|(?:^|\s+|(?<=\w):)\s*(?:(?:its|the)\s+)?(?:(?:title|name)\s+)?(?:to(?:\s+(?:say|read|be))?|"
    r"into|as|:|so (?:it|that it) (?:says|reads)|with the title|with title)\s+(?P<t2>.+)$"
    # "change the name of the task email Sarah, make it: email Sarah and Omar"
    r"|,\s*(?:make|call|name|write)\s+it(?:\s*:|\s+(?:to|into|as|say|read))?\s+(?P<t3>.+)$",
    _I,
)
_MAKE_IT = re.compile(
    r"^(?P<target>it|that|this|that one|this one|task\s*#?\d+|#\d+)\s+"
    r"(?:to\s+|into\s+|say\s+|read\s+)?(?P<title>.+)$"
    # "make the eggs one say a dozen eggs"
    r"|^(?P<target2>.+?)\s+(?:say|read|to say|to read)\s+(?P<title2>.+)$",
    _I,
)

_QUOTED_NEW_TITLE = re.compile(
    r"\s+(?:to|into|as|to say|to read|say|read)\s+"
    r"(?P<q>['\"])(?P<title>[^'\"]*\w[^'\"]*)(?P=q)\s*$",
    _I,
)
# "change buy groceries to something more specific, like groceries for the bbq saturday"
_SOMETHING_LIKE = re.compile(
    r"^something(?:\s+(?:more|a bit|a little|less))?(?:\s+\w+)?\s*,?\s+(?:like|such as|e\.g\.|"
    r"say)\s+(?P<title>.+)$",
    _I,
)
# "change milk for lactose free milk": with no "to", "for" names what replaces the title.
_SWAPPED_FOR = re.compile(r"(?<=\w)\s+for\s+(?P<t2>(?!(?:it|that|this|task)\b).+)$", _I)

_I = re.IGNORECASE
_TARGET_NOISE = re.compile(r"\b(?:the\s+)?(?:title|name)(?:\s+(?:of|for))?\b|'s\b|,", _I)


def _split_description(text: str) -> tuple[str | None, str]:
    """The new description, and what is left of the request (with any target it named)."""
    for match in _DESCRIPTION_WORD.finditer(text):
        before = text[: match.start()]
        # "... to write description docs": the word is part of a new title, not a field.
        if re.search(r"\s(?:to|into|as)\s", f" {before} ", _I) and not match.group("lead").strip():
            continue
        after = text[match.end() :]
        targeted = _DESCRIPTION_TARGET.match(after)
        target = targeted.group("target") if targeted else ""
        body = targeted.group("text") if targeted else _DESCRIPTION_TEXT.match(after)["text"]  # type: ignore[index]
        trailing = _TRAILING_TARGET.match(body)
        if trailing and not target:
            body, target = trailing.group("text"), trailing.group("target")
        description = clean_title(body)
        if description:
            return description, f"{before} {target}".strip()
    return None, text


def update_step(obj: str, clause: str, context: ConversationContext) -> steps.Step:
    fields: dict[str, object] = {}
    description, rest = _split_description(obj.strip())
    if description:
        fields["description"] = description
    title, rest = _split_title(rest, clause)
    if title is not None:
        fields["title"] = title
    fields = {name: value for name, value in fields.items() if value}
    target = clean_title(_TARGET_NOISE.sub(" ", rest))
    if not fields:
        return _no_change_said(target, clause, context)
    if description:
        # "put a note on it: ticket number 4471": numbers in the note name no task
        clause = clause.replace(description, " ")
    if not target and extract_task_id(core_request(clause)) is None:
        target = "it"
    return target_step("update_task", target, clause, context, fields)


def _split_title(rest: str, clause: str) -> tuple[str | None, str]:
    """The new title, and what is left of the request (with any target it named)."""
    quoted = _QUOTED_NEW_TITLE.search(rest)
    if quoted:
        # "the task for email to Sarah, please change it to 'email Sarah and Tom'": the quotes
        return _specific(clean_title(quoted["title"])), rest[: quoted.start()]
    make_it = (
        _MAKE_IT.match(rest)
        if re.match(r"^\W*(?:make|call|rename|name)\b", core_request(clause), _I)
        else None
    )
    if make_it:
        new_title = make_it.group("title") or make_it.group("title2")
        target = make_it.group("target") or make_it.group("target2")
        return _specific(clean_title(new_title)), target
    title = _NEW_TITLE.search(rest) or _SWAPPED_FOR.search(rest)
    if title:
        new_title = title.groupdict().get("t1") or title.group("t2") or title.group("t3")
        return _specific(clean_title(new_title)), rest[: title.start()]
    return None, rest


def _specific(title: str) -> str:
    """ "something more specific, like groceries for the bbq": the title it is like."""
    vague = _SOMETHING_LIKE.match(title)
    return clean_title(vague["title"]) if vague else title


def _no_change_said(target: str, clause: str, context: ConversationContext) -> steps.Step:
    """An update that names no change: its task is found, then what should change is asked."""
    if unclear_task_number(core_request(clause)) is not None:
        return target_step("update_task", target, clause, context)  # which task: asked
    task_id = extract_task_id(core_request(clause))
    if task_id is None and PRONOUN.match(target or "it"):
        task_id = context.focus_task_id
    elif task_id is None and (query := strip_reference_noise(target)):
        # "Rename buy milk": find the task, then ask what should change.
        return task_actions.act_on_title("update_task", query, {})
    if task_id is None:
        return steps.say(
            replies.ask_which_task("update"),
            pending={"kind": PendingKind.ASK_TASK, "tool": "update_task"},
        )
    asked_about = task_id
    return lambda _outcomes: task_actions.ask_fields(asked_about)
