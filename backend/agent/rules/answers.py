"""Answers to the question the assistant left open (Rules 2-4: clarification, confirmation)."""

from __future__ import annotations

import re

from backend.agent.rules import replies, steps, task_actions
from backend.agent.rules.builders import is_command, new_request
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.extract import (
    extract_status,
    extract_task_id,
    split_title_description,
    unclear_task_number,
)
from backend.agent.rules.intents import detect_intent
from backend.agent.rules.resolve import match_tasks, strip_reference_noise
from backend.agent.rules.targets import position_in
from backend.agent.rules.text import SENTENCE_END, clean_title, core_request
from backend.agent.rules.titles import IMPATIENT_END
from backend.agent.rules.types import Intent, PendingKind, PendingQuestion, RuleKind, pending_kind
from backend.agent.rules.update import update_step

_I = re.IGNORECASE
_YES = re.compile(
    r"^(?:y|yes|yeah|yea|yep|yup|sure|ok|okay|please|yes please|go ahead|do it|confirm|"
    r"confirmed|absolutely|of course|definitely|sounds good|i'm sure|im sure|yes i'm sure|"
    r"yes,? (?:do it|delete (?:them|it|everything|all)|please|go ahead))$",
    _I,
)
_NO = re.compile(
    r"^(?:n|no|nope|nah|no thanks|no thank you|not now|never ?mind|cancel|stop|don't|"
    r"dont|no,? (?:don't|dont|thanks|keep (?:them|it)))$",
    _I,
)
_BARE_NUMBER = re.compile(r"^(?:number\s*|no\.?\s*|option\s*|#)?(?P<n>\d{1,9})$", _I)
_TOOL_INTENT = {
    "complete_task": Intent.COMPLETE,
    "delete_task": Intent.DELETE,
    "update_task": Intent.UPDATE,
}

_OFFER_INTENT = {
    PendingKind.OFFER_LIST: Intent.LIST,
    PendingKind.OFFER_ADD: Intent.CREATE,
    PendingKind.CONFIRM_CLEAR: Intent.DELETE,
}

Answer = tuple[list[steps.Step], Intent, str]

_AND_ONE_MORE = re.compile(
    r"[,;]?\s+(?:and|also|plus)\s+(?P<item>(?!(?:it|that|this|them|please|thanks)\b)[\w' -]+?)"
    r"\s+(?:too|as well|also)[\s.!]*$",
    _I,
)


def answer_to_pending(message: str, context: ConversationContext) -> Answer | None:
    pending = context.pending
    if not pending:
        return None
    kind = pending_kind(pending)
    if kind in (PendingKind.CHOOSE_TASK, PendingKind.ASK_TASK, PendingKind.ASK_FIELDS):
        message = _the_answering_sentence(message)
    text = core_request(message) or message.strip().rstrip(".!?")
    if kind in (PendingKind.OFFER_LIST, PendingKind.OFFER_ADD, PendingKind.CONFIRM_CLEAR):
        return _yes_no(kind, message.strip(), pending)
    if kind == PendingKind.CONFIRM_TASK:
        return _confirmed_task(message.strip(), pending, context)
    if kind in (
        PendingKind.CHOOSE_TASK,
        PendingKind.ASK_TASK,
        PendingKind.ASK_FIELDS,
        PendingKind.ASK_TITLE,
    ) and _NO.match(text):
        # "never mind" to "which one?": drop the question instead of asking it again.
        tool = str(pending.get("tool", "update_task" if kind == PendingKind.ASK_FIELDS else ""))
        intent = _TOOL_INTENT.get(tool, Intent.CREATE)
        return [steps.say(replies.NOTED_NO)], intent, f"answer: never mind to {kind}"
    if kind == PendingKind.CHOOSE_TASK:
        return _choice(text, pending, context)
    if kind == PendingKind.ASK_TASK:
        return _named_task(text, pending, context)
    if kind == PendingKind.ASK_FIELDS:
        return _new_fields(text, pending, context)
    if kind == PendingKind.ASK_TITLE and text and not is_command(message):
        title, description = split_title_description(clean_title(text))
        return [steps.add_task(title, description)], Intent.CREATE, "answer: the title to add"
    return None


