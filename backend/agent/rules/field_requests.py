"""Requests about a task's due date, priority, list, tags, repeat or reminder
(backend/agent/rules/reminder_requests.py), and lists filtered by them.

- a change: "push the dentist to thursday", "move it to tomorrow at 3", "remove the date from
  it", "make it high priority", "prioritize the report", "move it to my work list", "tag it
  #work" -> update_task on the task named, with only those fields;
- a filtered list: "what's due today?", "anything due tomorrow?", "what's overdue?", "show my
  shopping list", "show #home", "what's important?" -> list_tasks with `due`, `list`, `tag`
  or `priority`; "what lists do I have?" -> the lists the tasks are in.

Recognised here before the general intent rules read the clause: "remove the date from it"
must never reach the delete rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from backend.agent.rules.reminder_requests import reminder_change
from backend.agent.rules.task_fields import PRIORITY_OF, list_named
from backend.agent.rules.text import core_request
from backend.agent.rules.vocabulary import is_task_verb
from backend.agent.rules.when import whole_due
from backend.domain.repeat_phrases import find_repeat

_I = re.IGNORECASE

# "move <task> to <when>": the task's own title may hold "to" ("move the call to my mother to
# tomorrow"), so every "to/till/until/for/by/due" is a place the two may part (`_rescheduled`).
_RESCHEDULE = re.compile(
    r"^(?P<verb>push|move|reschedule|postpone|bump|shift|shove|change|chg|delay|defer|switch|"
    r"put\s+off|put|set|make)\s+(?:the\s+(?:due\s+)?(?:date|deadline|time)\s+(?:of|on|for)\s+)?"
    r"(?P<rest>.+)$",
    _I,
)
_RESCHEDULE_SPLIT = re.compile(
    r"\s+(?P<off>(?:back|forward|off|out)\s+)?(?:to|till|til|until|for|by|due|on)\s+"
    r"|\s*(?:->|→|=>|👉|➡️?)\s*",
    _I,
)
# Verbs whose task and day may part with no word between: "make it friday", "set it monday".
_BARE_VERBS = frozenset({"make", "set"})
# What follows the day and says nothing of it: "Shove it to Monday, would you?", "thursday 📅",
# "Tuesday week, realistically".
_WHEN_TAIL = re.compile(
    r"(?:[\s,]+(?:(?:would|could|can|will)\s+you|please|pls|thanks|thx|realistically|"
    r"then|ok|okay|instead)\b|[\s,.!?]*[^\w\s,.!?:;'\"()&#@/-]+)[\s,.!?]*$"
    r"|[\s,.!?]+$",
    _I,
)
# Before the verb, the task it points at with "it": "the third one, put it for next Monday",
# "the date, put it for monday" (the date of the task already talked about).
_LEAD_REFERENCE = re.compile(
    r"^(?P<lead>(?:the|task|#)\b[^,.;]{0,40}?|(?:the\s+)?(?:due\s+)?(?:date|deadline|day|time))"
    r"\s*[,.;:]?\s+(?P<body>(?:push|move|put|set|make|shove|shift|bump|change|chg|reschedule|"
    r"postpone)\s+(?:it|that|this)\b.*)$",
    _I,
)
_TIME_WORDS = re.compile(r"^(?:the\s+)?(?:due\s+)?(?:date|deadline|day|time)$", _I)
# A task said with no verb and its new day: "eggs due sat", "mom -> sunday" (one or two words
# that are no doing word: "buy eggs due sat" is left to the add rules).
_BARE_MOVE = re.compile(
    r"^(?P<target>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\s+(?:due|to|->|→|👉)\s+(?P<when>.+)$", _I
)
# "the report is due friday", "the first one can wait till tomorrow evening", "the draft
# review can move to Monday at 3": the task first, then its new day (never "what is due").
_DUE_AFTER_TASK = re.compile(
    r"^(?!(?:what|which|who|anything|something|nothing|everything|is|are)\b)"
    r"(?P<target>.+?)\s+(?:is\s+(?:now\s+)?due|can\s+(?:wait|be\s+(?:moved|pushed|put\s+off)|"
    r"move|go)\s+(?:to|till|til|until|for)|can\s+wait)\s+(?P<when>.+)$",
    _I,
)
# "tomorrow at the same time", "Friday, same time": the task's own time is kept.
_SAME_TIME = re.compile(
    r"[,\s]*(?:(?:at|keeping|keep|with|for)\s+)?(?:the\s+)?same\s+time(?:\s+as\s+(?:before|now))?$",
    _I,
)
_CLEAR_DUE = re.compile(
    r"^(?:remove|clear|delete|drop|take\s+off|take\s+away|get\s+rid\s+of|unset)\s+"
    r"(?:the\s+)?(?:due\s+)?(?:date|deadline|due date|time|day)\s+(?:from|on|of|for)\s+"
    r"(?P<target>.+)$"
    r"|^(?P<target2>.+?)\s+(?:has|needs|should have)\s+no\s+(?:due\s+)?(?:date|deadline)$",
    _I,
)
_PRIORITY_CHANGE = re.compile(
    r"^(?:make|set|mark|flag|change|put)\s+(?:the\s+priority\s+(?:of|on|for)\s+)?"
    r"(?P<target>.+?)\s+(?:as\s+|to\s+|at\s+)?(?:a\s+)?"
    r"(?:(?P<level>high|top|medium|normal|low)[\s-]+priority|(?P<word>urgent|important))$"
    r"|^(?P<up>prioriti[sz]e)\s+(?P<target2>.+)$"
    r"|^(?P<down>deprioriti[sz]e)\s+(?P<target3>.+)$"
    r"|^(?:remove|clear|drop)\s+(?:the\s+)?priority\s+(?:from|on|of)\s+(?P<target4>.+)$",
    _I,
)
_LIST_MOVE = re.compile(
    r"^(?P<verb>move|file|transfer|shift|put)\s+"
    r"(?P<target>(?:(?!\b(?:to|from|into|onto)\b).)+?)\s+(?:to|on|onto|in|into)\s+"
    r"(?:my\s+|the\s+|our\s+)?(?P<name>[a-z][\w'&-]*(?:\s+[a-z][\w'&-]*)?)(?P<list>\s+list)?$",
    _I,
)
# What another assistant keeps: "set an alarm for 6am", "move the meeting in my calendar".
NOT_A_TASK = re.compile(r"\b(?:alarm|alarms|timer|calendar|wake[- ]?up call|playlist)\b", _I)
_GENERIC_LIST = re.compile(
    r"^(?:list|to[- ]?do|todo|do|tasks?|done|completed|top|bottom|end|front|back|trash|bin|"
    r"garbage|rubbish|recycle bin)$",
    _I,
)
_TAG_CHANGE = re.compile(
    r"^(?:tag|label)\s+(?P<target>.+?)\s+(?:with\s+|as\s+)?#?(?P<tag>[a-z][\w-]{0,29})$"
    r"|^add\s+(?:the\s+)?(?:tag\s+)?#(?P<tag2>[a-z][\w-]{0,29})\s+to\s+(?P<target2>.+)$"
    r"|^(?:remove|clear)\s+(?:all\s+)?(?:the\s+)?tags\s+(?:from|on|of)\s+(?P<target3>.+)$",
    _I,
)
# A tag added as people say it: "add an urgent tag to the grocery shopping one", "add the tag
# 'urgent' to the email to Sarah", "this one please put also the tag weekend". The tag is
# added to those the task has (`add_tags`), never in place of them.
_TAG_ADDED = re.compile(
    r"^(?:(?P<lead>.+?)\s+)?(?:add|put|give|stick|slap|pop)\s+(?:also\s+)?(?:it\s+)?"
    r"(?:(?:a|an|the)\s+)?(?:(?P<q>['\"]?)#?(?P<tag>[a-z][\w-]{0,29})(?P=q)\s+(?:tag|label)"
    r"|(?:tag|label)\s+(?P<q2>['\"]?)#?(?P<tag2>[a-z][\w-]{0,29})(?P=q2))"
    r"(?:\s+(?:on|to|onto)\s+(?P<target>.+?))?(?:\s+(?:as\s+well|too|also))?$",
    _I,
)
# Words before the verb that name no task: "can you add ...", "this one please put ...".
_LEAD_FILLER = re.compile(
    r"\b(?:(?:can|could|would|will)\s+you|please|pls|also|and|ok|okay|so|oh|ooh|now|then)\b", _I
)
_TAG_TARGET_END = re.compile(r"\s*,.*$")
# Taking one tag off: "take the home tag off the plumber task", "remove #work from it",
# "untag task 15"; "the tag" with none named is every tag the task has.
_TAG_OFF = (
    r"(?:remove|delete|take|drop|clear|strip|get\s+rid\s+of|lose|scrap|ditch|erase)\s+"
    r"(?:the\s+|that\s+|this\s+|its\s+)?(?!(?:the|that|this|its|a|an|my)\s)"
)
_TAG_REMOVAL = re.compile(
    rf"^{_TAG_OFF}#?(?P<tag>[a-z][\w-]{{0,29}})\s+(?:tag|label|hashtag)\s+"
    r"(?:from|off(?:\s+of)?|on|of)\s+(?P<target>.+)$"
    rf"|^{_TAG_OFF}(?:tag|label|hashtag)\s+#?(?P<tag2>[a-z][\w-]{{0,29}})\s+"
    r"(?:from|off(?:\s+of)?|on|of)\s+(?P<target2>.+)$"
    rf"|^{_TAG_OFF}#(?P<tag3>[a-z][\w-]{{0,29}})\s+(?:from|off(?:\s+of)?|on)\s+(?P<target3>.+)$"
    rf"|^{_TAG_OFF}(?:tag|label|hashtag)\s+(?:from|off(?:\s+of)?|on|of)\s+(?P<every>.+)$"
    r"|^untag\s+(?P<target4>.+?)(?:\s+(?:from|as)\s+#?(?P<tag4>[a-z][\w-]{0,29}))?$",
    _I,
)
_SKIP = re.compile(
    r"^skip\s+(?:(?:this|the\s+next|the\s+current|the)\s+(?:one|time|occurrence|week|month)"
    r"(?:\s+(?:of|for)\s+(?P<target>.+?))?|(?P<target2>.+?)(?:\s+(?:this|next)\s+"
    r"(?:time|week|month|once))?)$",
    _I,
)
_STOP_REPEATING = re.compile(
    r"^(?:stop|quit|don'?t\s+keep|do\s+not\s+keep)\s+repeating\s+(?P<target>.+)$"
    r"|^(?:make|set)\s+(?P<target2>.+?)\s+(?:not\s+repeat|a\s+one[- ]off|one[- ]off|"
    r"non[- ]repeating)$"
    r"|^(?P<target3>.+?)\s+(?:should\s+not|shouldn'?t|doesn'?t\s+need\s+to)\s+repeat$",
    _I,
)
_START_REPEATING = re.compile(
    r"^(?:make|set)\s+(?P<target>.+?)\s+(?:to\s+)?repeat\s+(?P<rule>.+)$"
    r"|^repeat\s+(?P<target2>.+?)\s+(?P<rule2>(?:every|each)\b.+|daily|weekly|monthly|yearly)$",
    _I,
)
# The task a change names: a pronoun or a number for a list move without the word "list"
# ("move it to work"); anything else needs "list" ("move the milk to my shopping list").
_SHORT_TARGET = re.compile(r"^(?:it|that|this|that one|this one|task\s*#?\d+|#\d+)$", _I)


@dataclass(frozen=True)
class FieldChange:
    """An update of fields only: which task (as said) and the update_task arguments."""

    target: str
    fields: dict[str, Any]
    # The clause without the date said, for finding the task ("push it to the 3rd" names
    # no task 3).
    rest: str


def field_change(clause: str, now: datetime, *, any_day: bool = False) -> FieldChange | None:
    """The field change `clause` asks for, or None if it asks for something else. `any_day`:
    read for whether it asks one, on no day in particular ("friday the 4th" is a day then)."""
    text = core_request(clause).strip()
    if NOT_A_TASK.search(text):
        return None
    # In this order: the first that reads the clause says what it asks for.
    return (
        _reminder_field_change(text, now)
        or _due_cleared(text)
        or _rescheduled(text, now, any_day=any_day)
        or _repeat_change(text)
        or _priority_said(text)
        or _tags_said(text)
        or _list_move(text, now)
    )


def _reminder_field_change(text: str, now: datetime) -> FieldChange | None:
    """ "remind me an hour before", "turn off the reminder for the dentist"."""
    reminded = reminder_change(text, now)
    if reminded is None:
        return None
    target, fields = reminded
    return FieldChange(target, fields, target)


def _due_cleared(text: str) -> FieldChange | None:
    """ "remove the date from it"."""
    cleared = _CLEAR_DUE.match(text)
    if not cleared:
        return None
    target = cleared["target"] or cleared["target2"]
    return FieldChange(target, {"due": "none"}, target)


def _rescheduled(text: str, now: datetime, *, any_day: bool = False) -> FieldChange | None:
    """ "push the dentist to thursday", "move the call to my mother to tomorrow", "put off the
    dentist until friday", "the report is due friday", "the first one can wait till tomorrow",
    "make it friday morning", "the third one, put it for next Monday", "eggs due sat".
    The day said is the whole of what follows the task: the first such parting wins."""
    after = _DUE_AFTER_TASK.match(text)
    if after:
        return _moved_to(after["target"], after["when"], now, any_day=any_day)
    led = _LEAD_REFERENCE.match(text)
    if led:
        change = _rescheduled(led["body"], now, any_day=any_day)
        if change is None or _TIME_WORDS.match(led["lead"].strip()):
            return change
        lead = led["lead"].strip()
        return FieldChange(lead, change.fields, lead)
    moved = _RESCHEDULE.match(text)
    if not moved:
        return _bare_move(text, now, any_day=any_day)
    return _verb_move(moved["verb"].lower(), moved["rest"], now, any_day=any_day)


def _verb_move(verb: str, rest: str, now: datetime, *, any_day: bool) -> FieldChange | None:
    """The task and its new day after a moving verb, parted at the first place both read."""
    put, bare = verb == "put", verb in _BARE_VERBS
    pointed = _POINTED.match(rest)
    if bare and not pointed:
        return None  # "make dinner friday", "set up the meeting monday": something new
    for parting in _partings(rest, bare=bare):
        target = rest[: parting.start()]
        if put and not parting["off"] and not _SHORT_TARGET.match(target.strip()):
            continue  # "put X off until friday", "put it for monday"; never "put bread for it"
        if bare and not _POINTED.fullmatch(target.strip()):
            continue  # "make it friday", never "make it repeat every monday"
        change = _moved_to(target, rest[parting.end() :], now, any_day=any_day)
        if change is not None:
            return change
    return None


# "it", "that one", "the date" of the task talked about.
_POINTED = re.compile(r"^(?:it|that|this|that one|this one)\b", _I)


def _partings(rest: str, *, bare: bool) -> list[re.Match[str]]:
    said = list(_RESCHEDULE_SPLIT.finditer(rest))
    if not bare:
        return said
    spaces = list(re.finditer(r"(?P<off>(?!))?\s+", rest))
    return sorted(said + spaces, key=lambda m: m.start())


def _bare_move(text: str, now: datetime, *, any_day: bool) -> FieldChange | None:
    """ "eggs due sat", "mom -> sunday": a task's one or two words, no verb, and a day."""
    bare = _BARE_MOVE.match(text)
    if bare is None:
        return None
    first = bare["target"].split()[0].lower()
    if is_task_verb(first) or first in _NOT_A_BARE_TASK:
        return None
    return _moved_to(bare["target"], bare["when"], now, any_day=any_day)


