"""Rules and the learned model, reconciled: which kind of request a clause is.

The rules decide first, and record how sure they are: a leading command ("add X", "delete
task 3"), a task number or a full sentence pattern ("is X on my list?") is a strong decision;
a guess from a bare phrase, a keyword or nothing at all is weak. The learned model
(`intent_model.py`) reads the whole clause and scores every kind of request. Then:

- the model agrees, or is not confident: the rules' decision stands;
- a weak rule decision meets a confident model: the model decides the kind of request and
  the rules extract its slots for that kind (a title, a status, the item asked about);
- a strong rule decision is overturned only when the model is very sure the message is not
  about the task list at all ("show me the weather", "add lunch to my calendar");
- the model never starts a change on its own: when it says complete, delete or update and
  the rules did not, the assistant asks (safety over guessing).

Every decision names what decided it (`meta.rules`), with the model's confidence.
"""

from __future__ import annotations

import re

from backend.agent.rules.create import names_several_items
from backend.agent.rules.extract import extract_status, names_a_task_number
from backend.agent.rules.intent_model import CachedModel, Prediction, intent_model
from backend.agent.rules.numbers import names_a_position
from backend.agent.rules.patterns import DONE_STATEMENTS, STATEMENTS
from backend.agent.rules.query import BARE_THING, query_slot
from backend.agent.rules.social import is_about_the_assistant, names_another_job
from backend.agent.rules.text import SENTENCE_END, SETTLE_LIMIT, core_request
from backend.agent.rules.types import (
    ACTIONS_ON_A_TASK,
    Action,
    Detection,
    Intent,
    RuleKind,
    act_of,
)
from backend.agent.rules.vocabulary import OTHER_APPS_THINGS, is_task_verb

_I = re.IGNORECASE

# A keyword of the spec decided, "add" or another.
_KEYWORDS = frozenset({RuleKind.KEYWORD, RuleKind.KEYWORD_ADD})
# Rules whose decision is a guess from a bare phrase or from nothing: the model may decide.
_GUESSES = frozenset(
    {
        RuleKind.TASK_PHRASE,
        RuleKind.NO_RULE,
        RuleKind.NOTHING_TO_ACT_ON,
        RuleKind.NEED_TO,
        RuleKind.GUESS,  # a question about the list or the day, the list itself, hi, help
        RuleKind.ON_MY_LIST,
        *STATEMENTS,
        RuleKind.SHOULD_BE_ADDED,
        *_KEYWORDS,
    }
)
# Guesses whose sentence names a task or the list: never small talk unless the model is sure.
_ABOUT_TASKS = frozenset(
    {RuleKind.NEED_TO, RuleKind.ON_MY_LIST, RuleKind.SHOULD_BE_ADDED, RuleKind.NOT_NEEDED}
)
# Rules that found a leading "add"/"show": weak too ("show me the weather"). On the tuning
# quarter a higher bar for them (0.75) stored more calendar events as tasks than it saved
# real adds, so they yield at the same confidence as a guess.
_COMMAND_WORDS = frozenset({RuleKind.LEADING_SHOW, RuleKind.LEADING_ADD})
# An add said with the word itself: a leading "add ..." or the keyword "add".
_ADD_SAID_OUTRIGHT = frozenset({RuleKind.LEADING_ADD, RuleKind.KEYWORD_ADD})
# Thresholds, chosen on the tuning quarter (specs/decisions/0010-intent-model.md). The model's
# confidences are calibrated (a fitted softmax temperature, session 13): below 0.5 the tuning
# conversations still gained (926 at 0.5, 928 at 0.3 and 0.2), the utterances did not move.
WEAK_OVERRULE = 0.3
STRONG_OVERRULE = 0.9