def _the_answering_sentence(message: str) -> str:
    """ "The Q4 one. The other I still must do", "to review final report draft. obviously":
    the first sentence answers; what follows, when it asks nothing, is an aside."""
    sentences = [s for s in SENTENCE_END.split(message.strip()) if s.strip()]
    if len(sentences) < 2 or any(_asks_something(s) for s in sentences[1:]):
        return message
    return sentences[0]


def _asks_something(sentence: str) -> bool:
    request = new_request(sentence)
    return request is not None and request.intent not in _SMALL_TALK


_SMALL_TALK = (Intent.SOCIAL, Intent.GREETING)
# The no before what is wanted instead: "Alexa, no, stop, read me the list instead".
_NO_LEAD = re.compile(
    r"^(?:(?:alexa|hey google|ok google|google|siri|wait|hold on|no+|nope|nah|stop|cancel|"
    r"don't|dont|actually|sorry|oh|hmm+|um+|uh+|ah)\b[\s,.!]*)+",
    _I,
)
# What a no may ask for instead, never a change it names vaguely ("no, forget it").
_INSTEAD = (Intent.LIST, Intent.CREATE)
_A_REMOVAL = re.compile(r"^(?:delete|remove|clear|erase|drop|get rid of|take)\b", _I)
_A_NO = re.compile(r"\b(?:no+|nope|nah|don't|dont)\b", _I)
_DONE_ONES = re.compile(
    r"^(?:(?:delete|remove|clear|get rid of|drop)\s+)?(?:the\s+|my\s+)?(?:(?:finished|completed|"
    r"complete|done|ticked(?: off)?|checked(?: off)?|crossed(?: off)?|old)"
    r"(?:\s+(?:ones|tasks|items|stuff|things))?"
    # "just get rid of the stuff I already finished"
    r"|(?:ones|tasks|items|stuff|things)\s+(?:that\s+)?(?:i|i've|we|we've)\s+(?:already\s+)?"
    r"(?:finished|completed|done|did|ticked off|checked off)"
    # "only the ones finished", "the ones that are done already"
    r"|(?:ones|tasks|items|stuff|things)\s+(?:that\s+(?:are|were)\s+|already\s+)?"
    r"(?:finished|completed|done|ticked off|checked off)(?:\s+already)?)[\s.!]*$",
    _I,
)
_ONLY = re.compile(r"^(?:just|only)\s+(?P<what>(?!(?:kidding|joking)\b).+)$", _I)
# Words said around a yes or a no that change nothing: "ah okay, then yes, add it please".
_INTERJECTIONS = frozenset(
    "ah oh well hmm hm um uh alexa google hey olly siri right then so fine alright very "
    "great good cool perfect thanks thank you".split()
)
_YES_WORDS = frozenset(
    "y yes yeah yea ya yep yup sure ok okay please absolutely definitely correct confirm "
    "confirmed aye yas affirmative".split()
)
_AROUND_A_YES = _YES_WORDS | _INTERJECTIONS
# "Yes, I am absolutely sure", "yes really": words that only strengthen a yes.
_AFFIRMING = re.compile(
    r"\b(?:i am|i'm|im|really|totally|quite|completely|positive|certain|certainly|sure|go for it|"
    r"go ahead|proceed|obviously|of course|course|duh|naturally|indeed|for sure|you bet|"
    # "yes, all of them": the yes to a clear, said of what it clears
    r"all of them|all of it|all of those|every one of them|everything|the lot|all)\b"
)
_NO_WORDS = frozenset("n no nope nah cancel don't dont not never stop wait".split())
_DO_IT = re.compile(
    r"^(?:then\s+)?(?:please\s+)?(?:you\s+)?(?:go ahead|do it|do that|"
    r"(?:add|put|delete|clear|remove|show|do)(?:\s+(?:it|that|them|this|one|those|everything|all|"
    r"me|it all))?$|(?:add|put|delete|clear|remove|show|do)\s+(?:it|that|them|this|one|those|"
    r"everything|all|me|it all)\b)",
    _I,
)


