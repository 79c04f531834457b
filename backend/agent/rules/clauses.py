"""A message as clauses: compound requests split, and the rewrites that let each clause be
read on its own ("Add walk the dog, mark it done"; "change task 1 to X and task 2 to Y")."""

from __future__ import annotations

import re

from backend.agent.rules.intents import detect_intent
from backend.agent.rules.numbers import is_position, names_a_position, position_phrases
from backend.agent.rules.patterns import GREETING_PATTERN, STATEMENTS
from backend.agent.rules.social import names_another_job
from backend.agent.rules.text import (
    ALSO_TAIL,
    GERUNDS,
    SENTENCE_END,
    core_request,
    strip_end_punctuation,
)
from backend.agent.rules.titles import CHATTER_START
from backend.agent.rules.types import Detection, Intent, RuleKind
from backend.agent.rules.vocabulary import COMMAND_VERB

_I = re.IGNORECASE

# Compound messages: "add milk and show my tasks", "delete task 3. What's left?"
_ACTION_START = (
    # "..., and can you also stick bin bags on the list"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:also\s+|please\s+|just\s+)*"
    r"(?=(?:add|put|stick|pop|jot|note|include|delete|remove|mark|tick|check|cross|change)\b))?"
    r"(?:please\s+)?(?:show|list|tell me|what|what's|whats|display|give me|add|create|put|stick|"
    r"pop|jot|"
    r"remind me|delete|remove|cancel|drop|complete|mark|finish|check off|tick off|change|"
    r"update|rename|edit|set|let me see|how many|take(?=.*\b(?:off|out)\b)|"
    # "add batteries and cross off eggs"
    r"cross(?=.*\b(?:off|out)\b)|tick(?=.*\boff\b)|check(?=.*\boff\b)|scratch|strike|"
    r"get rid of|"
    # a due date, priority, list or tags: "..., and tag it #home", "and push it to friday"
    r"tag|label|reschedule|postpone|prioriti[sz]e|deprioriti[sz]e|"
    r"(?:move|push)(?=\s+(?:it|that|this|task\s*#?\d+)\b)|"
    # "and shift the bathroom to Sunday": a move that says where to
    r"(?:move|push|shift|bump)(?=\s+[^,;.!?]*?\b(?:to|till|until|back|forward)\b)|"
    # "and the first one can wait till tomorrow": a row or a pronoun put off to a day
    r"(?:the\s+(?:first|second|third|fourth|fifth|last|other)\s+one|it|that(?:\s+one)?|"
    r"this(?:\s+one)?)(?=\s+can\s+(?:wait|be\s+moved|be\s+pushed|move|go)\b)|"
    r"make(?=\s+(?:it|that|this|task\s*#?\d+)\s+(?:high|low|medium|top)[\s-]+priority\b))\b"
)
_CLAUSE_SPLIT = re.compile(
    # "Could you also add a note to it": the "also" of a polite request splits nothing
    r"(?<!\byou)(?<!\byou\s)(?<!\bplease)(?<!\bplease\s)"
    r"\s*(?:[,;]\s*)?\b(?:and then|and also|and|then|also|plus)\b\s+"
    # "... and add a description X" continues an update; it is not a new add.
    r"(?!(?:add|set|change|update)\s+(?:a\s+|the\s+|its\s+|new\s+)?(?:description|details|notes?)\b)"
    # "the dentist also delete, ...": a verb with nothing after it acts on what came before
    r"(?!\w+(?:\s+(?:please|too|also|pls))?\s*(?:[,.;!?]|$))"
    rf"(?={_ACTION_START})"
    rf"|(?<=[.!?;\u2190-\u2bff\U0001f000-\U0001faff])\s+(?={_ACTION_START})"
    # "add batteries, delete the paper towels"
    # "My boss sent it back, so I didn't actually finish that"; "I called her, so please
    # mark the call as complete"
    r"|\s*,\s*so\s+(?=i\s+(?:didn't|did not|haven't|have not)\b)"
    # "dentist done. passport done.": one done statement a sentence
    r"|(?<=\bdone[.!;])\s+|(?<=\bfinished[.!;])\s+|(?<=\bcompleted[.!;])\s+"
    rf"|\s*,\s*so\s+(?=(?:please\s+)?(?:mark|tick|cross|check|delete|remove|complete)\b)"
    # "so I switched to oat milk a while back, can you change the milk on my list to oat milk?"
    r"|(?<=[\w)])\s*,\s*(?=(?:so\s+)?(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?"
    r"(?:change|rename|update|edit)\b)",
    _I,
)
# A list of commands: "tick off the report, move the email to Thursday, and add X".
# "alexa add shampoo add razors", "add batteries, delete the paper towels": after a command,
# another one after a comma (or an add anywhere) starts a second request.
_NEXT_CHANGE = re.compile(
    # "could you also add a note": not after a polite lead
    r"(?<=\w)(?<!\byou)(?<!\bu)(?<!\balso)(?<!\bplease)(?<!\bjust)(?<!\bkindly)\s+(?=add\s+\w)"
    r"|(?<=\w)\s*,\s*(?=(?:please\s+)?(?:and\s+)?(?:" + COMMAND_VERB + r")\s+\w)",
    _I,
)
_LEADING_CHANGE = re.compile(r"^(?:please\s+)?(?:" + COMMAND_VERB + r")\s+\w", _I)


