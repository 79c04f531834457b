"""Plain data the rule engine reads and produces."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, cast

from typing_extensions import TypedDict

from backend.models.tool_results import TOOL_RESULTS, ToolFailure, ToolResult, read_result

JSON = dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """A call the engine wants made: an MCP tool name and its arguments (no user_id)."""

    name: str
    arguments: JSON


@dataclass(frozen=True)
class Batch:
    """Independent calls made together (the spec's "batch when possible")."""

    calls: tuple[ToolCall, ...]


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool call returned: parsed JSON data, or an error message. Outcomes of real
    calls come through `read`, which checks them against the tools' result models."""

    call: ToolCall
    data: Any = None
    error: str | None = None
    # The data as its tool's result model (set by `read`).
    result: ToolResult | None = None

    @classmethod
    def read(cls, call: ToolCall, output: Any) -> ToolOutcome:
        """The one place a tool's output becomes an outcome: `{"error": ...}` is a failure;
        anything else must be the tool's result model (pydantic's ValidationError if not),
        the engine reading the same JSON the API stores."""
        if isinstance(output, dict) and "error" in output:
            return cls(call, error=ToolFailure.model_validate(output).error)
        if call.name not in TOOL_RESULTS:  # not one of the task tools: nothing to check
            return cls(call, data=output)
        return cls(call, data=output, result=read_result(call.name, output))

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def not_found(self) -> bool:
        return self.error is not None and "not found" in self.error.lower()


class PendingKind(StrEnum):
    """The question a reply leaves open, answered by the next message (`answers.py`). A
    StrEnum: stored meta holds the bare string, as it always has."""

    REPHRASE = "rephrase"  # "Sorry, I didn't catch that": nothing to answer yet
    ASK_TITLE = "ask_title"  # "What should I add?"
    OFFER_ADD = "offer_add"  # "It's not on your list: shall I add it?"
    OFFER_LIST = "offer_list"  # "Task 7 not found: shall I show your list?"
    CONFIRM_CLEAR = "confirm_clear"  # "Delete all 12 tasks?"
    CONFIRM_TASK = "confirm_task"  # "Did you mean task 3, Buy milk?"
    CHOOSE_TASK = "choose_task"  # "Which one: 1. ... 2. ...?"
    ASK_TASK = "ask_task"  # "Which task?"
    ASK_FIELDS = "ask_fields"  # "What should I change about it?"
    # "Which list do you mean?": readings said in full (`options`), picked as a choice
    CHOOSE_REQUEST = "choose_request"


class Choice(TypedDict):
    """A reading a question offers (`meta.choices`): the button's words, and the message that
    picking it sends."""

    label: str
    message: str


class PendingQuestion(TypedDict, total=False):
    """`meta.pending`: the open question and what answering it needs. Read back from stored
    meta, so `kind` may be any string an older version wrote (an unknown one is ignored)."""

    kind: str
    tool: str  # the change waiting for its task (ask_task, choose_task, confirm_task)
    fields: JSON  # the update waiting for its task
    task_id: int  # confirm_task, ask_fields
    title: str  # offer_add, confirm_task
    missing: str  # offer_list after a title not found ("then add it")
    status: str  # confirm_clear: which tasks it clears
    task_ids: list[int] | None  # confirm_clear: exactly the tasks counted (None: all)
    candidates: list[int]  # choose_task
    titles: list[str]  # choose_task
    options: list[Choice]  # choose_request: each reading, as the message that asks it


def pending_kind(pending: PendingQuestion) -> PendingKind | None:
    """The open question's kind; None for one this version does not know."""
    try:
        return PendingKind(pending.get("kind", ""))
    except ValueError:
        return None


class ReplyMeta(TypedDict, total=False):
    """An assistant message's `meta`, stored with it: what the next turns' context is
    derived from (`context.py`), and the turn's bookkeeping. Every key is optional: a stored
    message of any version reads, and an LLM turn stores only `brain` and `usage`."""

    intents: list[str]  # the detected intents, by value
    acts: list[str]  # the kind of each reply part ("add", "query"...), as the corpora label
    rules: list[str]  # the rule behind each decision
    focus: int | None  # the task talked about (None: none, though the turn named one)
    focus_is_a_row: bool  # the focus is only the first row of several shown (a guess)
    listed: list[int]  # the task numbers shown, in order ("the second one")
    shown_filter: dict[str, str]  # the list or tag the tasks shown were narrowed to
    pending: PendingQuestion  # the question left open
    choices: list[Choice]  # the readings that question offers, at most three (`choices.py`)
    undo: JSON  # how to undo the turn's change: {"tool", "arguments"} or {"tool": None, ...}
    undone: bool  # the turn undid the last change
    lookup: str  # what a membership question asked about ("is bread on there?")
    alternatives: list[int]  # the other candidates of the choice just answered
    counted: str  # what a count counted ("pending", "completed")
    error: bool | str  # the turn failed (True) or stopped ("interrupted", "invalid_due"...)
    brain: str  # "rules" or "llm"
    usage: dict[str, int]  # the turn's token usage


def stored_meta(meta: dict[str, Any] | None) -> ReplyMeta:
    """A stored message's meta, as any version wrote it: read as it is (every key of
    ReplyMeta is optional, and the readers tolerate keys they do not know)."""
    return cast(ReplyMeta, meta or {})


@dataclass(frozen=True)
class Say:
    """A finished piece of the reply. `stop` ends the plan (the spec's "stop on error")."""

    text: str
    meta: ReplyMeta = field(default_factory=lambda: ReplyMeta())
    stop: bool = False
    # The title this part reports as added (a plain "I've added X"): several in a row are
    # summed up in one sentence.
    added: str | None = None
    # The list it was added to, when not the Inbox ("your Shopping list").
    added_where: str | None = None
    # That list is a shared one ("the shared Family list").
    added_shared: bool = False
    # A stop that lets independent adds after it still run: "remove ginger ale and add root
    # beer" adds the root beer though there was no ginger ale to remove.
    adds_may_follow: bool = False


@dataclass(frozen=True)
class Turn:
    """One stored message of the conversation, as the engine sees it."""

    role: str
    content: str
    tool_calls: list[JSON] = field(default_factory=list)
    meta: ReplyMeta = field(default_factory=lambda: ReplyMeta())


class Intent(StrEnum):
    CREATE = "create_task"
    LIST = "list_tasks"
    COMPLETE = "complete_task"
    DELETE = "delete_task"
    UPDATE = "update_task"
    HELP = "help"
    GREETING = "greeting"
    SOCIAL = "social"  # thanks, bye, small talk: a friendly reply, nothing changes
    OFF_TOPIC = "off_topic"  # another assistant's job (alarms, weather): says what it can do
    SHARING = "sharing"  # who shares a list, invitations, who added a task (sharing_requests)
    UNCLEAR = "unclear"


class Action(StrEnum):
    """What exactly to do within an intent."""

    PLAIN = "plain"
    LOOKUP = "lookup"  # LIST: "is milk on my list?"
    CLEAR = "clear"  # DELETE: "clear my list" (asks first)
    UNDO = "undo"  # reverse the last change
    REOPEN = "reopen"  # UPDATE: "mark task 2 as not done"
    COUNT = "count"  # LIST: "how many items are on my list?"
    CONFIRM = "confirm"  # COMPLETE/DELETE the model read, not a rule: ask before acting
    FIELDS = "fields"  # UPDATE: a due date, priority, list or tags ("push it to friday")
    FILTERED = "filtered"  # LIST: by due date, list, tag or priority ("what's due today?")
    WHICH_FIELD = "which_field"  # UNCLEAR: a field named in a delete ("take the tag off ...")
    DONE_IF_NAMED = "done_if_named"  # OFF_TOPIC: "I paid the rent" completes a task it names
    REMIND_OR_ADD = "remind_or_add"  # "remind me about X at 4": X's reminder if X is a task


def act_of(intent: Intent, action: Action = Action.PLAIN) -> str:
    """The kind of reply, as the corpora label it (`corpus/LABELLING.md`)."""
    if action is Action.UNDO:
        return "undo"
    if action in (Action.LOOKUP, Action.COUNT):
        return "query"
    if action is Action.CLEAR:
        return "clear"
    if action is Action.REOPEN:
        return "reopen"
    return _ACTS[intent]


_ACTS = {
    Intent.CREATE: "add",
    Intent.LIST: "list",
    Intent.COMPLETE: "complete",
    Intent.DELETE: "delete",
    Intent.UPDATE: "update",
    Intent.HELP: "help",
    Intent.GREETING: "greeting",
    Intent.SOCIAL: "social",
    Intent.OFF_TOPIC: "off_topic",
    Intent.SHARING: "sharing",
    Intent.UNCLEAR: "clarify",
}


class RuleKind(StrEnum):
    """What decided a reading, as the code weighs it. `Detection.rule` is the label people
    read in `meta.rules`; code branches on the kind, never on the label."""

    SENTENCE = "sentence"  # a sentence pattern read plainly ("is X on the list", "thanks")
    LEADING_SHOW = "leading_show"  # "show ...", "list ..."
    LEADING_ADD = "leading_add"  # "add ...", "remind me to ..."
    LEADING_COMPLETE = "leading_complete"  # "mark ... done", "I finished ..."
    LEADING_VERB = "leading_verb"  # another leading command: "delete ...", "rename ..."
    CROSS_IT_OFF = "cross_it_off"  # "cross it off": the task just talked about
    DID_IT = "did_it"  # "I did it", "I didn't do it": the task just talked about
    NTH_ONE = "nth_one"  # "the second one I did"
    DID_X = "did_x"  # "I did X (past tense)": "I paid the rent"
    X_IS_DONE = "x_is_done"  # "X is done"
    DONE_STATEMENT = "done_statement"  # another done statement: "X is <done>", "milk bought"
    ALREADY_DONE = "already_done"  # "I already do X": done, said with "already"
    NOT_NEEDED = "not_needed"  # "I don't need X anymore"
    NEED_TO = "need_to"  # "I need to X"
    SHOULD_BE_ADDED = "should_be_added"  # "X should be added"
    ON_MY_LIST = "on_my_list"  # "X on my list"
    TASK_PHRASE = "task_phrase"  # "buy milk": a task phrase on its own
    GUESS = "guess"  # a bare phrase the model may decide: the list, a greeting, help
    KEYWORD = "keyword"  # one of the spec's keywords, no sentence pattern
    KEYWORD_ADD = "keyword_add"  # the keyword "add"
    NO_RULE = "no_rule"  # no rule matched
    NOTHING_TO_ACT_ON = "nothing_to_act_on"  # nothing left once filler is set aside
    UNDO = "undo"  # "undo", "put it back"
    MODEL = "model"  # the learned model decided (`arbiter.py`)
    ABOUT_THE_ASSISTANT = "about_the_assistant"  # talk to the assistant, over a keyword
    QUESTION = "question"  # a question read as a look-up (or left unclear), never a change
    FIELDS = "fields"  # a field change, or a list filtered by fields
    SAFETY = "safety"  # the reading made safe (`safety.py`)
    GROUNDED = "grounded"  # the reading the user's own tasks decide (`grounding.py`)


@dataclass(frozen=True)
class Detection:
    intent: Intent
    rule: str  # what decided, as people read it (`meta.rules`); never branched on
    obj: str = ""
    action: Action = Action.PLAIN
    kind: RuleKind = field(kw_only=True)
    # The rule read the words as written: False once read after a typo fix, inside "I need
    # to ...", or after a story (the readings of the last task weigh only words as written).
    verbatim: bool = field(default=True, kw_only=True)


# The intents that act on one existing task (and need a target).
ACTIONS_ON_A_TASK = (Intent.COMPLETE, Intent.DELETE, Intent.UPDATE)


# The spec's keyword lists, in its order of precedence (the tie-breaker).
SPEC_KEYWORDS: tuple[tuple[Intent, tuple[str, ...]], ...] = (
    (
        Intent.CREATE,
        (
            "add",
            "create",
            "remember",
            "remind",
            "need to",
            "don't forget",
            "make a note",
            "task to",
        ),
    ),
    (Intent.LIST, ("show", "list", "see", "what", "view", "display", "tell me")),
    (Intent.COMPLETE, ("done", "complete", "finish", "completed", "mark as done", "finished")),
    (Intent.DELETE, ("delete", "remove", "cancel", "clear", "get rid of")),
    (Intent.UPDATE, ("change", "update", "edit", "rename", "modify", "revise")),
    (Intent.HELP, ("help", "how", "what can you do", "commands", "usage")),
    (Intent.GREETING, ("hi", "hello", "hey", "good morning", "good afternoon")),
)