# "show me everything", "put it all on my list": a leading command that names the list.
_NAMES_THE_LIST = re.compile(
    r"\b(?:everything|all|tasks|to-?dos|my stuff|pending|completed|left|outstanding|unfinished|"
    r"incomplete|remaining|(?:pending|open|done|finished|completed) ones)\b"
    # "see what things I need buy"
    r"|\b(?:i|we)\s+(?:still\s+)?(?:need|have)(?:\s+to)?\s+(?:buy|get|do|pick up)\b",
    _I,
)
# "stick bin bags on the list while I remember": an add onto the list, said outright
_ONTO_A_LIST = re.compile(
    r"\b(?:on|onto|to|in)\s+(?:the|my|our)\s+(?:[\w'-]+\s+)?(?:list|to-?do list|todo list)\b", _I
)
# "now show me", "show me again": a show with nothing else named shows the list
_NOTHING_ELSE = re.compile(
    # "read them out to me": what was just counted or talked about
    r"^(?:(?:me|us|it|them|those|these|again|now|please|pls|then|out|to|aloud|back)\b\s*)*$",
    _I,
)
# A clear names something going away; "todo list" alone is the list to see.
_REMOVAL = re.compile(
    r"\b(?:cle+a?r\w*|del\w*t\w*|remo?v\w*|rmv|"
    r"(?:don't|do not|no longer) (?:want|need)|"
    r"any ?more|new list|fresh|wip\w*|eras\w*|empt\w*|get rid|rid of|scrap\w*|"
    r"reset|start (?:over|fresh|again|from scratch)|fresh start|trash|bin|purg\w*|nuk\w*|"
    r"cancel\w*|drop|off|done with|finished with|through with|over|away|gone|clean\w*|"
    r"throw|toss|blank|kill|ditch|dump|zap|abolish|destroy|all of it)\b",
    _I,
)
# "chuck bread on there then": an add onto the list just talked about
_ON_THERE = re.compile(r"\b(?:on|onto|in)\s+there\b", _I)
# "I did it", "I didn't actually finish that", "cross it off": about the task just talked
# about. The model, reading the sentence alone, takes them for small talk.
_ABOUT_THE_LAST_TASK = frozenset({RuleKind.DID_IT, RuleKind.CROSS_IT_OFF})
_PRONOUN = re.compile(r"^(?:it|that|this|that one|this one)$", _I)
_NOT_ABOUT_TASKS = {
    "off_topic": Intent.OFF_TOPIC,
    "social": Intent.SOCIAL,
    "greeting": Intent.GREETING,
    "help": Intent.HELP,
}
_DONE_SAID = DONE_STATEMENTS | {RuleKind.ALREADY_DONE}
_CHANGES = {"complete", "delete", "update", "clear", "reopen"}


# What another assistant keeps, or when something happens: "add my practice at king's park on
# feb four at two pm", "add birthday with mom for next month" are calendar events.
_ANOTHER_APPS_ITEM = re.compile(
    rf"\b(?:{OTHER_APPS_THINGS}|appointments?|reminders?|remind|schedule|timers?|"
    r"at \d|\d ?(?:am|pm)|o'?clock)\b",
    _I,
)
_WHEN = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|next|this (?:week|month|year|weekend)|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|on the \w+|on (?:jan|feb|mar|apr|may|jun|jul|"
    r"aug|sep|oct|nov|dec)\w*|with)\b",
    _I,
)
_ADD_SAID = re.compile(r"\badd\b", _I)


def _adds_a_task_outright(clause: str, detection: Detection, prediction: Prediction) -> bool:
    """ "can you add costume for Mia's play", "add cook dinner for my family": the word "add"
    and an undated thing that is no other app's. The model hears "play" or "cook" as another
    assistant's job; only a sure model overrules the request (as for several items)."""
    return (
        detection.kind in _ADD_SAID_OUTRIGHT
        and prediction.label == "off_topic"
        and _ADD_SAID.search(clause) is not None
        and not _ANOTHER_APPS_ITEM.search(clause)
        # "add buy milk with details ...": a thing to do, whatever follows; "add birthday with
        # mom for next month" names an event
        and (_starts_with_a_task_verb(detection.obj) or not _WHEN.search(detection.obj))
    )


def _starts_with_a_task_verb(obj: str) -> bool:
    words = obj.split()
    return bool(words) and is_task_verb(words[0])


_REMIND_ME_TO = re.compile(r"\bremind me to\s+(?P<verb>[a-z]+)", _I)


def _reminded_to_do(clause: str, detection: Detection) -> bool:
    """ "alexa remind me to bring an umbrella": a thing to do, asked for outright."""
    asked = _REMIND_ME_TO.search(clause)
    return (
        detection.intent is Intent.CREATE
        and asked is not None
        and is_task_verb(asked["verb"])
        and not _ANOTHER_APPS_ITEM.search(detection.obj)
    )


_WIPED = re.compile(r"^(?:scrap|bin|trash|ditch|nuke|wipe|clear|delete|remove|erase|empty)\b", _I)


_SENTENCE_MARK = re.compile(r"[.!?]\s+\S")