def yes_or_no(text: str, *, strict: bool = False) -> bool | None:
    """True for a yes ("yep, put it on", "Yes, I am sure."), False for a no ("Hmm, no, wait.
    Not delete."), None when the message is something else. `strict` (every open question): a
    yes followed by a new request ("ok, show my tasks") is that request, not a yes."""
    if _NO.match(text):
        return False
    if _YES.match(text):
        return True
    words = _past_interjections(re.findall(r"[a-z']+", text.lower()))
    if not words:
        return None
    if words[0] in _NO_WORDS:
        return False
    if words[0] in _YES_WORDS:
        return _yes_unless_taken_back(words[1:], strict=strict)
    return True if _DO_IT.match(" ".join(words)) else None


def _past_interjections(words: list[str]) -> list[str]:
    """The words from the first one that is not an interjection ("ah okay" keeps "okay")."""
    while words and words[0] in _INTERJECTIONS and words[0] not in _YES_WORDS:
        words = words[1:]
    return words


def _yes_unless_taken_back(after_yes: list[str], *, strict: bool) -> bool | None:
    """What the words after a yes make of it: still a yes, a no ("yes, not that"), or
    something else ("yes whatever", and when `strict` a new request)."""
    affirmed = _AFFIRMING.sub(" ", " ".join(after_yes)).split()
    rest = [w for w in affirmed if w not in _AROUND_A_YES]
    if "not" in rest[:3] or "don't" in rest[:3] or "whatever" in rest[:1]:
        return False if rest[:1] != ["whatever"] else None
    said = " ".join(rest)
    if strict and rest and _a_new_request(said):
        return None  # "ok, show my tasks": a new request, not a yes
    return True


def _a_new_request(said: str) -> bool:
    """Whether what follows a yes asks for something else, not for what the yes agrees to."""
    return not _DO_IT.match(said) and not _SEE_THEM.search(said) and is_command(said)


_ADD_IT = re.compile(r"\b(?:add|put)\s+(?:it|that|them|that one)\b", _I)
# "could you add it then?", "ok add it": asked for; "I must have forgotten to put it on in the
# first place. Never mind.": said of what happened, and declined.
_ASKED_TO_ADD = re.compile(
    r"^\W*(?:(?:ok|okay|yes|yeah|sure|then|so|well|oh|fine|right|just|please|pls)\W+)*(?:add|put)\b"
    r"|\b(?:can|could|would|will)\s+(?:you|u)\b|\b(?:please|pls|plz|go\s+ahead)\b",
    _I,
)
_DECLINED = re.compile(
    r"\b(?:never\s*mind|nevermind|nvm|forget\s+it|don'?t\s+bother|no\s+need|doesn'?t\s+matter)\b",
    _I,
)
# "Yes, please, I should like to see them": the yes, said again
_SEE_THEM = re.compile(r"\b(?:see|hear|read)\s+(?:them|it|those|that|the list|my list)$", _I)
_SAYS_YES = re.compile(r"\b(?:y|yes|yeah|yea|ya|yep|yup|sure|ok|okay|absolutely)\b", _I)
_THE_LIST = re.compile(r"\b(?:the|my)\s+(?:\w+\s+)?list\b", _I)
_WHOLE_LIST = re.compile(r"\b(?:full|whole|entire|complete|all|everything)\b", _I)


def _asked_to_add_it(text: str) -> bool:
    return bool(_ADD_IT.search(text) and _ASKED_TO_ADD.search(text) and not _DECLINED.search(text))


