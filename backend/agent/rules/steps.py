"""The building blocks of a plan.

A step is a pure function of the tool outcomes it has received so far: it answers with the
next `ToolCall` it needs, or with the `Say` that finishes it. Replaying the same outcomes
always gives the same answer, so the engine needs no memory between model calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backend.agent.rules import replies
from backend.agent.rules.resolve import match_tasks
from backend.agent.rules.text import display_title
from backend.agent.rules.types import Say, ToolCall, ToolOutcome

Step = Callable[[list[ToolOutcome]], ToolCall | Say]

ACTION_VERB = {"complete_task": "complete", "delete_task": "delete", "update_task": "update"}


def _failure(outcome: ToolOutcome) -> Say:
    if outcome.error and outcome.error.startswith("Invalid title"):
        return Say(replies.TITLE_TOO_LONG, {"error": "invalid_title"}, stop=True)
    if outcome.not_found and "task_id" in outcome.call.arguments:
        task_id = int(outcome.call.arguments["task_id"])
        return Say(replies.task_not_found(task_id), {"pending": {"kind": "offer_list"}}, stop=True)
    return Say(replies.SYSTEM_ERROR, {"error": True}, stop=True)


def say(text: str, **meta: Any) -> Step:
    def step(_: list[ToolOutcome]) -> ToolCall | Say:
        return Say(text, dict(meta))

    return step


def add_task(title: str, description: str | None, *, casual: bool = False) -> Step:
    def step(outcomes: list[ToolOutcome]) -> ToolCall | Say:
        if not outcomes:
            arguments: dict[str, Any] = {"title": title}
            if description:
                arguments["description"] = description
            return ToolCall("add_task", arguments)
        outcome = outcomes[0]
        if not outcome.ok:
            return _failure(outcome)
        return Say(
            replies.task_added(outcome.data["title"], casual=casual),
            {"focus": outcome.data["task_id"]},
        )

    return step


def list_tasks(status: str) -> Step:
    def step(outcomes: list[ToolOutcome]) -> ToolCall | Say:
        if not outcomes:
            return ToolCall("list_tasks", {"status": status})
        outcome = outcomes[0]
        if not outcome.ok:
            return _failure(outcome)
        tasks: list[dict[str, Any]] = outcome.data
        ids = [int(t["id"]) for t in tasks]
        meta: dict[str, Any] = {"listed": ids}
        if ids:
            meta["focus"] = ids[0]
        return Say(replies.task_list(tasks, status), meta)

    return step


def _act_reply(tool: str, outcome: ToolOutcome, *, completions: int) -> Say:
    data = outcome.data
    task_id = int(data["task_id"])
    if tool == "complete_task":
        text = replies.task_completed(data["title"], encouragement_index=completions)
    elif tool == "delete_task":
        text = replies.task_deleted(data["title"])
    else:
        fields = [f for f in ("title", "description") if f in outcome.call.arguments]
        text = replies.task_updated(task_id, data["title"], fields)
    return Say(text, {"focus": task_id})


def act_on_task(
    tool: str, task_id: int, fields: dict[str, str] | None = None, *, completions: int = 0
) -> Step:
    """complete_task / delete_task / update_task on a known task number."""

    def step(outcomes: list[ToolOutcome]) -> ToolCall | Say:
        if not outcomes:
            return ToolCall(tool, {"task_id": task_id, **(fields or {})})
        outcome = outcomes[0]
        if not outcome.ok:
            return _failure(outcome)
        return _act_reply(tool, outcome, completions=completions)

    return step


def act_on_title(
    tool: str, query: str, fields: dict[str, str] | None = None, *, completions: int = 0
) -> Step:
    """Rule 5 by title: list the tasks, resolve the title, then act, clarify or report."""
    status = "pending" if tool == "complete_task" else "all"

    def step(outcomes: list[ToolOutcome]) -> ToolCall | Say:
        if not outcomes:
            return ToolCall("list_tasks", {"status": status})
        listing = outcomes[0]
        if not listing.ok:
            return _failure(listing)
        matches = match_tasks(query, listing.data)
        if not matches:
            return Say(
                f"I couldn't find a task matching '{query}'. "
                "Would you like to see your current tasks?",
                {"pending": {"kind": "offer_list"}},
                stop=True,
            )
        if len(matches) > 1:
            return _clarify(tool, query, matches, fields)
        if len(outcomes) == 1:
            return ToolCall(tool, {"task_id": int(matches[0]["id"]), **(fields or {})})
        outcome = outcomes[1]
        if not outcome.ok:
            return _failure(outcome)
        return _act_reply(tool, outcome, completions=completions)

    return step


def _clarify(
    tool: str, query: str, matches: list[dict[str, Any]], fields: dict[str, str] | None
) -> Say:
    lines = [f"I found multiple tasks matching '{query}':"]
    lines += [
        f"{position}. {display_title(str(t['title']))} (ID: {t['id']})"
        for position, t in enumerate(matches, start=1)
    ]
    lines.append(f"Which task would you like to {ACTION_VERB[tool]}? Please specify by number.")
    pending = {
        "kind": "choose_task",
        "tool": tool,
        "candidates": [int(t["id"]) for t in matches],
        "fields": fields or {},
    }
    return Say("\n".join(lines), {"pending": pending}, stop=True)