def _after_small_talk(clause: str) -> str:
    """The clause without a first sentence that is only thanks or an interjection ("Thank
    you. Now only the ones still to be done", "Splendid. Please mark them as purchased."): the
    model weighs the thanks as much as the request after it."""
    if not _SENTENCE_MARK.search(clause):
        return clause
    sentences = SENTENCE_END.split(clause.strip(), maxsplit=1)
    if len(sentences) == 2 and not core_request(sentences[0]) and core_request(sentences[1]):
        return sentences[1]
    return clause


def _small_talk(prediction: Prediction) -> bool:
    return prediction.label in ("social", "greeting") and prediction.confidence >= WEAK_OVERRULE


def _about_the_last_task(detection: Detection) -> bool:
    """ "I did it", "cross it off", "that's done now", said as written."""
    return detection.verbatim and (
        detection.kind in _ABOUT_THE_LAST_TASK
        or (detection.kind is RuleKind.X_IS_DONE and _PRONOUN.match(detection.obj) is not None)
    )


def _act(detection: Detection) -> str:
    return act_of(detection.intent, detection.action)


def arbitrate(clause: str, detection: Detection) -> Detection:
    model = intent_model()
    if model is None or detection.action is Action.UNDO:
        return detection
    core = core_request(clause)
    if _rules_decide_alone(core, detection):
        return detection
    if _keyword_talks_to_the_assistant(clause, detection):
        # "do you ever get sick of people asking you to remember milk": talk to the assistant
        rule = f"about the assistant over '{detection.rule}'"
        return Detection(Intent.SOCIAL, rule, kind=RuleKind.ABOUT_THE_ASSISTANT)
    prediction = model.predict(_after_small_talk(clause))
    if _unclear_talk_to_the_assistant(clause, detection, prediction):
        # "amazing, honestly you're saving my sibling relationships": talk to the assistant
        rule = f"model: {prediction.label}, about the assistant: social"
        return Detection(Intent.SOCIAL, rule, kind=RuleKind.MODEL)
    if prediction.label == _act(detection):
        return detection
    if _clear_said_with_its_verb(core, detection, prediction):
        return detection  # "scrap it all": a clear said with its verb only asks, never chats
    said_outright = _adds_a_task_outright(clause, detection, prediction)
    if said_outright and _starts_with_a_task_verb(detection.obj):
        return detection  # "add buy milk with <a long description>": a thing to do, said so
    weak = _is_weak(clause, detection)
    if prediction.label in _NOT_ABOUT_TASKS:
        about_tasks = _about_tasks(model, prediction, clause, detection, said_outright)
        return _not_about_tasks(prediction, clause, detection, weak and not about_tasks)
    if not weak or prediction.confidence < WEAK_OVERRULE:
        return detection
    return _model_kind(prediction, clause, detection)


def _rules_decide_alone(core: str, detection: Detection) -> bool:
    """A decision the model is not asked about."""
    return (
        # a task number is the strongest signal there is
        (names_a_task_number(core) and detection.intent is not Intent.UNCLEAR)
        # "that's done now": about the task just talked about
        or _about_the_last_task(detection)
        # "first three are done": rows of the list just shown
        or (detection.intent in ACTIONS_ON_A_TASK and names_a_position(detection.obj))
    )


def _keyword_talks_to_the_assistant(clause: str, detection: Detection) -> bool:
    """A keyword's change or add in a sentence about the assistant itself."""
    return (
        detection.kind in _KEYWORDS
        and detection.intent in (*ACTIONS_ON_A_TASK, Intent.CREATE)
        and is_about_the_assistant(clause)
    )


def _unclear_talk_to_the_assistant(
    clause: str, detection: Detection, prediction: Prediction
) -> bool:
    """No rule decided, the model hears no request, and the sentence is about the assistant."""
    return (
        detection.intent is Intent.UNCLEAR
        and prediction.label in ("social", "off_topic", "greeting")
        and is_about_the_assistant(clause)
    )


def _clear_said_with_its_verb(core: str, detection: Detection, prediction: Prediction) -> bool:
    return (
        detection.action is Action.CLEAR
        and prediction.label in ("social", "greeting")
        and _WIPED.match(core) is not None
    )


def _is_weak(clause: str, detection: Detection) -> bool:
    """A guess, or a leading command word whose object names neither the list nor a task."""
    return detection.kind in _GUESSES or (
        detection.kind in _COMMAND_WORDS
        and not _NAMES_THE_LIST.search(detection.obj)
        and not (detection.intent is Intent.LIST and _NOTHING_ELSE.match(detection.obj))
        and not (detection.intent is Intent.CREATE and _ON_THERE.search(detection.obj))
        and not _reminded_to_do(clause, detection)
    )


