"""CREATE: the title, description and separate tasks in an add request."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

from backend.agent.rules import replies, steps, task_actions
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import (
    split_title_description,
)
from backend.agent.rules.reminder_requests import reminder_change
from backend.agent.rules.safety import names_only_a_field_value
from backend.agent.rules.shopping_items import items_in_a_run
from backend.agent.rules.task_fields import TaskFields, list_named, take_fields
from backend.agent.rules.text import SETTLE_LIMIT, clean_title, core_request
from backend.agent.rules.titles import QUOTED, TitleSlot, add_title, onto_a_list_said
from backend.agent.rules.types import PendingKind
from backend.agent.rules.vocabulary import is_task_verb
from backend.models.task import TITLE_MAX_LENGTH

_I = re.IGNORECASE

_ADD_LEAD = re.compile(
    r"^(?:(?:a|an|the|one)\s+)?(?:new\s+)?(?:task|todo|to-do|item|reminder|note|entry)s?\s*"
    r"(?:to|for|called|named|titled|that says|saying|:|-)?\s+|^(?:that\s+)?(?:i\s+|we\s+)?"
    r"(?:need|have|should|must|gotta|got|want)\s+to\s+|^(?:remember|remind me|don't forget)\s+"
    r"(?:to|about)\s+|^(?:to|on|onto|in)\s+(?:my|the|our)\s+"
    r"(?:[\w'-]+\s+)?(?:list|tasks|to-?dos?|reminders)\s*[:,-]?\s+|^to\s+|^that\s+",
    _I,
)
_ADD_TAIL = re.compile(
    r"\s+(?:to|on|onto|in|into|for)\s+(?:my|the|our)\s+(?:[\w'-]+\s+)?(?:list|tasks|to-?dos?|"
    r"to-do list|todo list|reminders|agenda)$|\s+(?:as an?|as)\s+(?:new\s+)?(?:task|todo|"
    r"to-do|reminder|item)$|\s+to (?:the|my) list$|\s+(?:please|for me|thanks|thank you)$",
    _I,
)
_CASUAL = re.compile(
    r"^\W*(?:please\s+)?(?:remember|remind|don'?t forget|do not forget|make a note)", _I
)
_SEVERAL = re.compile(
    r"^(?:these|the following|(?:these|the following|some|(?:a )?few|(?:two|three|four|five|six|"
    r"several|\d+)(?: new)?)\s+(?:tasks|things|items|todos|to-dos|reminders)|tasks|items)\s*:\s*",
    _I,
)

_I = re.IGNORECASE
_QUOTED_ITEMS = re.compile(r"^(['\"])[^'\"]+\1(?:\s*(?:,|and|&|;)\s*(['\"])[^'\"]+\2)+$")
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|;|\band\b|&)\s*", _I)


# "add a task", "create a new one": the thing to add is still unnamed.
# "a new task", "do that thing later": nothing a person could do from the title alone.
_NO_TITLE = re.compile(
    r"^(?:(?:do|get|handle|sort(?: out)?|take care of|deal with)\s+)?"
    r"(?:(?:a|an|the|that|this|new|one|another|some|one more|a few more|few more|more)\s+)*"
    r"(?:task|todo|to-do|item|reminder|note|"
    r"entry|something|one|thing|stuff|it|that|this)s?"
    # "add one more thing", "something else": more is coming, nothing named yet
    r"(?:\s+(?:more|else|new))?"
    r"(?:\s+(?:later|soon|tomorrow|today|in a while|in awhile|sometime|at some point))?$"
    # "put that on too" read as the title "on": words that never name a thing alone
    r"|^(?:on|in|to|too|too then|up|off|there|here|also|as well|then|now|please|them|those|"
    r"these|and|or|so)$",
    _I,
)


def _title_text(obj: str) -> str:
    text = obj.strip()
    previous = None
    for _ in range(SETTLE_LIMIT):
        if previous == text:
            break
        previous = text
        text = _ADD_LEAD.sub("", text, count=1).strip()
        text = _ADD_TAIL.sub("", text).strip()
    return text


# "I need to: a, b and c", "add the following to my shopping list: a, b", "add to my list:
# a, b": what comes before the colon only introduces the items.
_INTRODUCED = re.compile(r"^(?P<lead>[^:]{0,100}?)\s*:\s*(?P<items>[^:]+)$")
_INTRODUCTION = re.compile(
    r"^(?:(?:do\s+)?(?:the\s+)?following|these|things|tasks|items|stuff|brain dump)\b"
    r"|^(?:(?:i\s+)?(?:need|have|want)\s+)?to$",
    _I,
)
_BETWEEN_QUOTES = re.compile(
    r"^(?:[\s,.;!?&]|\b(?:and|also|too|plus|please|as well|then|add|put|you can|could you|"
    r"can you)\b)*$",
    _I,
)


def _introduced_items(obj: str) -> list[str]:
    """The items after a colon whose lead only introduces them (not "grocery run: milk")."""
    introduced = _INTRODUCED.match(obj.strip())
    if introduced is None:
        return []
    lead = _title_slot(introduced["lead"]).title
    if lead and not _INTRODUCTION.match(lead):
        return []
    items = [clean_title(i) for i in _ITEM_SPLIT.split(introduced["items"]) if clean_title(i)]
    return items if len(items) > 1 and all(len(i.split()) <= 8 for i in items) else []


def _quoted_items(obj: str) -> list[str]:
    """ "'wash the car' please and 'vacuum the car' also": each quoted title is a task."""
    spans = list(QUOTED.finditer(obj))
    if len(spans) < 2:
        return []
    outside = QUOTED.sub(" ", obj)
    return [m["text"].strip() for m in spans] if _BETWEEN_QUOTES.match(outside) else []


def _several_items(obj: str) -> list[str]:
    """Separate tasks in one add: "these: a, b and c", "'a' and 'b'", bulleted lines."""
    listed = _introduced_items(obj) or _quoted_items(obj)
    if listed:
        return listed
    text = obj.strip().lstrip(";:").strip()
    if ";" in text:
        text = re.sub(
            r"^(?:the following|these|the following tasks|these tasks)\s*;\s*", "", text, flags=_I
        )
    several = _SEVERAL.match(text)
    if several:
        text = text[several.end() :]
    elif not (_QUOTED_ITEMS.match(text) or ";" in text):
        return [obj]
    separator = _ITEM_SPLIT if (several or _QUOTED_ITEMS.match(text)) else re.compile(r"\s*;\s*")
    return [clean_title(item) for item in separator.split(text) if clean_title(item)]


def _title_slot(obj: str, clause: str = "") -> TitleSlot:
    """The title once every wrapper is gone, and whether to add it only if missing."""
    text, if_missing = obj, False
    onto_a_list = onto_a_list_said(f"{clause} {obj}")
    previous = None
    for _ in range(SETTLE_LIMIT):
        if previous == text:
            break
        previous = text
        slot = add_title(text, onto_a_list=onto_a_list)
        text, if_missing = _title_text(slot.title), if_missing or slot.if_missing
    return TitleSlot(text, if_missing)


# Pairs that name one thing; any other "a and b" of short noun phrases is two items.
_ONE_THING = re.compile(
    r"\b(?:salt and pepper|mac and cheese|macaroni and cheese|bread and butter|fish and chips|"
    r"peanut butter and jelly|pb and j|rock and roll|pros and cons|cheese and crackers|"
    r"chips and salsa|rice and beans|milk and cookies|shampoo and conditioner|"
    r"black and white|salt and vinegar|sweet and sour|ham and cheese|spaghetti and meatballs|"
    r"bacon and eggs|ham and eggs|oil and vinegar|nuts and bolts|q and a|b and b|r and d)\b",
    _I,
)
_ITEM_WORDS = 3
# "mozzarella, oh and parmesan": the "oh" is no item
_INTERJECTION = re.compile(r"^(?:oh|ah|ooh|um|uh|er|oh yeah|oops)$", _I)
_NOUN_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|also|plus)\s+|\s*&\s*", _I)


def _noun_items(title: str) -> list[str]:
    """ "eggs, flour and butter" -> three items; "call mom and dad", "salt and pepper" -> one;
    "wine chips salsa ice" (things bought, said without commas) -> four."""
    if ":" in title:
        return [title]  # "grocery run: milk, eggs, bread" is a title and its description
    # "coffee filters and salt and pepper": the pair that names one thing is kept whole
    kept = [m.group(0) for m in _ONE_THING.finditer(title)]
    masked = _ONE_THING.sub(lambda m: f"\x00{kept.index(m.group(0))}\x00", title)
    if not _NOUN_SEPARATOR.search(masked):
        return ([] if kept else items_in_a_run(title)) or [title]
    parts = _noun_parts(masked, kept)
    # A part of up to three words is an item; a longer one only as a run of things bought.
    runs = [items_in_a_run(p) or ([p] if len(p.split()) <= _ITEM_WORDS else []) for p in parts]
    if len(parts) < 2 or not all(runs) or is_task_verb(parts[0].split()[0]):
        return [title]
    return [item for run in runs for item in run]


def _noun_parts(masked: str, kept: list[str]) -> list[str]:
    """The parts between separators, each pair kept whole put back, with no "oh" on its own."""
    return [
        re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], clean_title(p))
        for p in _NOUN_SEPARATOR.split(masked)
        if clean_title(p) and not _INTERJECTION.match(clean_title(p))
    ]


def names_several_items(obj: str) -> bool:
    """Whether an add names several things ("potatoes, cabbage and dill")."""
    return len(_noun_items(_title_slot(obj).title)) > 1


# "add it", "put them on": a pronoun names what was just talked about, never a title.
# Words that point at something or fill a sentence without naming a thing to do: a title
# made only of them ("it", "all of those", "it goes", "sth") names nothing to add.
_NAMES_NOTHING = frozenset(
    """
    it its that this them those these they one ones thing things item items stuff something
    sth smth anything all of the same too as well also again then now in on there back goes go
    please pls a an some
    """.split()
)


_ARTICLES = frozenset({"a", "an", "some"})


def _names_nothing(title: str) -> bool:
    words = re.findall(r"[\w']+", title.lower())
    # "a" alone is a name someone gave a task ("add a", "add b"); "a thing" names nothing
    return all(word in _NAMES_NOTHING for word in words) and not set(words) <= _ARTICLES


def _talked_about(context: ConversationContext) -> str | None:
    """The item a pronoun in an add names: the one the last question found missing."""
    pending = context.pending or {}
    if pending.get("kind") == PendingKind.OFFER_ADD and pending.get("title"):
        return str(pending["title"])
    if pending.get("kind") == PendingKind.OFFER_LIST and pending.get("missing"):
        return str(pending["missing"])  # "delete buy stamps" - not there - "then add it"
    if context.last_act == "query" and context.last_lookup:
        return context.last_lookup
    return None


# Parts of "she's vegan now, so oat milk too" or "butter also, same, if not there" that are
# said about the items, not items: a clause, a "same", a linking word at either end.
_A_CLAUSE_PART = re.compile(
    r"^(?:she|he|they|it|we|i|you|that|this|there)(?:'s|'re|'m|\s+(?:is|are|was|were|am))\b"
    r"|^(?:same|same thing|same here|the same|likewise|ditto)$",
    _I,
)
_POINTING_ITEM = re.compile(r"^(?:there|here|it|that|this)$", _I)
_LINKING_EDGE = re.compile(r"^(?:so|then|and|also|plus)\s+|\s+(?:also|too|as well|then)$", _I)


def _without_chatter(items: list[str]) -> list[str]:
    kept = [_LINKING_EDGE.sub("", item).strip() for item in items]
    kept = [
        item
        for item in kept
        if item and not _A_CLAUSE_PART.match(item) and not _POINTING_ITEM.match(item)
    ]
    return kept or items


# What a title never holds: the request's own frame ("... so put X on my list"), or a
# story told by "I" or "we" at length ("I'm making lasagna tonight and I need ricotta, ...").
_THE_LIST_ITSELF = re.compile(r"\b(?:my|the|your|our)\s+(?:to[- ]?do\s+|shopping\s+)?list\b", _I)
_SPEAKER = re.compile(
    r"\b(?:i|we|i'm|we're|i've|we've|i'll|we'll|i'd|can you|could you|would you|will you)\b", _I
)
_STORY_WORDS = 8
_LONGEST_TITLE = 16


def reads_as_a_story(title: str) -> bool:
    words = len(title.split())
    if words > _LONGEST_TITLE or _THE_LIST_ITSELF.search(title):
        return True
    return _SPEAKER.search(title) is not None and (words >= _STORY_WORDS or "," in title)


def _after_a_colon(obj: str, clause: str) -> bool:
    """Whether `obj` is all that follows the clause's last colon."""
    _, colon, after = clause.rpartition(":")
    return bool(colon) and after.strip().rstrip(" .!?") == obj.strip().rstrip(" .!?")


