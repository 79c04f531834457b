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
from dataclasses import dataclass
from enum import StrEnum

from backend.agent.rules.text import core_request, correct_typos, strip_end_punctuation

_I = re.IGNORECASE


class Intent(StrEnum):
    CREATE = "create_task"
    LIST = "list_tasks"
    COMPLETE = "complete_task"
    DELETE = "delete_task"
    UPDATE = "update_task"
    HELP = "help"
    GREETING = "greeting"
    UNCLEAR = "unclear"


class Action(StrEnum):
    """What exactly to do within an intent."""

    PLAIN = "plain"
    LOOKUP = "lookup"  # LIST: "is milk on my list?"
    CLEAR = "clear"  # DELETE: "clear my list" (asks first)
    UNDO = "undo"  # reverse the last change
    REOPEN = "reopen"  # UPDATE: "mark task 2 as not done"


@dataclass(frozen=True)
class Detection:
    intent: Intent
    rule: str
    obj: str = ""
    action: Action = Action.PLAIN


# The spec's keyword lists, in its order of precedence (the tie-breaker).
SPEC_KEYWORDS: tuple[tuple[Intent, tuple[str, ...]], ...] = (
    (Intent.CREATE, ("add", "create", "remember", "remind", "need to", "don't forget",
                     "make a note", "task to")),
    (Intent.LIST, ("show", "list", "see", "what", "view", "display", "tell me")),
    (Intent.COMPLETE, ("done", "complete", "finish", "completed", "mark as done", "finished")),
    (Intent.DELETE, ("delete", "remove", "cancel", "clear", "get rid of")),
    (Intent.UPDATE, ("change", "update", "edit", "rename", "modify", "revise")),
    (Intent.HELP, ("help", "how", "what can you do", "commands", "usage")),
    (Intent.GREETING, ("hi", "hello", "hey", "good morning", "good afternoon")),
)

_LIST_NOUN = r"(?:(?:to-?do|todo|task|shopping|grocery|groceries|work|reminders?|check)\s*)?(?:list|lists)"
_MY_LIST = rf"(?:my|the|our|your)\s+(?:\w+\s+)?{_LIST_NOUN}"
_TASKS = r"(?:tasks?|to-?dos?|todos|items?|things|reminders?|stuff|chores|errands)"
_DONE_WORDS = r"(?:done|complete|completed|finished|finish|ticked off|checked off|crossed off|sorted)"

_GREETING = re.compile(
    r"^(?:hi+|hello+|hey+|hiya|howdy|yo|heya|greetings|good (?:morning|afternoon|evening|day)|"
    r"what's up|whats up|sup|morning|evening)"
    r"(?:\s+(?:there|bot|assistant|again|friend|buddy|everyone|all))?[\s,!.?:)]*$",
    _I,
)
_HELP = re.compile(
    r"^(?:help(?: me)?(?: out)?|what can you do(?: for me)?|what do you do|what are you|"
    r"who are you|what (?:are )?(?:the|your) commands|commands|usage|instructions|"
    r"how (?:does|do) (?:this|it|you) work|how (?:do|can|should) i\b.*|how to\b.*|"
    r"what can i (?:say|do|ask)\b.*|what should i say|i'm (?:confused|lost|stuck)|"
    r"i am (?:confused|lost|stuck)|\?+)$",
    _I,
)
_UNDO = re.compile(
    r"^(?:undo(?: (?:that|it|the last (?:one|change|action)|last|please))*|revert(?: that| it)?|"
    r"take (?:that|it) back|reverse that|oops,? undo(?: that)?|cancel that(?: last)? change)$",
    _I,
)


