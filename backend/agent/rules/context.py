"""What the conversation so far tells the engine (Rules 3 and 4).

Derived only from the stored messages of the context window, so it survives restarts and
works on any worker: the task last mentioned, the tasks last listed, the question the
assistant left open, the last change (for "undo") and the run of adds (for the nudge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from backend.agent.rules.bulk_results import per_task_calls
from backend.agent.rules.extract import extract_task_id
from backend.agent.rules.text import prepare
from backend.agent.rules.types import JSON, Choice, PendingQuestion, ReplyMeta, Turn
from backend.domain.due import zone as due_zone


@dataclass(frozen=True)
class ConversationContext:
    focus_task_id: int | None = None
    listed_task_ids: tuple[int, ...] = ()
    pending: PendingQuestion | None = None
    completions: int = 0
    adds_in_a_row: int = 0
    last_change: JSON | None = None
    # What the window's tool results say about the user's tasks: number -> title, completed.
    known_tasks: tuple[tuple[int, str, bool], ...] = ()
    # The kind of the assistant's last answer ("query", "add", "list"...), for "and eggs?".
    last_act: str | None = None
    # The item the last membership question asked about, found or not ("is bread on there?").
    last_lookup: str | None = None
    # The other candidates of the choice the last turn answered ("no, the other one").
    alternatives: tuple[int, ...] = ()
    # What the last count counted ("pending" or "completed"), for "show them".
    counted: str | None = None
    # The message being read, whole: a clause whose reference names no task may name it
    # elsewhere ("just got back from the store, I grabbed the milk so cross that off").
    message: str = ""
    # The user's time zone and the turn's moment: "tomorrow at 9" is read on their clock.
    zone: str = "UTC"
    now: datetime | None = None
    # The due the last add or update set: (task number, "YYYY-MM-DD", "HH:MM" or None), for a
    # correction ("no, sunday not saturday", "is at 5, not at 4").
    last_due: tuple[int, str, str | None] | None = None
    # The readings the assistant's last question offered ("the second one" picks one).
    choices: tuple[Choice, ...] = ()
    # The task talked about is only the first row of several just shown: a guess, so a
    # deletion of "that" is confirmed and a slot change never lands on it.
    focus_is_a_row: bool = False
    # The fields (no title, no state) the last change set on a task, for "and the passport
    # too" right after it; None once another kind of change followed.
    last_fields: JSON | None = None
    # The list or tag the last reply's list was narrowed to ("add the plants to that too").
    shown_filter: tuple[tuple[str, str], ...] = ()

    def local_now(self) -> datetime:
        """The turn's moment on the user's clock."""
        return (self.now or datetime.now(UTC)).astimezone(due_zone(self.zone))

    def known_title(self, number: object) -> str | None:
        """The title the window's tool results last gave task `number`, if any."""
        return next((title for n, title, _ in self.known_tasks if n == number), None)

    def known_pending(self) -> tuple[JSON, ...]:
        return tuple(
            {"id": number, "title": title, "completed": False}
            for number, title, completed in self.known_tasks
            if not completed
        )

    @classmethod
    def from_turns(cls, turns: Sequence[Turn]) -> ConversationContext:
        window = _Window()
        for turn in turns:  # oldest first: later mentions win
            window.read(turn)
        # What the assistant's last reply left open or recorded (nothing after a user turn).
        last = turns[-1].meta if turns and turns[-1].role != "user" else ReplyMeta()
        acts = last.get("acts")
        return cls(
            window.focus,
            window.listed,
            last.get("pending"),
            window.completions,
            window.adds_in_a_row,
            window.last_change,
            window.known_tasks(),
            str(acts[-1]) if acts else None,
            str(last["lookup"]) if last.get("lookup") else None,
            tuple(int(i) for i in last.get("alternatives") or ()),
            str(last["counted"]) if last.get("counted") else None,
            last_due=window.last_due,
            choices=tuple(last.get("choices") or ()),
            last_fields=window.last_fields,
            focus_is_a_row=bool(last.get("focus_is_a_row")),
            shown_filter=tuple(sorted((last.get("shown_filter") or {}).items())),
        )


