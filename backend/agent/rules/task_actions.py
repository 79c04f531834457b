"""Steps that act on one or more existing tasks: by number, by title, or several at once."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from backend.agent.rules import replies
from backend.agent.rules.bulk_results import bulk_call, per_task_outcomes
from backend.agent.rules.reminder_requests import DAY_BEFORE_REMINDER
from backend.agent.rules.resolve import (
    WHOLE_WORDS,
    WORD_MATCH,
    is_a_guess,
    match_tasks,
    mentioned_tasks,
    named_apart,
    named_only_as_an_exception,
    score,
)
from backend.agent.rules.spelling import has_misspelt_word
from backend.agent.rules.steps import (
    ACTION_VERB,
    BULK_CHANGE,
    LOOKUP_LIMIT,
    TASK_NUMBERS,
    Action,
    Step,
    Task,
    every_task,
    failure,
    misspelt_matches,
    named_and_pending,
    read_only_note,
    several_undone,
    task_not_found,
    titles_matching,
    with_meta,
)
from backend.agent.rules.types import (
    Batch,
    PendingKind,
    PendingQuestion,
    ReplyMeta,
    Say,
    ToolCall,
    ToolOutcome,
)

_FIELD_ARGUMENTS = frozenset(
    {
        *("due", "priority", "list", "tags", "add_tags", "remove_tags"),
        *("repeat", "skip", "remind_at", "remind_before"),
    }
)
_REMINDER_ARGUMENTS = frozenset({"remind_at", "remind_before"})
_DAY_MINUTES = 1440
_REOPENED = {"completed": False}


def _fields_to_restore(task: Task) -> dict[str, Any]:
    """The add_task arguments that bring back a deleted task's due date, priority, list and
    tags, as the list it was found in showed them."""
    restore: dict[str, Any] = {}
    if task.get("due_date"):
        clock = f"T{task['due_time']}" if task.get("due_time") else ""
        restore["due"] = f"{task['due_date']}{clock}"
    if task.get("priority") not in (None, "none"):
        restore["priority"] = task["priority"]
    if task.get("list") not in (None, "Inbox"):
        restore["list"] = task["list"]
    if task.get("tags"):
        restore["tags"] = list(task["tags"])
    return restore


# What a change says, and how an undo reverses it (the meta's "undo").
_Changed = tuple[str, dict[str, Any]]


def _changed(tool: str, outcome: ToolOutcome, *, completions: int, before: Task | None) -> Say:
    data, arguments = outcome.data, outcome.call.arguments
    task_id = int(data["task_id"])
    meta = ReplyMeta(focus=task_id)
    if tool == "complete_task":
        text, meta["undo"] = _completed(data, task_id, completions)
    elif tool == "delete_task":
        text, meta["undo"] = _deleted(data, before)
    elif set(arguments) & _FIELD_ARGUMENTS:
        text, meta["undo"] = _fields_changed(data, arguments, task_id)
    elif arguments.get("completed") is False:
        text = replies.task_reopened(data["title"])
        meta["undo"] = {"tool": "complete_task", "arguments": {"task_id": task_id}}
    else:
        text, meta["undo"] = _renamed(data, arguments, task_id, before)
    return Say(replies.on_shared_list(text, data), meta)


def _completed(data: dict[str, Any], task_id: int, completions: int) -> _Changed:
    reopen = {"tool": "update_task", "arguments": {"task_id": task_id, "completed": False}}
    if data.get("repeat_text"):
        # A repeating task moved to its next date; undo gives it its old date back.
        text = replies.repeating_task_completed(data, encouragement_index=completions)
        return text, _back_to_before(data, task_id, did="complete")
    if data.get("repeat_ended"):
        # Completed on its last date: it stopped repeating, and undo reopens it.
        return replies.repeat_ended(data, encouragement_index=completions), reopen
    return replies.task_completed(data["title"], encouragement_index=completions), reopen


def _deleted(data: dict[str, Any], before: Task | None) -> _Changed:
    text = replies.task_deleted(data["title"])
    # under its own number: numbers are never reused, so the old one is free
    restore = {"title": data["title"], "number": int(data["task_id"])}
    restore |= _fields_to_restore(before or {})
    if before and before.get("description"):
        restore["description"] = before["description"]
    return text, {"tool": "add_task", "arguments": restore}


def _fields_changed(data: dict[str, Any], arguments: dict[str, Any], task_id: int) -> _Changed:
    if arguments.get("skip") is True:
        text = replies.occurrence_skipped(data)
    elif set(arguments) & _REMINDER_ARGUMENTS:
        text = replies.reminder_changed(data)
    else:
        text = replies.task_fields_changed(data, list(arguments))
    return text, _back_to_before(data, task_id, did="update")


def _renamed(
    data: dict[str, Any], arguments: dict[str, Any], task_id: int, before: Task | None
) -> _Changed:
    fields = [f for f in ("title", "description") if f in arguments]
    text = replies.task_updated(task_id, data["title"], fields)
    if before is not None:
        previous = {f: before.get(f) or "" for f in fields}
        return text, {"tool": "update_task", "arguments": {"task_id": task_id, **previous}}
    # The old values were never seen: not undoable, but a correction may follow.
    return text, {"tool": None, "did": "rename" if "title" in fields else "update"}


def _back_to_before(data: dict[str, Any], task_id: int, *, did: str) -> dict[str, Any]:
    """The undo that puts back what the tool says the task was before, if it says."""
    previous = data.get("before")
    if isinstance(previous, dict) and previous:
        return {"tool": "update_task", "arguments": {"task_id": task_id, **previous}}
    return {"tool": None, "did": did}


def ask_fields(task_id: int) -> Say:
    """An update that names its task but not the change (Error 7)."""
    return Say(
        replies.ask_what_to_update(task_id),
        {"pending": {"kind": PendingKind.ASK_FIELDS, "task_id": task_id}, "focus": task_id},
    )


_DAY_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")


def act_on_task(
    tool: str,
    task_id: int,
    fields: dict[str, Any] | None = None,
    *,
    completions: int = 0,
    old_title: str | None = None,
    read: Task | None = None,
) -> Step:
    """complete_task / delete_task / update_task on a known task number. `old_title`, when
    the conversation has seen it, lets a rename be undone; `read`, the task as the caller
    already read it (its time is then not read again)."""
    before: Task | None = (
        {"id": task_id, "title": old_title}
        if old_title is not None and set(fields or {}) == {"title"}
        else None
    )

    # A day moved, a reminder on its eve or a weekly repeat without days needs the task as it
    # is (`for_the_task`): read once, unless the caller already read it.
    reads_the_task = tool == "update_task" and _depends_on_the_task(fields or {})
    if reads_the_task and read is not None:
        fields, reads_the_task = for_the_task(fields or {}, read), False

    def step(outcomes: list[ToolOutcome]) -> Action:
        if task_id not in TASK_NUMBERS:
            return task_not_found(task_id)  # "task 0": no tool call can find it
        if tool == "update_task" and not fields:
            return ask_fields(task_id)
        said = fields or {}
        if reads_the_task:  # the task is read first: moved to a day, it keeps its time
            tasks = every_task(outcomes)
            if not isinstance(tasks, list):
                return tasks
            task = next((t for t in tasks if int(t["id"]) == task_id), None)
            said = for_the_task(said, task)
            outcomes = outcomes[1:]
        if not outcomes:
            return ToolCall(tool, {"task_id": task_id, **said})
        outcome = outcomes[0]
        if not outcome.ok:
            return failure(outcome)
        return _changed(tool, outcome, completions=completions, before=before)

    return step


def act_on_title(
    tool: str, query: str, fields: dict[str, Any] | None = None, *, completions: int = 0
) -> Step:
    """Rule 5 by title: look the title up, then act, ask which one, or report none."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        matches = titles_matching(query, outcomes)
        if not isinstance(matches, list):
            return matches
        if not outcomes[0].data and has_misspelt_word(query):
            # The search finds titles sharing a word; a misspelt word ("reprot") shares
            # none, so the list itself (bounded) is read and matched with typing slips.
            tasks = every_task(outcomes[1:])
            if not isinstance(tasks, list):
                return tasks
            matches, outcomes = misspelt_matches(query, tasks), outcomes[1:]
        if tool == "complete_task":
            pending = [t for t in matches if not t.get("completed")]
            if not pending and matches:
                return Say(
                    replies.task_already_completed(str(matches[0]["title"])),
                    {"focus": int(matches[0]["id"])},
                    stop=True,
                )
            matches = pending
        if tool in _DESTRUCTIVE:
            unsure = _several_or_excepted(tool, query, matches, outcomes[0].data)
            if unsure is not None:
                return unsure
        if not matches:
            # Not a failure of the request's other parts: "remove ginger ale and add root
            # beer" still adds the root beer when there was no ginger ale to remove.
            return Say(
                replies.no_match(query),
                # "missing": so "could you add it then?" adds what was not there
                {"pending": {"kind": PendingKind.OFFER_LIST, "missing": query}},
                stop=True,
                adds_may_follow=True,
            )
        if len(matches) > 1:
            return which_of(tool, query, matches, fields)
        target = matches[0]
        if tool == "update_task" and not fields:
            return ask_fields(int(target["id"]))
        if len(outcomes) == 1 and tool == "delete_task" and is_a_guess(query, str(target["title"])):
            # "delete email john" is only like "Email Sarah about the project": asked first
            return _confirm(tool, target)
        if len(outcomes) == 1:
            kept = for_the_task(fields or {}, target)
            return ToolCall(tool, {"task_id": int(target["id"]), **kept})
        outcome = outcomes[1]
        if not outcome.ok:
            return failure(outcome)
        return _changed(tool, outcome, completions=completions, before=target)

    return step


