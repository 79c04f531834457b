"""What the conversation so far tells the engine (Rules 3 and 4).

Derived only from the stored messages of the context window, so it survives restarts and
works on any worker: the task last mentioned, the tasks last listed, the question the
assistant left open, the last change (for "undo") and the run of adds (for the nudge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from backend.agent.rules.extract import extract_task_id
from backend.agent.rules.text import prepare
from backend.agent.rules.types import JSON, Turn


@dataclass(frozen=True)
class ConversationContext:
    focus_task_id: int | None = None
    listed_task_ids: tuple[int, ...] = ()
    pending: JSON | None = None
    completions: int = 0
    adds_in_a_row: int = 0
    last_change: JSON | None = None

    @classmethod
    def from_turns(cls, turns: Sequence[Turn]) -> ConversationContext:
        focus: int | None = None
        listed: tuple[int, ...] = ()
        completions = 0
        adds_in_a_row = 0
        last_change: JSON | None = None
        for turn in turns:  # oldest first: later mentions win
            if turn.role == "user":
                mentioned = extract_task_id(prepare(turn.content))
                if mentioned is not None:
                    focus = mentioned
                continue
            meta = turn.meta
            if meta.get("focus") is not None:
                focus = int(meta["focus"])
            if "listed" in meta:
                listed = tuple(int(i) for i in meta["listed"])
            if meta.get("undone"):
                last_change = None
            elif meta.get("undo"):
                last_change = meta["undo"]
            for call in turn.tool_calls:
                if not _succeeded(call):
                    continue
                if call.get("name") == "complete_task":
                    completions += 1
                    adds_in_a_row = 0
                elif call.get("name") == "add_task":
                    adds_in_a_row += 1
        last = turns[-1] if turns else None
        pending = last.meta.get("pending") if last is not None and last.role != "user" else None
        return cls(focus, listed, pending, completions, adds_in_a_row, last_change)


def _succeeded(call: dict[str, Any]) -> bool:
    result = call.get("result")
    return not (isinstance(result, dict) and "error" in result)
