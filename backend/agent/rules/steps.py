"""The building blocks of a plan.

A step is a pure function of the tool outcomes it has received so far: it answers with the
next `ToolCall` (or `Batch`) it needs, or with the `Say` that finishes it. Replaying the same
outcomes always gives the same answer, so the engine needs no memory between model calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from typing_extensions import Unpack

from backend.agent.rules import replies
from backend.agent.rules.bulk_results import bulk_call, per_task_outcomes
from backend.agent.rules.resolve import STRONG, match_tasks, misspelt_match, score, similar_tasks
from backend.agent.rules.spelling import has_misspelt_word
from backend.agent.rules.task_fields import NO_FIELDS, TaskFields, fields_echo
from backend.agent.rules.text import visible
from backend.agent.rules.types import (
    Batch,
    PendingKind,
    PendingQuestion,
    ReplyMeta,
    Say,
    ToolCall,
    ToolOutcome,
)

Action = ToolCall | Batch | Say
Step = Callable[[list[ToolOutcome]], Action]
Task = dict[str, Any]

ACTION_VERB = {"complete_task": "complete", "delete_task": "delete", "update_task": "update"}
NUDGE_EVERY = 3  # adds in a row without a completion before a friendly nudge
# Look-ups the assistant makes for itself (not to show a list) are bounded.
LOOKUP_LIMIT = 1000
# A list shown in chat asks for one task more than it shows, to know whether there are more.
SHOW_LIMIT = replies.LIST_LIMIT + 1


# Bulk changes are not undoable; the marker stops "undo" from reaching back past them.
BULK_CHANGE = ReplyMeta(undo={"tool": None, "bulk": True})

# Task numbers the tools accept; any other number names no task (Error 1, not Error 5).
TASK_NUMBERS = range(1, 2**31)


def task_not_found(task_id: int) -> Say:
    pending = PendingQuestion(kind=PendingKind.OFFER_LIST)
    return Say(replies.task_not_found(task_id), {"pending": pending}, stop=True)


# The tools' words for text they refuse: "Invalid description: String should have at most
# 2000 characters", "Invalid title: String should have at least 1 character", "Invalid list:
# Value error, list must not contain invisible characters (...)".
_INVALID_TEXT = re.compile(
    r"^Invalid (?P<field>title|description|list): (?:Value error, )?(?P<problem>.+)$", re.DOTALL
)
# A new list the account may not make, in the tool's own words, which say why and what to do:
# "'Іnbox' looks like your list 'Inbox': ...", "You have reached the limit of 100 lists; ...".
_LIST_REFUSED = re.compile(r"\blooks like your list\b|\blimit of [\d,]+ lists\b")
_AT_MOST = re.compile(r"\bat most (?P<limit>\d+) characters?\b")
_EMPTY = re.compile(r"\bat least 1 character\b|\bmust not be blank\b")


def _refused_text(field: str, problem: str) -> str:
    """Why a title or description was refused, in plain words."""
    too_long = _AT_MOST.search(problem)
    if too_long and field == "title":
        return replies.title_too_long(int(too_long["limit"]))
    if too_long and field == "description":
        return replies.description_too_long(int(too_long["limit"]))
    if field == "title" and _EMPTY.search(problem):
        return replies.EMPTY_TITLE
    return replies.invalid_text(field, problem)


_NOT_REPEATING = re.compile(r"\bTask (?P<id>\d+) does not repeat\b")
_NO_NEXT_DATE = re.compile(
    r"\bTask (?P<id>\d+) has no next date to skip to: (?P<why>.+)$", re.DOTALL
)
# The tools' words for a repeat they cannot keep (its step, "every 1 to 3650 days"; its parts;
# a rule no day matches, or none before the calendar's end), and for a date outside it.
_REPEAT_STEP = re.compile(r"\bcannot be kept: INTERVAL must .*\((?P<step>every 1 to \d+ \w+)\)")
_REPEAT_REFUSED = re.compile(
    r"\brepeat .* (?:cannot be kept: (?P<why>.+)|never comes round"
    r"|has no date after .* by (?P<last>\d{4})-12-31)",
    re.DOTALL,
)
# mcp_tools/principal.py READ_ONLY: the turn's credential may read but not change.
_READ_ONLY = re.compile(r"\bRead-only access\b")
_OUTSIDE_CALENDAR = re.compile(r"\b(?:due|due_date|remind_at) must be from \d{4}-\d\d-\d\d to ")


def _repeat_refused(error: str) -> str | None:
    """The chat's reply to a repeat the tools refused, or None if `error` is another."""
    step = _REPEAT_STEP.search(error)
    if step is not None:
        return replies.repeat_refused(f"a repeat can be {step['step']}")
    refused = _REPEAT_REFUSED.search(error)
    if refused is None:
        return None
    if refused["last"]:
        last = refused["last"]
        return replies.repeat_refused(f"it has no date left by the end of {last}, my last year")
    return replies.repeat_refused(refused["why"])  # None: no day ever matches it