_NOT_A_BARE_TASK = frozenset(
    "add new create remind what when which who is are it that this i we you back go due anything "
    "something nothing everything any all tasks things stuff whats what's".split()
)


def _moved_to(target: str, when: str, now: datetime, *, any_day: bool) -> FieldChange | None:
    """The due change to `when` of the task `target` names, if `when` is wholly a day."""
    when = _WHEN_TAIL.sub("", when)
    kept = _SAME_TIME.search(when)
    due = whole_due(when[: kept.start()] if kept else when, now, any_weekday=any_day)
    if due is None or not target.strip():
        return None
    # "tomorrow at the same time": the day alone; the task keeps its own time once it is read
    # (`task_actions`: a timed task moved to a day keeps its time).
    return FieldChange(target, {"due": due.argument}, target)


def _priority_said(text: str) -> FieldChange | None:
    priority = _PRIORITY_CHANGE.match(text)
    return _priority_change(priority) if priority else None


def _tags_said(text: str) -> FieldChange | None:
    """ "remove #work from it", "remove all tags from it", "tag it #work"."""
    untagged = _TAG_REMOVAL.match(text)
    if untagged:
        return _tag_removal(untagged)
    tagged = _TAG_CHANGE.match(text)
    if not tagged:
        return _tag_added(text)
    if tagged["target3"]:
        return FieldChange(tagged["target3"], {"tags": []}, tagged["target3"])
    target = tagged["target"] or tagged["target2"]
    return FieldChange(target, {"add_tags": [(tagged["tag"] or tagged["tag2"]).lower()]}, target)