_DESTRUCTIVE = frozenset({"delete_task", "complete_task"})


def _several_or_excepted(
    tool: str, query: str, matches: list[Task], found: list[Task]
) -> Say | None:
    """A deletion or completion whose words name several tasks outright ("bin the eggs, and
    shove the paper towels over"), or whose match is named only as an exception ("mark the
    shopping done, but not the eggs"): asked which, never guessed (None: one task, or none)."""
    candidates = [t for t in found if tool != "complete_task" or not t.get("completed")]
    named = named_apart(query, candidates)
    if len(named) > 1:
        return which_of(tool, query, named, None)
    excepted = [t for t in matches if named_only_as_an_exception(query, str(t["title"]))]
    if excepted:
        kept = [t for t in named if t not in excepted]
        if len(kept) == 1:
            return _confirm(tool, kept[0])
        pending = PendingQuestion(kind=PendingKind.ASK_TASK, tool=tool, fields={})
        return Say(replies.ask_which_task(ACTION_VERB[tool]), {"pending": pending}, stop=True)
    return None


@dataclass(frozen=True)
class Clues:
    """What else a request says about its task when its reference names none: "I just got off
    the phone with her, so tick that one off" (a pronoun: the task talked about last), "and
    while I'm cleaning house, take the paper towels off too" (another part of the sentence)."""

    focus: int | None = None  # the task a pronoun outside the reference points at
    parts: tuple[str, ...] = ()  # the sentence's other parts, each a possible reference


