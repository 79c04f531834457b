"""Intent detection (the spec's Rule 1), deterministic and explainable.

Each rule is a pattern over the whole request (after filler and politeness are set aside)
that names an intent and, where there is one, the words the action applies to (`obj`).
Rules are tried in order, most specific first: what a sentence *is* (a greeting, a question
about the list, a passive "X should be added") decides before any single keyword does.
Only when no sentence pattern fits do the spec's keyword lists decide, in the spec's order
(CREATE, LIST, COMPLETE, DELETE, UPDATE, HELP, GREETING), with the "task id presence" rule
as the one exception. Every detection names the rule that fired.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

from backend.agent.rules.arbiter import arbitrate
from backend.agent.rules.date_questions import asks_about_a_period
from backend.agent.rules.field_requests import asks_for_a_filtered_list, is_field_change
from backend.agent.rules.patterns import (
    DONE_STATEMENTS,
    GREETING_PATTERN,
    HELP_PATTERN,
    SENTENCE_RULES,
    UNDO_PATTERN,
)
from backend.agent.rules.query import BARE_THING, asks_when_due, query_slot
from backend.agent.rules.social import is_only_thanks_or_goodbye, names_another_job
from backend.agent.rules.text import (
    core_request,
    correct_typos,
    strip_end_punctuation,
    without_trailing_symbols,
)
from backend.agent.rules.types import (
    ACTIONS_ON_A_TASK,
    SPEC_KEYWORDS,
    Action,
    Detection,
    Intent,
    RuleKind,
)

_I = re.IGNORECASE


_KEYWORD_PATTERNS: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, re.compile(r"\b(?:" + "|".join(re.escape(k) for k in words) + r")\b", _I))
    for intent, words in SPEC_KEYWORDS
)
# Question words that only mean LIST when the sentence is about the user's tasks.
_WEAK_KEYWORDS = frozenset({"what", "see", "how", "tell me"})
_ABOUT_THE_LIST = re.compile(
    r"\b(?:i|my|task|tasks|list|todo|todos|to-do|reminders?|pending|done|left)\b", _I
)
# "For task 2, add the description X" reads as "add the description X for task 2".
_LEADING_TARGET = re.compile(
    r"^(?:for|on|in|with)\s+(?P<target>task\s*#?\d+|#\d+|it|that one|that)\s*,\s*(?P<rest>.+)$", _I
)
_TASK_REFERENCE = re.compile(
    r"\b(?:task|tasks|list|todos?|it|that|this|something)\b|#\d|\b\d+\b", _I
)
# "I wanna add go jogging": the add is the request, not part of the title.
_ADD_START = re.compile(r"^(?:add|create)\s+\S", _I)
_COMMAND_START = re.compile(
    r"^(?:change|update|edit|rename|modify|delete|remove|cancel|complete|finish|mark|see|show|"
    r"view|list|check|add|create|know)\b",
    _I,
)


def _object(match: re.Match[str]) -> str:
    groups = match.groupdict()
    for suffix in ("", "2", "3"):
        target, title = groups.get(f"target{suffix}"), groups.get(f"newtitle{suffix}")
        if target and title:
            return f"{target.strip()} to {title.strip()}"
    if groups.get("desc"):
        return re.sub(r"^\w+\s+", "", groups["desc"].strip(), count=1)
    for name in ("obj", "obj2", "obj3", "obj4"):
        value = match.groupdict().get(name)
        if value:
            return value.strip()
    return ""


def detect_intent(clause: str, *, has_task_id: bool = False) -> Detection:
    """The rules' decision (`rule_intent`), reconciled with the learned model (`arbiter`).
    A change of a due date, priority, list or tags, and a list filtered by them, are read
    first: "remove the date from it" is no delete."""
    if is_field_change(clause):
        return Detection(Intent.UPDATE, "field change", clause, Action.FIELDS, kind=RuleKind.FIELDS)
    if asks_for_a_filtered_list(clause) or asks_about_a_period(clause, datetime.now(UTC)):
        return Detection(
            Intent.LIST, "filtered list", clause, Action.FILTERED, kind=RuleKind.FIELDS
        )
    asked_due = asks_when_due(clause)
    if asked_due:  # "when's the draft review?": one task's due, looked up
        return Detection(
            Intent.LIST, "asks when due", asked_due, Action.LOOKUP, kind=RuleKind.QUESTION
        )
    detection = arbitrate(clause, _asked(clause, rule_intent(clause, has_task_id=has_task_id)))
    return _asks_whether(clause, _question_changes_nothing(clause, detection))


# "Sorry, I make mistake, you can put it back?"
_UNDO_AFTER_APOLOGY = re.compile(
    r"\b(?:mistake|wrong|mistaken|my bad|sorry)\b.*,\s*(?:you can |can you |could you |please )?"
    r"(?:put|bring)\s+(?:it|that|them)\s+back\b[^,]*$",
    re.IGNORECASE,
)
_QUESTION_WORD = re.compile(r"\b(?:how|what|which|whether|when|who)\b", re.IGNORECASE)
_PAST_LEAD = re.compile(
    r"^\W*(?:(?:i|we)\s+(?:have\s+|'ve\s+)?(?:already\s+)?)?(?:finished|completed|done|did)\b",
    re.IGNORECASE,
)
# "I did already write the email to Sarah or not yet": a question however it ends.
_OR_NOT = re.compile(r"\bor\s+not(?:\s+yet)?\W*$", re.IGNORECASE)


def _asked(clause: str, detection: Detection) -> Detection:
    """A statement that a task is done, with a question mark, asks whether it is ("called
    mom?", "finished the report?"): a lookup, never a change."""
    statement = detection.kind in DONE_STATEMENTS or (
        detection.kind is RuleKind.LEADING_COMPLETE
        and detection.verbatim
        and _PAST_LEAD.match(core_request(clause))
    )
    asked = clause.rstrip().endswith("?") or _OR_NOT.search(clause) is not None
    if not asked or not statement or _QUESTION_WORD.search(clause):
        return detection
    if not detection.obj or detection.action is not Action.PLAIN:
        return detection
    return Detection(
        Intent.LIST,
        f"asked: {detection.rule}",
        detection.obj,
        Action.LOOKUP,
        kind=RuleKind.QUESTION,
    )


# A question put as a request: "can you add bread?", "would you mind deleting it?", "add
# milk?" (a command with a question mark). Everything else that ends in "?" only asks.
_REQUEST_AS_QUESTION = re.compile(
    r"\b(?:please|pls|plz|kindly)\b|\b(?:can|could|would|will|won't|wouldn't|may|might)\s+"
    r"(?:you|u|i\s+(?:get|ask)\s+you)\b|\b(?:you|u)\s+(?:can|could)\b|\bdo you mind\b|"
    r"\bis it possible\b|\bhow about\b|\bwhy not\b|\bshall\s+(?:i|we|you)\b|"
    r"\b(?:can|could|may|might)\s+(?:i|we)\s+(?:now\s+|just\s+|please\s+)?"
    r"(?:add|put|get|have|remove|delete|mark|see|view)\b",
    re.IGNORECASE,
)
# "Could you please tell me whether I still need to pick up the dry cleaning?": a request to
# answer a question is a question.
# The statement asked about follows ("... whether I've already called my mother").
_ASKS_WHETHER = re.compile(
    r"\b(?:tell me|let me know|know|ask|wonder|check|see)\W+(?:please\W+)?(?:whether|if)\b"
    r"(?:\s+(?P<asked>.+))?",
    re.IGNORECASE,
)
_CHANGES = (Intent.CREATE, *ACTIONS_ON_A_TASK)
_STILL_OR_ALREADY = re.compile(r"^(?:i|we)\s+(?:still|already)\b", re.IGNORECASE)


def _question_changes_nothing(clause: str, detection: Detection) -> Detection:
    """ "The paper towels, they are still in my list?", "bread on there?": a question that
    is not put as a request looks the item up and changes nothing (safety over guessing).
    A leading command ("add milk?") and a polite request ("could you add milk?") still act."""
    if not _only_asks(clause, detection):
        return detection
    rule = f"question: {detection.rule}"
    item, action = query_slot(clause)
    if action is Action.LOOKUP:
        return Detection(Intent.LIST, rule, item, Action.LOOKUP, kind=RuleKind.QUESTION)
    if detection.intent is Intent.UNCLEAR and BARE_THING.match(core_request(clause)):
        # "passport?": a thing asked about on its own is looked up
        return Detection(
            Intent.LIST, rule, core_request(clause), Action.LOOKUP, kind=RuleKind.QUESTION
        )
    if detection.intent is Intent.UNCLEAR:
        return detection  # no item to look up: the question stays unclear
    if detection.intent is Intent.CREATE and detection.obj and _COUNT_WORDS.search(clause) is None:
        return Detection(Intent.LIST, rule, detection.obj, Action.LOOKUP, kind=RuleKind.QUESTION)
    return Detection(Intent.UNCLEAR, rule, kind=RuleKind.QUESTION)


def _only_asks(clause: str, detection: Detection) -> bool:
    """Whether the clause is a question that must not change anything."""
    if detection.intent is Intent.UNCLEAR:
        return clause.rstrip().endswith("?")  # "bread on there?"
    return (
        detection.intent in _CHANGES
        and detection.action is Action.PLAIN
        and detection.kind not in _SAID_AS_A_COMMAND
        and without_trailing_symbols(clause.rstrip()).endswith("?")
        and not (_REQUEST_AS_QUESTION.search(clause) and not _ASKS_WHETHER.search(clause))
    )


# A command said with a question mark still acts ("add milk?", "cross it off?").
_SAID_AS_A_COMMAND = frozenset(
    {
        RuleKind.LEADING_SHOW,
        RuleKind.LEADING_ADD,
        RuleKind.LEADING_COMPLETE,
        RuleKind.LEADING_VERB,
        RuleKind.CROSS_IT_OFF,
        RuleKind.NTH_ONE,
    }
)
_COUNT_WORDS = re.compile(r"\b(?:how many|how much|number of)\b", re.IGNORECASE)


def _asks_whether(clause: str, detection: Detection) -> Detection:
    """ "Could you tell me whether I've already called my mother?": the state of the task the
    statement after "whether" names is looked up; nothing is shown or changed."""
    if detection.action is Action.LOOKUP or detection.intent in _CHANGES:
        return detection
    match = _ASKS_WHETHER.search(core_request(clause))
    if match is None or not match["asked"]:
        return detection
    item, action = query_slot(match["asked"])
    if action is Action.LOOKUP and _STILL_OR_ALREADY.search(match["asked"]):
        # "... whether I still need to ring my mother": that task's state
        return Detection(
            Intent.LIST, "asks whether: still to do", item, Action.LOOKUP, kind=RuleKind.QUESTION
        )
    if detection.intent is Intent.OFF_TOPIC and names_another_job(clause):
        return detection  # "can you check if my order has been delivered"
    asked = rule_intent(match["asked"])
    if asked.kind in DONE_STATEMENTS and asked.obj:
        rule = f"asks whether: {asked.rule}"
        return Detection(Intent.LIST, rule, asked.obj, Action.LOOKUP, kind=RuleKind.QUESTION)
    asked = detect_intent(match["asked"])
    if asked.intent is Intent.LIST and asked.action in (Action.LOOKUP, Action.COUNT):
        # "... whether there's anything on my list about the car": that question's answer
        rule = f"asks whether: {asked.rule}"
        return Detection(Intent.LIST, rule, asked.obj, asked.action, kind=RuleKind.QUESTION)
    return detection


def rule_intent(clause: str, *, has_task_id: bool = False) -> Detection:
    """The intent of one clause of a message, and the rule that decided it.

    Sentence patterns are tried on the request as written, then without trailing emoji,
    then with close misses of command words corrected ("shwo"); only then do the spec's
    keywords decide. With a task number present, the keyword fallback prefers an action on
    that task over CREATE and LIST keywords (the spec's contextual rule "task id presence").
    """
    raw = strip_end_punctuation(clause)
    if GREETING_PATTERN.match(raw):
        return Detection(Intent.GREETING, "greeting", kind=RuleKind.GUESS)
    if HELP_PATTERN.match(raw):
        return Detection(Intent.HELP, "help question", kind=RuleKind.GUESS)
    if is_only_thanks_or_goodbye(raw):
        # "That's everything, many thanks"
        return Detection(Intent.SOCIAL, "thanks or goodbye", kind=RuleKind.SENTENCE)
    if _A_JOKE.search(raw):
        # "lol ok tell me a joke": small talk
        return Detection(Intent.SOCIAL, "a joke", kind=RuleKind.SENTENCE)
    if _ORDER_THE_LIST.search(raw):
        # "please order everything on my shopping list": a shop's job, never a new task
        return Detection(Intent.OFF_TOPIC, "order what is on the list", kind=RuleKind.SENTENCE)
    text = _LEADING_TARGET.sub(r"\g<rest> for \g<target>", core_request(clause))
    if not text:
        return Detection(Intent.UNCLEAR, "nothing to act on", kind=RuleKind.NOTHING_TO_ACT_ON)
    plain = without_trailing_symbols(text)
    for candidate, note in ((text, ""), (plain, ""), (correct_typos(plain), " (after a typo fix)")):
        detection = _by_sentence(candidate, has_task_id)
        if detection is not None:
            if note:
                return replace(detection, rule=detection.rule + note, verbatim=False)
            return detection
    asked = _QUESTION_AFTER_A_STORY.search(plain)
    if asked is not None:
        # "ok I'm at the store and my brain is mush, what was I supposed to get again"
        detection = _by_sentence(asked["question"], has_task_id)
        if (
            detection is not None
            and detection.intent is Intent.LIST
            and detection.action is Action.PLAIN
        ):
            return replace(detection, rule=f"{detection.rule} (after a story)", verbatim=False)
    return _by_keyword(text, has_task_id)


# A question after a comma, once the whole clause matched no sentence pattern.
_QUESTION_AFTER_A_STORY = re.compile(
    r",\s*(?:so\s+|anyway\s+|and\s+)?(?P<question>(?:what|which|how|is|are|do|did|have|has)\b"
    r"[^,]*)$",
    re.IGNORECASE,
)
_A_JOKE = re.compile(
    r"\b(?:tell|give|know|got|have)\s+(?:me\s+|us\s+)?(?:a|any|another|one more|some)\s+"
    r"(?:good\s+|funny\s+|bad\s+|dad\s+)?jokes?\b",
    re.IGNORECASE,
)
_ORDER_THE_LIST = re.compile(
    r"\b(?:order|buy|purchase|have|get|shop for)\b(?:\s+\w+){0,3}?\s+"
    r"(?:everything|all(?:\s+of)?\s+(?:the\s+)?(?:things|items|stuff)|all of it|all items)"
    r"(?:\s+you see)?\s+(?:on|in|from)\s+(?:my|the)\s+(?:\w+\s+)?list\b"
    # "add pepsi to my shopping bag": a shop's basket ("put the charger in my bag" is a task)
    r"|\b(?:add|put)\s+.+\s+(?:to|in|into)\s+(?:my|the)\s+"
    r"(?:shopping\s+(?:cart|basket|bag)|cart|online\s+(?:cart|basket))\b",
    re.IGNORECASE,
)
_CLEARED_STATUS = {"done": "completed", "finished": "completed"}


def _by_sentence(text: str, has_task_id: bool) -> Detection | None:
    if HELP_PATTERN.match(text):
        return Detection(Intent.HELP, "help question", kind=RuleKind.GUESS)
    if UNDO_PATTERN.match(text) or _UNDO_AFTER_APOLOGY.search(text):
        return Detection(Intent.UPDATE, "undo", action=Action.UNDO, kind=RuleKind.UNDO)
    for rule in SENTENCE_RULES:
        match = rule.pattern.match(text)
        if not match:
            continue
        detection = Detection(rule.intent, rule.name, _object(match), rule.action, kind=rule.kind)
        if (
            rule.kind is RuleKind.NEED_TO
            and _COMMAND_START.match(detection.obj)
            and (_TASK_REFERENCE.search(detection.obj) or _ADD_START.match(detection.obj))
        ):
            inner = _by_sentence(detection.obj, has_task_id) or _by_keyword(
                detection.obj, has_task_id
            )
            return replace(inner, rule=f"{inner.rule} (after 'I need to')", verbatim=False)
        if rule.action is Action.CLEAR and match.groupdict().get("status"):
            # "delete the finished tasks": the tools' name for the status
            status = match.group("status").lower()
            return replace(detection, obj=_CLEARED_STATUS.get(status, status))
        return detection
    return None


def _by_keyword(text: str, has_task_id: bool) -> Detection:
    found = [(intent, m) for intent, pattern in _KEYWORD_PATTERNS if (m := pattern.search(text))]
    if has_task_id:
        on_task = [(intent, m) for intent, m in found if intent in ACTIONS_ON_A_TASK]
        if on_task:
            intent, match = on_task[0]
            word = match.group(0).lower()
            rule = f"keyword '{word}' with a task id"
            return Detection(intent, rule, text[match.end() :].strip(), kind=_keyword_kind(word))
    if found:
        intent, match = found[0]
        word = match.group(0).lower()
        if word in _WEAK_KEYWORDS and not _ABOUT_THE_LIST.search(text):
            rule = f"keyword '{word}' without anything about tasks"
            return Detection(Intent.UNCLEAR, rule, kind=_keyword_kind(word))
        rule = f"keyword '{word}'"
        return Detection(intent, rule, text[match.end() :].strip(), kind=_keyword_kind(word))
    if is_only_thanks_or_goodbye(text):
        return Detection(Intent.SOCIAL, "thanks or goodbye", kind=RuleKind.SENTENCE)
    return Detection(Intent.UNCLEAR, "no rule matched", kind=RuleKind.NO_RULE)


def _keyword_kind(word: str) -> RuleKind:
    """ "add" is the one keyword weighed apart (the arbiter's "add" said outright)."""
    return RuleKind.KEYWORD_ADD if word == "add" else RuleKind.KEYWORD