def _about_tasks(
    model: CachedModel,
    prediction: Prediction,
    clause: str,
    detection: Detection,
    said_outright: bool,
) -> bool:
    """The rules' reading names a task or the list: only a very sure model says otherwise."""
    return (
        detection.kind in _ABOUT_TASKS
        or _several_items_to_add(prediction, clause, detection)
        or said_outright
        or _add_beside_thanks(model, prediction, detection)
    )


def _several_items_to_add(prediction: Prediction, clause: str, detection: Detection) -> bool:
    """ "please add dates and arabic coffee, guests are coming on friday": several items to
    add are a shopping list, not a calendar event."""
    return (
        detection.kind in _ADD_SAID_OUTRIGHT
        and prediction.label == "off_topic"
        and not names_another_job(clause)
        and names_several_items(detection.obj)
    )


def _add_beside_thanks(model: CachedModel, prediction: Prediction, detection: Detection) -> bool:
    """ "Thank you kindly. Would you also add dish soap?": the thanks is beside it."""
    return (
        prediction.label in ("social", "greeting")
        and detection.kind is RuleKind.LEADING_ADD
        and bool(detection.obj)
        # "and that's it, bye", "remember who compiled you": the thing is small talk
        and not _small_talk(model.predict(detection.obj))
    )


def _not_about_tasks(
    prediction: Prediction, clause: str, detection: Detection, overruled_easily: bool
) -> Detection:
    """The model hears no request about the list: it decides when confident enough."""
    threshold = WEAK_OVERRULE if overruled_easily else STRONG_OVERRULE
    if prediction.confidence >= threshold:
        rule = f"model: {prediction.label} ({prediction.confidence:.2f})"
        intent = _NOT_ABOUT_TASKS[prediction.label]
        if intent is Intent.OFF_TOPIC and is_about_the_assistant(clause):
            social = f"{rule}, about the assistant: social"
            return Detection(Intent.SOCIAL, social, kind=RuleKind.MODEL)
        return Detection(intent, rule, kind=RuleKind.MODEL)
    return detection


def _model_kind(prediction: Prediction, clause: str, detection: Detection) -> Detection:
    """The model's kind of request, with its slots extracted by the rules."""
    label = prediction.label
    rule = f"model: {label} ({prediction.confidence:.2f}) over '{detection.rule}'"
    if label == "list":
        return _model_list(rule, detection)
    if label == "query":
        return _model_query(rule, clause)
    if label == "add":
        return _model_add(rule, clause, detection)
    if label == "clarify":
        return Detection(Intent.UNCLEAR, rule, kind=RuleKind.MODEL)
    if label == "clear":
        return _model_clear(rule, clause, detection)
    return _model_change(label, rule, clause, detection)


def _model_list(rule: str, detection: Detection) -> Detection:
    if detection.intent is Intent.CREATE and _ONTO_A_LIST.search(detection.obj):
        return detection  # "stick bin bags on the list while I remember": onto it, not see it
    return Detection(Intent.LIST, rule, kind=RuleKind.MODEL)


def _model_query(rule: str, clause: str) -> Detection:
    item, action = query_slot(clause)
    if action is Action.LOOKUP and item:
        return Detection(Intent.LIST, rule, item, Action.LOOKUP, kind=RuleKind.MODEL)
    if BARE_THING.match(core_request(clause)):
        # "passport?"
        return Detection(
            Intent.LIST, rule, core_request(clause), Action.LOOKUP, kind=RuleKind.MODEL
        )
    return Detection(Intent.LIST, rule, "", Action.COUNT, kind=RuleKind.MODEL)


# A sentence with its own subject and verb, or a wave-off: talk, never a title to add.
_A_STATEMENT = re.compile(
    r"^\W*(?:(?:oh|ah|well|so|ok|okay|hmm|yeah|and|but|anyway|honestly)\W+)*"
    r"(?:(?:i|we|they|he|she|it|that|there|you|this)(?:'re|'s|'ve|'m|'ll|'d)"
    r"|(?:i|we|they|he|she|it|that|there|you|this)\s+(?:(?:always|never|just|really|probably|"
    r"must|should|could|would|might)\s+)*(?:are|is|was|were|am|have|has|had|will|can|do|does|"
    r"did|don't|didn't|doesn't|won't|can't|must|should|could|would|might|always|never)\b"
    # "my grandson is coming to stay on saturday": something said about someone or something
    r"|(?:my|our|his|her|their)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|was|were|has|had)\s+"
    r"(?:\w+ing|been|gone|here|back|away|over)\b"
    r"|never\s*mind|nvm)",
    _I,
)