def _consumed(step: Step, outcomes: list[ToolOutcome]) -> tuple[Action, int]:
    """What `step` says with the fewest of `outcomes` it ends on, and how many it used."""
    for used in range(len(outcomes) + 1):
        action = step(outcomes[:used])
        if isinstance(action, Say) or used == len(outcomes):
            return action, used
    raise AssertionError("unreachable")  # pragma: no cover - the loop always returns


def _is_no_match(action: Action) -> bool:
    pending = action.meta.get("pending") if isinstance(action, Say) else None
    return isinstance(pending, dict) and pending.get("kind") == PendingKind.OFFER_LIST


def act_on_title_or_clues(
    tool: str,
    query: str,
    read_clues: Callable[[], Clues],
    fields: dict[str, Any] | None = None,
    *,
    completions: int = 0,
) -> Step:
    """`act_on_title`; when the title names no task, the task the clues name, if exactly one.
    The clues are read only then (`read_clues`, once): most titles name their task."""
    first = act_on_title(tool, query, fields, completions=completions)
    read_once = cache(read_clues)

    def step(outcomes: list[ToolOutcome]) -> Action:
        action, used = _consumed(first, outcomes)
        if not _is_no_match(action):
            return action
        clues = read_once()
        if clues.focus is None and not clues.parts:
            return action
        rest = outcomes[used:]
        tasks = every_task(rest)
        if not isinstance(tasks, list):
            return tasks
        # A task the sentence names outright comes before the one a pronoun points back to.
        named = _named_by_one_part(clues.parts, tasks, pending_only=tool == "complete_task")
        if named is None and clues.focus is not None and not _done_before(tool, clues.focus, tasks):
            return act_on_task(tool, clues.focus, fields, completions=completions)(rest[1:])
        if named is None:
            return action
        return _on_found(tool, named, fields, rest[1:], completions=completions)

    return step


