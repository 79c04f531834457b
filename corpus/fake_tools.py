"""An in-memory stand-in for the MCP task tools (and the list and sharing tools,
`corpus/fake_sharing.py`), for driving the pure rule engine.

It follows the real tools' contract (results, errors, per-user numbers, title search) so the
engine can be exercised on hundreds of utterances in milliseconds; the HTTP tests prove the
same behaviour through the real MCP server and database. Its results are built with the real
tools' result models (backend/models/tool_results.py), and tests/agent/test_fake_tools.py
checks that the same calls give results of the same shape from both.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.engine import FinalReply, advance, interpret
from backend.agent.rules.types import Batch, ReplyMeta, ToolCall, ToolOutcome, Turn
from backend.domain.reminder_times import describe_before
from backend.domain.repeat_phrases import describe, read_repeat
from backend.domain.repeats import Repeat, first_due, next_due
from backend.models.tool_results import (
    BulkChange,
    Invitations,
    ListedTask,
    ListedTasks,
    Lists,
    Members,
    SharedListedTask,
    SharingChange,
    TaskChange,
    ToolFailure,
)
from backend.services.tasks import title_search_terms
from corpus.fake_sharing import FakeInvitation, FakeList, SharingTools
from mcp_tools.server import BULK_TITLES

# The fake keeps no clock: every task was created and last changed at this moment.
CREATED_AT = "2026-01-01T00:00:00+00:00"


def numbered_tasks(*titles: str, done: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """Tasks 1, 2, 3... with these titles, pending unless their number is in `done`."""
    return [
        {"id": n, "title": title, "description": None, "completed": n in done}
        for n, title in enumerate(titles, start=1)
    ]


def _listed(task: dict[str, Any], sharing: dict[str, Any] | None = None) -> ListedTask:
    """A stored task as `list_tasks` shows it: every key, the fake's defaults for those it
    never set (no due label: the real one is relative to the clock); on a shared list, who
    added and completed it (`sharing`)."""
    shown = SharedListedTask if sharing else ListedTask
    return shown(
        id=task["id"],
        title=task["title"],
        description=task.get("description"),
        completed=task["completed"],
        created_at=CREATED_AT,
        updated_at=CREATED_AT,
        due_date=task.get("due_date"),
        due_time=task.get("due_time"),
        due_label=None,
        priority=task.get("priority", "none"),
        list=task.get("list", "Inbox"),
        tags=task.get("tags", []),
        repeat=task.get("repeat"),
        repeat_text=task.get("repeat_text"),
        due_at=None,
        **{k: v for k, v in (sharing or {}).items() if k != "shared"},
    )


# What the tools may return.
_RESULTS = (TaskChange, BulkChange, ListedTasks, Lists, Members, Invitations, SharingChange)


class FakeTaskStore(SharingTools):
    def __init__(
        self,
        tasks: list[dict[str, Any]],
        today: date | None = None,
        *,
        me: str = "me@example.com",
        lists: Sequence[FakeList] = (),
        invitations: Sequence[FakeInvitation] = (),
    ) -> None:
        """`me`: the user's email; `lists`: lists shared with them or by them (the others
        are their own, named by their tasks); `invitations`: waiting for their answer."""
        self.tasks = copy.deepcopy(tasks)
        self.last_number = max((int(t["id"]) for t in tasks), default=0)
        # The user's today for due filters and repeats: the fresh batches' fixed clock. Without
        # one (the older corpora), a due filter keeps every dated task.
        self.today = today
        # The tasks whose reminder has fired and is still shown, the most recent last (the
        # corpora start with none), and those a reminder change superseded (dismissed).
        self.fired: list[int] = []
        self.superseded: dict[int, list[int]] = {}
        self._start_sharing(me, copy.deepcopy(list(lists)), copy.deepcopy(list(invitations)))

    def call(self, call: ToolCall) -> ToolOutcome:
        handler = getattr(self, call.name)
        try:
            result: BaseModel = handler(**call.arguments)
        except LookupError as exc:
            return ToolOutcome(call, error=str(exc))
        # Built with the result models already: the JSON the real tools would send.
        assert isinstance(result, _RESULTS)
        if isinstance(result, ListedTasks):  # each task as itself: a shared one says more
            data: Any = [task.model_dump(mode="json") for task in result.root]
        else:
            data = result.model_dump(mode="json")
        return ToolOutcome(call, data=data, result=result)

    def _find(self, task_id: int) -> dict[str, Any]:
        for task in self.tasks:
            if task["id"] == task_id:
                return task
        raise LookupError(f"Task {task_id} not found")

    def add_task(
        self,
        title: str,
        description: str | None = None,
        number: int | None = None,
        **fields: Any,
    ) -> TaskChange:
        """Also keeps the issue-14 fields (due, priority, list, tags), echoed as the real
        tool echoes the ones given; `number` brings a deleted task back under its own."""
        shared = self.list_of({"list": self.shown_list(str(fields.get("list") or "Inbox"))})
        if shared is not None:  # a list someone shares: the viewer's refused, as in the service
            self.check_writable({"list": shared.name})
        if number is None:
            self.last_number += 1
            number = self.last_number
        elif not 1 <= number <= self.last_number or any(t["id"] == number for t in self.tasks):
            raise LookupError(f"task number {number} is not free")
        task = {"id": number, "title": title, "description": description}
        task["completed"] = False
        self.tasks.append(task)
        self.tasks.sort(key=lambda t: int(t["id"]))
        result = {"task_id": number, "status": "created", "title": title}
        echoed = self._set_fields(task, fields, self.today)
        if shared is not None:
            task["list"], task["added_by"] = shared.name, self.me
        return TaskChange.model_validate({**result, **echoed, **self._sharing_echo(task)})

    def _sharing_echo(self, task: dict[str, Any]) -> dict[str, Any]:
        """What a change's result adds for a task on a shared list (mcp_tools/server.py
        `_sharing_json`): the list as the user calls it, and who added and completed it."""
        keys = self.sharing_keys(task)
        return {"list": task.get("list") or "Inbox", **keys} if keys else {}

    def _writable(self, task_id: int) -> dict[str, Any]:
        task = self._find(task_id)
        self.check_writable(task)
        return task

    def _reminder_cards(self, task_id: int, fields: dict[str, Any], *, restore: bool) -> None:
        """As the real service: a new reminder time supersedes the task's fired one still
        shown; `restore` shows again the one the last change superseded."""
        superseded = self.superseded.pop(task_id, [])
        at = fields.get("remind_at")
        if at not in (None, "none") and task_id in self.fired:
            self.fired.remove(task_id)
            self.superseded[task_id] = [task_id]
        if restore and superseded:
            self.fired.append(task_id)

    @staticmethod
    def _fields_before(task: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        """The arguments that would put the changed fields back, as the real tool reports."""
        before: dict[str, Any] = {}
        if "due" in fields:
            day, clock = task.get("due_date"), task.get("due_time")
            before["due"] = f"{day}T{clock}" if day and clock else (day or "none")
        if "priority" in fields:
            before["priority"] = task.get("priority", "none")
        if "list" in fields:
            before["list"] = task.get("list", "Inbox")
        if "tags" in fields or "add_tags" in fields or "remove_tags" in fields:
            before["tags"] = list(task.get("tags", []))
        if "repeat" in fields:
            before["repeat"] = task.get("repeat") or "none"
        if "skip" in fields:
            before["due"] = task.get("due_date") or "none"
        if "remind_at" in fields or "remind_before" in fields:
            if task.get("remind_before") is not None:
                before["remind_before"] = task["remind_before"]
            else:
                before["remind_at"] = task.get("remind_at") or "none"
        return before

    @staticmethod
    def _set_fields(
        task: dict[str, Any], fields: dict[str, Any], today: date | None = None
    ) -> dict[str, Any]:
        today = today or date.today()
        echoed: dict[str, Any] = {}
        known = {"due", "priority", "list", "tags", "add_tags", "remove_tags", "repeat", "skip"}
        unknown = set(fields) - known - {"remind_at", "remind_before"}
        if unknown:
            raise TypeError(f"unexpected arguments {sorted(unknown)}")
        if "due" in fields:
            due = str(fields["due"])
            day, _, clock = due.partition("T")
            task["due_date"], task["due_time"] = (
                (None, None) if due == "none" else (day, clock or None)
            )
            echoed.update(due_date=task["due_date"], due_time=task["due_time"])
        echoed.update(FakeTaskStore._set_reminder(task, fields))  # an offset from the new due
        if fields.get("repeat") == "none":
            task["repeat"] = task["repeat_text"] = echoed["repeat"] = echoed["repeat_text"] = None
        elif "repeat" in fields:
            repeat = read_repeat(str(fields["repeat"]))
            task["repeat"] = echoed["repeat"] = repeat.rule
            task["repeat_text"] = echoed["repeat_text"] = describe(repeat)
            if not task.get("due_date"):  # as the real tool: due on the rule's first day
                first = first_due(repeat, today)
                task["due_date"] = echoed["due_date"] = first.isoformat() if first else None
                echoed["due_time"] = task.get("due_time")
        if fields.get("skip"):
            if not task.get("repeat"):
                raise LookupError(f"Task {task['id']} does not repeat")
            moved = next_due(
                Repeat(task["repeat"]),
                date.fromisoformat(task["due_date"]),
                None,
                today=today,
            )
            if moved is None:  # the rule never comes round again
                raise LookupError(f"Task {task['id']} has no next date to skip to")
            task["due_date"] = echoed["due_date"] = moved.isoformat()
            echoed.update(repeat=task["repeat"], repeat_text=task["repeat_text"])
        if "priority" in fields:
            task["priority"] = echoed["priority"] = fields["priority"]
        if "list" in fields:
            task["list"] = echoed["list"] = fields["list"]
        if "tags" in fields or "add_tags" in fields or "remove_tags" in fields:
            tags = [*fields.get("tags", task.get("tags", [])), *fields.get("add_tags", [])]
            off = {t.lstrip("#").lower() for t in fields.get("remove_tags", [])}
            kept = [t.lstrip("#") for t in tags if t.lstrip("#").lower() not in off]
            task["tags"] = echoed["tags"] = list(dict.fromkeys(kept))
        if "due_date" in echoed:
            echoed["due_label"] = task["due_date"]  # the real tool's label is relative
        return echoed

    @staticmethod
    def _set_reminder(task: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        """As the real tool: an offset needs a due date; "none" turns the reminder off; the
        label is the instant as given (the real one is relative)."""
        if "remind_at" not in fields and "remind_before" not in fields:
            return {}
        before, at = fields.get("remind_before"), fields.get("remind_at")
        if before is not None:
            if not task.get("due_date"):
                raise LookupError("remind_before needs a due_date (the task has none)")
            clock = task.get("due_time") or "09:00"
            task["remind_before"], task["remind_at"] = before, f"{task['due_date']}T{clock}"
        else:
            task["remind_before"] = None
            task["remind_at"] = None if at in (None, "none") else str(at)
        task["remind_off"] = at == "none"  # a timed task no longer reminds at its time
        label = task["remind_at"]
        if label is not None and task["remind_before"] is not None:
            label = f"{label}, {describe_before(int(task['remind_before']))}"
        return {
            "remind_at": task["remind_at"],
            "remind_before": task["remind_before"],
            "remind_label": label,
        }

    def list_tasks(
        self,
        status: str = "all",
        query: str | None = None,
        limit: int | None = None,
        **filters: Any,
    ) -> ListedTasks:
        """Also the list, tag and priority filters (a due filter needs the real tool's clock:
        it keeps the tasks with any due date)."""
        if filters.get("reminder") == "fired":  # the most recently fired first
            shown = [self._find(n) for n in reversed(self.fired)]
            shown = [t for t in shown if not t["completed"]]
            return ListedTasks([self._listed(task) for task in (shown[:limit] if limit else shown)])
        found = [
            t for t in self.tasks if status == "all" or t["completed"] == (status == "completed")
        ]
        if "list" in filters:
            named = (self.shown_list(filters["list"]) or filters["list"]).lower()
            found = [t for t in found if t.get("list", "Inbox").lower() == named]
        if "tag" in filters:
            found = [t for t in found if filters["tag"] in t.get("tags", [])]
        if "priority" in filters:
            found = [t for t in found if t.get("priority", "none") == filters["priority"]]
        if "due" in filters and self.today is None:
            dated = filters["due"] != "no_date"
            found = [t for t in found if (t.get("due_date") is not None) == dated]
            filters = {k: v for k, v in filters.items() if k != "due"}
        if "due" in filters or "due_from" in filters or "due_to" in filters:
            found = [t for t in found if self._due_matches(t, filters)]
        if query:
            terms = title_search_terms(query)
            found = [
                t
                for t in found
                if t["title"].lower() == query.strip().lower()
                or any(term in t["title"].lower() for term in terms)
            ]
        return ListedTasks([self._listed(task) for task in (found[:limit] if limit else found)])

    def _listed(self, task: dict[str, Any]) -> ListedTask:
        return _listed(task, self.sharing_keys(task))

    def _due_matches(self, task: dict[str, Any], filters: dict[str, Any]) -> bool:
        """The real tool's due filters on the fixed clock (noon), and a day range."""
        day = date.fromisoformat(task["due_date"]) if task.get("due_date") else None
        period = filters.get("due")
        if period == "no_date":
            return day is None
        if day is None:
            return False
        if period == "overdue" and self.today is not None:
            clock = task.get("due_time")
            late = day < self.today or (day == self.today and clock is not None and clock < "12:00")
            return late and not task["completed"]
        if period is not None and self.today is not None:
            spans = {
                "today": (0, 0),
                "tomorrow": (1, 1),
                "next_7_days": (0, 6),
                "this_week": (0, 6 - self.today.weekday()),
            }
            first, last = spans[period]
            if not first <= (day - self.today).days <= last:
                return False
        low, high = filters.get("due_from"), filters.get("due_to")
        return (low is None or day >= date.fromisoformat(low)) and (
            high is None or day <= date.fromisoformat(high)
        )

    def _chosen(self, task_ids: list[int] | None, every: str | None) -> list[dict[str, Any]]:
        """The stored tasks a bulk call names, in number order; all missing is an error, as
        in the real tools (some missing are reported as `not_found`)."""
        if every is not None:  # only the tasks of the user's own lists (specs/sharing.md)
            return sorted(
                (
                    t
                    for t in self.tasks
                    if (every == "all" or t["completed"] == (every == "completed"))
                    and self.is_own(t)
                ),
                key=lambda t: int(t["id"]),
            )
        wanted = sorted(set(task_ids or ()))
        seen = [t for t in self.tasks if t["id"] in wanted]
        found = [t for t in seen if self.may_change(t)]
        if not found and seen:  # all of them only viewed (mcp_tools/server.py `_view_only`)
            named = ", ".join(str(t["id"]) for t in seen)
            which = f"Task {named} is" if len(seen) == 1 else f"Tasks {named} are"
            raise LookupError(
                f"{which} on a list shared with you as a viewer: you can see, not change them"
            )
        if not found:
            names = ", ".join(str(n) for n in wanted)
            raise LookupError(
                f"Task {names} not found" if len(wanted) == 1 else f"Tasks {names} not found"
            )
        return sorted(found, key=lambda t: int(t["id"]))

    def _bulk(
        self, chosen: list[dict[str, Any]], status: str, asked: list[int] | None
    ) -> BulkChange:
        numbers = [int(t["id"]) for t in chosen]
        result: dict[str, Any] = {
            "task_ids": numbers,
            "status": status,
            "count": len(numbers),
            "titles": [t["title"] for t in chosen][:BULK_TITLES],
        }
        viewed = {int(t["id"]) for t in self.tasks if not self.may_change(t)}
        missing = sorted(set(asked or ()) - set(numbers) - viewed)
        if missing:
            result["not_found"] = missing
        read_only = sorted(set(asked or ()) & viewed)
        if read_only:
            result["read_only"] = read_only
        return BulkChange.model_validate(result)

    def complete_task(
        self,
        task_id: int | None = None,
        task_ids: list[int] | None = None,
        every: str | None = None,
    ) -> TaskChange | BulkChange:
        if task_id is None:
            chosen = self._chosen(task_ids, every)
            for task in chosen:
                self._complete(task)
            return self._bulk(chosen, "completed", task_ids)
        task = self._writable(task_id)
        self._complete(task)
        result = {"task_id": task_id, "status": "completed", "title": task["title"]}
        return TaskChange.model_validate({**result, **self._sharing_echo(task)})

    def _complete(self, task: dict[str, Any]) -> None:
        task["completed"] = True
        if self.list_of(task) is not None:
            task["completed_by"] = self.me

    def delete_task(
        self,
        task_id: int | None = None,
        task_ids: list[int] | None = None,
        every: str | None = None,
    ) -> TaskChange | BulkChange:
        if task_id is None:
            chosen = self._chosen(task_ids, every)
            numbers = {int(t["id"]) for t in chosen}
            self.tasks = [t for t in self.tasks if int(t["id"]) not in numbers]
            return self._bulk(chosen, "deleted", task_ids)
        task = self._writable(task_id)
        self.tasks.remove(task)
        result = {"task_id": task_id, "status": "deleted", "title": task["title"]}
        return TaskChange.model_validate({**result, **self._sharing_echo(task)})

    def update_task(
        self,
        task_id: int,
        title: str | None = None,
        description: str | None = None,
        completed: bool | None = None,
        **fields: Any,
    ) -> TaskChange:
        restore = fields.pop("restore_reminder", None)
        if title is None and description is None and completed is None and not fields:
            raise LookupError("Nothing to update")
        task = self._writable(task_id)
        self._moves_within_owner(task, fields.get("list"))
        self._reminder_cards(task_id, fields, restore=bool(restore))
        before = self._fields_before(task, fields)
        for name, value in (
            ("title", title),
            ("description", description),
            ("completed", completed),
        ):
            if value is not None:
                task[name] = value
        if completed is False:
            task.pop("completed_by", None)
        echoed = self._set_fields(task, fields, self.today)
        result = {"task_id": task_id, "status": "updated", "title": task["title"], **echoed}
        result |= self._sharing_echo(task)
        if before:
            result["before"] = before
        return TaskChange.model_validate(result)

    def _moves_within_owner(self, task: dict[str, Any], to: str | None) -> None:
        """A task moves only between lists of one owner (MoveBetweenOwnersError)."""
        if to is None or to == "none":
            return
        target = self.shown_list(str(to)) or str(to)
        if self.owner_of(target) != self.owner_of(task.get("list")):
            raise LookupError(
                f"A task cannot move to {target!r}: the two lists belong to different people. "
                "Add it there as a new task instead"
            )


