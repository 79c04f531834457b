"""Plain data the rule engine reads and produces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    """What a tool call returned: parsed JSON data, or an error message."""

    call: ToolCall
    data: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def not_found(self) -> bool:
        return self.error is not None and "not found" in self.error.lower()


@dataclass(frozen=True)
class Say:
    """A finished piece of the reply. `stop` ends the plan (the spec's "stop on error")."""

    text: str
    meta: JSON = field(default_factory=dict)
    stop: bool = False


@dataclass(frozen=True)
class Turn:
    """One stored message of the conversation, as the engine sees it."""

    role: str
    content: str
    tool_calls: list[JSON] = field(default_factory=list)
    meta: JSON = field(default_factory=dict)