def _done_before(tool: str, task_id: int, tasks: list[Task]) -> bool:
    """Whether a completion would point back to a task already done: "finished the bathroom"
    then "and i emialed sarah" is about another task, never the bathroom again."""
    return tool == "complete_task" and any(
        int(t["id"]) == task_id and bool(t.get("completed")) for t in tasks
    )


def act_on_clues(
    tool: str, clues: Clues, fields: dict[str, Any] | None = None, *, completions: int = 0
) -> Step:
    """A pronoun with nothing talked about before: the task the message names elsewhere, or
    the question which task is meant."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        tasks = every_task(outcomes)
        if not isinstance(tasks, list):
            return tasks
        named = _named_by_one_part(clues.parts, tasks, pending_only=tool == "complete_task")
        if named is None:
            pending = PendingQuestion(kind=PendingKind.ASK_TASK, tool=tool, fields=fields or {})
            # "focus": None - the tasks read to look are no task talked about
            meta = ReplyMeta(pending=pending, focus=None)
            return Say(replies.ask_which_task(ACTION_VERB[tool]), meta, stop=True)
        if tool == "update_task" and not fields:
            return ask_fields(int(named["id"]))
        return _on_found(tool, named, fields, outcomes[1:], completions=completions)

    return step


def _on_found(
    tool: str,
    task: Task,
    fields: dict[str, Any] | None,
    outcomes: list[ToolOutcome],
    *,
    completions: int,
) -> Action:
    """The change to a task found by reading the list: its call, then what it did."""
    if not outcomes:
        return ToolCall(tool, {"task_id": int(task["id"]), **(fields or {})})
    if not outcomes[0].ok:
        return failure(outcomes[0])
    return _changed(tool, outcomes[0], completions=completions, before=task)


def _named_by_one_part(
    parts: tuple[str, ...], tasks: list[Task], *, pending_only: bool
) -> Task | None:
    """The one task that some part names strongly, when no part names another."""
    if pending_only:
        tasks = [t for t in tasks if not t.get("completed")]
    named: dict[int, Task] = {}
    for part in parts:
        # "I already renewed my passport last year": a sentence naming most of a title
        strong = [t for t in tasks if score(part, str(t["title"])) >= WHOLE_WORDS] or (
            mentioned_tasks(part, tasks)
        )
        if len(strong) > 1:
            return None
        named.update((int(t["id"]), t) for t in strong)
    return next(iter(named.values())) if len(named) == 1 else None


def act_on_titles(tool: str, parts: list[str], whole: str, *, completions: int = 0) -> Step:
    """ "done with the groceries and the plants": one look-up, then each named task in turn,
    unless one task's title is the whole phrase ("salt and pepper")."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not outcomes:
            return ToolCall("list_tasks", {"status": "all", "query": whole})
        listing = outcomes[0]
        if not listing.ok:
            return failure(listing)
        candidates: list[Task] = listing.data
        if tool == "complete_task":
            candidates = [t for t in candidates if not t.get("completed")]
        exact = [t for t in candidates if score(whole, str(t["title"])) >= WORD_MATCH]
        targets: list[Task] = []
        guessed = False
        if len(exact) == 1:
            targets = exact
        else:
            for part in parts:
                matches = match_tasks(part, candidates)
                if len(matches) != 1:
                    # The single-title path carries on from here, with this turn's results.
                    return act_on_title(tool, part, completions=completions)(outcomes)
                guessed = guessed or is_a_guess(part, str(matches[0]["title"]))
                if matches[0] not in targets:
                    targets.append(matches[0])
            if tool == "delete_task" and guessed:
                # "the dentist rang and cancelled on me": a part only like a task is asked
                return which_of(tool, whole, targets, None)
        calls = tuple(ToolCall(tool, {"task_id": int(t["id"])}) for t in targets)
        if len(outcomes) == 1:
            return Batch(calls)
        failed = [o for o in outcomes[1:] if not o.ok]
        if failed:
            return failure(failed[0])
        said = [
            _changed(tool, o, completions=completions + n, before=t)
            for n, (o, t) in enumerate(zip(outcomes[1:], targets, strict=True))
        ]
        # Several changes in one: undone together; "and X too" repeats them.
        undo = {**BULK_CHANGE["undo"], "did": tool}
        undo |= several_undone([dict(part.meta.get("undo") or {}) for part in said]) or {}
        meta = ReplyMeta(focus=int(targets[-1]["id"]), undo=undo)
        return Say(" ".join(part.text for part in said), meta)

    return step