def _fields_of(obj: str, clause: str, context: ConversationContext) -> tuple[TaskFields, str]:
    """The due, priority, list and tags said with an add, and the rest of `obj`. A list
    named in the clause but outside `obj` ("to my shopping list, add milk") counts too."""
    fields, rest = take_fields(obj, context.local_now(), new_task=True)
    if fields.list_name is None:
        named, _ = list_named(clause)
        if named is not None:
            fields = replace(fields, list_name=named)
    return fields, rest


def _fields_of_each(
    said: str, items: list[str], shared: TaskFields, context: ConversationContext
) -> list[TaskFields]:
    """Each item's own fields when the request listed them apart ("buy a gift for Anna, book
    a table for Saturday": only the table is for Saturday); otherwise the fields said once
    are every item's ("add milk and eggs to my shopping list tomorrow")."""
    listed = _several_items(said)
    if len(listed) != len(items):
        return [shared] * len(items)
    own = [take_fields(item, context.local_now(), new_task=True)[0] for item in listed]
    return [replace(fields, list_name=fields.list_name or shared.list_name) for fields in own]


# "add call the plumber thursday at 11, remind me 30 minutes before": the add's own reminder
_REMINDER_TAIL = re.compile(
    r"(?:\s*[,;.]\s*|\s+)(?:and\s+)?(?:please\s+)?(?P<reminder>(?:remind|alert|ping|notify)\s+me\b.*)$",
    _I,
)