def _rules() -> list[tuple[str, Intent, Action, re.Pattern[str]]]:
    rules: list[tuple[str, Intent, Action, str]] = [
        # --- bulk delete, asked before anything is removed ------------------------------
        ("clear the whole list", Intent.DELETE, Action.CLEAR,
         rf"^(?:clear|empty|wipe|reset|delete|remove|erase|trash|drop)\s+(?:out\s+)?(?:all\s+(?:of\s+)?)?"
         rf"(?:(?:my|the)\s+)?(?:(?P<status>completed|done|finished|pending)\s+)?"
         rf"(?:(?:entire|whole)\s+)?(?:{_LIST_NOUN}|{_TASKS}|everything)(?:\s+(?:out|clean))?$"
         r"|^(?:delete|remove|clear|erase) (?:it )?all$|^start over$|^delete everything.*$"),
        # --- lookups: "is milk on my list?" ---------------------------------------------
        ("is X on the list", Intent.LIST, Action.LOOKUP,
         rf"^(?:is|are)\s+(?:there\s+)?(?:a\s+task\s+(?:to|for|called)\s+)?(?P<obj>.+?)\s+"
         rf"(?:on|in)\s+(?:{_MY_LIST}|my\s+{_TASKS})$"),
        ("do I have X", Intent.LIST, Action.LOOKUP,
         rf"^(?:do|did)\s+i\s+(?:already\s+)?(?:have|add|put)\s+(?:a\s+task\s+(?:to|for|called)\s+)?"
         rf"(?P<obj>(?!any\b|anything\b).+?)\s+(?:on|in|to)\s+(?:{_MY_LIST}|my\s+{_TASKS})$"),
        # --- reopen ----------------------------------------------------------------------
        ("mark X as not done", Intent.UPDATE, Action.REOPEN,
         r"^(?:mark|set|put)\s+(?P<obj>.+?)\s+(?:as\s+)?(?:not done|not complete|incomplete|"
         r"undone|unfinished|pending|open)$|^(?:reopen|uncheck|untick|unmark)\s+(?P<obj2>.+)$"),
        # --- questions about the list -----------------------------------------------------
        ("question about the list", Intent.LIST, Action.PLAIN,
         rf"^(?:what|what's|whats|which|how many|how much|do i have|have i|did i|anything|any|"
         rf"is there|are there|got any|where)\b(?!.*\b(?:can you do|do you do)\b).*"
         rf"(?:{_TASKS}|{_LIST_NOUN}|left|pending|to do|todo|remaining|finish|finished|"
         rf"complete|completed|done|remind|agenda|plate|schedule|today|outstanding|open|"
         rf"incomplete|asked|told|up)\b.*$"),
        # --- imperative verbs leading the request ------------------------------------------
        ("leading verb: show", Intent.LIST, Action.PLAIN,
         rf"^(?:show|list|display|view|see|give me|tell me|read me|read out|pull up|bring up|"
         rf"(?:check|open|print)(?=\s+(?:my|the|what|on|if|whether|all|out|pending|completed)\b)|"
         rf"let me see|can i see|may i see|i want to see|i'd like to see|remind me what)\b"
         rf"(?!\s+(?:to|me to)\s)(?P<obj>.*)$"),
        ("leading verb: add", Intent.CREATE, Action.PLAIN,
         r"^(?:add|create|insert|include|new(?= (?:task|todo|to-do|item|reminder|one)\b)|jot down|"
         r"note down|write down|note to self|note|log|put|stick|pop|throw|chuck|toss|slap|schedule|"
         r"don'?t let me forget(?: to| about)?|make sure (?:i|to)|"
         r"set up|set a reminder(?: to| for)?|make (?:a |me a )?(?:new )?(?:task|todo|to-do|note|"
         r"reminder)(?: to| for| called| named)?|make a note(?: to| of| that)?|"
         r"can you remind me(?: to| about)?|"
         r"remind me(?: to| about| of)?|remember(?: to| that)?|don't forget(?: to| about)?|"
         r"dont forget(?: to| about)?|do not forget(?: to| about)?|(?:todo|to-do|task)(?=\s*[:-]))\b[\s:;,-]*"
         r"(?P<obj>.*)$"),
        ("leading verb: complete", Intent.COMPLETE, Action.PLAIN,
         rf"^(?:complete|finish|finished|mark|tick off|tick|check off|check|cross off|cross out|"
         rf"close|done with|done|i(?:'ve| have)? (?:finished|completed|done|did|ticked off|"
         rf"checked off|crossed off|knocked out|wrapped up)|i'm done with|i am done with|"
         rf"i'm finished with|i am finished with|i just (?:finished|completed|did)|"
         rf"i got (?:done with )?)\b\s*(?P<obj>.*?)"
         rf"(?:\s+(?:as\s+)?(?:{_DONE_WORDS}|off)(?:\s+now)?)?(?:\s+off(?:\s+(?:of\s+)?{_MY_LIST})?)?$"),
        ("leading verb: delete", Intent.DELETE, Action.PLAIN,
         rf"^(?:delete|remove|cancel|drop|erase|scrap|trash|bin|ditch|kill|discard|get rid of|"
         rf"take(?=.*\b(?:off|from|out of)\b)|cross out|strike|forget(?: about)?|never ?mind(?: about)?|scratch|nix|axe)\b\s*"
         rf"(?P<obj>.*?)(?:\s+(?:off|from|out of)\s+(?:{_MY_LIST}|my\s+{_TASKS}|the list|it))?$"),
        ("leading verb: update", Intent.UPDATE, Action.PLAIN,
         r"^(?:change|update|edit|rename|modify|revise|reword|amend|adjust|retitle|"
         r"(?:fix|correct|set|make|call|replace)(?=\s+(?:it|that|this|the|task|its|#?\d)\b))"
         r"\b\s*(?P<obj>.*)$"),
        # --- statements ---------------------------------------------------------------------
        ("X should be added", Intent.CREATE, Action.PLAIN,
         rf"^(?P<obj>.+?)\s+(?:should|needs? to|has to|must|could|can|ought to)\s+(?:be|go)\s+"
         rf"(?:added|put|written|on)(?:\s+(?:to|on|onto|in)\s+(?:{_MY_LIST}|my\s+{_TASKS}|it))?$"),
        ("X on my list", Intent.CREATE, Action.PLAIN,
         rf"^(?P<obj>.+?)\s+(?:on|to|onto)\s+{_MY_LIST}$"),
        ("X should be removed", Intent.DELETE, Action.PLAIN,
         rf"^(?P<obj>.+?)\s+(?:should|needs? to|has to|must|can|could)\s+(?:be\s+)?"
         rf"(?:removed|deleted|cancelled|canceled|dropped|taken off|go)(?:\s+(?:from|off)\s+"
         rf"(?:{_MY_LIST}|my\s+{_TASKS}))?$"),
        ("I don't need X anymore", Intent.DELETE, Action.PLAIN,
         r"^(?:i|we)\s+(?:don't|dont|do not|no longer)\s+(?:need|have|want)\s+(?:to\s+)?"
         r"(?P<obj>.+?)(?:\s+(?:anymore|any more|after all|now))?$"
         r"|^no need (?:to|for)\s+(?P<obj2>.+?)(?:\s+(?:anymore|any more))?$"
         r"|^(?P<obj3>.+?)\s+(?:is|isn't|are)\s+(?:no longer|not)\s+(?:needed|necessary|happening)"
         r"(?:\s+(?:anymore|any more))?$"
         r"|^(?P<obj4>.+?)\s+(?:is|was|got)\s+(?:cancelled|canceled|called off)$"),
        ("X is done", Intent.COMPLETE, Action.PLAIN,
         rf"^(?P<obj>.+?)\s+(?:is|are|was|were|has been|have been|got|now)\s+(?:all\s+)?"
         rf"(?:{_DONE_WORDS}|taken care of|handled|sorted out)(?:\s+now)?$|^(?P<obj2>.+?)\s+{_DONE_WORDS}$"),
        ("I need to X", Intent.CREATE, Action.PLAIN,
         r"^(?:i|we)\s+(?:really\s+|also\s+|still\s+)?(?:need to|have to|gotta|got to|'ve got to|"
         r"must|should|ought to|want to|wanna|need)\s+(?P<obj>.+)$"),
        # --- "Buy groceries" is a task in itself (the spec's natural-language flexibility) ---
        ("a task phrase on its own", Intent.CREATE, Action.PLAIN,
         r"^(?P<obj>(?:buy|call|phone|ring|email|e-mail|text|message|pay|book|pick up|drop off|"
         r"clean|wash|write|send|post|mail|get|grab|order|return|renew|water|walk|feed|cook|"
         r"prepare|submit|file|meet|visit|study|practice|practise|read|learn|bake|fetch|bring|"
         r"collect|organize|organise|plan|prep|vacuum|mow|iron|fold|repair|sign|print|apply|"
         r"register|cancel my|go to|go for|attend|make an appointment|make a reservation|"
         r"reserve|donate|sell|ship|pack|unpack|charge|back up|backup|upload|download|install|"
         r"tidy|sweep|mop|shop for|research|review|draft|finish up|follow up|reply to|"
         r"respond to|thank|invite|ask|tell)\b\s+\S.*)$"),
        # --- a bare noun phrase asking for the list ------------------------------------------
        ("the list itself", Intent.LIST, Action.PLAIN,
         rf"^(?:(?:my|all|all my|the)\s+)?(?:(?:pending|completed|done|open|finished|"
         rf"incomplete|remaining|current|today's)\s+)?(?:{_TASKS}|{_LIST_NOUN}|agenda)"
         r"(?:\s*[^\w\s]+)*$"),
    ]
    return [(name, intent, action, re.compile(pattern, _I)) for name, intent, action, pattern
            in rules]