def _depends_on_the_task(fields: dict[str, Any]) -> bool:
    return (
        _DAY_ONLY.fullmatch(str(fields.get("due"))) is not None
        or DAY_BEFORE_REMINDER in fields
        or _WEEKLY_WITHOUT_DAYS.fullmatch(str(fields.get("repeat"))) is not None
    )


def for_the_task(fields: dict[str, Any], task: Task | None) -> dict[str, Any]:
    """The fields as they apply to the task read: a day moved keeps its time, and a reminder
    "the night before" is on the eve of its due day."""
    if task is None:
        return _reminder_on_its_eve(fields, None)
    return _reminder_on_its_eve(keeping_its_days(keeping_its_time(fields, task), task), task)


# "every other week now": how often changes, the weekdays stay
_WEEKLY_WITHOUT_DAYS = re.compile(r"FREQ=WEEKLY(?:;INTERVAL=\d+)?")
_BYDAY = re.compile(r";BYDAY=[A-Z,]+")


def keeping_its_days(fields: dict[str, Any], task: Task) -> dict[str, Any]:
    """A weekly repeat said without its days keeps the days the task repeats on."""
    repeat = fields.get("repeat")
    days = _BYDAY.search(str(task.get("repeat") or ""))
    if not isinstance(repeat, str) or days is None or not _WEEKLY_WITHOUT_DAYS.fullmatch(repeat):
        return fields
    return {**fields, "repeat": f"{repeat}{days.group(0)}"}


def _reminder_on_its_eve(fields: dict[str, Any], task: Task | None) -> dict[str, Any]:
    said = fields.get(DAY_BEFORE_REMINDER)
    if said is None:
        return fields
    rest = {name: value for name, value in fields.items() if name != DAY_BEFORE_REMINDER}
    days, clock = said
    due = rest.get("due") or (task or {}).get("due_date")
    if not isinstance(due, str) or not _DAY_ONLY.match(due):
        # no day to count back from: the tool says so, as for any offset
        return {**rest, "remind_before": days * _DAY_MINUTES}
    eve = date.fromisoformat(due[:10]) - timedelta(days=days)
    return {**rest, "remind_at": f"{eve.isoformat()}T{clock}"}


def keeping_its_time(fields: dict[str, Any], task: Task) -> dict[str, Any]:
    """ "move the dentist to Thursday": a timed task moved to another day keeps its time
    (as a calendar does); "no date" and a time said are left as they are."""
    due = fields.get("due")
    if not isinstance(due, str) or not _DAY_ONLY.fullmatch(due):
        return fields
    if not task.get("due_time"):
        return fields
    return {**fields, "due": f"{due}T{task['due_time']}"}