def _reminder_said(obj: str, context: ConversationContext) -> tuple[dict[str, Any], str]:
    """The reminder an add asks for at its end (about the task itself), and the rest."""
    found = _REMINDER_TAIL.search(obj)
    if found is None or not obj[: found.start()].strip():
        return {}, obj
    change = reminder_change(found["reminder"].strip(" .!?"), context.local_now())
    if change is None or change[0].strip().lower() not in ("it", "that", "this"):
        return {}, obj
    return dict(change[1]), obj[: found.start()]


def create_steps(obj: str, clause: str, context: ConversationContext) -> list[steps.Step]:
    casual = bool(_CASUAL.match(core_request(clause)))
    reminder, obj = _reminder_said(obj, context)
    said = obj
    fields, obj = _fields_of(obj, clause, context)
    if fields.due is not None and fields.due.unclear is not None:
        return [steps.say(replies.ask_which_date(fields.due.unclear))]
    today = context.local_now().date()
    slot = _title_slot(obj, clause)
    if _names_nothing(slot.title):
        named = _talked_about(context)
        if named is None:
            return [_ask_title()]
        slot = TitleSlot(named, slot.if_missing)
    items, slot = _items_and_slot(obj, clause, slot)
    if len(items) > 1:
        each = _fields_of_each(said, items, fields, context)
        return [
            steps.add_task(
                *split_title_description(_title_text(item)),
                casual=casual,
                adds_in_a_row=context.adds_in_a_row + n,
                may_nudge=False,
                fields=item_fields,
                today=today,
            )
            for n, (item, item_fields) in enumerate(zip(items, each, strict=True))
        ]
    return [_add_one(slot, obj, fields, context, casual=casual, today=today, reminder=reminder)]