def _tag_added(text: str) -> FieldChange | None:
    """ "add an urgent tag to the grocery shopping one", "this one, put also the tag weekend"."""
    added = _TAG_ADDED.match(text)
    if not added:
        return None
    # What follows a comma is an aside ("..., the fridge is literally empty").
    target = _TAG_TARGET_END.sub("", added["target"] or "").strip()
    # With no task after the tag, the one said before it: "this one please put the tag ..."
    lead = " ".join(_LEAD_FILLER.sub(" ", added["lead"] or "").split()).strip(" ,")
    target = target or lead or "it"
    if target.lower().endswith(" list"):
        return None  # "add a gift tag to the shopping list": a thing to buy
    tag = (added["tag"] or added["tag2"]).lower()
    return FieldChange(target, {"add_tags": [tag]}, target)


def _list_move(text: str, now: datetime) -> FieldChange | None:
    """ "move it to my work list", "move the milk to my shopping list"."""
    listed = _LIST_MOVE.match(text)
    if not listed:
        return None
    said, named_a_list = listed["name"], listed["list"] is not None
    if said.lower().endswith(" list"):  # "to my shopping list"
        said, named_a_list = said[: -len(" list")], True
    # "put bread on my shopping list" is an add; "put it on my work list" a move
    short = _SHORT_TARGET.match(listed["target"]) is not None
    if listed["verb"].lower() == "put" and not short:
        return None
    if _GENERIC_LIST.match(said) or not (named_a_list or short):
        return None
    name, _ = list_named(f"to my {said} list")
    if name is not None and whole_due(said, now) is None:
        return FieldChange(listed["target"], {"list": name}, listed["target"])
    return None


