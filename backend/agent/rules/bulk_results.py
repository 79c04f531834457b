"""A bulk change (`complete_task` / `delete_task` with `task_ids` or `every`) read as the
single-task calls it stands for, so replies, undo and what a conversation knows treat one
statement over many tasks like those tasks changed one by one."""

from __future__ import annotations

from typing import Any

from backend.agent.rules.types import ToolCall, ToolOutcome

BULK_TOOLS = ("complete_task", "delete_task")


def bulk_call(tool: str, task_ids: list[int]) -> ToolCall:
    """One call for the tasks: the plain single-task call when there is one."""
    if len(task_ids) == 1:
        return ToolCall(tool, {"task_id": task_ids[0]})
    return ToolCall(tool, {"task_ids": task_ids})


def _is_bulk(name: object, result: object) -> bool:
    return name in BULK_TOOLS and isinstance(result, dict) and "task_ids" in result


def _singles(name: str, result: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    titles = list(result.get("titles") or ())
    singles = []
    for index, number in enumerate(result["task_ids"]):
        # Titles come only for the first few tasks (a bounded result): None after those.
        title = titles[index] if index < len(titles) else None
        singles.append(
            ({"task_id": number}, {"task_id": number, "status": result["status"], "title": title})
        )
    return singles


def per_task_calls(call: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored tool call (name, arguments, result) as single-task calls."""
    name, result = call.get("name"), call.get("result")
    if not _is_bulk(name, result):
        return [call]
    assert isinstance(name, str) and isinstance(result, dict)
    return [
        {"name": name, "arguments": arguments, "result": single}
        for arguments, single in _singles(name, result)
    ]


def per_task_outcomes(outcome: ToolOutcome) -> list[ToolOutcome]:
    """A tool outcome as single-task outcomes (a failed call stays one failure)."""
    name = outcome.call.name
    if not outcome.ok or not _is_bulk(name, outcome.data):
        return [outcome]
    return [
        ToolOutcome(ToolCall(name, arguments), data=single)
        for arguments, single in _singles(name, outcome.data)
    ]