# What is said around a request without being one: acknowledgements, small talk, reasons.
_NOT_A_REQUEST = (Intent.SOCIAL, Intent.UNCLEAR, Intent.GREETING)
# Readings from a keyword or the model alone.
_KEYWORD_OR_MODEL = frozenset({RuleKind.KEYWORD, RuleKind.KEYWORD_ADD, RuleKind.MODEL})
# Statements read as requests only when nothing else in the message is one: in "Could you
# mark task nine done? The plants got a good long drink" the second sentence is a reason.
_STATEMENTS = STATEMENTS | _KEYWORD_OR_MODEL | {RuleKind.TASK_PHRASE}


# ", since the big shop's sort of done": a reason given after the request asks for nothing,
# and its words ("done") must not read as one.
_REASON_TAIL = re.compile(r"\s*,\s*(?:since|because|cos|coz|cause)\b[^;]*$", _I)


def split_clauses(text: str) -> list[str]:
    """The message's clauses; pure filler ("oh", "ok so"), small talk and reasons around a
    request ("Fine, then add bagels", "add milk. We're out.") are dropped."""
    text = _REASON_TAIL.sub("", text) or text
    done = _done_statements(text)
    if done:
        return done
    clauses = _clauses_of(_requested_sentences(text))
    requests = [_request_inside(c) for c in clauses if core_request(c) and not _is_greeting(c)]
    requests = _positions_continued(requests)
    if len(requests) > 1:
        requests = _requested_clauses(requests)
    if requests:
        return requests  # "Hi! Delete task 1": the greeting template would ask what to do
    meaningful = [c for c in clauses if core_request(c) or _GREETING_ONLY.match(c)]
    return meaningful or clauses


def _clauses_of(text: str) -> list[str]:
    """Every clause, split at conjunctions and commands, its chatter dropped."""
    return [
        _without_chatter(part.strip())
        for clause in _CLAUSE_SPLIT.split(text)
        if clause and clause.strip()
        for part in _changes_apart(clause)
    ]


def _changes_apart(clause: str) -> list[str]:
    """ "alexa add shampoo add razors": a clause led by an add or a delete, cut before each
    further one."""
    if _LEADING_CHANGE.match(core_request(clause)):
        return _NEXT_CHANGE.split(clause)
    return [clause]


# The verb that says a change again: "first two done. and the fifth", "add X, mark it done".
_VERB_OF = {Intent.COMPLETE: "complete", Intent.DELETE: "delete"}
_POSITION_LEAD = re.compile(r"^(?:and|also|plus|then)\s+", _I)


def _positions_continued(clauses: list[str]) -> list[str]:
    """ "first two done. and the fifth": a bare position after a change is that change."""
    continued = list(clauses)
    for index in range(1, len(continued)):
        bare = ALSO_TAIL.sub("", _POSITION_LEAD.sub("", core_request(continued[index])))
        if not is_position(bare):
            continue
        before = detect_intent(continued[index - 1]).intent
        if before in _VERB_OF:
            continued[index] = f"{_VERB_OF[before]} {bare}"
    return continued


def _requested_sentences(text: str) -> str:
    """The sentences that ask for something, once at least one plainly does ("Could you mark
    task nine done? The plants got a good drink."); the whole text when none does."""
    parts = SENTENCE_END.split(text)
    if len(parts) < 2:
        return text
    sentences = [s for s in parts if core_request(s)]
    kept = _asking_sentences(sentences) or _beside_small_talk(sentences)
    return " ".join(kept) if kept else text