# Refusals the user is told as the tools say them, reason and all (specs/sharing.md): a task
# of a list shared with them to view only, a sharing change only the owner may make, a list
# that cannot be shared, a task that would change hands.
_SAID_AS_REFUSED = re.compile(
    r"\bis shared with you as a viewer\b|\bon a list shared with you as a viewer\b"
    r"|^Only the owner of\b|\bis yours alone\b|\bis your own list\b|^That is your own email\b"
    r"|\bis (?:a member|invited) already\b|\bmay be shared with at most\b"
    r"|^A task cannot move to\b"
)
# A list, member or invitation the user does not see: said plainly.
_SHARING_NOT_FOUND = {
    "List not found": replies.LIST_NOT_FOUND,
    "Member not found": replies.MEMBER_NOT_FOUND,
    "Invitation not found": replies.INVITATION_NOT_FOUND,
}


def refusal(outcome: ToolOutcome) -> Say | None:
    """The reply to a refusal the user may be told (None for any other failure)."""
    error = (outcome.error or "").strip()
    if _SAID_AS_REFUSED.search(error):
        return Say(replies.refused(error), {"error": "refused"}, stop=True)
    if error in _SHARING_NOT_FOUND:
        return Say(_SHARING_NOT_FOUND[error], {"error": "not_found"}, stop=True)
    return None


_REMINDER_REFUSED = {
    "remind_at must be in the future": (replies.REMINDER_IN_PAST, "reminder_in_past"),
    "remind_before needs a due_date": (replies.REMINDER_NEEDS_DUE, "reminder_needs_due"),
}


# Refusals answered with a fixed reply, by the pattern of the tool's error.
_FIXED_REFUSALS = (
    *(
        (re.compile(re.escape(problem)), text, name)
        for problem, (text, name) in _REMINDER_REFUSED.items()
    ),
    (_READ_ONLY, replies.READ_ONLY, "read_only"),
    (_OUTSIDE_CALENDAR, replies.DATE_OUT_OF_RANGE, "date_out_of_range"),
)


def failure(outcome: ToolOutcome) -> Say:
    error = outcome.error or ""
    refused = refusal(outcome)
    if refused is not None:
        return refused
    for pattern, text, name in _FIXED_REFUSALS:
        if pattern.search(error):
            return Say(text, {"error": name}, stop=True)
    no_next = _NO_NEXT_DATE.search(error)
    if no_next is not None:
        text = replies.no_next_date(int(no_next["id"]), no_next["why"])
        return Say(text, {"error": "no_next_date"}, stop=True)
    repeat_refused = _repeat_refused(error)
    if repeat_refused is not None:
        return Say(repeat_refused, {"error": "repeat_refused"}, stop=True)
    not_repeating = _NOT_REPEATING.search(error)
    if not_repeating:
        return Say(
            replies.not_repeating(int(not_repeating["id"])), {"error": "not_repeating"}, stop=True
        )
    if _LIST_REFUSED.search(outcome.error or ""):
        return Say(str(outcome.error), {"error": "list_refused"}, stop=True)
    invalid = _INVALID_TEXT.match(outcome.error or "")
    if invalid:
        text = _refused_text(invalid["field"], invalid["problem"].strip())
        return Say(text, {"error": f"invalid_{invalid['field']}"}, stop=True)
    if outcome.not_found and "task_id" in outcome.call.arguments:
        return task_not_found(int(outcome.call.arguments["task_id"]))
    return Say(replies.SYSTEM_ERROR, {"error": True}, stop=True)


def say(text: str, **meta: Unpack[ReplyMeta]) -> Step:
    def step(_: list[ToolOutcome]) -> Action:
        return Say(text, ReplyMeta(**meta))

    return step