def _yes_no(kind: str, text: str, pending: PendingQuestion) -> Answer | None:
    if kind in (PendingKind.OFFER_ADD, PendingKind.OFFER_LIST) and _A_REMOVAL.match(
        core_request(text)
    ):
        return None  # "is bread on there?" ... "delete it": a request, never a yes to adding
    missing = pending.get("missing") if kind == PendingKind.OFFER_LIST else None
    if missing and _asked_to_add_it(text):
        # "remove buy stamps" - not there - "could you please add it then?"
        return [steps.add_task(str(missing), None)], Intent.CREATE, "answer: add what was missing"
    said = _yes_or_no_to(kind, text)
    if said is False:
        return _no_to(kind, text)
    if said is None:
        return None
    if kind == PendingKind.OFFER_LIST:
        return _yes_show_list(text)
    if kind == PendingKind.OFFER_ADD:
        return _yes_add(text, pending)
    return _yes_clear(pending)


def _yes_or_no_to(kind: str, text: str) -> bool | None:
    """`yes_or_no`, and to a clear also a no that only narrows it ("no, just the milk one")."""
    said = yes_or_no(text, strict=True)
    lead = _NO_LEAD.match(text) if said is None and kind == PendingKind.CONFIRM_CLEAR else None
    if lead and _A_NO.search(lead.group()):
        # "actually no, sorry, just the paper towels one": a no that narrows the clear
        said = False if _ONLY.match(text[lead.end() :].strip(" .!?")) else None
    return said


def _no_to(kind: str, text: str) -> Answer | None:
    """A no to an offer or a clear: dropped, narrowed, or what is asked for instead."""
    instead = _NO_LEAD.sub("", text).strip(" .!?")
    narrowed = _ONLY.match(instead)
    if kind == PendingKind.CONFIRM_CLEAR and narrowed:
        return _narrower_clear(narrowed["what"])
    request = new_request(instead) if instead else None
    if request is not None and request.intent in _INSTEAD:
        return None  # "Alexa, no, stop, read me the list instead": that request
    if kind == PendingKind.CONFIRM_CLEAR:
        return [steps.say(replies.CLEAR_CANCELLED)], Intent.DELETE, "answer: no to clear"
    # "no thanks" to "shall I add it?": nothing asked for, a reply in kind
    return [steps.say(replies.NOTED_NO)], Intent.SOCIAL, f"answer: no to {kind}"


def _narrower_clear(what: str) -> Answer:
    """ "No, just ..." to a clear: the done ones only, asked again, or the one named."""
    if _DONE_ONES.match(what):
        # "clear my list" ... "no, just the finished ones": a narrower clear, asked again
        return [steps.confirm_clear("completed")], Intent.DELETE, "answer: no, only the done"
    # "clear the whole list", "wait no. just the dry cleaning one": that one only
    named = strip_reference_noise(clean_title(what))
    step = task_actions.act_on_title("delete_task", named, {})
    return [step], Intent.DELETE, "answer: no, only this one"


def _yes_show_list(text: str) -> Answer:
    # "ok then show me full list": the yes says which list
    status = "all" if _WHOLE_LIST.search(text) else "pending"
    if not _SAYS_YES.search(text) or _THE_LIST.search(text):
        # "then show me the list", "yeah show me the list": that request, as said
        status = extract_status(text)
    return [steps.list_tasks(status)], Intent.LIST, "answer: yes, show the list"


def _yes_add(text: str, pending: PendingQuestion) -> Answer:
    adds = [steps.add_task(str(pending["title"]), None)]
    more = _AND_ONE_MORE.search(text)
    if more:  # "ok add it, and bred too": one more thing with the yes
        adds.append(steps.add_task(clean_title(more["item"]), None))
    return adds, Intent.CREATE, "answer: yes, add it"


def _yes_clear(pending: PendingQuestion) -> Answer:
    status = str(pending.get("status", "all"))
    confirmed = pending.get("task_ids")
    task_ids = [int(i) for i in confirmed] if isinstance(confirmed, list) else None
    return [steps.clear_all(status, task_ids)], Intent.DELETE, "answer: yes, clear the list"