def _asking_sentences(sentences: list[str]) -> list[str]:
    """The sentences that plainly ask, each with what continues or narrows it."""
    kept: list[str] = []
    for sentence in sentences:
        if kept and _CONTINUING.match(sentence):
            # "Add X please? And Y also.", "can you add A and B? oh and C"
            kept[-1] = f"{kept[-1].rstrip('.!?')} {_INTERJECTION_LEAD.sub('', sentence)}"
        elif not _is_chatter(sentence):
            kept.append(sentence)
        elif kept and _NARROWING.match(sentence):
            kept[-1] = f"{kept[-1]} {sentence}"  # "Read me my list. Just the pending ones."
    return kept


def _beside_small_talk(sentences: list[str]) -> list[str]:
    """ "amazing. so what do I still need to buy now?": no sentence plainly asks, but the
    small talk still goes, so it does not blur the one that may ([] when nothing goes or
    nothing is left about tasks)."""
    read = [(s, detect_intent(s)) for s in sentences]
    rest = [(s, d) for s, d in read if not (_is_greeting(s) or d.intent is Intent.SOCIAL)]
    if len(rest) < len(read) and any(d.intent not in _NOT_ABOUT_TASKS_HERE for _, d in rest):
        return [s for s, _ in rest]
    return []


# "hey so I finally looked at my calendar and ...": what happened, not a request
_PAST_STATEMENT = re.compile(
    r"^\W*(?:(?:hey|so|ok|okay|well|oh|and|anyway)\W+)*(?:i|we)\s+(?:\w+\s+)?\w+ed\b", _I
)


def _requested_clauses(clauses: list[str]) -> list[str]:
    """ "fine, then add bagels", "do me a favor and put sharpies on my list": the clauses
    that ask for something, once one plainly does (a request out of scope still counts)."""
    detections = [detect_intent(c) for c in clauses]
    # A statement stays ("I called mom, also remind me to call dad"); small talk goes.
    plain = [d.intent not in _NOT_A_REQUEST and d.kind not in _KEYWORD_OR_MODEL for d in detections]
    kept = [
        c
        for c, d, is_plain in zip(clauses, detections, plain, strict=True)
        if is_plain or _out_of_scope_request(c, d, plain)
    ]
    return _without_reasons_for_an_update(kept, clauses, detections) or clauses


def _out_of_scope_request(clause: str, detection: Detection, plain: list[bool]) -> bool:
    """An off-topic request, which counts as one; but "turns out my insurance only covers the
    clinic downtown, so can you change ...": what only the model calls off-topic, beside a
    plain request, is a reason."""
    return detection.intent is Intent.OFF_TOPIC and not (
        any(plain)
        and detection.kind is RuleKind.MODEL
        and (not names_another_job(clause) or _PAST_STATEMENT.match(clause) is not None)
    )


def _without_reasons_for_an_update(
    kept: list[str], clauses: list[str], detections: list[Detection]
) -> list[str]:
    """ "I switched to oat milk, can you change the milk to oat milk": the statement is the
    reason for the change, not a request of its own."""
    if not any(d.intent is Intent.UPDATE and d.kind not in STATEMENTS for d in detections):
        return kept
    said = {
        c
        for c, d in zip(clauses, detections, strict=True)
        # "the second one I did": a row named is a task done, never a reason
        if d.kind in STATEMENTS and not names_a_position(d.obj)
    }
    return [c for c in kept if c not in said]


# Where a statement by "I" starts: "I booked the dentist AND I called my mom", "... . I paid it"
_NEXT_I = re.compile(
    r"(?:\s*[,;.!]+\s*|\s+)(?:(?:and|also|plus)\s+)?(?=i\s+(?:(?:also|finally|just|already)\s+)*"
    r"[a-z]+\b)",
    _I,
)
_SUBJECT_I = re.compile(r"\bi\s", _I)
_ASKED_FOR = re.compile(
    r"\b(?:add|put|delete|remove|mark|tick|cross|check|change|rename|can you|could you|please|"
    r"show|list)\b",
    _I,
)