@dataclass
class Exchange:
    reply: str
    meta: ReplyMeta
    tool_calls: list[dict[str, Any]]


@dataclass
class Conversation:
    """The engine plus a fake store, turn by turn, keeping history as the service would."""

    store: FakeTaskStore
    turns: list[Turn] = field(default_factory=list)
    window: int = 50
    now: datetime | None = None  # the turn's moment (the fresh batches' fixed clock)

    def say(self, message: str) -> Exchange:
        context = ConversationContext.from_turns(self.turns[-self.window :])
        if self.now is not None:
            context = replace(context, now=self.now)
        plan = interpret(message, context)
        outcomes: list[ToolOutcome] = []
        for _ in range(64):
            action = advance(plan, outcomes)
            if isinstance(action, FinalReply):
                break
            calls = action.calls if isinstance(action, Batch) else (action,)
            outcomes.extend(self.store.call(call) for call in calls)
        else:
            raise AssertionError(f"plan for {message!r} did not finish")
        tool_calls = [
            {
                "name": o.call.name,
                "arguments": o.call.arguments,
                "result": o.data if o.ok else ToolFailure(error=str(o.error)).model_dump(),
            }
            for o in outcomes
        ]
        self.turns.append(Turn("user", message))
        self.turns.append(Turn("assistant", action.text, tool_calls, action.meta))
        return Exchange(action.text, action.meta, tool_calls)