def _confirmed_task(
    text: str, pending: PendingQuestion, context: ConversationContext
) -> Answer | None:
    """ "Do you want me to delete 'Eggs'?": yes does it, no drops it, anything else is new."""
    said = yes_or_no(text, strict=True)
    tool = str(pending["tool"])
    if said is False:
        return [steps.say(replies.NOTED_NO)], _TOOL_INTENT[tool], "answer: no to confirm_task"
    if said is None:
        return None
    task_id = int(pending["task_id"])
    return _act(tool, task_id, pending, context, "answer: yes to confirm_task")


def _act(
    tool: str, task_id: int, pending: PendingQuestion, context: ConversationContext, rule: str
) -> Answer:
    fields = dict(pending.get("fields") or {})
    step = task_actions.act_on_task(tool, task_id, fields, completions=context.completions)
    others = [int(c) for c in pending.get("candidates", []) if int(c) != task_id]
    if others:
        # Remembered for "no, the other one" (`followups.the_other_one`).
        step = steps.with_meta(step, {"alternatives": others})
    return [step], _TOOL_INTENT[tool], rule


def _choice(text: str, pending: PendingQuestion, context: ConversationContext) -> Answer | None:
    tool = str(pending["tool"])
    candidates = tuple(int(c) for c in pending.get("candidates", []))
    explicit = re.match(r"^(?:task|id|#)\s*#?(\d+)$", text, _I)
    if explicit:
        return _act(tool, int(explicit.group(1)), pending, context, "answer: task number")
    # "The second one, the draft one": the position, then what it is called.
    chosen = position_in(text, candidates) or position_in(text.split(",")[0], candidates)
    bare = _BARE_NUMBER.match(text)
    if chosen is None and bare:
        n = int(bare.group("n"))
        at_position = candidates[n - 1] if 1 <= n <= len(candidates) else None
        if at_position is not None and n in candidates and at_position != n:
            return _ask_position_or_number(n, at_position, pending, candidates)
        chosen = at_position if at_position is not None else (n if n in candidates else None)
    if chosen is not None:
        return _act(tool, chosen, pending, context, "answer: position in the list")
    return _chosen_by_title(text, pending, context, candidates)


def _ask_position_or_number(
    n: int, at_position: int, pending: PendingQuestion, candidates: tuple[int, ...]
) -> Answer:
    """The list shows positions and task numbers: "2" could be either, and guessing could
    delete the wrong task. Ask, keeping the question open."""
    titles = pending.get("titles") or []
    title_of = dict(zip(candidates, titles, strict=False))
    question = replies.position_or_number(
        n, str(title_of.get(at_position, "")), str(title_of.get(n, ""))
    )
    return (
        [steps.say(question, pending=pending, listed=list(candidates))],
        _TOOL_INTENT[str(pending["tool"])],
        "answer: a number that is both a position and a task number",
    )


def _chosen_by_title(
    text: str, pending: PendingQuestion, context: ConversationContext, candidates: tuple[int, ...]
) -> Answer | None:
    """The choice named by its title; asked again if that still fits more than one."""
    tool = str(pending["tool"])
    titled = pending.get("titles")
    if not (isinstance(titled, list) and text and not is_command(text)):
        return None
    options = [{"id": c, "title": t} for c, t in zip(candidates, titled, strict=False)]
    # "the Q4 one, the draft review is tomorrow's problem": the first part chooses; the
    # rest may name the other one to set it aside.
    first_part = text.split(",")[0]
    matches = match_tasks(strip_reference_noise(first_part), options)
    if len(matches) != 1:
        matches = match_tasks(strip_reference_noise(text), options)
    if len(matches) == 1:
        return _act(tool, int(matches[0]["id"]), pending, context, "answer: title of one")
    if len(matches) > 1:
        # Still more than one: ask again with the same numbered list (Rule 2).
        ask = steps.say(
            replies.multiple_matches(text, options, steps.ACTION_VERB[tool]),
            pending=pending,
            listed=list(candidates),
        )
        return [ask], _TOOL_INTENT[tool], "answer: still ambiguous"
    return None