def _done_statements(text: str) -> list[str] | None:
    """ "ok so big day, I finally booked the dentist AND I called my mom, she says hi": one
    done statement by "I" each, when that is all the message says (the rest small talk)."""
    if len(_SUBJECT_I.findall(text)) < 2 or _ASKED_FOR.search(text):
        return None  # most messages: a cheap first look; a request said beside them
    pieces = [p.strip() for p in _NEXT_I.split(text) if p.strip(" ,.;!")]
    if len(pieces) < 2:
        return None
    done: list[str] = []
    for piece in (_without_chatter(p) for p in pieces):
        detection = detect_intent(piece)
        if detection.kind is RuleKind.DID_X:
            done.append(piece)
        elif (
            detection.intent not in _NOTHING_TO_DO or detection.kind is not RuleKind.MODEL
        ) and detection.intent not in _NOT_A_REQUEST:
            return None  # another request, or a statement of another kind ("big day": talk)
    return done if len(done) >= 2 else None


def _without_chatter(clause: str) -> str:
    """ "delete the eggs, we're going vegan" -> "delete the eggs": what follows a request
    after a comma and a new subject is a reason, not part of the request."""
    for said in CHATTER_START.finditer(clause):
        request = clause[: said.start()]
        if not request.strip():
            continue
        detection = detect_intent(request)
        if detection.intent in _NOT_A_REQUEST or detection.kind is RuleKind.MODEL:
            continue  # "Good news, I've emailed Sarah, and she replied": not after "Good news"
        return request
    return clause


_NOT_ABOUT_THE_LIST = (Intent.SOCIAL, Intent.OFF_TOPIC, Intent.GREETING, Intent.HELP)
_NOTHING_TO_DO = (*_NOT_A_REQUEST, Intent.OFF_TOPIC)
_NOT_ABOUT_TASKS_HERE = (*_NOTHING_TO_DO, Intent.HELP)
_WEAK = _KEYWORD_OR_MODEL | {
    RuleKind.NO_RULE,
    RuleKind.TASK_PHRASE,
    RuleKind.NOTHING_TO_ACT_ON,
    RuleKind.ON_MY_LIST,
}
_COMMA = re.compile(r"\s*,\s*")


def _request_inside(clause: str) -> str:
    """ "So my sister asked if I'd called mom and I don't remember, did I already call mom,
    according to my list?": when the whole clause reads as no clear request, the one
    comma-separated part that plainly is one."""
    parts = [p for p in _COMMA.split(clause) if core_request(p)]
    if len(parts) < 2 or ":" in clause:
        return clause
    whole = detect_intent(clause)
    if _plainly_a_request(whole):
        return clause
    plain = [p for p in parts if _plainly_a_request(detect_intent(p))]
    if not plain:
        return clause
    if whole.kind is RuleKind.MODEL and whole.intent in _NOT_ABOUT_THE_LIST:
        # The model read the whole clause as not about the list; only a command about the
        # list with a real object overrules it ("..., so please add rice, chicken and onions").
        if not _COMMAND_ON_THE_LIST.match(core_request(plain[0])):
            return clause
    # From the request on: what follows it narrows it ("..., done stuff included").
    return clause[clause.index(plain[0]) :]


_COMMAND_ON_THE_LIST = re.compile(
    r"^(?:(?:so|anyway|then)\s+)*(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:add|put|stick|pop|tick|cross|check|mark|delete|remove|take|show|read|list|wipe|clear|"
    r"change|rename|update|get rid of|scrap|drop|ditch)\b\s+"
    r"(?!(?:it|this|that|them|those|these)\b)\w",
    _I,
)


def _plainly_a_request(detection: Detection) -> bool:
    return detection.intent not in _NOTHING_TO_DO and detection.kind not in _WEAK


# "milk done. eggs delete. add bread": a terse "X done" is a request of its own
_TERSE_DONE = re.compile(r"^[\w' -]{1,30}?\s+(?:done|finished|bought|sorted)[.!]*$", _I)


def _is_chatter(sentence: str) -> bool:
    if _is_greeting(sentence):
        return True
    # "ok push it to friday, I still need to sort the photos": read without its aside
    sentence = _without_chatter(sentence)
    detection = detect_intent(sentence)
    if (
        detection.kind is RuleKind.X_IS_DONE
        and detection.verbatim
        and _TERSE_DONE.match(sentence.strip())
        and not names_a_position(sentence)
        and not is_position(detection.obj)  # "first two done. and the fifth": rows, read below
    ):
        return False
    return detection.intent in _NOT_A_REQUEST or detection.kind in _STATEMENTS