_RULES = _rules()
_KEYWORD_PATTERNS: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, re.compile(r"\b(?:" + "|".join(re.escape(k) for k in words) + r")\b", _I))
    for intent, words in SPEC_KEYWORDS
)
_ACTIONS_ON_A_TASK = (Intent.COMPLETE, Intent.DELETE, Intent.UPDATE)


def _object(match: re.Match[str]) -> str:
    for name in ("obj", "obj2", "obj3", "obj4"):
        value = match.groupdict().get(name)
        if value:
            return value.strip()
    return ""


def detect_intent(clause: str, *, has_task_id: bool = False) -> Detection:
    """The intent of one clause of a message, and the rule that decided it.

    With a task number present, the keyword fallback prefers an action on that task over
    CREATE and LIST keywords (the spec's contextual rule "task id presence").
    """
    if _GREETING.match(strip_end_punctuation(clause)):
        return Detection(Intent.GREETING, "greeting")
    text = core_request(clause)
    if not text:
        return Detection(Intent.UNCLEAR, "nothing to act on")
    detection = _detect(text, has_task_id)
    if detection.intent is Intent.UNCLEAR:
        corrected = correct_typos(text)
        if corrected != text:
            retry = _detect(corrected, has_task_id)
            if retry.intent is not Intent.UNCLEAR:
                return Detection(retry.intent, f"{retry.rule} (after a typo fix)", retry.obj,
                                 retry.action)
    return detection


def _detect(text: str, has_task_id: bool) -> Detection:
    if _HELP.match(text):
        return Detection(Intent.HELP, "help question")
    if _UNDO.match(text):
        return Detection(Intent.UPDATE, "undo", action=Action.UNDO)
    for name, intent, action, pattern in _RULES:
        match = pattern.match(text)
        if match:
            detection = Detection(intent, name, _object(match), action)
            if action is Action.CLEAR and match.groupdict().get("status"):
                return Detection(intent, name, match.group("status").lower(), action)
            return detection
    found = [(intent, m) for intent, pattern in _KEYWORD_PATTERNS if (m := pattern.search(text))]
    if has_task_id:
        on_task = [(intent, m) for intent, m in found if intent in _ACTIONS_ON_A_TASK]
        if on_task:
            intent, match = on_task[0]
            return Detection(intent, f"keyword '{match.group(0).lower()}' with a task id",
                             text[match.end():].strip())
    if found:
        intent, match = found[0]
        return Detection(intent, f"keyword '{match.group(0).lower()}'", text[match.end():].strip())
    return Detection(Intent.UNCLEAR, "no rule matched")