def add_task(
    title: str,
    description: str | None,
    *,
    casual: bool = False,
    adds_in_a_row: int = 0,
    known_pending: tuple[Task, ...] = (),
    may_nudge: bool = True,
    fields: TaskFields = NO_FIELDS,
    today: date | None = None,
    reminder: dict[str, Any] | None = None,
) -> Step:
    """add_task; the "you also have" note comes from tasks this conversation has seen, and
    every few adds in a row one look-up counts the pending tasks for a friendly nudge.
    `fields` (due, priority, list, tags) and the `reminder` said with the add
    (`remind_before` or `remind_at`) go with the call, and the reply echoes them."""
    nudge = may_nudge and (adds_in_a_row + 1) % NUDGE_EVERY == 0

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            arguments: dict[str, Any] = {"title": title}
            if description:
                arguments["description"] = description
            arguments.update(fields.arguments())
            arguments.update(reminder or {})
            return ToolCall("add_task", arguments)
        added = outcomes[0]
        if not added.ok:
            return failure(added)
        task_id, stored_title = int(added.data["task_id"]), str(added.data["title"])
        meta = ReplyMeta(
            focus=task_id, undo={"tool": "delete_task", "arguments": {"task_id": task_id}}
        )
        where = added.data.get("list")
        shared = bool(added.data.get("shared"))
        details = fields_echo(added.data, today or date.today())
        text = replies.task_added(
            stored_title, casual=casual, where=where, details=details, shared=shared
        )
        similar = similar_tasks(stored_title, known_pending, exclude=task_id)
        if similar:
            return Say(replies.with_similar_note(text, similar[0]), meta)
        if details:
            return Say(text, meta)  # each add says its own date or priority
        if not nudge:
            return Say(text, meta, added=stored_title, added_where=where, added_shared=shared)
        if len(outcomes) == 1:
            return ToolCall("list_tasks", {"status": "pending", "limit": LOOKUP_LIMIT})
        if outcomes[1].ok:
            text = replies.nudge(stored_title, len(outcomes[1].data))
        return Say(text, meta)

    return step


def add_if_missing(title: str, add: Step) -> Step:
    """ "Add flour if it isn't there yet": look first; add only when no task has that title."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall("list_tasks", {"status": "all", "query": title})
        found = outcomes[0]
        if not found.ok:
            return failure(found)
        wanted = visible(title).strip().lower()
        same = [t for t in found.data if visible(str(t["title"])).strip().lower() == wanted]
        if same:
            return Say(replies.already_on_list(same[0]), {"focus": int(same[0]["id"])})
        return add(outcomes[1:])

    return step


def list_tasks(status: str, filters: dict[str, str] | None = None) -> Step:
    """list_tasks to show, optionally filtered by due, list, tag or priority."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall(
                "list_tasks", {"status": status, "limit": SHOW_LIMIT, **(filters or {})}
            )
        outcome = outcomes[0]
        if not outcome.ok:
            return failure(outcome)
        tasks: list[Task] = outcome.data
        shown = tasks[: replies.LIST_LIMIT]
        meta = ReplyMeta(listed=[int(t["id"]) for t in shown])
        if shown:
            # the spec's Rule 3: "that" after a list is its first row; of several rows, a
            # guess (`focus_is_a_row`): a deletion of it is confirmed first
            meta["focus"] = int(shown[0]["id"])
            meta["focus_is_a_row"] = len(shown) > 1
        if filters:
            # "add the plants to that too": what the list shown was narrowed to
            narrowed = {k: v for k, v in filters.items() if k in ("list", "tag")}
            if narrowed:
                meta["shown_filter"] = narrowed
            return Say(replies.filtered_task_list(tasks, filters), meta)
        return Say(replies.task_list(tasks, status), meta)

    return step