# A sentence that adds to the request before it: "And 'vacuum the car' also."
_INTERJECTION_LEAD = re.compile(r"^(?:oh|ah|ooh|and oh|oh yeah)[\s,]+(?=and|also|plus)", _I)
_CONTINUING = re.compile(
    r"^(?:(?:oh|ah|ooh|and oh|oh yeah)[\s,]+)?(?:and|also|plus)\s+(?!(?:then|now)\b)", _I
)
# A sentence that narrows the request before it: "Just the stuff I haven't done yet."
_NARROWING = re.compile(r"^(?:(?:ugh|hmm+|no|actually|well)[\s,]+)*(?:just|only)\b", _I)


def _is_greeting(clause: str) -> bool:
    return GREETING_PATTERN.match(strip_end_punctuation(clause)) is not None


_GREETING_ONLY = re.compile(r"^(?:hi|hello|hey|yo|hiya|howdy)\b", _I)


# "I walked the dog, mark it done": the pronoun points back into the same message.
_PRONOUN_TAIL = re.compile(
    # "..., mark it done"; also across a sentence: "The dry cleaning has not been picked up
    # after all. Could you mark it as not done?", "... on my list. Can you get rid of it?"
    r"^(?P<statement>.+?)(?:(?:,|;|\s[-\u2013\u2014])\s*(?:so\s+|and\s+|then\s+)?|"
    r"(?<=\w)[.!?]+\s*(?:so\s+|then\s+|and\s+)?)"
    # "..., anyway you can tick that one off"
    r"(?:(?:anyway|anyways|anyhow|ok|okay|right)[\s,]+)?"
    r"(?:(?:could|would|can|will|might|may)\s+(?:you|u)\s+(?:please\s+)?(?:just\s+)?|"
    r"(?:would|do) you mind\s+|if\s+(?:you|u)\s+(?:could|can|would)\s+(?:please\s+)?)?"
    r"(?:you can\s+|please\s+|go ahead and\s+|just\s+)?"
    r"(?P<verb>mark|tick|check|cross|take|delete|remove|complete|reopen|uncheck|get rid of|drop|"
    r"scratch|ditch|knock|unmark|untick|marking|ticking|checking|crossing|deleting|removing|"
    r"completing|unmarking|unticking|"
    r"reopening|done)"
    r"(?:\s+(?:those two|these two|both of them|it|that one|that|this one|this|them|those|"
    r"these|both)\b(?P<tail>.*)|"
    # "..., delete please", "booked it. tick": the verb alone ends the message
    r"(?P<bare>(?:\s+(?:off|done|as done|please|now|pls))*)[\s.!?]*)$",
    _I,
)


# "her" as an object ("I called her"), not "her mother".
_OBJECT_PRONOUN = (
    r"(?:him|them|it|her(?=\s*(?:$|[,.!?;:]|\s(?:back|again|today|yesterday|this|last|up|about|"
    r"and|so|but|on|at|in|for|finally|already|earlier|just|now|the|a|an)\b)))\b"
)
# "I just sent her the email", "booked it": the pronoun is what the verb acted on.
_NAMES_BY_PRONOUN = re.compile(
    r"\b(?:\w+ed|sent|did|done|made|paid|bought|got|rang|took|gave|told|met|fed)\s+"
    rf"{_OBJECT_PRONOUN}|^(?:\w+\s+){{0,3}}?{_OBJECT_PRONOUN}"
    # "I buy them yesterday", "I have just put the phone down with her"
    # (said first, with no task named before them)
    r"|^(?:\w+\W+)?(?:i|we)\s+(?:(?:just|already|finally|have|had)\s+)*\w+\s+(?:her|him|them|it)\b"
    r"|^(?:i|we)\b.*\b(?:with|to|for)\s+(?:her|him)\b"
    r"|\b(?:that|this)[\s.!?]*$",
    _I,
)
# A task named first, then what is said about it: "the call to mom, not needed anymore, ..."
_TOPIC_FIRST = re.compile(
    r"^(?:(?:and|also|oh and|oh|so)\s+)?(?P<topic>(?:the|my)\s+[\w'-]+(?:\s+[\w'-]+){0,5}?)"
    r"\s*,\s*\S.*[,.!?]\s*\S",
    _I,
)
_A_CLAUSE = re.compile(r"\b(?:i|we|you|he|she|they|was|were|is|are|i'm|i've|did|do|have)\b", _I)
_ADD_COMMAND = re.compile(r"^(?:add|create|put|remind me)\b", _I)


