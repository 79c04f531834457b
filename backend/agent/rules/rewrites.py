"""Whole-message phrasings that say one request in a roundabout way, rewritten as that request.

- "do i have cheese on my shopping list, if not please add it" / "are eggs on my list, if not
  add them" / "is bacon on my list, add if it's not": a conditional add;
- "i'm out of apples, add that to my list" / "i ran out of cheerios so add that" / "i have no
  oranges, put them onto my list": an add of the thing run out of;
- "the third one, I do it already this morning" / "the report for Q4, I finish it yesterday"
  / "The first one, I not finish really": the task named first, then said to be done (or not
  done), as people whose first language puts the topic first say it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from backend.agent.rules.intents import rule_intent
from backend.agent.rules.numbers import is_position, position_phrases
from backend.agent.rules.query import query_slot
from backend.agent.rules.text import SENTENCE_END, core_request, strip_end_punctuation
from backend.agent.rules.types import Action, Intent
from backend.agent.rules.vocabulary import OTHER_APPS_THINGS, is_task_verb

_I = re.IGNORECASE

_ADD_IT = (
    r"(?:please\s+)?(?:(?:can|could|will|would)\s+you\s+)?(?:please\s+)?(?:add|put|include)"
    r"(?:\s+(?:it|them|that|those|one|some))?"  # "i'm out of bananas; add to shopping list"
    r"(?:\s+(?:on|in|onto|to)\s+(?:there|it|(?:(?:my|the)\s+)?(?:[\w-]+\s+){0,2}list))?"
    r"(?:\s+please)?"
)
_IF_NOT = (
    r"(?:if\s+not|if\s+(?:it|they|that)(?:'s|'re|\s+is|\s+are)?\s+not(?:\s+(?:there|on it))?|"
    r"if\s+(?:it\s+isn't|they\s+aren't|it's\s+not|they're\s+not)(?:\s+(?:there|on it))?|"
    r"if\s+(?:it|they)\s+(?:isn't|aren't)(?:\s+(?:there|on it))?)"
)
# "<question>, if not add it", "<question>, add it if it's not", "<question>, please add it"
_QUESTION_THEN_ADD = re.compile(
    rf"^(?P<question>.+?)[\s,;]+(?:and\s+|but\s+|then\s+)?(?:{_IF_NOT}[\s,]*{_ADD_IT}|"
    rf"{_ADD_IT}\s+{_IF_NOT}|{_ADD_IT}|add\s+if\s+(?:it's|it is|they're|they are)\s+not)"
    r"[\s.!?]*$",
    _I,
)
_RAN_OUT = re.compile(
    r"^(?:(?:i'm|i am|we're|we are|i've|we've)\s+(?:all\s+|completely\s+|nearly\s+|almost\s+)?"
    r"(?:out of|low on|running (?:low on|out of)|run out of|finished)\s+(?P<item>.+?)"
    r"|(?:i|we)\s+(?:just\s+)?(?:ran out of|have no|don't have any(?:\s+more)?|do not have any"
    r"(?:\s+more)?|need more|used up)\s+(?P<item2>.+?))\s*$",
    _I,
)
_THEN_ADD_IT = re.compile(
    rf"(?:\s*[,;]\s*|\s+(?:so|and)\s+|\s+)(?:so\s+)?(?:{_ADD_IT}|remind me(?:\s+on\s+my\s+list)?|"
    r"need (?:them|it) (?:to be )?added)(?:\s+(?:on|to|onto)\s+(?:my|the)\s+[\w\s-]*?list)?"
    r"[\s.!?]*$",
    _I,
)


# A topic, then a statement about it with the subject "I": "the plants, I water them this
# morning already", "eggs I have buy already", "the last two, both I finish them".
_TOPIC_THEN_DONE = re.compile(
    r"^(?P<topic>(?!(?:i|we|you|he|she|they|it|this|that|there|please|can|could|would|so|and|"
    r"but|then|if|when|because|as|yes|no|also|just|what|which|how|why|who)\b)"
    # "dentist, same, I book it"
    r"[\w'-]+(?:\s+[\w'-]+){0,5}?)\s*,?\s+(?:(?:same|too|also)\s*,?\s+)?"
    r"(?:both\s+|all\s+|already\s+)?(?:i|we)\s+"
    r"(?P<neg>not\s+|didn't\s+|did not\s+|don't\s+|do not\s+|haven't\s+|have not\s+|never\s+)?"
    r"(?:(?:have|has|had|am|was)\s+)?(?:(?:actually|already|just|finally|really|also)\s+)*"
    r"(?P<verb>[a-z]+)(?:\s+to\s+[a-z]+)?(?P<pronoun>\s+(?:it|them|that|those|this|these|her|him))?"
    r"(?P<when>(?:\s+(?:already|yesterday|today|this morning|this afternoon|this evening|tonight|"
    r"last night|earlier|just now|now|really|actually|finally|too|afternoon|morning|evening|yet|"
    r"on the way(?: home| back)?|at the (?:store|shop|market)))*)"
    r"(?P<rest>\s*[,.;!?:].*)?$",
    _I,
)
_OR_NOT = re.compile(r"\bor\s+(?:not|no)(?:\s+yet)?\W*$", _I)
# A task named first, then "this is done": "The second one, this is done since this morning".
_TOPIC_IS_DONE = re.compile(
    r"^(?:(?:and|also|oh and)\s+)?(?:i\s+(?:wanted|want|meant|mean)\s+to\s+say\s+|i\s+meant\s+)?"
    r"(?P<topic>(?:the|my)\s+[\w'-]+(?:\s+[\w'-]+){0,4}?)\s*,\s*"
    r"(?:this|that|it)(?:\s+one)?(?:\s+is|\s+was|'s)\s+(?:already\s+|now\s+|also\s+)?"
    r"(?:done|finished|finish|completed|(?!added\b|removed\b|deleted\b|needed\b|cancell?ed\b|delayed\b|"
    r"postponed\b|moved\b|changed\b)\w+ed)\b(?![\s,]+(?:right|yes|isn't|is it|wasn't)\b).*$",
    _I,
)
_NAMED_TOPIC = re.compile(r"^(?:the|my|that|this)\s", _I)
_SUBJECT = re.compile(r"\S\s+(?:both\s+|all\s+|already\s+)?(?:i|we)\s", _I)
_DONE_VERBS = frozenset("do did done finish finished complete completed make made".split())
_PAST = frozenset(
    "bought paid sent wrote took went got made did ran fed swept brought met sold read gave "
    "rang called".split()
)
_NOT_A_TOPIC = re.compile(
    r"^(?:let|erase|tick|cross|add|show|tell|give|can|could|would|will|mark|only|undo|oops)\b|"
    r"\b(?:it|them|me)\b|"
    # "only the stuff i didn't finish": the list narrowed, no task
    r"^(?:the\s+|all\s+the\s+)?(?:stuff|things|ones|tasks|items|todos)$",
    _I,
)


def _done_about_topic(sentence: str) -> str | None:
    """ "mark <topic> as done" (or "as not done") for a topic-first done statement."""
    said = _topic_is_done(sentence)
    if said is not None:
        return said
    match = _topic_then_done(sentence)
    if match is None or not _says_done(match):
        return None
    rest = (match["rest"] or "").strip(" ,.;!?:")
    if _OR_NOT.search(sentence) or (sentence.rstrip().endswith("?") and not rest):
        # "the electricity bill, I paid it already or not?": asked, never a change
        return f"is {match['topic']} done?"
    state = "not done" if match["neg"] else "done"
    said = f"mark {match['topic']} as {state}"
    if rest and rule_intent(rest).intent not in _SAID_ALREADY:
        said += f", {rest}"  # "..., and delete the milk": another request
    return said


def _topic_is_done(sentence: str) -> str | None:
    """ "The second one, this is done since ...", or asked: "..., it is finish or not yet?"."""
    said_done = _TOPIC_IS_DONE.match(strip_end_punctuation(sentence))
    asked = sentence.rstrip().endswith("?") or re.search(r"\bor\b", sentence, _I)
    if said_done and asked and _OR_NOT.search(sentence):
        return f"is {said_done['topic']} done?"  # "the report for Q4, it is finish or not yet?"
    if said_done and not asked and not _NOT_A_TOPIC.search(said_done["topic"]):
        return f"mark {said_done['topic']} as done"  # "The second one, this is done since ..."
    return None


def _topic_then_done(sentence: str) -> re.Match[str] | None:
    """A task named first, then a statement about it with the subject "I" or "we"."""
    if _SUBJECT.search(sentence) is None:
        return None  # most messages: no "I"/"we" after a topic, nothing to read
    # "The seventh one, I did it": the plain request would drop "I did it" as an aside
    match = _TOPIC_THEN_DONE.match(core_request(sentence))
    if match is None:
        match = _TOPIC_THEN_DONE.match(strip_end_punctuation(sentence))
        if match is None or not _NAMED_TOPIC.match(match["topic"]):
            return None  # "ok google, I already got it": no topic
    topic_words = match["topic"].lower().split()
    if is_task_verb(topic_words[0]) or _NOT_A_TOPIC.search(match["topic"]):
        return None  # "mark it done, i cleaned it", "let me know every meeting i have"
    return match


def _says_done(match: re.Match[str]) -> bool:
    """Whether the statement about the topic says it is done (or not done)."""
    verb = match["verb"].lower()
    timed = bool(match["when"].strip())
    if not (
        verb in _DONE_VERBS
        or verb in _PAST
        or (verb.endswith("ed") and len(verb) > 4 and match["pronoun"])
        or (is_task_verb(verb) and (timed or match["pronoun"]))
    ):
        return False
    # "the report I finish" is not yet a statement that it is done
    return not (verb in _DONE_VERBS and not (timed or match["pronoun"] or match["neg"]))


_SAID_ALREADY = (Intent.COMPLETE, Intent.UPDATE, Intent.SOCIAL, Intent.UNCLEAR, Intent.LIST)


# A task named first, then a command about it: "The chicken, please change to two kilo
# chicken", "the task of the milk, please change it to soy milk", "and the eighth one, the
# passport, scrap it", "the passport one, can you change its note to ...".
_TOPIC_THEN_COMMAND = re.compile(
    r"^(?:(?:and|also|oh and|then)\s+)?(?P<topic>(?:(?:for|about|of)\s+)?(?:the|my|that|this)\s+"
    r"[\w'-]+(?:\s+[\w'-]+){0,6}?)(?:\s+(?:too|as well|also))?\s*,\s*"
    r"(?:(?:the|my)\s+[\w'-]+(?:\s+[\w'-]+){0,3}\s*,\s*)?"
    r"(?P<ask>(?:(?:please|pls|can you|could you|would you|will you|you can|just|and)\s+)*)"
    r"(?P<verb>change|rename|update|edit|make|write|set|delete|remove|scrap|bin|drop|ditch|"
    r"nix|cross|tick|mark|complete|get rid of|take)\b(?P<rest>.*)$",
    _I,
)
_A_CLAUSE = re.compile(r"\b(?:i|we|you|he|she|they|was|were|is|are)\b", _I)
_OBJECT_PRONOUN = re.compile(r"^\s+(?:(?P<its>its)|it|that one|that|this one|this|them)\b", _I)


def _command_about_topic(sentence: str) -> str | None:
    """ "change <topic> to two kilo chicken" for "<topic>, please change to two kilo chicken"."""
    match = _TOPIC_THEN_COMMAND.match(core_request(sentence))
    if match is None or _NOT_A_TOPIC.search(match["topic"]) or _A_CLAUSE.search(match["topic"]):
        return None  # "the first thing I did was call mom, delete it": a sentence, no topic
    topic, rest = match["topic"], match["rest"]
    pronoun = _OBJECT_PRONOUN.match(rest)
    if pronoun is not None and match["verb"].lower() == "make":
        # "the milk, make it oat milk": a new title
        title = re.sub(r"^\s*(?:say|read|into|to|be)\b", "", rest[pronoun.end() :], flags=_I)
        return f"change {topic} to {title.strip()}"
    if pronoun is not None:
        named = f"{topic}'s" if pronoun["its"] else topic
        return f"{match['verb']} {named}{rest[pronoun.end() :]}"
    return f"{match['verb']} {topic}{rest}"


# "okay first thing on the fresh list: sign up for pottery class", "first up: cancel the
# internet": the first of the things to add
_FIRST_UP = re.compile(
    r"^(?:(?:ok|okay|so|right|alright|and)[\s,]+)*(?:first|next|1st)\s+(?:up|thing|one|item|task)"
    r"(?:\s+(?:on|for)\s+(?:the|my|this)\s+(?:[\w'-]+\s+)?list)?\s*:\s*(?P<obj>\S.*)$",
    _I,
)


def _plain_sentence(sentence: str) -> str | None:
    """The topic-first sentence as the plain request, or None when it is not one."""
    first = _FIRST_UP.match(sentence) if ":" in sentence else None
    if first:
        return f"add {first['obj']}"
    done = _done_about_topic(sentence)
    if done:
        return done if done.endswith("?") else done + "."
    command = _command_about_topic(sentence)
    if command:
        return command + sentence[len(sentence.rstrip(".!?")) :]  # its own end punctuation
    return None


# "Kindly tell me, the dentist appointment booking is there in my list or not?": the frame
# of a question, not a request to show the list.
_TELL_ME_FIRST = re.compile(
    r"^(?:(?:please|kindly|pls)\s+)?(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:tell me|let me know|say me)\s*,\s*(?!(?:please\W+)?(?:whether|if)\b)(?=\S)",
    _I,
)


# "Also for the dentist task, please write in the description: ask about whitening", "and for
# water the plants please put a note: only the ones on the balcony": the task named first.
_NOTE_FOR_TOPIC = re.compile(
    r"^(?:(?:also|and|oh and|so)\s+)?(?:for\s+(?:the\s+)?(?P<topic>[\w'-]+(?:\s+[\w'-]+){0,5}?)"
    r"(?:\s+(?:task|one|item))?\s*,?|the\s+(?P<named>[\w'-]+(?:\s+[\w'-]+){0,5}?)"
    r"(?:\s+(?:task|one|item))?\s*,)\s*(?:(?:please|pls|can you|could you)\s+)*"
    r"(?:write|put|add|set)\s+(?:in(?:to)?\s+(?:it\s+)?)?(?:the\s+|a\s+)?"
    r"(?:description|note|notes|details)(?:\s+(?:on|to|in|for)\s+(?:it|that|this)(?:\s+one)?)?"
    r"\s*:\s*(?P<note>\S.*)$",
    _I,
)


# A note said any way: "stick a note on it that dr. alvarez is closed mondays", "write in it
# the note "before 15th"", "update the note to say both expire in March", "and the pasport one
# add a note bring old pasport".
_NOTE_LEAD = (
    r"^(?:(?:also|and|oh and|so|ok|okay|oh)[\s,]+)*"
    r"(?:(?:please|pls|kindly|can you|could you|would you|also)[\s,]+)*"
)
_NOTE_WORD = r"(?:(?:a|the|an|this|that|its|my)\s+)?(?:little\s+|short\s+|new\s+)?note"
_NOTE_TAIL = (
    r"\s*(?:[:,-]|\bthat\b|\bsaying\b|\bwhich says\b|\bthat says\b|\bto say\b|\bsays\b)?\s*"
)
_SHORT_NOTE_TARGET = r"it|that|that one|this one|this|task\s*#?\d+"
_NOTES = (
    # "stick a note on it that X", "add a note to the dentist one: X"
    re.compile(
        _NOTE_LEAD
        + r"(?:add|stick|put|write|leave|attach|pop|slap|jot)\s+"
        + _NOTE_WORD
        + rf"\s+(?:on|to|onto|in|into|for)\s+(?P<target>{_SHORT_NOTE_TARGET}|(?:the|my)\s+"
        r"[\w'-]+(?:\s+[\w'-]+){0,4}?\s+(?:task|one|item))" + _NOTE_TAIL + r"(?P<note>\S.*)$",
        _I,
    ),
    # "write in it the note X", "put on it a note: X"
    re.compile(
        _NOTE_LEAD + r"(?:add|stick|put|write|leave|attach|pop|jot)\s+(?:in|on|to)\s+"
        rf"(?P<target>{_SHORT_NOTE_TARGET})\s+" + _NOTE_WORD + _NOTE_TAIL + r"(?P<note>\S.*)$",
        _I,
    ),
    # "and put in the notes: burgers, buns, corn": the task talked about
    re.compile(
        _NOTE_LEAD + r"(?:add|put|write|stick|jot)\s+(?:in|into|on)\s+(?:the|its)\s+"
        r"(?:notes?|description)\s*(?::|that|saying)?\s*(?P<note>\S.*)$",
        _I,
    ),
    # "update the note to say X", "change the note to X": the task talked about
    re.compile(
        _NOTE_LEAD
        + r"(?:update|change|edit|replace)\s+"
        + _NOTE_WORD
        + r"\s+(?:to\s+say|to\s+read|to|with|so it says|so that it says)\s*:?\s*(?P<note>\S.*)$",
        _I,
    ),
    # "ok, for this one put note: dr. kim, tuesday 10am", "note on it: usb-c, 2m"
    re.compile(
        _NOTE_LEAD + rf"(?:(?:for|on)\s+(?P<target>{_SHORT_NOTE_TARGET})[\s,]+)?"
        r"(?:(?:add|put|write|stick|leave|attach|jot)\s+)?(?:(?:a|the)\s+)?note"
        rf"(?:\s+(?:on|to|for|in)\s+(?:{_SHORT_NOTE_TARGET}))?\s*:\s*(?P<note>\S.*)$",
        _I,
    ),
    # "could you also jot down on it, as a note, that she loves lilies?"
    re.compile(
        _NOTE_LEAD + r"(?:add|put|write|jot|note)(?:\s+down)?\s+(?:on|to|in|for)\s+"
        rf"(?P<target>{_SHORT_NOTE_TARGET})[\s,]+as\s+(?:a|the)\s+note[\s,:]*(?:that\s+)?"
        r"(?P<note>\S.*)$",
        _I,
    ),
    # "the pasport one add a note bring old pasport", "the dentist task, add a note: X"
    re.compile(
        _NOTE_LEAD + r"(?P<target>(?:the|my)\s+[\w'-]+(?:\s+[\w'-]+){0,4}?\s+(?:task|one|item))"
        r"[\s,]+(?:(?:please|pls|can you|could you)\s+)*(?:add|put|write|stick|attach|leave)\s+"
        + _NOTE_WORD
        + _NOTE_TAIL
        + r"(?P<note>\S.*)$",
        _I,
    ),
)
# What follows a note but is not in it: "... so I don't forget", "..., please", "thanks".
_NOTE_END = re.compile(
    r"(?:[\s,]+(?:so (?:i|we) (?:don't|do not|won't) forget(?: it)?|please|pls|thanks|thank you))+"
    r"[\s.!?]*$",
    _I,
)


def _a_note(text: str) -> str | None:
    lowered = text.lower()
    if "note" not in lowered and "description" not in lowered:
        return None  # a cheap first look
    # The note may be asked for after what it is about: "ooh the fifth one, I keep
    # forgetting that. put a note on it: clinic opens at 8".
    starts = [0, *(m.end() for m in SENTENCE_END.finditer(text))]
    for start in starts:
        said = _note_in(text[start:], before=text[:start])
        if said is not None:
            return said
    return None


def _note_in(text: str, *, before: str) -> str | None:
    for pattern in _NOTES:
        match = pattern.match(text)
        if match is None:
            continue
        note = _NOTE_END.sub("", match["note"]).strip().rstrip(".!?").strip().strip("\"'")
        target = (match.groupdict().get("target") or "it").strip()
        if not note:
            return None
        if target.lower() in ("that", "this", "that one", "this one"):
            target = "it"
        said_rows = position_phrases(before) if target == "it" else []
        if len(said_rows) == 1:
            target = said_rows[0]  # the row said before: "the fifth one, ... put a note on it"
        elif before and target == "it":
            return None  # what "it" is lies in the sentences before: not this reading's to say
        return f"add a note to {target}: {note}"
    return None


# "and milk should be oat milk. how many times do I have to say it": a rename, when the new
# title keeps the old one's last word (so "the report should be done by friday" is not one).
_SHOULD_BE = re.compile(
    r"^(?:(?:and|also|oh and|no|so)[\s,]+)?(?P<old>(?:the\s+|my\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)"
    r"(?:\s+should\s+(?:be|say|read)\s+"
    # "and the milk also, i want it lactose free milk"
    r"|(?:\s+(?:also|too))?\s*,\s*(?:i(?:\s+(?:want|need|would like)|'d like)|please\s+make)"
    r"\s+it\s+(?:to\s+(?:be|say)\s+|say\s+|be\s+)?)"
    r"(?P<new>[^.!?;]+?)\s*(?:[.!?;].*)?$",
    _I,
)


def _renamed(text: str) -> str | None:
    match = _SHOULD_BE.match(text)
    if match is None:
        return None
    old_words = re.sub(r"^(?:the|my)\s+", "", match["old"], flags=_I).lower().split()
    new_words = match["new"].lower().split()
    if not old_words or old_words[-1] not in new_words or new_words == old_words:
        return None
    return f"change {match['old']} to {match['new']}"


# "i finish the Q4 report finally!!": a non-native present that says it is done
_I_FINISH = re.compile(
    r"(?P<lead>^|[.!?]\s+)(?P<who>i|we)\s+(?P<verb>finish|complete)\s+"
    r"(?=(?:the|my|a|an|all|that|this|both)\b)",
    _I,
)


# A position said with what happened to it, and no command: "the fourth one I actually did
# on the train this morning", "right, so the last two I actually did over the weekend", "The
# eleventh and twelfth items no longer apply, so they may be removed entirely".
_EDGE_ROWS = re.compile(r"\bthe\s+(?:first|last)\s+(?:two|three|four|five|2|3|4|5)\b", _I)
_NOT_DONE_SAID = re.compile(
    r"\b(?:not|isn't|wasn't|aren't|weren't|didn't|haven't|hasn't|never|"
    r"still (?:need|open|to do))\b",
    _I,
)
# Rows of something else: "the first three events in my calendar", "cancel that last thing".
_OTHER_ROWS = re.compile(rf"\b(?:{OTHER_APPS_THINGS}|that last|the first thing (?:i|we))\b", _I)
_GONE_SAID = re.compile(
    r"\b(?:no longer (?:apply|applies|needed|relevant)|(?:don't|do not) need|removed?|delete[ds]?|"
    r"scrap(?:ped)?|get rid|not needed)\b",
    _I,
)
_DONE_SAID = re.compile(
    r"\b(?:did|done|finished|booked|bought|grabbed|got|picked up|called|rang|paid|sent|made|"
    r"cleaned|walked|watered|handled|sorted|took care of|dealt with|completed|submitted|"
    r"emailed|renewed|posted|returned|fixed)\b",
    _I,
)


# A cheap first look: no row is named without one of these words.
_ROW_WORD = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"\w+teenth|twentieth|last|final|penultimate|\d+(?:st|nd|rd|th)|number|item|no\.|top|bottom)\b"
    r"|#",
    _I,
)


def _position_statement(text: str) -> str | None:
    if not _ROW_WORD.search(text) or _OTHER_ROWS.search(text):
        return None
    if _COMMAND_LEAD.match(text) or _COMMAND_LEAD.match(core_request(text)):
        return None  # "Hey Google, complete the ninth one and delete the last one": commands
    if _ANOTHER_CHANGE.search(text):
        # "the second one I did, and the first one can wait till tomorrow": each row has its
        # own change; the clauses are read one by one
        return None
    said = position_phrases(text) + _EDGE_ROWS.findall(text)
    if not said:
        return None
    rows = " and ".join(dict.fromkeys(p.strip() for p in said))
    if _NOT_DONE_SAID.search(text):
        return None  # "the second one I didn't do": a reopen, read by its own rules
    if _GONE_SAID.search(text):
        return f"delete {rows}"
    if _DONE_SAID.search(text):
        return f"complete {rows}"
    return None


_ANOTHER_CHANGE = re.compile(
    r"\b(?:can\s+wait|wait\s+(?:till|until)|move|moved|push|pushed|postpone|reschedule|shift|"
    r"bump|rename|change)\b",
    _I,
)
_COMMAND_LEAD = re.compile(
    r"^(?:(?:please|pls|and|also|ok|okay|so)\s+)*(?:show|list|read|tell|what|which|how|is|are|"
    r"do|does|did|can|could|would|will|add|put|delete|remove|mark|complete|tick|check|cross|"
    r"change|rename|update|move|undo|clear)\b",
    _I,
)


# A clear said in passing: "now I want delete all the tasks, also the finished ones,
# everything", "I want to wipe the slate clean - every single thing on this list, gone",
# "all the tasks that are finished, please clean them out of the list".
_WIPE = re.compile(
    r"\b(?:delete|remove|wipe|clear|erase|clean\s+(?:\w+\s+)?out|get rid of|scrap|empty)\b",
    _I,
)
_EVERY_TASK = re.compile(
    r"\b(?:all (?:the |my |of the |of my )?(?:tasks|things|items|stuff|todos)|everything|"
    r"every (?:single )?(?:thing|task|item)|the (?:whole|entire) (?:list|thing)|"
    r"the slate)\b",
    _I,
)
_FINISHED_ONES = re.compile(r"\b(?:finished|completed|done|ticked)\b", _I)
_FINISHED_TOO = re.compile(
    r"\b(?:also|and|including|even|plus|as well as)\s+(?:the\s+|all\s+the\s+)?(?:finished|"
    r"completed|done)\b",
    _I,
)
# Some kept, something added, or another app's things: not a clear of this list.
_NOT_A_CLEAR = re.compile(
    r"\b(?:except|but not|apart from|other than|besides|only|just|add|put|include|stick|pop|"
    rf"{OTHER_APPS_THINGS})\b",
    _I,
)


def _clear_in_passing(text: str) -> str | None:
    if not (_WIPE.search(text) and _EVERY_TASK.search(text)) or _NOT_A_CLEAR.search(text):
        return None
    # "all the finished stuff, it's cluttering everything": the finished ones; "all the
    # tasks, also the finished ones, everything": all of them
    if _FINISHED_ONES.search(text) and not _FINISHED_TOO.search(text):
        return "clear the completed tasks"
    return "clear my whole list"


# "for tomorrow I need rice, chicken, onions and tomato sauce, put them please in the list":
# the items named first, then "put them" on the list.
_ITEMS_THEN_PUT_THEM = re.compile(
    r"^.*?\b(?:i|we)\s+(?:need|want|have to (?:buy|get)|must (?:buy|get))\s+(?P<items>[^.?!]+?)"
    r"\s*[,.;]\s*(?:(?:so|and|please|pls)\s+)*(?:put|add|write|stick)\s+(?:all\s+(?:of\s+)?)?"
    r"(?:them|those|these|it|that)(?:\s+(?:all|please|pls))*\s+(?:in|on|to|onto|into)\s+"
    r"(?:the\s+|my\s+)?(?:list|shopping list)\b[\s.!]*(?:please)?[\s.!]*$",
    _I,
)


# "and once that's done I'll need to vacuum the couch, put that on too", "I just remembered I
# have to drop the car off on friday, can you add that?": the thing to do, said first
_TASK_THEN_ADD_IT = re.compile(
    r"^.*?\b(?:i|we)(?:'ll|\s+will)?\s+(?:(?:also|still|really)\s+)?(?:need|needs|have|has|must|"
    r"should|gotta|got)(?:\s+to)?\s+(?!(?:no|not|none|nothing|any)\b)(?:(?P<shopping>buy|get)\s+)?"
    r"(?P<task>[^.?!,;]+?)\s*[,.;]\s*"
    r"(?:(?:so|and|please|pls|ok|okay)\s+)*(?:(?:can|could|would|will)\s+(?:you|u)\s+)?"
    r"(?:please\s+)?(?:add|put|write|stick|throw|pop)\s+(?:(?:that|it|this|them|those)\s*)?"
    r"(?:(?:on|in|down|onto|to|into)\b\s*)?(?:(?:the|my)\s+)?"
    r"(?:(?:list|to-?do list|shopping list)\b)?"
    r"(?:\s*(?:too|as well|also|please|pls|for me))*[\s?.!]*$",
    _I,
)


_ADD_IT_WORD = re.compile(r"\b(?:add|put|write|stick|throw|pop)\b")
# "ok she just rang me back and we had a proper chat, so now it really is done": the story,
# then its conclusion about the task talked about
_SO_IT_IS_DONE = re.compile(
    r"^.+?[,;.]?\s+so\s+(?:now\s+|finally\s+)?(?:it|that|this one|that one)(?:'s|\s+is)?"
    r"(?:\s+(?:really|finally|actually|now|properly|officially))*(?:\s+is)?\s+"
    r"(?:done|finished|complete|completed)(?:\s+(?:now|for real|at last))?[\s.!]*$",
    _I,
)


# "and bathroom one, make it clean the bathroom and kitchen": the task named first ("this
# one, make it ..." names none: the one talked about)
_TOPIC_THEN_MAKE_IT = re.compile(
    r"^(?:(?:and|also|so|oh and)\s+)?(?P<topic>(?!(?:this|that)\s+one\b)(?:the\s+|my\s+)?"
    r"[\w'-]+(?:\s+[\w'-]+){0,3}?\s+(?:one|task|item))\s*,\s*"
    r"(?:(?:please|pls|can you|could you)\s+)*(?:make|change|rename)\s+"
    r"it\s+(?:to\s+|into\s+|say\s+|read\s+)?(?P<title>\S.*)$",
    _I,
)
# "Could you put the second one back on, please?" after the finished ones: not done after all
_POSITION_BACK = re.compile(
    r"^(?:(?:please|pls|can you|could you|would you)\s+)*(?:put|bring|move)\s+(?P<rows>.+?)\s+back"
    r"(?:\s+on(?:\s+(?:the|my)\s+list)?)?(?:\s+(?:please|pls))?[\s.!?]*$",
    _I,
)


# "for the passport task please write the title 'renew passport of my son'"
_TITLE_FOR_TOPIC = re.compile(
    r"^(?:(?:also|and|so)\s+)?for\s+(?P<topic>(?:the|my)\s+[\w'-]+(?:\s+[\w'-]+){0,4}?\s+"
    r"(?:task|one|item))\s*,?\s*(?:(?:please|pls|can you|could you)\s+)*(?:write|put|set|make|"
    r"change|give it)\s+(?:it\s+)?(?:the|a|its)\s+(?:new\s+)?(?:title|name)\s*(?:to|as|:)?\s*"
    r"(?P<title>\S.*)$",
    _I,
)


# "ok. and rice, I have it in the list?": the item first, then the question about it
_ITEM_THEN_HAVE_IT = re.compile(
    r"^(?:(?:ok|okay|and|so|also)[\s.,]+)*(?P<item>[^,.?!]+?)\s*,\s*(?:do\s+)?(?:i|we)\s+"
    r"(?:have|got|put|added)\s+(?:it|them)\s+(?:in|on)\s+(?:the|my)\s+list\s*\??$",
    _I,
)


def _items_then_put_them(text: str, lowered: str) -> str | None:
    put_them = _ITEMS_THEN_PUT_THEM.match(text) if " list" in lowered else None
    return f"add {put_them['items']}" if put_them else None


def _so_it_is_done(text: str, lowered: str) -> str | None:
    if " so " in lowered and _SO_IT_IS_DONE.match(text) and not position_phrases(text):
        return "mark it as done"
    return None


def _task_then_add_it(text: str, lowered: str) -> str | None:
    add_it = _TASK_THEN_ADD_IT.match(text) if _ADD_IT_WORD.search(lowered) else None
    if not add_it:
        return None
    items = add_it["task"]
    if add_it["shopping"] and not re.search(r"\b(?:and|,)\b", items):
        items = f"{add_it['shopping']} {items}"  # "buy a present": the errand, whole
    return f"add {items}"


def _topic_then_make_it(text: str, lowered: str) -> str | None:
    made = _TOPIC_THEN_MAKE_IT.match(text) if " it " in lowered else None
    return f"rename {made['topic']} to {made['title']}" if made else None


def _position_put_back(text: str, lowered: str) -> str | None:
    for sentence in SENTENCE_END.split(text) if " back" in lowered else ():
        back = _POSITION_BACK.match(core_request(sentence))
        if back and is_position(back["rows"]):
            return f"mark {back['rows']} as not done"
    return None


def _title_for_topic(text: str, lowered: str) -> str | None:
    titled = _TITLE_FOR_TOPIC.match(text)
    return f"rename {titled['topic']} to {titled['title']}" if titled else None


def _item_then_have_it(text: str, lowered: str) -> str | None:
    have_it = _ITEM_THEN_HAVE_IT.match(text) if " list" in lowered else None
    return f"is {have_it['item']} on my list?" if have_it else None


# Readings of the whole message as said (and its lowercase), tried in this order: the first
# that reads it says the request.
_WHOLE_MESSAGE_READINGS: tuple[Callable[[str, str], str | None], ...] = (
    _items_then_put_them,
    _so_it_is_done,
    _task_then_add_it,
    _topic_then_make_it,
    _position_put_back,
    _title_for_topic,
    _item_then_have_it,
)


def rewritten(text: str) -> str:
    """The message as the plain request it amounts to, or unchanged."""
    lowered = text.lower()
    for reading in _WHOLE_MESSAGE_READINGS:
        said = reading(text, lowered)
        if said is not None:
            return said
    finished = _I_FINISH.sub(lambda m: f"{m['lead']}{m['who']} {m['verb']}ed ", text)
    noted = _note_or_rename(finished)
    if noted:
        return noted
    plain = _said_plainly(finished)
    added = _conditional_add(plain) or _ran_out_add(plain)
    if added:
        return added
    if plain == text:  # no other reading: a position said with what happened to it
        return _position_statement(plain) or _clear_in_passing(plain) or plain
    return plain


def _note_or_rename(text: str) -> str | None:
    note = _NOTE_FOR_TOPIC.match(text)
    if note:
        return f"add a note to the {note['topic'] or note['named']} task: {note['note']}"
    return _a_note(text) or _renamed(text)


def _said_plainly(text: str) -> str:
    """The message without a "tell me," frame of a question, its topic-first sentences said
    as plain requests."""
    framed = _TELL_ME_FIRST.match(text)
    if framed and (text.rstrip().endswith("?") or _OR_NOT.search(text)):
        text = text[framed.end() :]
    sentences = SENTENCE_END.split(text)
    plain = [_plain_sentence(s) for s in sentences]
    if any(plain):
        text = " ".join(p or s for p, s in zip(plain, sentences, strict=True))
    return text


def _conditional_add(text: str) -> str | None:
    """ "do i have cheese on my shopping list, if not please add it"."""
    question = _QUESTION_THEN_ADD.match(text)
    if not question:
        return None
    item, action = query_slot(question["question"])
    if action is not Action.LOOKUP or not item:
        asked = rule_intent(question["question"])
        item, action = asked.obj, asked.action
    if action is Action.LOOKUP and item:
        return f"add {item} if it's not already there"
    return None


def _ran_out_add(text: str) -> str | None:
    """ "i'm out of apples, add that to my list"; the message itself when it names nothing."""
    ran_out = _THEN_ADD_IT.search(text)
    said = _RAN_OUT.match(text[: ran_out.start()].strip()) if ran_out else None
    if not said:
        return None
    item = (said["item"] or said["item2"] or "").strip(" ,;")
    return f"add {item}" if item else text