def _named_task(text: str, pending: PendingQuestion, context: ConversationContext) -> Answer | None:
    tool = str(pending["tool"])
    unclear = unclear_task_number(text, answering=True)
    if unclear is not None:  # "4 or 5": still not one task
        ask = steps.say(replies.ask_which_number(steps.ACTION_VERB[tool], unclear), pending=pending)
        return [ask], _TOOL_INTENT[tool], "answer: an unclear number"
    task_id = extract_task_id(text)
    bare = _BARE_NUMBER.match(text)
    if task_id is None and bare:
        task_id = int(bare.group("n"))
    if task_id is None:
        task_id = position_in(text, context.listed_task_ids)
    if task_id is not None:
        return _act(tool, task_id, pending, context, "answer: the task meant")
    if not text or is_command(text):
        return None
    fields = dict(pending.get("fields") or {})
    step = task_actions.act_on_title(
        tool, strip_reference_noise(clean_title(text)), fields, completions=context.completions
    )
    return [step], _TOOL_INTENT[tool], "answer: the title meant"


# "make it X", "change that to: X": the value itself, not a field name ("it's description to").
_PRONOUN_THEN_VALUE = re.compile(
    r"^(?:it|that|this|that one|this one)\s*(?:(?:to|into|as|say|read|be)\b)?\s*[:-]?\s*"
    r"(?!(?:the\s+|its\s+|new\s+)?(?:description|desc|details?|notes?|title|name)\b)(?P<value>\S.*)$",
    _I,
)
# "and the dentist you can delete": a second request, not the new title of the first.
_ANOTHER_REQUEST = re.compile(r"^(?:and|also|oh and|plus)\b", _I)


def _another_request(text: str) -> bool:
    if _ANOTHER_REQUEST.match(text):
        return True
    detection = detect_intent(text)
    return detection.intent in (Intent.DELETE, Intent.COMPLETE) and detection.kind in (
        RuleKind.KEYWORD,
        RuleKind.KEYWORD_ADD,
    )


def _new_fields(text: str, pending: PendingQuestion, context: ConversationContext) -> Answer | None:
    task_id = int(pending["task_id"])
    if not text:
        return None
    if re.match(
        r"^(?:the\s+|its\s+|new\s+)?(?:description|desc|details?|notes?|title|name)\b", text, _I
    ):
        focused = ConversationContext(focus_task_id=task_id)
        return (
            [update_step(f"it {text}", "change it", focused)],
            Intent.UPDATE,
            "answer: what to change",
        )
    if _another_request(text):
        return None
    if is_command(text):
        if re.match(r"^(?:change|update|set|make|rename|edit)\b", text, _I):
            words = re.sub(r"^\w+\s*", "", text)
            new_title = _PRONOUN_THEN_VALUE.match(words)
            if new_title:  # "make it water the plants on balcony"
                return (
                    [
                        task_actions.act_on_task(
                            "update_task", task_id, {"title": clean_title(new_title.group("value"))}
                        )
                    ],
                    Intent.UPDATE,
                    "answer: the new title",
                )
            focused = ConversationContext(focus_task_id=task_id)
            return (
                [update_step(f"it {words}", "change it", focused)],
                Intent.UPDATE,
                "answer: what to change",
            )
        return None
    said = IMPATIENT_END.sub("", text)  # "to book dentist for tuesday. come on"
    title = clean_title(re.sub(r"^(?:to|into|as)\s+(?=\S)", "", said, flags=_I))
    return (
        [task_actions.act_on_task("update_task", task_id, {"title": title})],
        Intent.UPDATE,
        "answer: the new title",
    )