def merge_pronoun_tail(text: str) -> str:
    """Applies a trailing "..., <verb> it" to the task the first part of the message names."""
    match = _PRONOUN_TAIL.match(text)
    if match is None:
        return text
    statement = _without_greeting(match.group("statement"))
    asked = _verb_and_tail(match)
    if asked is None:
        return text  # "..., done it": said, not asked
    verb, tail = asked
    if not core_request(statement):
        return text  # "Actually, mark it as done": nothing before the comma names a task
    pointed = _pointed_back_to(statement, verb, tail)
    if pointed is not None:
        return pointed
    return _read_together(statement, verb, tail)


def _verb_and_tail(match: re.Match[str]) -> tuple[str, str] | None:
    """The verb asked for and what follows its pronoun; None for a "done" that is said."""
    verb = GERUNDS.get(match["verb"].lower(), match["verb"])  # "would you mind reopening it"
    tail = match.group("tail") if match.group("tail") is not None else match.group("bare") or ""
    if verb.lower() != "done":
        return verb, tail
    if match.group("tail") is not None:
        return None  # "..., done it": said, not asked
    return "mark", " as done"  # "packed it. done"


def _pointed_back_to(statement: str, verb: str, tail: str) -> str | None:
    """The request when the statement plainly says what the pronoun means: "all", its
    positions, a task named first, or a pronoun of its own; None when it does not."""
    if re.match(r"\s+all\b", tail, _I):
        return f"{verb} it{tail}"  # "everything on there is done. mark it all complete."
    positions = position_phrases(statement)
    if positions and names_a_position(statement):
        # "the second one I did in the car, ..., and the one at the bottom last night. tick
        # those two off": the positions are what the pronoun points back to.
        return f"{verb} {' and '.join(positions)}{tail}"
    # "hold on, the last one on there, I never picked that up": the topic after the lead
    topic = _TOPIC_FIRST.match(statement) or _TOPIC_FIRST.match(core_request(statement))
    if topic and not _A_CLAUSE.search(topic["topic"]):
        # "And the call to mom, not needed anymore, she visit us this weekend. Delete it"
        return f"{verb} {topic['topic']}{tail}"
    if _NAMES_BY_PRONOUN.search(statement):
        # "I just sent her the email, so mark it done": "her" and "it" are what was just
        # talked about, not a title to search for.
        return f"{verb} it{tail}"
    return None


def _read_together(statement: str, verb: str, tail: str) -> str:
    """The statement and the verb after it read as requests: the statement (or its first
    sentence) when it already asks the same, an add then the change, or the change on it."""
    said = detect_intent(statement)
    asked = detect_intent(f"{verb} it{tail}")
    if said.intent is asked.intent and said.action is asked.action:
        return statement
    first = SENTENCE_END.split(statement.strip())[0]
    said_first = detect_intent(first) if first != statement.strip() else said
    if said_first.intent is asked.intent and said_first.action is asked.action:
        return first  # "the mom one isn't really done. I promised to call her back tonight"
    if _ADD_COMMAND.match(core_request(statement)) and asked.intent in _VERB_OF:
        # "Add walk the dog, mark it done": add first, then act on the task just added.
        return f"{statement} and then {_VERB_OF[asked.intent]} it"
    return f"{verb} {core_request(statement)}{tail}"


def _without_greeting(statement: str) -> str:
    """ "morning! so the big news is I booked the dentist": the statement after the hello."""
    sentences = SENTENCE_END.split(statement)
    if len(sentences) > 1 and _is_greeting(sentences[0]):
        return " ".join(sentences[1:])
    return statement


# "change task 1 to call mom and task 2 to buy milk": one verb, two renames.
_SHARED_RENAME = re.compile(
    r"^(?P<verb>(?:please\s+)?(?:change|rename|update|edit|set))\s+"
    r"(?P<first>(?:task\s*)?#?\d+\s+to\s+.+?)\s*,?\s+and\s+"
    r"(?P<second>(?:task\s*)?#?\d+\s+to\s+.+)$",
    _I,
)


def distribute_rename_verb(text: str) -> str:
    match = _SHARED_RENAME.match(text)
    if match is None:
        return text
    verb = match.group("verb")
    return f"{verb} {match.group('first')} and then {verb} {match.group('second')}"
