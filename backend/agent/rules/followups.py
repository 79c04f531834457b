"""Messages that only make sense after the assistant's last change.

- "and coffee" / "also the eggs" right after an add, delete or completion: the same action on
  the new item ("add milk" ... "and coffee" adds coffee);
- "not tea, green tea" / "no, I meant rye bread" right after an add: the task just added gets
  the corrected title (the part named is replaced: "buy flowers" -> "buy tulips").

Both read the conversation's last change (`context.last_change`), so they work across
restarts and workers like everything else in the context.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from rapidfuzz.distance import DamerauLevenshtein

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import extract_status
from backend.agent.rules.numbers import is_position
from backend.agent.rules.slot_reading import names_no_task, slot_change
from backend.agent.rules.targets import is_pronoun_reference
from backend.agent.rules.text import ALSO_TAIL, SENTENCE_END, WAKE_WORD, core_request
from backend.agent.rules.titles import CHATTER_AFTER_COMMA
from backend.agent.rules.types import Action, Intent, RuleKind
from backend.agent.rules.vocabulary import COMMAND_VERB, is_task_verb
from backend.agent.rules.when import find_due

_I = re.IGNORECASE

_AND_MORE = re.compile(
    r"^(?:(?:hey\s+)?(?:alexa|google|siri|olly)[\s,]+|(?:oh|ok(?:ay)?|thanks|thank you|great|"
    r"cool|perfect|lovely|brilliant|right)[\s,.!]+)*"
    r"(?:and|also|plus|and also|\+|&)\s*(?P<rest>.+?)(?:\s+too?|\s+as well|\s+also)?[\s.!?]*$",
    _I,
)
_DONE_TO_IT = re.compile(r"^\w+\s+(?:it|them|that|this|those|these)(?:\s+(?:now|too|please))*$", _I)
_ANOTHER_RENAME = re.compile(
    r"^(?:and\s+)?(?P<old>[\w'-]+(?:\s+[\w'-]+){0,3}?)\s+to\s+(?P<new>\S.*)$", _I
)


def renamed_last(context: ConversationContext) -> bool:
    """Whether the last change renamed a task."""
    change = context.last_change or {}
    if change.get("did") == "rename":  # by number, its old title unseen
        return True
    return change.get("tool") == "update_task" and "title" in (change.get("arguments") or {})


_ONLY_THE = re.compile(
    r"^(?:(?:no|nah|nope|actually|ok|okay|wait|hmm+|ugh|and|but)[\s,.!]+)*(?:just|only)\b", _I
)
# "and the finish ones?", "what about the done ones" after a list: that list, narrowed
_AND_THE_ONES = re.compile(
    r"^(?:and|what about|how about)\s+(?:the\s+)?(?:\w+\s+)?(?:ones|tasks|items|stuff)\W*$", _I
)
_WAKE_LEAD = re.compile(rf"^(?:{WAKE_WORD})\b[\s,]*", _I)
# "same for the bathroom", "same w/ paper towels", "the same goes for the eggs"
_SAME_FOR = re.compile(
    r"^(?:and\s+|also\s+)?(?:do\s+)?(?:the\s+)?same(?:\s+thing)?(?:\s+goes)?\s+"
    r"(?:for|with|w/|to)\s+(?P<rest>[^,.!?]+?)(?:\s+too|\s+as well|\s+please)?[\s.!?]*$",
    _I,
)
# "and email to Sarah, same", "the plants, same thing"
_SAME_AFTER = re.compile(
    r"^(?:and\s+|also\s+)?(?P<rest>[^,.!?]+?),?\s+(?:the\s+)?same(?:\s+thing)?(?:\s+here)?[\s.!?]*$",
    _I,
)
# The change the last turn made, read from what its undo would call.
_LAST_ACTION = {"delete_task": "add", "add_task": "delete", "update_task": "complete"}


# The change several tasks went through at once ("remove milk eggs bananas").
_DID = {"delete_task": "delete", "complete_task": "complete"}


def last_action(context: ConversationContext) -> str | None:
    change = context.last_change or {}
    if change.get("bulk"):
        return _DID.get(str(change.get("did")))
    tool = change.get("tool")
    if tool == "update_task" and change.get("arguments", {}).get("completed") is not False:
        return None  # an undo of a rename: "and X" has no clear meaning
    return _LAST_ACTION.get(str(tool)) if tool else None


def continue_last_action(text: str, context: ConversationContext) -> str | None:
    """ "and coffee" after an add -> "add coffee", "and eggs?" after "is bread on there?" ->
    "is eggs on my list"; None when the message is not such a tail. `text` is the message
    as said (its leading "and" is what makes it a tail)."""
    text = _IMPATIENT_TAIL.sub("", text)  # "bathroom one too. fast"
    said = _another_rename(text, context) or _narrowed_list(text, context)
    if said:
        return said
    text = _as_one_more(_WAKE_LEAD.sub("", text))  # "hey google the beach towels too"
    match = _AND_MORE.match(text) or _TOO_TAIL.match(text)
    if not match:
        return _bare_tail(text, context)
    rest = core_request(match["rest"]) + (match.groupdict().get("condition") or "")
    if not _one_more_item(rest, match["rest"], context):
        return None
    said_done = _SAID_DONE.match(rest) if _OWN_CHANGE.search(rest) else None
    if said_done:
        return f"complete {said_done['obj']}"  # "and the report is also finish"
    return _the_same_again(rest, context)


def _another_rename(text: str, context: ConversationContext) -> str | None:
    """ "rename eggs -> X" ... "milk -> Y": one more rename."""
    renamed = _ANOTHER_RENAME.match(text) if renamed_last(context) else None
    if renamed and not is_task_verb(renamed["old"].split()[0]):
        return f"rename {renamed['old']} to {renamed['new']}"
    return None


def _narrowed_list(text: str, context: ConversationContext) -> str | None:
    """ "list. now." ... "no just the stuff i havent done": the list just shown, narrowed."""
    if context.last_act == "list" and (_ONLY_THE.match(text) or _AND_THE_ONES.match(text)):
        status = extract_status(text)
        if status != "all":
            return f"show my {status} tasks"
    return None


def _as_one_more(text: str) -> str:
    """The tail said as "and X" or "X too" when it is said another way."""
    same = (_SAME_FOR.match(text) or _SAME_AFTER.match(text)) if "same" in text.lower() else None
    if same:
        text = f"and {same['rest']}"  # "same for the bathroom", "and email to Sarah, same"
    items = [s.strip(" .!") for s in SENTENCE_END.split(text.strip())]
    if len(items) > 1 and _TOO_TAIL.match(items[-1]) and all(_BARE_ITEM.match(i) for i in items):
        # "groceries done", "milk. eggs too": one more item a sentence
        text = " and ".join(ALSO_TAIL.sub("", i) for i in items) + " too"
    return text


def _bare_tail(text: str, context: ConversationContext) -> str | None:
    """A tail without "and" or "too": an item asked about, or a row of the last change."""
    bare = core_request(text)
    if context.last_act == "query" and context.last_lookup and _BARE_ITEM_ASKED.match(text):
        return f"is {bare} on my list"  # "eggs on my list?" ... "bread?"
    if context.last_act in _CHANGE_ACTS and is_position(ALSO_TAIL.sub("", bare)):
        action = last_action(context)  # "delete the last one" ... "the first two too"
        return f"{action} {bare}" if action else None
    return None


def _one_more_item(rest: str, said: str, context: ConversationContext) -> bool:
    """Whether the tail's words `rest` (`said` as said) name one more item rather than a
    request of their own."""
    if not rest or _ASKS_THE_ASSISTANT.match(said) or _A_COMMAND.match(rest):
        return False
    if _DONE_TO_IT.match(rest):
        return False  # "add pizza" ... "and order it": something to do to it, not one more item
    if _A_STATEMENT.match(rest):
        return False  # "and I already did the grocery run, so check that off": its own request
    fields = slot_change(said, context.local_now())
    if fields is not None and names_no_task(fields):
        return False  # "and give us a nudge a quarter of an hour before": the task's reminder
    if _REMOVED.search(rest) and last_action(context) != "delete":
        return False  # "and the sixth one can go, I'm not renewing it": its own request
    if _ANOTHER_CHANGE.search(said):
        return False  # "and the last one, the bathroom, can you move it to sunday": its own
    # "and the tenth one is done now, tick it off" after a delete
    return not (_OWN_CHANGE.search(rest) and last_action(context) != "complete")


def _the_same_again(rest: str, context: ConversationContext) -> str | None:
    """The last question or change, asked or made again of `rest`."""
    if context.last_act == "query" and context.last_lookup:
        return f"is {rest} on my list"
    # "add eggs if they're missing" found the eggs there: nothing changed, yet "and bread"
    # is still one more add.
    action = last_action(context) or ("add" if _still_adding(context) else None)
    # "mark bathroom done and show me what's left" ... "the last one too": a row of that list
    shown_after_change = context.last_act == "list" and is_position(rest)
    if action is None or (context.last_act not in _CHANGE_ACTS and not shown_after_change):
        return None
    return f"{action} {rest}"


def _still_adding(context: ConversationContext) -> bool:
    """The last turn added, or corrected the task just added ("add tootpaste", "i mean
    toothpaste", "and shampo")."""
    if context.last_act == "add":
        return True
    newest = max((number for number, _, _ in context.known_tasks), default=None)
    return (
        context.last_act == "update"
        and context.adds_in_a_row > 0
        and (context.focus_task_id == newest)
    )


# One to three words and a question mark, nothing else: "bread?", "oat milk?".
_BARE_ITEM_ASKED = re.compile(
    r"^(?!(?:what|why|how|who|when|where|which|really|sure|ok|okay|yes|no|done|huh)\b)"
    r"[\w'-]+(?:\s+[\w'-]+){0,2}\s*\?+\s*$",
    _I,
)
_IMPATIENT_TAIL = re.compile(
    r"[\s,.!]+(?:fast|quick|quickly|now|asap|hurry(?: up)?|go|chop chop)[\s.!]*$", _I
)
# "bread too if missing", "eggs as well": one more item, said after it.
_TOO_TAIL = re.compile(
    r"^(?!.*\b(?:me|you|it|that|this|i|we|thanks|thank)\b.*\b(?:too|as well))"
    r"(?P<rest>[\w'-]+(?:\s+[\w'-]+){0,2})\s+(?:too|as well|also)"
    r"(?P<condition>\s+if\s+.+)?[\s.!?]*$",
    _I,
)


# "also please call my brother for me": a new request to the assistant, not one more item.
_ASKS_THE_ASSISTANT = re.compile(
    r"^(?:please|pls|can you|could you|would you|will you|might you|may you)\b", _I
)
# "oh and delete it too": a request of its own, not one more item for the last action.
_A_COMMAND = re.compile(
    r"^(?:add|delete|remove|complete|mark|finish|show|list|change|rename|update|clear|undo|"
    r"tick|check|cross|put|take|drop|cancel|forget|reopen|read|tell|what|whats|what's|how|is|"
    r"are|do|did|where|when|who|why|will|would|can|could|should|set|" + COMMAND_VERB + r")\b",
    _I,
)
# A tail that says its own change: a completion, whatever the last action was.
_IS_DONE = r"(?:(?:now|also|already|all|finally)\s+)*(?:done|finished|finish|completed|complete)"
# A removal said of the item itself: "the sixth one can go", "the milk should go too".
_REMOVED = re.compile(
    r"\b(?:can|should|could|may|must)\s+go\b|\bget rid of\b|\b(?:delete|remove)\b", _I
)
# A tail asking for a change of its own after a comma or "can you": never one more of the last
_ANOTHER_CHANGE = re.compile(
    r"(?:,|\b(?:can|could|would|will)\s+(?:you|u)|\bplease)\s+(?:just\s+|also\s+)?"
    r"(?:move|push|shift|shove|bump|change|rename|set|make|remind|tag|untag|postpone|"
    # ("put that down too" places the item said, no change of its own)
    r"reschedule|put(?!\s+(?:that|it|this|them)\s+(?:down|on)\b))\b",
    _I,
)
_OWN_CHANGE = re.compile(
    rf"(?:\b(?:is|are|was|were)\s+|(?<=\w)'s\s+){_IS_DONE}\b|"
    r"\b(?:tick|cross|check)\s+(?:it|that|them)\s+off\b",
    _I,
)
_SAID_DONE = re.compile(rf"^(?P<obj>.+?)\s+(?:is|are|was|were)\s+{_IS_DONE}$", _I)
_BARE_ITEM = re.compile(
    r"^(?!(?:it|that|this|them|ok|okay|yes|no|thanks|done|and|also)\b)[\w'-]+(?:\s+[\w'-]+){0,2}$",
    _I,
)
_A_STATEMENT = re.compile(r"^(?:i|we)\s+(?:already|just|finally|also|did|have|had|got|went)\b", _I)
_CHANGE_ACTS = ("add", "delete", "complete", "reopen", "update", None)


# A correction right after an add, however it is said: "not tea, green tea", "no. almond
# milk", "correction: porch lightbulbs", "chicken thighs*", "ugh cheese i mean", "sorry, I
# write it wrong, is potatoes", "Oh, my apologies, I meant icing sugar rather than brown
# sugar." One marker is needed: a bare noun phrase after an add is not a correction.
_MARKER_LEAD = re.compile(
    r"^(?:(?:no+|nope|nah|oops|whoops|sorry|wait|actually|oh|ugh|hmm+|my apologies|my bad|"
    r"(?:i'm|i am) (?:so |very |really |terribly )?sorry|"
    rf"{WAKE_WORD}|"
    r"my mistake|i apologi[sz]e|apologies|correction|typo|scratch that|not quite|wrong|"
    r"i (?:misspoke|misspelled|misspelt|mistyped|got (?:it|that) wrong))\b"
    r"[\s,.!:;-]*)+",
    _I,
)
# Interjections alone ("ugh, everything is a mess") do not make a correction.
_WEAK_MARKERS = re.compile(
    rf"^(?:(?:wait|actually|oh|ugh|hmm+|{WAKE_WORD})\b"
    r"[\s,.!:;-]*)+$",
    _I,
)
# Words of a sentence, not of a title: "everything is a mess".
_A_SENTENCE = re.compile(
    r"\b(?:is|are|was|were|am|i|i'm|you|we|she|he|they|everything|nothing|anything|haha|lol)\b", _I
)
_MEANT = re.compile(
    r"^(?:(?:i|we)\s+(?:meant|mean|said|wanted|should have said|should've said)|meant|"
    r"(?:it|that)\s+(?:should|ought to|must|has to)"
    r"\s+(?:be|say|read)|should\s+"
    r"(?:be|say|read)|(?:make|change)\s+(?:it|that)(?:\s+to)?|(?:it|that)(?:'s|\s+is|\s+was)|"
    r"(?:i\s+)?(?:write|wrote|typed|spelled|spelt)\s+it\s+wrong[\s,.;]*(?:(?:it\s+)?is\s+)?|is|"
    # "better you write it just 'running shoes'"
    r"(?:better\s+)?(?:you\s+)?(?:write|put|call|name)\s+it(?:\s+as)?(?:\s+just)?)\b"
    r"[\s,:]*(?:(?:actually|really)\s+)?",  # "it's actually theatre tickets"
    _I,
)
# A sentence about the title, not the title: "no. shorter. just review final draft".
_ABOUT_THE_TITLE = re.compile(
    r"^(?:(?:too|much|a bit|bit|way|a little)\s+)?(?:shorter|longer|simpler|short|long|wordy)"
    r"(?:\s+(?:please|pls|one))?$",
    _I,
)
# "*call" after "add cal the bank": the star marks a fixed word, before or after it
_STARRED_FIRST = re.compile(r"^\s*\*+\s*(?P<word>[\w'-]+)\s*$")
_LAUGH_TAIL = re.compile(r"[\s,]+(?:obvs|obviously|lol|haha|lmao)[\s.!]*$", _I)
_MEANT_TAIL = re.compile(
    r"[\s,]+(?:i\s+mean|i\s+meant|instead)[\s.!]*$|"
    # "is brown rice I want": what was wanted, said first
    r"\s+(?:(?:that|what)\s+)?(?:i|we)\s+(?:want|need|meant|mean)[\s.!]*$|\*+(?:\s+(?:lol|haha|lmao|oops|sorry))?\s*$"
    # "Anya, with y": how the new word is spelt
    r"|[\s,(]+(?:with|spelled with|spelt with)\s+(?:an?\s+|two\s+|double\s+)?\w[\s.!)]*$",
    _I,
)
_OLD_PART = re.compile(
    r"(?:^|[,;.]\s*|\b(?:no|nope|wait|sorry|oops|actually)\s+|\s+(?=rather than|instead of)|"
    # "pick not picl", "call the vet not the bank", "is not shoes, is tie"
    r"(?<=\w)(?<!\bif)(?<!\bis)(?<!\bare)(?<!\bdo)(?<!\bdid)(?<!\bwas)(?<!\bhave)(?<!\bit's)"
    r"(?<!\bthat's)(?<!\bor)(?<!\band)\s+(?=not\s)|(?:^|[,;.]\s*)(?:it\s+)?is\s+(?=not\s))"
    r"(?:not|rather than|instead of)\s+(?:the\s+)?(?P<old>[^,.;!?]+?)(?=[,.;!?]|$)",
    _I,
)
_QUANTITY = re.compile(
    r"^(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a dozen|"
    r"half a|a couple of|a few|some|several)\b",
    _I,
)


def _correction_parts(text: str) -> tuple[str, str] | None:
    """(new words, old words) of a correction, or None when it is not one."""
    old = ""
    found = _OLD_PART.search(text)
    if found:  # "not tea. green tea", "I meant icing sugar rather than brown sugar"
        old = re.sub(r"^(?:just|only|plain)\s+", "", found["old"].strip(" '\""), flags=_I)
        text = (text[: found.start()] + " " + text[found.end() :]).strip(" ,.")
    marked = bool(old)
    sentences = [s for s in SENTENCE_END.split(text.strip()) if s.strip()]
    for sentence in sentences:  # "no. almond milk": the first sentence with words left
        rest = _MARKER_LEAD.sub("", sentence)
        lead = sentence[: len(sentence) - len(rest)]
        marked = marked or bool(lead.strip() and not _WEAK_MARKERS.match(lead.strip()))
        if rest.strip(" .!?") and not _ABOUT_THE_TITLE.match(rest.strip(" .!?")):
            break
    else:
        return None
    before = rest
    rest = _MEANT.sub("", rest.strip(), count=1)
    rest = _MEANT_TAIL.sub("", rest)
    marked = marked or rest != before
    rest = _LAUGH_TAIL.sub("", rest)  # "oops i meant onions obvs": not a correction mark
    new = CHATTER_AFTER_COMMA.sub("", rest).strip(" .!?'\"*")
    new = re.sub(
        r"^(?:just|only|simply)\s+(?=\S+\s)", "", new, flags=_I
    )  # "just review final draft"
    if not new or not marked or len(new.split()) > 8 or _A_SENTENCE.search(new):
        return None
    return new, old


_IT_IS = re.compile(
    r"^(?:(?:and|so|oh|but|well|actually)\s+)*(?:it'?s|it\s+is|is|make\s+it|should\s+be|due)\s+",
    _I,
)
# "no, 7" after "at 6": an hour alone, in the half of the day the time it corrects was in
_BARE_HOUR = re.compile(r"^(?:at\s+)?(?P<hour>[1-9]|1[0-2])$", _I)
_NOON = 12


def _hour_like(hour: int, clock: str) -> str:
    """ "7" said in place of 18:00 is 19:00: the afternoon stays the afternoon."""
    afternoon = int(clock[:2]) >= _NOON
    return f"{hour + _NOON if afternoon and hour < _NOON else hour:02d}:00"


def corrected_due(text: str, context: ConversationContext) -> tuple[int, str] | None:
    """(task number, new due) for a correction of the date or time just set: "oh wait, it's
    sunday not saturday", "sorry, is at 5, not at 4" (the day stays when only a time is
    said). None when the message corrects no due."""
    if context.last_due is None or last_action(context) not in ("add", "update"):
        return None
    task_id, day, clock = context.last_due
    if context.focus_task_id != task_id:
        return None
    parts = _correction_parts(text)
    if parts is None:
        return None
    new = _IT_IS.sub("", parts[0].strip())
    due = _due_said_again(new, day, clock, context.local_now())
    return (task_id, due) if due is not None else None


def _due_said_again(new: str, day: str, clock: str | None, now: datetime) -> str | None:
    """The due a correction says in place of `day` (and `clock`): the day stays when only a
    time is said, the time when only a day is."""
    hour = _BARE_HOUR.match(new)
    if hour is not None and clock:
        return f"{day}T{_hour_like(int(hour['hour']), clock)}"
    due = find_due(new, now)
    if due is None or due.unclear is not None or due.remove_from(new):
        return None
    when = due.day if due.day_said else date.fromisoformat(day)
    said_clock = due.clock if due.clock is not None or due.day_said else None
    at = (
        said_clock.strftime("T%H:%M")
        if said_clock
        else (f"T{clock}" if clock and not due.day_said else "")
    )
    return f"{when.isoformat()}{at}"


def corrected_title(text: str, context: ConversationContext) -> tuple[int, str] | None:
    """(task number, new title) for a correction right after an add or a rename; None
    otherwise."""
    if (
        last_action(context) != "add" and not renamed_last(context)
    ) or context.focus_task_id is None:
        return None
    starred = _STARRED_FIRST.match(text)
    if starred:
        text = f"{starred['word']}*"
    parts = _correction_parts(text)
    if parts is None:
        return None
    new, old = parts
    task_id, current = _task_corrected(old, context.focus_task_id, context)
    restates = bool(current) and _restates(new, str(current))
    if _a_request_instead(text, new, old, restates=restates):
        return None  # "no, delete it", "sorry, thanks", "on second thought, undo that"
    if restates:
        return task_id, new  # "I mean call the landlord about the washing machine, not heater"
    return task_id, (_corrected(text, new, old, current) if current else new)


def _task_corrected(old: str, task_id: int, context: ConversationContext) -> tuple[int, str | None]:
    """(number, title) of the task the correction is about: the one just changed
    (`task_id`), unless the words it replaces (`old`) are another task's whole title."""
    titles = {number: title for number, title, _ in context.known_tasks}
    named = [n for n, title in titles.items() if old and title.lower() == old.lower()]
    if named:  # "I meant self-raising flour, not just flour" after adding four items
        task_id = named[-1]
    return task_id, titles.get(task_id)


def _a_request_instead(text: str, new: str, old: str, *, restates: bool) -> bool:
    """Whether the corrected words `new` are no title but a request of their own."""
    # "no i said call the vet not the bank": a whole title replacing a word of the old one
    # "I meant iced tea, not ice cream": the thing meant, whatever a model makes of it alone
    meant = bool(old) and _I_MEANT.search(text) is not None and not _COMMAND_LEAD.match(new)
    return bool(
        _NOT_A_TITLE.match(new)
        or (_a_request(new, replaces=bool(old)) and not (old and restates) and not meant)
    )


def _corrected(text: str, new: str, old: str, current: str) -> str:
    """The title `current` as the correction `new` (of its words `old`, if said) makes it."""
    fixed = _one_word_fixed(new, str(current)) if not old else None
    if fixed is not None:
        return fixed  # "add chiken breast" ... "ugh chicken*": that word only
    restatement = _restated_later(text, current)
    if restatement is not None:
        return restatement  # "Sorry, is not shoes, is tie. Buy a tie for the wedding"
    if old and old.lower() in current.lower() and old.lower() != current.lower():
        start = current.lower().index(old.lower())
        head = current[:start]
        if _ARTICLE_END.search(head):
            new = _ARTICLE_START.sub("", new)  # "not the 5k, the 10k": one "the"
        return head + new + current[start + len(old) :]
    if _QUANTITY.match(new) and not _QUANTITY.match(current) and len(new.split()) <= 3:
        return f"{new} of {current}"  # "make it two bottles"
    if old:  # "is brown rice I want, not the white": the thing, said exactly
        new = _with_the_titles_verb(new, str(current))
    return new


def _with_the_titles_verb(new: str, current: str) -> str:
    """ "brown rice" for "buy rice": the same thing said more exactly keeps the title's verb
    ("buy brown rice")."""
    new_words, old_words = new.split(), current.split()
    if len(new_words) < 2 or len(old_words) < 2 or not is_task_verb(old_words[0]):
        return new
    if new_words[-1].lower().rstrip("s") != old_words[-1].lower().rstrip("s"):
        return new
    if is_task_verb(new_words[0]):
        return new
    return f"{' '.join(old_words[:-1])} {new}" if len(old_words) == 2 else new


def _one_word_fixed(word: str, title: str) -> str | None:
    """The title with the one word `word` is a respelling of replaced ("chiken breast",
    "chicken" -> "chicken breast"); None when `word` is no single word or fits none."""
    if not re.fullmatch(r"[\w'-]+", word):
        return None
    words = title.split()
    wanted = word.lower()
    distances = [DamerauLevenshtein.distance(said.lower(), wanted) for said in words]
    slips = [d for d in distances if 0 < d <= 2]
    if len(words) < 2 or not slips or distances.count(min(slips)) != 1 or 0 in distances:
        return None
    words[distances.index(min(slips))] = word  # the nearest word, when only one is nearest
    return " ".join(words)


_I_MEANT = re.compile(r"\bi\s+(?:meant|mean)\b", _I)
_COMMAND_LEAD = re.compile(
    r"^(?:add|put|delete|remove|undo|show|list|mark|complete|change|rename|clear)\b", _I
)
_ARTICLE_END = re.compile(r"\b(?:the|a|an|my)\s+$", _I)
_ARTICLE_START = re.compile(r"^(?:the|a|an|my)\s+", _I)


def _restated_later(text: str, current: str) -> str | None:
    """A later sentence of the correction that says the whole new title."""
    first = current.split()[0]
    for sentence in SENTENCE_END.split(text.strip())[1:]:
        said = sentence.strip(" .!?'\"")
        if (
            said
            and len(said.split()) <= 10
            and said.split()[0].lower() == first.lower()
            and _restates(said, current)
            and not _A_SENTENCE.search(said)
            and not _a_request(said)
        ):
            return first + said[len(first) :]  # the title's own casing of its first word
    return None


def _restates(new: str, current: str) -> bool:
    """Whether the corrected words are a whole title: they start as the old one does, or
    hold its last word ("two poster boards" for "poster board")."""
    new_words, old_words = new.lower().split(), current.lower().split()
    if new_words[0] == old_words[0] and len(new_words) >= len(old_words):
        return True
    head = old_words[-1].rstrip("s")
    return len(new_words) > len(old_words) and any(w.rstrip("s") == head for w in new_words)


def _a_request(text: str, *, replaces: bool = False) -> bool:
    """Whether the words read as a request of their own rather than a title. With a word
    they replace ("not Ana, is Anya"), small talk is no request: a name alone reads as one."""
    from backend.agent.rules.intents import detect_intent  # intents -> ... -> followups

    detection = detect_intent(text)
    if detection.kind in (RuleKind.LEADING_ADD, RuleKind.UNDO) or detection.action is Action.UNDO:
        return True
    if replaces and detection.intent is Intent.SOCIAL:
        return False
    if detection.kind is RuleKind.MODEL and " " not in text.strip():
        return False  # one word the model alone reads as a request ("toothpaste"): a title
    if detection.action is Action.CONFIRM:
        return False  # only the model read a change there: no request of its own
    return detection.intent not in (Intent.CREATE, Intent.UNCLEAR, Intent.OFF_TOPIC)


_NOT_A_TITLE = re.compile(
    r"^(?:thanks?|thank you|thx|ty|ok(?:ay)?|fine|good|great|never ?mind|nothing|that'?s (?:it|all|"
    r"fine)|all good|no problem|it|that|this|the other one|other one|that one|this one|"
    # the rest of "no worries", "no rush", "no way": idioms, not a new title
    r"worries|problem|probs?|rush|hurry|way|idea|clue|biggie|stress|doubt)$",
    _I,
)


_OTHER_ONE = re.compile(
    r"^(?:(?:no|nope|oops|sorry|wait|actually|i do apologi[sz]e|my bad|my mistake)[\s,.!]+)*"
    r"(?:i\s+(?:meant|mean)\s+|it(?:'s| is| was)\s+|make it\s+)?(?:the\s+)?other\s+one"
    r"(?:\s+(?:please|instead))?[\s.!]*$",
    _I,
)


def the_other_one(text: str, context: ConversationContext) -> tuple[str, int] | None:
    """(tool, task) for "no, the other one" right after a choice between two tasks: the
    change made to the one chosen is undone and made to the other instead."""
    if len(context.alternatives) != 1 or not _OTHER_ONE.match(text):
        return None
    action = last_action(context)
    if action not in ("complete", "delete"):
        return None
    return f"{action}_task", context.alternatives[0]


# "sorry, not the milk, the eggs I buy", "it wasn't milk I got, it was the eggs": right
# after a completion, the task named first was the wrong one; the other was done.
_WRONG_THEN_RIGHT = (
    re.compile(
        r"\bnot\s+(?:the\s+)?(?P<old>[\w' -]+?)\s*[,;.]\s*(?:but\s+|it\s+was\s+|it's\s+)?"
        r"(?:the\s+)?(?P<new>[\w' -]+?)(?:\s+(?:i|we)\s+\w+)?\s*(?:[,;.!]|$)",
        _I,
    ),
    re.compile(
        r"\b(?:wasn't|was not|isn't|is not)\s+(?:the\s+)?(?P<old>[\w' -]+?)(?:\s+(?:i|we)\s+\w+)?"
        r"\s*[,;.]\s*(?:it\s+was|it's|but)\s+(?:the\s+)?(?P<new>[\w' -]+?)\s*(?:[,;.!]|$)",
        _I,
    ),
)


# Right after a completion or a deletion, the task meant instead: "no, I meant milk", "no
# wait put eggs back, I meant milk", "no. paper towels. not bananas".
_MEANT_INSTEAD = (
    re.compile(
        r"^(?:(?:no|nope|oops|sorry|wait|ah|oh|actually|hmm|ugh)\b[\s,.!]*)+"
        r"(?:(?:put|bring)\s+(?P<back>[\w' -]+?)\s+back\s*[,;.!]\s*)?"
        r"(?:i\s+(?:meant|mean)|meant)\s+"
        r"(?!(?:the\s+)?(?:other|it|that|this|them|one|another|different|wrong)\b)(?:the\s+)?"
        r"(?P<new>[\w' -]+?)(?:\s+one)?"
        r"(?:\s*[.!]\s*(?:delete|remove|complete|tick off|cross off)\s+(?:the\s+)?(?P=new))?"
        r"\s*[.!]*$",
        _I,
    ),
    re.compile(
        r"^(?:no|nope)[\s,.!]+(?!(?:the\s+)?(?:other|it|that|this|one)\b)(?:the\s+)?"
        r"(?P<new>[\w' -]+?)"
        r"\s*[,;.!]\s*not\s+(?:the\s+)?"
        r"(?P<old>[\w' -]+?)\s*[.!]*$",
        _I,
    ),
)


_PUT_BACK = re.compile(
    r"^(?:(?:no|oops|sorry|wait|oh|actually|please|pls|can you|could you)\b[\s,.!]*)*"
    r"(?:put|bring|add)\s+(?:the\s+)?(?P<back>[\w' -]+?)\s+back"
    r"(?:\s+(?:on|in)\s+(?:there|the list|my list))?(?:\s+(?:please|pls))?\s*[.!]*$",
    _I,
)


def puts_back_the_deleted(text: str, context: ConversationContext) -> bool:
    """ "put eggs back" right after the eggs were deleted: the deletion undone."""
    change = context.last_change or {}
    title = (change.get("arguments") or {}).get("title")
    found = _PUT_BACK.match(text.strip()) if change.get("tool") == "add_task" and title else None
    return found is not None and _names(found["back"], str(title))


def swapped_completion(text: str, context: ConversationContext) -> tuple[str, str] | None:
    """(the change's tool, what was meant instead) for a correction right after a
    completion or a deletion of one task: that change is undone and made to the other."""
    changed = _one_task_changed(context)
    if changed is None:
        return None
    tool, title = changed
    if tool == "complete_task":
        for pattern in _WRONG_THEN_RIGHT:
            found = pattern.search(text)
            if found and _names(found["old"], title) and not _names(found["new"], title):
                return tool, found["new"].strip()
    meant = _meant_instead(text, title)
    return (tool, meant) if meant is not None else None


def _one_task_changed(context: ConversationContext) -> tuple[str, str] | None:
    """(the tool that redoes it, the task's title) when the last change completed or deleted
    one task; None otherwise."""
    change = context.last_change or {}
    arguments = change.get("arguments") or {}
    if change.get("tool") == "update_task" and arguments.get("completed") is False:
        tool, title = "complete_task", context.known_title(arguments.get("task_id"))
    elif change.get("tool") == "add_task" and arguments.get("title"):
        tool, title = "delete_task", str(arguments["title"])
    else:
        return None
    return None if title is None else (tool, title)


def _meant_instead(text: str, title: str) -> str | None:
    """The task "no, I meant milk" names instead of the one titled `title`."""
    for pattern in _MEANT_INSTEAD:
        found = pattern.match(text.strip())
        if found is None or _names(found["new"], title):
            continue
        named = found.groupdict().get("old") or found.groupdict().get("back")
        if named and not _names(named, title):
            continue  # "put bread back" after the eggs went: not about that change
        return found["new"].strip()
    return None


def _names(said: str, title: str) -> bool:
    said_words = set(re.findall(r"\w+", said.lower()))
    return bool(said_words) and said_words <= set(re.findall(r"\w+", title.lower()))


# "wait, not the dentist one, I still haven't booked that" right after everything was
# completed: that one is left out, so it is reopened.
_LEFT_OUT = re.compile(
    r"^(?:(?:wait|no|nope|oh|hold on|hang on|actually|oops|hmm+|but|sorry|except)\b[\s,.!]*)*"
    r"(?:but\s+)?not\s+(?:the\s+)?(?P<left_out>[\w' -]+?)(?:\s+(?:one|task|item))?"
    r"\s*(?:[,;.!]\s*(?:(?:i|we|i've|i'm|that|it|he|she|they)\b.*)?)?$",
    _I,
)


def left_out_of_completion(text: str, context: ConversationContext) -> str | None:
    """The task a "not X" right after a completion of everything (or of X) leaves out."""
    change = context.last_change or {}
    arguments = change.get("arguments") or {}
    bulk = bool(change.get("bulk")) and change.get("did") == "complete_task"
    completed = change.get("tool") == "update_task" and arguments.get("completed") is False
    if not (bulk or completed):
        return None
    found = _LEFT_OUT.match(text.strip())
    if found is None:
        return None
    left_out = found["left_out"].strip()
    if completed:
        title = context.known_title(arguments.get("task_id"))
        if title is None or not _names(left_out, title):
            return None  # "not the milk" after the eggs were ticked: another correction
    return left_out


# "and the passport as well, while you're at it", "same for the dentist", "sarah email too":
# the last field change, asked again of another task.
_SAME_AGAIN = re.compile(
    r"^\W*(?:(?:and|also|plus|oh|ok|okay|right)\W+)*"
    r"(?:(?:do\s+)?(?:the\s+)?same\s+(?:for|with|thing\s+for|on)\s+)?"
    r"(?P<ref>.+?)"
    r"(?:\W+(?:too|as\s+well|also|while\s+you'?re\s+at\s+it|please|pls|thanks|same))*\W*$",
    _I,
)
_SAID_AGAIN = re.compile(r"^\W*(?:and|also|plus)\b|\b(?:too|as\s+well|also|same)\b", _I)
_REASON_AFTER = re.compile(
    r"\s*,\s*(?:it|it's|its|they|they're|that's|this|since|because|as)\b.*$", _I
)
_MOST_WORDS = 5


def same_fields_again(text: str, context: ConversationContext) -> tuple[str, dict[str, Any]] | None:
    """(the task named, the fields) when right after a field change the message names only
    another task, said as more of the same; None otherwise."""
    fields = context.last_fields
    if not fields or context.last_act != "update" or _SAID_AGAIN.search(text) is None:
        return None
    said = _REASON_AFTER.sub("", text.strip())
    found = _SAME_AGAIN.match(said)
    if found is None:
        return None
    reference = found["ref"].strip(" .,!?")
    words = reference.split()
    if (
        not words
        or len(words) > _MOST_WORDS
        or _A_COMMAND.match(reference)
        or is_pronoun_reference(reference)
        or slot_change(reference, context.local_now()) is not None
    ):
        return None
    return reference, dict(fields)