def _repeat_change(text: str) -> FieldChange | None:
    """ "skip this one", "stop repeating the rent", "make it repeat every monday"."""
    stopped = _STOP_REPEATING.match(text)
    if stopped:
        target = stopped["target"] or stopped["target2"] or stopped["target3"]
        return FieldChange(target, {"repeat": "none"}, target)
    started = _START_REPEATING.match(text)
    if started:
        rule = started["rule"] or started["rule2"]
        if find_repeat(rule) is not None:
            target = started["target"] or started["target2"]
            return FieldChange(target, {"repeat": rule}, target)
    skipped = _SKIP.match(text)
    if skipped:
        target = skipped["target"] or skipped["target2"] or "it"
        return FieldChange(target, {"skip": True}, target)
    return None


def _tag_removal(found: re.Match[str]) -> FieldChange:
    if found["every"]:
        return FieldChange(found["every"], {"tags": []}, found["every"])
    target = found["target"] or found["target2"] or found["target3"] or found["target4"]
    tag = found["tag"] or found["tag2"] or found["tag3"] or found["tag4"]
    fields: dict[str, Any] = {"remove_tags": [tag.lower()]} if tag else {"tags": []}
    return FieldChange(target, fields, target)


def _priority_change(found: re.Match[str]) -> FieldChange:
    if found["target4"]:
        return FieldChange(found["target4"], {"priority": "none"}, found["target4"])
    if found["up"]:
        return FieldChange(found["target2"], {"priority": "high"}, found["target2"])
    if found["down"]:
        return FieldChange(found["target3"], {"priority": "low"}, found["target3"])
    level = PRIORITY_OF[(found["level"] or found["word"]).lower()]
    return FieldChange(found["target"], {"priority": level}, found["target"])