def _ask_title() -> steps.Step:
    return steps.say(replies.ask_title_to_add(), pending={"kind": PendingKind.ASK_TITLE})


def _items_and_slot(obj: str, clause: str, slot: TitleSlot) -> tuple[list[str], TitleSlot]:
    """The separate tasks an add names, and its title when the chatter around one item goes."""
    items = _several_items(obj)
    if len(items) <= 1 and _after_a_colon(obj, clause):
        # "I want to add three things: buy shoes for school, fix the bicycle, call the bank":
        # after a colon, each comma part is an item, however long
        items = _introduced_items(f"things: {obj.strip()}") or items
    if len(items) <= 1:
        items = _noun_items(slot.title)
    if len(items) > 1:
        items = _without_chatter(items)
        if len(items) == 1:  # "she's vegan now, so oat milk too": the one item said
            slot = TitleSlot(items[0], slot.if_missing)
    return items, slot


def _add_one(
    slot: TitleSlot,
    obj: str,
    fields: TaskFields,
    context: ConversationContext,
    *,
    casual: bool,
    today: date,
    reminder: dict[str, Any] | None = None,
) -> steps.Step:
    """The one task an add names, or a question when its title names nothing or a story."""
    title, description = split_title_description(slot.title)
    if (
        not title
        or _NO_TITLE.match(title)
        or _POINTS_ELSEWHERE.match(title)
        or names_only_a_field_value(title)  # "at 9 that morning": when, never what
    ):
        return _ask_title()
    if (
        reads_as_a_story(title)
        and len(title) <= TITLE_MAX_LENGTH  # a longer one gets the length's own reply
        and not QUOTED.fullmatch(obj.strip())
    ):
        # Safety over guessing: a title that is still a story about the request would be a
        # task nobody asked for. Asked first; a yes adds it as it is.
        return steps.say(
            replies.confirm_sentence_title(title),
            pending={"kind": PendingKind.OFFER_ADD, "title": title},
        )
    placed = _PLACED.match(title)
    if placed is not None:  # "dish soap goes on the work list": said of the dish soap
        title = placed["what"]
    fields = _onto_the_list_shown(fields, obj, context)
    add = steps.add_task(
        title,
        description,
        casual=casual,
        adds_in_a_row=context.adds_in_a_row,
        known_pending=context.known_pending(),
        fields=fields,
        today=today,
        reminder=reminder,
    )
    if fields and (placed is not None or _DEFINITE.match(title)):
        # "put the oat milk on groceries": the task already there gets the fields, never a
        # second one
        return task_actions.fields_if_on_the_list(
            _DEFINITE.sub("", title), _added_to(fields.arguments()), add
        )
    return steps.add_if_missing(title, add) if slot.if_missing else add


