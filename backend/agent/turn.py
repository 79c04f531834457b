"""Per-turn data shared by the runner, the MCP bridge and the hooks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from agents import FunctionToolResult

from backend.agent.turn_limits import TurnLimits


@runtime_checkable
class RepliesAfterTools(Protocol):
    """A model that can tell, from the tool results of a step, that its next answer is the
    final reply (the rule engine composes it from those results)."""

    def reply_after_tools(self, results: Sequence[FunctionToolResult]) -> str | None: ...


@runtime_checkable
class PlansItsCalls(Protocol):
    """A model that knows, before the run, how many model calls a message can take (the rule
    engine's plan): a list of 24 tasks to add is 24 steps, not a runaway loop."""

    def model_calls_for(self, message: str) -> int: ...


@dataclass
class TurnContext:
    """The Agents SDK run context of one chat turn. Never shown to a model."""

    user_id: int
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    # The user's time zone and the turn's moment (an LLM is told the date; rules read it).
    zone: str = "UTC"
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    # The turn's model, when it can end the run right after its last tools.
    replier: RepliesAfterTools | None = None
    # What the turn may still do; `cut_short` once a limit ended its run.
    limits: TurnLimits = field(default_factory=TurnLimits)
    cut_short: bool = False


def parse_tool_output(output: Any) -> Any:
    """A tool output as the API reports it: JSON data, the bare list of `{"result": [...]}`
    wrappers, or `{"error": ...}`."""
    if isinstance(output, dict) and output.get("type") == "text":
        output = output.get("text", "")
    if isinstance(output, list) and all(isinstance(o, dict) and "text" in o for o in output):
        output = "".join(str(o["text"]) for o in output)
    if isinstance(output, str):
        try:
            output = json.loads(output)
        except json.JSONDecodeError:
            return {"error": output}
    if isinstance(output, dict) and set(output) == {"result"}:
        return output["result"]
    return output


def parse_arguments(arguments: str) -> dict[str, Any]:
    try:
        parsed = json.loads(arguments) if arguments else {}
    except json.JSONDecodeError:
        return {"_raw": arguments}
    return parsed if isinstance(parsed, dict) else {"_raw": parsed}
