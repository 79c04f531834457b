"""A bulk change with a scope and exceptions ("everything on my Work list except the Q4
report"), made safe by construction: the tasks are read once, the scope picks from them, the
exceptions are taken out, and only what is left is changed (deleting still asks first).

Whatever the wording, three things hold: an excepted task is never changed; nothing outside
the scope is changed; and when the scope or an exception does not name tasks (no such list,
an exception that matches no task of the scope or several), nothing changes and it asks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backend.agent.rules import replies
from backend.agent.rules.bulk import Bulk
from backend.agent.rules.resolve import match_tasks, strip_reference_noise
from backend.agent.rules.steps import LOOKUP_LIMIT, Action, Step, confirm_clear, failure
from backend.agent.rules.task_actions import complete_all
from backend.agent.rules.types import Say, ToolCall, ToolOutcome

Task = dict[str, Any]

# The words people use for a list that is called something else: "the shopping list" is
# the Groceries list.
_LIST_WORDS = {
    "shopping": ("groceries", "grocery", "shopping"),
    "grocery": ("groceries", "grocery", "shopping"),
    "groceries": ("groceries", "grocery", "shopping"),
    "food": ("groceries", "grocery", "shopping", "food"),
    "food shopping": ("groceries", "grocery", "shopping"),
    "job": ("work",),
    "office": ("work",),
}


def _key(name: str) -> str:
    return " ".join(name.lower().strip(" #'\"").split())


def resolve_list(said: str, lists: Sequence[str]) -> str | None:
    """The one list of `lists` that `said` names ("work" -> "Work", "shopping" ->
    "Groceries"), or None when none does or several do."""
    key = _key(said)
    exact = [name for name in lists if _key(name) == key]
    if len(exact) == 1:
        return exact[0]
    words = _LIST_WORDS.get(key, (key.removesuffix("s"),))
    close = {name for name in lists if _key(name) in words or _key(name).removesuffix("s") in words}
    return close.pop() if len(close) == 1 else None


def _in_status(task: Task, status: str) -> bool:
    return status == "all" or bool(task.get("completed")) == (status == "completed")


def lists_of(tasks: Sequence[Task]) -> list[str]:
    """The names of the lists the tasks are on, sorted."""
    return sorted({str(t["list"]) for t in tasks if t.get("list")})


def _has_tag(task: Task, tag: str) -> bool:
    return tag in map(_key, task.get("tags") or ())


def scoped_tasks(bulk: Bulk, tasks: Sequence[Task], status: str) -> list[Task] | str:
    """The tasks of `status` inside the scope, or the question to ask when the scope does
    not name tasks."""
    if bulk.unread:
        return replies.bulk_scope_unread(bulk.unread)
    chosen = [t for t in tasks if _in_status(t, status)]
    if bulk.list_name:
        named = resolve_list(bulk.list_name, lists_of(tasks))
        if named is None:
            return replies.bulk_no_such_list(bulk.list_name, lists_of(tasks))
        chosen = [t for t in chosen if str(t.get("list") or "") == named]
    if bulk.tag:
        tag = _key(bulk.tag)
        if not any(_has_tag(t, tag) for t in tasks):
            return replies.bulk_no_such_tag(bulk.tag)
        chosen = [t for t in chosen if _has_tag(t, tag)]
    return chosen


def left_out(bulk: Bulk, scoped: Sequence[Task]) -> set[int] | str:
    """The task numbers the exceptions name, each exactly one task of the scope, or the
    question to ask when one names none or several."""
    kept: set[int] = set()
    for name in bulk.exceptions:
        matches = match_tasks(strip_reference_noise(name), scoped) if name else []
        if len(matches) != 1:
            titles = [str(t["title"]) for t in matches]
            return replies.bulk_exception_unclear(name, titles)
        kept.add(int(matches[0]["id"]))
    return kept


def chosen_ids(bulk: Bulk, tasks: Sequence[Task], status: str) -> list[int] | str:
    """The task numbers the bulk request changes, or the question to ask instead."""
    scoped = scoped_tasks(bulk, tasks, status)
    if isinstance(scoped, str):
        return scoped
    kept = left_out(bulk, scoped)
    if isinstance(kept, str):
        return kept
    return [int(t["id"]) for t in scoped if int(t["id"]) not in kept]


def _listing(bulk: Bulk) -> ToolCall:
    arguments: dict[str, Any] = {"status": "all", "limit": LOOKUP_LIMIT}
    if bulk.due:
        arguments["due"] = bulk.due
    return ToolCall("list_tasks", arguments)


def scoped_change(tool: str, bulk: Bulk) -> Step:
    """Complete (`complete_task`) or delete (`delete_task`, asked first) the tasks of the
    bulk request's scope but its exceptions."""
    status = "pending" if tool == "complete_task" else bulk.status

    def step(outcomes: list[ToolOutcome]) -> Action:
        if tool not in ("complete_task", "delete_task"):
            return Say(replies.BULK_EXCEPTIONS, stop=True)  # no other change is read in bulk
        if not outcomes:
            return _listing(bulk)
        listing = outcomes[0]
        if not listing.ok:
            return failure(listing)
        chosen = chosen_ids(bulk, listing.data, status)
        if isinstance(chosen, str):
            return Say(chosen, stop=True)
        if tool == "delete_task":
            return confirm_clear("all", chosen)(outcomes[:1])
        return complete_all(chosen)(outcomes)

    return step