# "add the plants to that too", "stick milk on there as well": onto the list or tag just shown
_ONTO_WHAT_WAS_SHOWN = re.compile(
    r"\b(?:to|on|onto|in|into)\s+(?:that|there|this)(?:\s+(?:list|lot|one))?"
    r"(?:\s+(?:too|as\s+well|also))?\s*(?:[,.!?]|$)",
    _I,
)


def _added_to(arguments: dict[str, Any]) -> dict[str, Any]:
    """A task already there gets the tags said beside its own, never in their place."""
    if "tags" not in arguments:
        return arguments
    others = {name: value for name, value in arguments.items() if name != "tags"}
    return {**others, "add_tags": arguments["tags"]}


def _onto_the_list_shown(fields: TaskFields, obj: str, context: ConversationContext) -> TaskFields:
    """The list or tag of the list just shown, when the add puts its task "on there"."""
    shown = dict(context.shown_filter)
    if not shown or fields.list_name or fields.tags or not _ONTO_WHAT_WAS_SHOWN.search(obj):
        return fields
    if "list" in shown:
        return replace(fields, list_name=shown["list"])
    return replace(fields, tags=(shown["tag"],))


# "put in Inbox", "put it on a new list caled Trip": words that place or point at a task
# already there, never a new one's name.
_POINTS_ELSEWHERE = re.compile(
    r"^(?:in|on|into|onto|at|to)(?:\s+[\w'-]+){1,2}$|^(?:it|there)\s+(?!(?:crowd|girl)\b)\w+"
    r"|^(?:on|in|to|for|onto|into)\s+(?:it|that|this|them)\b",
    _I,
)
# "the oat milk", "my passport renewal", "that dentist thing": a task already known.
_DEFINITE = re.compile(r"^(?:the|my|that|this)\s+", _I)
# "X goes on ...", "X should be on ...", "X belongs on ...": where X goes, not a task "X goes".
# "the draft review ought to carry a (high priority)": what X should have, said of X.
_PLACED = re.compile(
    r"^(?:(?:additionally|also|and|oh|so|plus)\W+)?(?P<what>.+?)\s+(?:goes|go|belongs|is|"
    r"(?:should|must|ought\s+to|needs?\s+to|has\s+to|have\s+to)\s+(?:go|be|have|carry|get))"
    r"(?:\s+(?:a|an|the))?$",
    _I,
)