# "..., can you throw those on": a statement with a request beside it
_ASKS_FOR_IT = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|u)\b|\b(?:please|pls|plz)\b|\b(?:i|we)\s+need\b",
    _I,
)


def _model_add(rule: str, clause: str, detection: Detection) -> Detection:
    if detection.intent is Intent.CREATE or detection.kind in _DONE_SAID:
        return detection  # "I buy the eggs already" is done, never a new task
    if _A_STATEMENT.match(core_request(clause)) and not _ASKS_FOR_IT.search(clause):
        # "they're always a nightmare to get hold of": said of something, no task to add
        return Detection(Intent.SOCIAL, f"{rule}, a statement: social", kind=RuleKind.MODEL)
    # A keyword's remainder ("... list for shopping" -> "for shopping") is no title.
    guessed = detection.kind in (*_KEYWORDS, RuleKind.NO_RULE) or not detection.obj
    title = core_request(clause) if guessed else detection.obj
    return Detection(Intent.CREATE, rule, title, kind=RuleKind.MODEL)


def _model_clear(rule: str, clause: str, detection: Detection) -> Detection:
    if not _REMOVAL.search(clause):
        return detection  # "todo list": the list named, nothing asked to go
    # Clearing always asks first (with the count), so the model may raise the question.
    status = "completed" if extract_status(clause) == "completed" else "all"
    return Detection(Intent.DELETE, rule, status, Action.CLEAR, kind=RuleKind.MODEL)


def _model_change(label: str, rule: str, clause: str, detection: Detection) -> Detection:
    """A change (complete, delete, update, reopen) the rules did not see, or another kind."""
    if detection.kind in _DONE_SAID and label in _CHANGES:
        return detection  # "milk and eggs done": said done, never deleted or renamed
    if label in _CONFIRMED:
        # Never a change the rules did not see: name the task found and ask first.
        thing = named_thing(clause)
        return Detection(_CONFIRMED[label], rule, thing, Action.CONFIRM, kind=RuleKind.MODEL)
    if label in _CHANGES:
        return Detection(Intent.UNCLEAR, rule, kind=RuleKind.MODEL)  # ask what to do
    return detection


# What a change the rules could not read names: "can you take frozen food of my shopping
# list" -> "frozen food"; "we're out of paint so take bathroom painting off the list".
_AFTER_SO = re.compile(r"^.*\bso\s+(?=\w)", _I)
_ON_THE_LIST = re.compile(
    r"\s+(?:off|of|from|out of|on|in|to|onto)\s+(?:(?:my|the|our|this|a)\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:lists?|to-?dos?|tasks|reminders)\b.*$",
    _I,
)
_ASKING = re.compile(
    r"^(?:(?:can|could|would|will) you\s+|please\s+|kindly\s+|"
    r"(?:i|we)\s+(?:want|need|would like)\s+(?:you\s+)?to\s+|(?:i|we)\s+no longer need\s+)+",
    _I,
)
_CHANGE_VERB = re.compile(
    r"^(?:take|cross|remove|delete|get|move|strike|tick|check|mark|scratch|erase|drop)\b"
    r"(?:\s+(?:out|off|away))?\s*",
    _I,
)
_CHANGE_TAIL = re.compile(
    r"\s+(?:off|out|away|as done|done|item|removed|deleted|taken away|to (?:the )?(?:trash|bin))$",
    _I,
)
_NOTHING_NAMED = re.compile(r"^(?:it|that|this|them|those|these|him|her|that one|this one)?$", _I)
_CONFIRMED = {"complete": Intent.COMPLETE, "delete": Intent.DELETE}


def named_thing(clause: str) -> str:
    """The task a change names, wrappers removed; "" when it names none plainly."""
    text = _ON_THE_LIST.sub("", _AFTER_SO.sub("", core_request(clause)))
    previous = None
    for _ in range(SETTLE_LIMIT):
        if previous == text:
            break
        previous = text
        text = _CHANGE_TAIL.sub("", _CHANGE_VERB.sub("", _ASKING.sub("", text))).strip(" ,.")
    if _NOTHING_NAMED.match(text) or len(text.split()) > 5:
        return ""
    return text