def fields_if_on_the_list(query: str, fields: dict[str, Any], add: Step) -> Step:
    """ "put the oat milk on groceries": the one pending task `query` names strongly gets the
    fields; with none, `add` adds it."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        matches = titles_matching(query, outcomes)
        if not isinstance(matches, list):
            return matches
        named = [t for t in matches if named_and_pending(query, t)]
        if len(named) != 1:
            return add(outcomes[1:])
        change = act_on_task("update_task", int(named[0]["id"]), fields, read=named[0])
        return with_meta(change, {"acts": ["update"]})(outcomes[1:])

    return step


def which_of(tool: str, query: str, matches: list[Task], fields: dict[str, Any] | None) -> Say:
    """Several tasks match: which one, each offered as a choice."""
    candidates = [int(t["id"]) for t in matches]
    pending = PendingQuestion(
        kind=PendingKind.CHOOSE_TASK,
        tool=tool,
        candidates=candidates,
        titles=[str(t["title"]) for t in matches],
        fields=fields or {},
    )
    return Say(
        replies.multiple_matches(query, matches, ACTION_VERB[tool]),
        {"pending": pending, "listed": candidates},
        stop=True,
    )


def confirm_on_title(tool: str, query: str) -> Step:
    """A change the learned model read but no rule did: look the task up and ask before
    acting ("Do you want me to delete 'Eggs'?"); never a change on a guess."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if not query:
            return Say(
                replies.ask_which_task(ACTION_VERB[tool]),
                {"pending": {"kind": PendingKind.ASK_TASK, "tool": tool, "fields": {}}},
                stop=True,
            )
        matches = titles_matching(query, outcomes)
        if not isinstance(matches, list):
            return matches
        if tool == "complete_task":
            matches = [t for t in matches if not t.get("completed")] or matches
        if not matches:
            return Say(
                replies.no_match(query), {"pending": {"kind": PendingKind.OFFER_LIST}}, stop=True
            )
        if len(matches) > 1:
            return which_of(tool, query, matches, None)
        return _confirm(tool, matches[0])

    return step


def _confirm(tool: str, task: Task) -> Say:
    """ "Do you want me to delete 'Eggs'?": the change waits for a yes."""
    pending = PendingQuestion(
        kind=PendingKind.CONFIRM_TASK, tool=tool, task_id=int(task["id"]), title=str(task["title"])
    )
    return Say(
        replies.confirm_action(ACTION_VERB[tool], str(task["title"])),
        {"pending": pending, "focus": int(task["id"])},
        stop=True,
    )


def confirm_task(tool: str, task_id: int, title: str | None) -> Step:
    """The change of one task by number, asked first ("Do you want me to delete 'Eggs'?")."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        return _confirm(tool, {"id": task_id, "title": title or f"task {task_id}"})

    return step


def complete_all(only: list[int] | None = None) -> Step:
    """ "Mark all as done" (or, with `only`, "complete them" after a list): every pending
    task, in one statement behind one tool call (completing is undoable task by task, so no
    confirmation; deleting all is asked first). Without `only` nothing is listed first."""

    def step(outcomes: list[ToolOutcome]) -> Action:
        if only is None:
            if not outcomes:
                return ToolCall("complete_task", {"every": "pending"})
            return _completed_all(per_task_outcomes(outcomes[0]), these=False, bulk=outcomes[0])
        if not outcomes:
            return ToolCall("list_tasks", {"status": "pending", "limit": LOOKUP_LIMIT})
        listing, done = outcomes[0], outcomes[1:]
        if not listing.ok:
            return failure(listing)
        pending = [int(t["id"]) for t in listing.data if not t.get("completed")]
        chosen = [number for number in pending if number in only]
        if not done:
            return bulk_call("complete_task", chosen) if chosen else _completed_all([], these=True)
        return _completed_all(per_task_outcomes(done[0]), these=True, bulk=done[0])

    return step


def _completed_all(done: list[ToolOutcome], *, these: bool, bulk: ToolOutcome | None = None) -> Say:
    if len(done) == 1 and done[0].not_found and "task_ids" in done[0].call.arguments:
        return Say(replies.task_list([], "pending"))  # the listed tasks went since
    if len(done) == 1 and not done[0].ok:
        return failure(done[0])
    if not done:
        return Say(replies.task_list([], "pending"))
    if len(done) == 1:  # one task: said, and undoable, as completing it alone is
        return _changed("complete_task", done[0], completions=0, before=None)
    reopen = [
        {
            "tool": "update_task",
            "arguments": {"task_id": int(o.data["task_id"]), "completed": False},
        }
        for o in done
        if o.ok and isinstance(o.data, dict)
    ]
    undo = {**BULK_CHANGE["undo"], "did": "complete_task"} | (several_undone(reopen) or {})
    text = replies.completed_all(len(done), these=these)
    return Say(read_only_note(text, bulk) if bulk else text, ReplyMeta(undo=undo))