# Whether a clause asks for a field change does not depend on the day it is read: read on a
# fixed day, the answer is kept (a worker reads the same window of messages every turn).
_ANY_DAY = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)


@lru_cache(maxsize=4096)
def is_field_change(clause: str) -> bool:
    """Whether `clause` asks for a field change (which day it names does not matter here)."""
    return field_change(clause, _ANY_DAY, any_day=True) is not None


# Filtered lists.
_DUE_PERIOD = re.compile(
    r"\b(?:due|for|on|scheduled for|planned for)\s+(?P<when>today|tonight|tomorrow|tmrw|"
    r"this\s+week|the\s+week|next\s+week|the\s+next\s+(?:7|seven)\s+days|this\s+weekend)\b"
    r"|\b(?P<overdue>overdue|past\s+due|late)\b"
    r"|\b(?P<undated>no\s+(?:due\s+)?date|undated|without\s+(?:a\s+)?(?:due\s+)?date)\b",
    _I,
)
_PERIODS = {
    "today": "today",
    "tonight": "today",
    "tomorrow": "tomorrow",
    "tmrw": "tomorrow",
    "this week": "this_week",
    "the week": "this_week",
    "this weekend": "this_week",
    "next week": "next_7_days",
}
_TAG_ASKED = re.compile(
    r"(?<![\w&])#(?P<tag>[a-z][\w-]{0,29})\b|\btagged\s+#?(?P<tag2>[a-z][\w-]*)", _I
)
_PRIORITY_ASKED = re.compile(
    r"\b(?P<level>high|top|medium|low)[\s-]+priority\b|\b(?P<word>urgent|important)\b", _I
)
# "my work list", "our shopping list", "the grocery list", "on the Work list", and a list
# named alone ("work list", "groceries list?"); but "the ingredient list for an omelette" and
# "the to-do list" are no list of the user's.
_NOT_A_LIST_NAME = (
    r"(?!(?:to[- ]?do|todo|task|tasks|whole|full|entire|complete|same|other|new|next|last|"
    r"first|ingredient|guest|reading|wish|bucket|packing|check|master|main|big|long|short|"
    r"current|usual|list|my|our|your|the|this|that|a|an|any|shared|"
    # a verb said before "list" is a command on the whole list ("clear list", "show list")
    r"clear|delete|remove|empty|wipe|reset|erase|purge|add|create|make|start|show|see|view|"
    r"read|print|display|open|get|give|sort|share|send|save|update|edit|rename|undo|complete|"
    r"finish|done|mark|tick|scroll|whats|what's|what|full|long|recite|completed|pending|fresh|"
    r"find|cancel|finished|old)\b)"
)
_LIST_ASKED = re.compile(
    r"\b(?:(?:my|our)\s+(?P<name>[a-z][\w'&-]*(?:\s+[a-z][\w'&-]*)?)"
    rf"|the\s+{_NOT_A_LIST_NAME}(?P<name2>[a-z][\w'&-]*))\s+list\b"
    rf"|^\W*{_NOT_A_LIST_NAME}(?P<name3>[a-z][\w'&-]*)\s+list\W*$",
    _I,
)
# "the grocery list", "groceries list": the engine cannot see the user's lists when it plans,
# so these ask for "Groceries" (the dated start's list, LABELLING.md); "the shopping list" stays
# "Shopping", the list every account has and the one "add milk to my shopping list" fills.
_GROCERY_WORDS = re.compile(r"^(?:grocery|groceries)$", _I)
_LISTS_ASKED = re.compile(
    r"\b(?:what|which)\s+lists\b|\b(?:my|all\s+(?:my|the))\s+lists\b|\blists\s+do\s+i\s+have\b",
    _I,
)
# Questions that only make sense as a filtered list.
_FILTERED_QUESTION = re.compile(
    r"^(?:what(?:'s|s| is| are| do i have| have i got)?|anything|is\s+(?:there\s+)?anything|"
    r"do\s+i\s+have\s+anything|show(?:\s+me)?|list|read(?:\s+me)?|tell\s+me|give\s+me|"
    # "tasks tagged work": a fragment naming the tasks and their tag
    r"any\s+tasks?|(?:all\s+)?(?:the\s+)?(?:tasks|things|stuff)\s+(?=tagged\b))\b"
    r".*(?:\bdue\b|\boverdue\b|\bpast\s+due\b|(?<![\w&])#[a-z]|\btagged\s+#?[a-z]|"
    r"\b(?:important|urgent)\b|\bpriority\b|\b(?:my|our)\s+(?!to[- ]?do\b)[a-z][\w'&-]*"
    rf"(?:\s+[a-z][\w'&-]*)?\s+list\b|\bthe\s+{_NOT_A_LIST_NAME}[a-z][\w'&-]*\s+list\b|\blists\b)"
    # "work list", "groceries list?": a list named alone
    rf"|^\W*{_NOT_A_LIST_NAME}[a-z][\w'&-]*\s+list\W*$",
    _I,
)