def list_lists() -> Step:
    """ "What lists do I have?": the lists with their counts, read from every task (the
    first 1,000)."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            # no limit: the tool's largest page, so the counts are every task's
            return ToolCall("list_tasks", {"status": "all"})
        if not outcomes[0].ok:
            return failure(outcomes[0])
        return Say(replies.lists_overview(outcomes[0].data), ReplyMeta())

    return step


def titles_matching(query: str, outcomes: list[ToolOutcome]) -> ToolCall | Say | list[Task]:
    """The title search a step starts with: the search call until it has an answer, then its
    failure, or the tasks `query` names (Rule 5)."""
    if not outcomes:
        return ToolCall("list_tasks", {"status": "all", "query": query})
    if not outcomes[0].ok:
        return failure(outcomes[0])
    return match_tasks(query, outcomes[0].data)


def every_task(outcomes: list[ToolOutcome]) -> ToolCall | Say | list[Task]:
    """The whole list (bounded), read when a title search cannot answer: the call until it
    has an answer, then its failure, or the tasks."""
    if not outcomes:
        return ToolCall("list_tasks", {"status": "all", "limit": LOOKUP_LIMIT})
    if not outcomes[0].ok:
        return failure(outcomes[0])
    tasks: list[Task] = outcomes[0].data
    return tasks


def misspelt_matches(query: str, tasks: list[Task]) -> list[Task]:
    """The tasks `query` names with typing slips only ("reprot", "pasport")."""
    return [t for t in match_tasks(query, tasks) if misspelt_match(query, t)]


def named_and_pending(query: str, task: dict[str, Any]) -> bool:
    """Whether `task` is still to do and `query` names it outright (never by likeness)."""
    return not task.get("completed") and score(query, str(task["title"])) >= STRONG


def lookup(query: str, *, when: bool = False) -> Step:
    """ "Is milk on my list?"; with `when`, "when's the draft review?": its due and repeat."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        matches = titles_matching(query, outcomes)
        if not isinstance(matches, list):
            return matches
        if not matches and has_misspelt_word(query):
            # "is the pasport one still there?": the list read back, matched with slips
            tasks = every_task(outcomes[1:])
            if not isinstance(tasks, list):
                return tasks
            matches = misspelt_matches(query, tasks)
        if when:  # a task still to do, named outright: "the gas bill" is no electricity bill
            matches = [t for t in matches if named_and_pending(query, t)]
        if not matches and when:
            # "when is my car insurance due?" with no such task: another app's date
            return Say(replies.no_task_to_date(query), {"acts": ["off_topic"], "focus": None})
        if not matches:
            return Say(
                replies.not_on_list(query),
                {
                    "pending": {"kind": PendingKind.OFFER_ADD, "title": query},
                    "lookup": query,
                    "focus": None,
                },
            )
        if len(matches) > 1:
            # "anything about the report?": every match, so "mark both of them done" follows
            shown = [int(task["id"]) for task in matches]
            return Say(replies.all_on_list(query, matches), {"listed": shown, "lookup": query})
        said = replies.when_due(matches[0]) if when else replies.on_list(matches[0])
        return Say(said, {"focus": int(matches[0]["id"]), "lookup": query})

    return step


def count(status: str = "pending") -> Step:
    """ "How many items are on my list?", "is there anything left?": a count, not a list.
    `status` is what was counted ("how many have I completed?"): "show them" next lists it."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        tasks = every_task(outcomes)
        if not isinstance(tasks, list):
            return tasks
        pending = sum(1 for t in tasks if not t.get("completed"))
        return Say(
            replies.task_count(pending, len(tasks), capped=len(tasks) >= LOOKUP_LIMIT),
            {"counted": "completed" if status == "completed" else "pending"},
        )

    return step


def confirm_clear(status: str, only: list[int] | None = None) -> Step:
    """ "Clear my list" (or, with `only`, "delete them" after a list): count what would go,
    and ask before deleting anything. The question remembers exactly which tasks it counted,
    so a "yes" deletes those and nothing added since (from another device, say)."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall("list_tasks", {"status": status, "limit": LOOKUP_LIMIT})
        outcome = outcomes[0]
        if not outcome.ok:
            return failure(outcome)
        chosen = [t for t in outcome.data if only is None or int(t["id"]) in only]
        if only is None and any(t.get("shared") for t in chosen):
            # "clear my list" is the user's own lists: never a list someone shares with them
            if len(outcomes) == 1:
                return ToolCall("list_lists", {})
            chosen = _on_own_lists(chosen, outcomes[1])
        if not chosen:
            return Say(replies.task_list([], status))
        ids: list[int] | None = [int(t["id"]) for t in chosen]
        more = only is None and len(chosen) >= LOOKUP_LIMIT
        question = (
            replies.confirm_delete_these([str(t["title"]) for t in chosen])
            if only is not None
            else replies.confirm_clear(len(chosen), status, more=more)
        )
        if more:
            ids = None  # a "yes" deletes every task of the status: more than one list holds
        return Say(
            question,
            {"pending": {"kind": PendingKind.CONFIRM_CLEAR, "status": status, "task_ids": ids}},
        )

    return step


def _on_own_lists(tasks: list[Task], lists: ToolOutcome) -> list[Task]:
    """The tasks of the user's own lists (`list_lists` says which are someone else's)."""
    if not lists.ok or not isinstance(lists.data, dict):
        return [t for t in tasks if not t.get("shared")]  # unsure: none that are shared
    theirs = {str(x["name"]) for x in lists.data.get("lists", []) if x.get("role") != "owner"}
    return [t for t in tasks if str(t.get("list") or "") not in theirs]


