"""What the conversation so far tells the engine (Rules 3 and 4).

Derived only from the stored messages of the context window, so it survives restarts and
works on any worker: the task last mentioned, the tasks last listed, and the question the
assistant left open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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
    recent_adds_without_completion: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_turns(cls, turns: Sequence[Turn]) -> ConversationContext:
        focus: int | None = None
        listed: tuple[int, ...] = ()
        completions = 0
        adds_streak = 0
        for turn in turns:  # oldest first: later mentions win
            if turn.role == "user":
                mentioned = extract_task_id(prepare(turn.content))
                if mentioned is not None:
                    focus = mentioned
                continue
            if turn.meta.get("focus") is not None:
                focus = int(turn.meta["focus"])
            if "listed" in turn.meta:
                listed = tuple(int(i) for i in turn.meta["listed"])
            for call in turn.tool_calls:
                if call.get("name") == "complete_task" and _succeeded(call):
                    completions += 1
                    adds_streak = 0
                elif call.get("name") == "add_task" and _succeeded(call):
                    adds_streak += 1
        last = turns[-1] if turns else None
        pending = last.meta.get("pending") if last is not None and last.role != "user" else None
        return cls(
            focus_task_id=focus,
            listed_task_ids=listed,
            pending=pending,
            completions=completions,
            recent_adds_without_completion=adds_streak,
        )


def _succeeded(call: JSON) -> bool:
    result = call.get("result")
    return isinstance(result, dict) and "error" not in result