def asks_for_a_filtered_list(clause: str) -> bool:
    """Whether `clause` asks to see tasks by due date, list, tag or priority, or the lists."""
    text = core_request(clause).strip()
    return _FILTERED_QUESTION.match(text) is not None and (
        bool(list_filters(clause)) or asks_for_the_lists(clause)
    )


def asks_for_the_lists(clause: str) -> bool:
    return _LISTS_ASKED.search(clause) is not None


def list_filters(clause: str) -> dict[str, str]:
    """The list_tasks filters a list request names ("what's due today" -> due=today)."""
    filters: dict[str, str] = {}
    due = _DUE_PERIOD.search(clause)
    if due and due["when"]:
        filters["due"] = _PERIODS.get(" ".join(due["when"].lower().split()), "next_7_days")
    elif due and due["overdue"]:
        filters["due"] = "overdue"
    elif due and due["undated"]:
        filters["due"] = "no_date"
    name = _list_asked(clause)
    if name is not None:
        filters["list"] = name
    tag = _TAG_ASKED.search(clause)
    if tag:
        filters["tag"] = (tag["tag"] or tag["tag2"]).lower()
    priority = _PRIORITY_ASKED.search(clause)
    if priority:
        filters["priority"] = PRIORITY_OF[(priority["level"] or priority["word"]).lower()]
    return filters


def _list_asked(clause: str) -> str | None:
    """The list a request names as a filter: "the work list" -> "Work", "my grocery list" ->
    "Groceries" (see `_GROCERY_WORDS`)."""
    named = _LIST_ASKED.search(core_request(clause).strip()) or _LIST_ASKED.search(clause)
    if named is None:
        return None
    said = " ".join((named["name"] or named["name2"] or named["name3"]).split())
    if _GROCERY_WORDS.match(said):
        return "Groceries"
    return list_named(f"on my {said} list")[0]