@dataclass
class _Window:
    """What the turns of the window read so far say, folded in one turn at a time."""

    focus: int | None = None
    listed: tuple[int, ...] = ()
    completions: int = 0
    adds_in_a_row: int = 0
    last_change: JSON | None = None
    undoable: list[JSON] = field(default_factory=list)  # the changes still standing, oldest first
    known: dict[int, tuple[str, bool]] = field(default_factory=dict)
    last_due: tuple[int, str, str | None] | None = None
    last_fields: JSON | None = None

    def known_tasks(self) -> tuple[tuple[int, str, bool], ...]:
        return tuple((n, title, done) for n, (title, done) in sorted(self.known.items()))

    def read(self, turn: Turn) -> None:
        if turn.role == "user":
            mentioned = _task_mentioned(turn.content)
            if mentioned is not None:
                self.focus = mentioned
            return
        meta = turn.meta
        self.focus = _reply_focus(meta, turn.tool_calls, self.focus)
        if "listed" in meta:
            self.listed = tuple(int(i) for i in meta["listed"])
        self._follow_undo(meta)
        for call in (one for c in turn.tool_calls for one in per_task_calls(c)):
            if _succeeded(call):
                self._read_call(call)

    def _follow_undo(self, meta: ReplyMeta) -> None:
        if meta.get("undone"):
            # step after step: what is still standing before the change just undone
            self.undoable = self.undoable[:-1]
        elif meta.get("undo"):
            self.undoable.append(meta["undo"])
        self.last_change = self.undoable[-1] if self.undoable else None

    def _read_call(self, call: dict[str, Any]) -> None:
        """Folds one successful tool call in."""
        _learn(self.known, call)
        self.last_due = _due_set(call) or self.last_due
        self.last_fields = _fields_set(call)
        if call.get("name") == "complete_task":
            self.completions += 1
            self.adds_in_a_row = 0
        elif call.get("name") == "add_task":
            self.adds_in_a_row += 1


def _reply_focus(meta: ReplyMeta, tool_calls: list[JSON], focus: int | None) -> int | None:
    """The task an assistant turn talked about; `focus` if it says nothing of one."""
    if "focus" in meta:
        # None: the turn talked about no task ("is bread on there?" - no)
        return int(meta["focus"]) if meta["focus"] is not None else None
    if "acts" not in meta and (from_tools := _focus_from_tools(tool_calls)):
        # A turn of the LLM brain leaves no meta: use its tools. A turn of the rules
        # says its focus itself; its look-ups ("how many tasks?") name no task.
        return from_tools
    return focus


# Every turn re-reads the same window of messages; a user message is parsed once per worker.
@lru_cache(maxsize=4096)
def _task_mentioned(message: str) -> int | None:
    return extract_task_id(prepare(message))


def _due_set(call: dict[str, Any]) -> tuple[int, str, str | None] | None:
    """The due an add or an update set, from its result's echo."""
    result = call.get("result")
    if call.get("name") not in ("add_task", "update_task") or not isinstance(result, dict):
        return None
    if not result.get("due_date") or not isinstance(result.get("task_id"), int):
        return None
    clock = result.get("due_time")
    return int(result["task_id"]), str(result["due_date"]), str(clock) if clock else None


# The fields a change of one task may be asked again for, of another ("and the passport too").
_COPIED_FIELDS = frozenset(
    {"due", "priority", "list", "add_tags", "remove_tags", "repeat", "remind_at", "remind_before"}
)


def _fields_set(call: dict[str, Any]) -> JSON | None:
    arguments = call.get("arguments") or {}
    if call.get("name") != "update_task" or not set(arguments) - {"task_id"} <= _COPIED_FIELDS:
        return None
    fields = {name: value for name, value in arguments.items() if name in _COPIED_FIELDS}
    return fields or None


def _succeeded(call: dict[str, Any]) -> bool:
    result = call.get("result")
    return not (isinstance(result, dict) and "error" in result)


def _learn(known: dict[int, tuple[str, bool]], call: dict[str, Any]) -> None:
    """Folds one successful tool call into what is known about the user's tasks."""
    name, result = call.get("name"), call.get("result")
    if name == "list_tasks" and isinstance(result, list):
        for task in result:
            if isinstance(task, dict) and "id" in task:
                known[int(task["id"])] = (str(task.get("title", "")), bool(task.get("completed")))
        return
    if not isinstance(result, dict) or "task_id" not in result:
        return
    number = int(result["task_id"])
    # A bulk change names only its first tasks' titles: keep what was known of the rest.
    known_title = known.get(number, ("", False))[0]
    title = known_title if result.get("title") is None else str(result["title"])
    if name == "delete_task":
        known.pop(number, None)
    elif name == "complete_task":
        known[number] = (title, True)
    elif name == "add_task":
        known[number] = (title, False)
    elif name == "update_task":
        completed = call.get("arguments", {}).get("completed")
        previous = known.get(number, (title, False))[1]
        known[number] = (title, previous if completed is None else bool(completed))


def _focus_from_tools(tool_calls: list[dict[str, Any]]) -> int | None:
    """The task the last successful tool call was about (a list: its first task)."""
    for call in reversed(tool_calls):
        result = call.get("result")
        if isinstance(result, dict) and "task_id" in result:
            return int(result["task_id"])
        if isinstance(result, list) and result and isinstance(result[0], dict):
            return int(result[0]["id"])
    return None