def read_only_note(text: str, outcome: ToolOutcome) -> str:
    """A bulk change's reply, with a note of the asked-for tasks it left because the user
    only views their list."""
    data = outcome.data if outcome.ok and isinstance(outcome.data, dict) else {}
    left = data.get("read_only") or []
    return f"{text} {replies.left_as_viewer(len(left))}" if left else text


def clear_all(status: str, task_ids: list[int] | None = None) -> Step:
    """Deletes the tasks the user confirmed (`task_ids`; without them, those `status` lists
    now). A task already gone since the question is not a failure: it is gone as asked."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            if task_ids is None:  # every task of the status, in one statement
                return ToolCall("delete_task", {"every": status})
            if not task_ids:
                return Say(replies.task_list([], status))
            return bulk_call("delete_task", list(task_ids))
        deletes = per_task_outcomes(outcomes[0])
        if len(deletes) == 1 and deletes[0].not_found:
            return Say(replies.ALREADY_GONE)
        if len(deletes) == 1 and not deletes[0].ok:
            return Say(replies.cleared_partly(0, len(task_ids or ())), {"error": True}, stop=True)
        deleted = len(deletes)
        if deleted == 0:  # only by status: named tasks all gone are the not-found above
            return Say(replies.task_list([], status))
        if status != "all" or task_ids is None:
            text = replies.cleared(deleted, status, list_empty=status == "all")
            return Say(read_only_note(text, outcomes[0]), ReplyMeta(**BULK_CHANGE))
        # "Your list is clear" only if it is: tasks added since the question were kept.
        if len(outcomes) == 1:
            return ToolCall("list_tasks", {"status": "all", "limit": 1})
        remaining = outcomes[-1]
        empty = remaining.ok and not remaining.data
        text = replies.cleared(deleted, status, list_empty=empty)
        return Say(read_only_note(text, outcomes[0]), ReplyMeta(**BULK_CHANGE))

    return step


def undo(last_change: dict[str, Any] | None) -> Step:
    if not last_change:
        return say(replies.NOTHING_TO_UNDO)
    if last_change.get("steps"):
        return _undo_several(list(last_change["steps"]))
    if last_change.get("bulk"):
        return say(replies.CANNOT_UNDO_BULK)
    if last_change.get("sharing") and not last_change.get("tool"):
        return say(replies.CANNOT_UNDO_SHARING)
    if not last_change.get("tool"):
        return say(replies.CANNOT_UNDO)
    tool, arguments = str(last_change["tool"]), dict(last_change["arguments"])
    if last_change.get("sharing"):
        return _undo_sharing(tool, arguments)

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall(tool, arguments)
        outcome = outcomes[0]
        if not outcome.ok:
            return failure(outcome)
        return Say(
            replies.undone(tool, arguments, outcome.data),
            {"focus": int(outcome.data["task_id"]), "undone": True},
        )

    return step


def _undo_sharing(tool: str, arguments: dict[str, Any]) -> Step:
    """A sharing change reversed: an invitation withdrawn, a role given back, a list just
    joined left again."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall(tool, arguments)
        if not outcomes[0].ok:
            return failure(outcomes[0])
        return Say(replies.sharing_undone(tool, arguments), {"undone": True})

    return step


def _undo_several(changes: list[dict[str, Any]]) -> Step:
    """Several changes made in one turn, reversed together (the last made first)."""
    calls = tuple(ToolCall(str(c["tool"]), dict(c["arguments"])) for c in changes)

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return Batch(calls)
        failed = [o for o in outcomes if not o.ok]
        if failed:
            return failure(failed[0])
        titles = [str(o.data.get("title", "")) for o in outcomes if isinstance(o.data, dict)]
        return Say(replies.undone_several(titles), {"undone": True})

    return step


def several_undone(parts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The undo of several changes made in one turn: each one's undo, the last made first;
    None when one of them cannot be undone."""
    if not parts or any(not part.get("tool") for part in parts):
        return None
    return {"tool": None, "bulk": True, "steps": list(reversed(parts))}


def with_meta(step: Step, extra: ReplyMeta) -> Step:
    """The same step, its reply carrying `extra` in its meta."""

    def wrapped(outcomes: list[ToolOutcome]) -> Action:
        action = step(outcomes)
        if isinstance(action, Say) and not action.stop:
            return replace(action, meta={**action.meta, **extra})
        return action

    return wrapped
