"""The assistant's wording: the spec's templates, in one place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from backend.domain.due import short_day
from backend.domain.reminder_times import describe_before

GREETING = (
    "Hi! I'm your task assistant. I can help you add, view, complete, update, and delete "
    "tasks. What would you like to do?"
)

# One example a thing the assistant does; each is said in tests/agent/rules/test_help.py and
# must do what the line says.
HELP_EXAMPLES = (
    ("Add", "add call mom tomorrow at 9"),
    ("Dates", "what's due this week?"),
    ("Lists", "add milk to my Shopping list"),
    ("Tags", "tag call mom #family"),
    ("Repeats", "add water the plants every Monday"),
    ("Reminders", "remind me about call mom an hour before"),
    ("Priority", "make call mom high priority"),
    ("Done", "I called mom"),
    ("Undo", "undo"),
)
HELP = "\n".join(
    [
        "Just tell me in your own words. Here's what I can do, with an example of each:",
        *(f"• {what}: '{example}'" for what, example in HELP_EXAMPLES),
        "I also show, rename and delete tasks: 'what lists do I have?', 'rename task 3 to"
        " call dad', 'delete task 3'. 'Undo' takes back my last change.",
        "And shared lists: 'share my Trip list with alex@example.com', 'who added the paint?'.",
    ]
)

# A delete that names a field: the task stays until the person says which they meant.
WHICH_FIELD = (
    "I've left your tasks as they are: did you mean to take something off a task (a tag, a "
    "reminder, a date or a repeat) or to delete the task itself? For example, 'remove the "
    "home tag from task 15' or 'delete task 15'."
)

UNCLEAR = (
    "I'm not sure what you'd like me to do. Could you rephrase that? For example, you can say "
    "'Add buy groceries' or 'Show my tasks'."
)


def title_too_long(limit: int) -> str:
    return (
        f"That title is a bit long for a task. Could you shorten it to {limit:,} characters or "
        "fewer? You can put the details in a description with 'with ...'."
    )


TITLE_TOO_LONG = title_too_long(200)


def description_too_long(limit: int) -> str:
    return f"That description is too long: at most {limit:,} characters. Could you shorten it?"


EMPTY_TITLE = (
    "That title is empty once control characters are taken out. What would you like the task "
    "to say?"
)


def invalid_text(field: str, problem: str) -> str:
    """A tool refused a title or description for a reason the replies above do not name."""
    return f"I couldn't save that {field}: {problem[:1].lower()}{problem[1:].rstrip('.')}."


SYSTEM_ERROR = "Sorry, I encountered an issue. Please try again in a moment."
READ_ONLY = (
    "I can't change anything from here: this connection uses a read-only access token. I can "
    "still show and find your tasks; to change them, use a token with the write scope or the "
    "web app."
)

ENCOURAGEMENTS = ("Great job!", "Awesome!", "Well done!", "Nice work!", "Excellent!")


def quoted(title: str) -> str:
    return f"'{title}'"


def _your_list(where: str | None, *, shared: bool = False) -> str:
    if shared and where:
        return f"the shared {where} list"
    return f"your {where} list" if where and where != "Inbox" else "your list"


def task_added(
    title: str,
    *,
    casual: bool = False,
    where: str | None = None,
    details: str = "",
    shared: bool = False,
) -> str:
    """ "I've added 'pay rent' to your list — due tomorrow (Wed 25 Nov) at 09:00."; on a
    shared list, "I've added 'milk' to the shared Family list." """
    if casual:
        return f"Got it! {quoted(title)} is now on {_your_list(where, shared=shared)}{details}."
    return f"I've added {quoted(title)} to {_your_list(where, shared=shared)}{details}."


ADDED_NAMED = 8  # titles named in a summary of many adds; the rest are counted


def tasks_added(titles: list[str], where: str | None = None, *, shared: bool = False) -> str:
    named = [quoted(t) for t in titles[:ADDED_NAMED]]
    rest = len(titles) - len(named)
    listed = ", ".join(named[:-1]) + f" and {named[-1]}" if rest == 0 else ", ".join(named)
    more = f" and {rest} more" if rest else ""
    return f"I've added {len(titles)} tasks to {_your_list(where, shared=shared)}: {listed}{more}."


def on_shared_list(text: str, result: dict[str, Any]) -> str:
    """A change's reply naming the shared list its task is on (a task of one's own unshared
    list says nothing more): "Great job! I've marked 'paint' on the shared House list as
    complete." """
    where = result.get("list")
    if not result.get("shared") or not where:
        return text
    title = quoted(str(result.get("title", "")))
    place = f"the shared {where} list"
    if result.get("status") == "deleted":
        return text.replace(f"{title} from your list", f"{title} from {place}", 1)
    if title in text:
        return text.replace(title, f"{title} on {place}", 1)
    return f"{text} It's on {place}."


def left_as_viewer(count: int) -> str:
    """A bulk change's note about the tasks it left: on lists shared to view only."""
    if count == 1:
        return (
            "I left 1 task as it was: it's on a list shared with you as a viewer, so you can "
            "see it but not change it."
        )
    return (
        f"I left {count} tasks as they were: they're on a list shared with you as a viewer, so "
        "you can see them but not change them."
    )


def refused(reason: str) -> str:
    """A refusal the tools gave with its reason ("'Chores' is shared with you as a viewer:
    you can see its tasks but not change them"), said as it is."""
    return f"{reason.strip().rstrip('.')}."  # as said: an email it starts with keeps its case


LIST_NOT_FOUND = "I couldn't find that list. Say 'what lists do I have?' to see yours."
MEMBER_NOT_FOUND = "That person isn't on that list, so nothing changed."
INVITATION_NOT_FOUND = (
    "I couldn't find that invitation: it may have been answered or withdrawn already. Say "
    "'do I have any invitations?' to see those waiting."
)


def ask_which_date(phrase: str) -> str:
    return (
        f"When is that due? I can read {quoted(phrase)} more than one way: please say it "
        "like '3 April' or 'next Friday at 9'."
    )


def task_completed(title: str, *, encouragement_index: int = 0) -> str:
    cheer = ENCOURAGEMENTS[encouragement_index % len(ENCOURAGEMENTS)]
    return f"{cheer} I've marked {quoted(title)} as complete."


def repeating_task_completed(result: dict[str, Any], *, encouragement_index: int = 0) -> str:
    """ "Great job! I've marked 'Pay rent' as complete. It repeats every month on the 1st;
    next: Tue 1 Dec." """
    done = task_completed(str(result["title"]), encouragement_index=encouragement_index)
    when = result.get("due_label") or result.get("due_date")
    return f"{done} It repeats {result['repeat_text']}; next: {when}."


def task_already_completed(title: str) -> str:
    return f"{quoted(title)} is already complete. Nice!"


def task_deleted(title: str) -> str:
    return f"I've deleted {quoted(title)} from your list."


def task_updated(task_id: int, title: str, fields: Sequence[str]) -> str:
    if list(fields) == ["title"]:
        return f"I've updated {quoted(title)}."
    if list(fields) == ["description"]:
        return f"I've updated task {task_id} with the new description."
    return f"I've updated task {task_id} with the new title and description."


def not_repeating(task_id: int) -> str:
    return f"Task {task_id} doesn't repeat, so there's no next one to skip to."


def no_next_date(task_id: int, why: str) -> str:
    return f"Task {task_id} has no next date to skip to: {why.rstrip('.')}."


def occurrence_skipped(result: dict[str, Any]) -> str:
    """ "Skipped: 'Pay rent' is next due Fri 1 Feb 2030." """
    when = result.get("due_label") or result.get("due_date")
    return f"Skipped: {quoted(str(result['title']))} is next due {when}."


def reminder_changed(result: dict[str, Any]) -> str:
    """ "I'll remind you about 'Dentist' tomorrow 09:30 (30 minutes before)." from
    update_task's echo of the reminder it set."""
    title = quoted(str(result["title"]))
    label = result.get("remind_label")
    if label:
        when, _, offset = str(label).partition(", ")
        return f"I'll remind you about {title} {when}" + (f" ({offset})." if offset else ".")
    if result.get("remind_before") is not None:
        return f"That time has already passed for {title}, so there's no reminder to come."
    return f"OK, I won't remind you about {title}."


REMINDER_IN_PAST = "That time has already passed. When should I remind you?"
NO_REMINDER_SHOWN = (
    "There's no reminder showing to snooze. (An alarm's snooze is your clock app's.) Tell me "
    "which task to remind you about again, like 'remind me about the report in an hour'."
)
NOTHING_TO_SNOOZE = (
    "There's no reminder showing to snooze, and no task to remind you about. Tell me which "
    "task, like 'remind me about the report in an hour'."
)


def _duration(minutes: int) -> str:
    """ "10 minutes", "an hour", "1 hour 30 minutes", "2 days"."""
    if minutes == 60:
        return "an hour"
    return describe_before(minutes).removesuffix(" before")


def snoozed(result: dict[str, Any], minutes: int | None, *, reminds: bool) -> str:
    """ "Snoozed 'Call mom' for 10 minutes, until 14:20. Say 'undo' to put it back." from
    update_task's echo of the reminder it set (`minutes`: the duration said, or assumed);
    said as "remind me again ...": "OK, I'll remind you about 'Call mom' again in an hour, at
    15:10." """
    title = quoted(str(result["title"]))
    label = str(result.get("remind_label") or result.get("remind_at") or "")
    when = label.partition(", ")[0]
    if minutes is not None:
        when = when.removeprefix("today ")
    if reminds:
        said = f"in {_duration(minutes)}, at {when}" if minutes is not None else when
        text = f"OK, I'll remind you about {title} again {said}."
    elif minutes is not None:
        text = f"Snoozed {title} for {_duration(minutes)}, until {when}."
    else:
        text = f"Snoozed {title} until {when}."
    return f"{text} Say 'undo' to put it back."


def which_to_snooze(tasks: Sequence[dict[str, Any]]) -> str:
    """No reminder showing and no task talked about: which one, the likely ones listed."""
    lines = ["There's no reminder showing right now. Which task should I remind you about?"]
    lines += [
        f"{position}. {t['title']} (ID: {t['id']})" for position, t in enumerate(tasks, start=1)
    ]
    lines.append("Say the task number or title.")
    return "\n".join(lines)


DATE_OUT_OF_RANGE = "I can only keep dates from the year 1900 to 2999. Which date did you mean?"


def repeat_refused(why: str | None) -> str:
    """A repeat the tools would not keep: why (its step, its parts), or (None) a rule no day
    matches."""
    if why is None:
        return (
            "I can't set that repeat: no date ever matches it, so it would never come round. "
            "Try one like 'every monday' or 'every 1st of the month'."
        )
    return f"I can't set that repeat: {why}. Try one like 'every monday' or 'every 3 days'."


def repeat_ended(result: dict[str, Any], *, encouragement_index: int = 0) -> str:
    """ "Great job! I've marked 'Pay rent' as complete. It won't repeat again: ..." """
    done = task_completed(str(result["title"]), encouragement_index=encouragement_index)
    return f"{done} It won't repeat again: {result['repeat_ended']}."


REMINDER_NEEDS_DUE = (
    "That task has no due date, so there's nothing to count back from. Tell me when to "
    "remind you, like 'remind me tomorrow at 9'."
)


def task_fields_changed(result: dict[str, Any], asked: Sequence[str] = ("due",)) -> str:
    """ "Done: 'Dentist' is now due Thu 26 Nov." from update_task's echo of what it set (the
    due said only when `asked` changed it: a repeat's echo carries it too)."""
    now: list[str] = []
    gone: list[str] = []
    for field, change in _FIELD_CHANGES:
        if field in result and (field != "due_date" or "due" in asked):
            kept, phrase = change(result)
            (now if kept else gone).append(phrase)
    said = []
    if now:
        said.append("is now " + " and ".join(now))
    if gone:
        said.append("no longer has " + " or ".join(gone))
    return f"Done: {quoted(str(result['title']))} {' and '.join(said) or 'is updated'}."


# A field update_task echoes, as (whether the task has it now, how it is said).
_FieldChange = tuple[bool, str]


def _due_change(result: dict[str, Any]) -> _FieldChange:
    if result.get("due_date"):
        return True, f"due {result.get('due_label')}"
    return False, "a due date"


def _priority_change(result: dict[str, Any]) -> _FieldChange:
    level = result["priority"]
    if level == "none":
        return False, "a priority"
    return True, f"{level} priority"


def _list_change(result: dict[str, Any]) -> _FieldChange:
    return True, f"on your {result['list']} list"


def _tags_change(result: dict[str, Any]) -> _FieldChange:
    tags = " ".join(f"#{tag}" for tag in result["tags"])
    return (True, f"tagged {tags}") if tags else (False, "tags")


def _repeat_change(result: dict[str, Any]) -> _FieldChange:
    said = result.get("repeat_text")
    return (True, f"repeating {said}") if said else (False, "a repeat")


# In the order they are said.
_FIELD_CHANGES: tuple[tuple[str, Callable[[dict[str, Any]], _FieldChange]], ...] = (
    ("due_date", _due_change),
    ("priority", _priority_change),
    ("list", _list_change),
    ("tags", _tags_change),
    ("repeat", _repeat_change),
)


def task_not_found(task_id: int) -> str:
    return f"I couldn't find task {task_id}. Would you like to see your current tasks?"


def ask_which_task(action: str) -> str:
    return f"Which task would you like to {action}? You can say the task number or title."


def ask_which_number(action: str, phrase: str) -> str:
    """ "delete task 4 hundred": the number is unclear, so which task is asked."""
    return (
        f"Which task would you like to {action}? I'm not sure which number you meant by "
        f"“{phrase}”: say the task number or title."
    )


def ask_what_to_update(task_id: int) -> str:
    return (
        f"What would you like to change about task {task_id}? "
        "You can update the title or description."
    )


def confirm_sentence_title(title: str) -> str:
    return (
        f"I'm not sure which part of that is the task. Should I add '{title}' as it is, or "
        "tell me the task in a few words?"
    )


def ask_title_to_add() -> str:
    return "What would you like to add? For example, 'Add buy groceries'."


LIST_LIMIT = 50  # a chat reply shows at most this many tasks

_STATUS_WORD = {"pending": "pending ", "completed": "completed ", "all": ""}
_EMPTY_CHEER = {
    "pending": "You're all caught up!",
    "completed": "Nothing completed yet.",
    "all": "You're all caught up!",
}


def task_line(task: dict[str, Any]) -> str:
    """ "3. Pay rent (due tomorrow 09:00, high priority)": the number, the title, and when
    it is due and how important, when the tool said."""
    mark = "✓ " if task.get("completed") else ""
    notes = []
    if task.get("due_label"):
        label = str(task["due_label"])
        notes.append(label if label.startswith("overdue") else f"due {label}")
    if task.get("priority") in ("high", "medium", "low"):
        notes.append(f"{task['priority']} priority")
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"{task['id']}. {mark}{task['title']}{extra}"


_DUE_WORDS = {
    "today": "due today",
    "tomorrow": "due tomorrow",
    "overdue": "overdue",
    "this_week": "due this week",
    "next_7_days": "due in the next 7 days",
    "no_date": "without a due date",
}


def _filtered(filters: dict[str, str]) -> str:
    """ "high-priority tasks on your Shopping list tagged #home due today"."""
    what = f"{filters['priority']}-priority tasks" if "priority" in filters else "tasks"
    if "list" in filters:
        what += f" on your {filters['list']} list"
    if "tag" in filters:
        what += f" tagged #{filters['tag']}"
    if "due" in filters:
        what += f" {_DUE_WORDS[filters['due']]}"
    return what + _due_range(filters.get("due_from"), filters.get("due_to"))


def _due_range(first: str | None, last: str | None) -> str:
    """ " due Thu 26 Nov", " due Tue 24 Nov to Thu 26 Nov", " due by Fri 27 Nov"."""

    def said(day: str) -> str:
        parsed = date.fromisoformat(day)
        return short_day(parsed, parsed)

    if first and last:
        return f" due {said(first)}" if first == last else f" due {said(first)} to {said(last)}"
    if last:
        return f" due by {said(last)}"
    return f" due from {said(first)}" if first else ""


def filtered_task_list(tasks: Sequence[dict[str, Any]], filters: dict[str, str]) -> str:
    what = _filtered(filters)
    only_a_list = set(filters) == {"list"}
    if not tasks:
        return f"Your {filters['list']} list is empty." if only_a_list else f"You have no {what}."
    heading = f"Here's your {filters['list']} list:" if only_a_list else f"Here are your {what}:"
    if only_a_list and all(t.get("shared") for t in tasks):
        heading = f"Here's the shared {tasks[0].get('list') or filters['list']} list:"
    lines = [heading, *(task_line(task) for task in tasks[:LIST_LIMIT])]
    if len(tasks) > LIST_LIMIT:
        lines.append("…and more.")
    return "\n".join(lines)


def lists_overview(tasks: Sequence[dict[str, Any]]) -> str:
    """ "Your lists:" and one line a list with how many of its tasks are pending and done
    (Inbox and Shopping always, as every account has them); the tasks themselves are one
    "show my X list" away."""
    counts: dict[str, list[int]] = {"Inbox": [0, 0], "Shopping": [0, 0]}
    shared: set[str] = set()
    for task in tasks:
        tally = counts.setdefault(str(task.get("list") or "Inbox"), [0, 0])
        tally[bool(task.get("completed"))] += 1
        if task.get("shared"):
            shared.add(str(task.get("list")))
    lines = ["Your lists:"]
    for name, (pending, done) in list(counts.items())[:LIST_LIMIT]:
        parts = [f"{pending} pending"] if pending else []
        parts += [f"{done} done"] if done else []
        note = " (shared)" if name in shared else ""
        lines.append(f"- {name}{note}: {', '.join(parts) or 'empty'}")
    if len(counts) > LIST_LIMIT:
        lines.append(f"…and {len(counts) - LIST_LIMIT} more.")
    example = next((name for name in counts if name != "Inbox"), "Inbox")
    lines.append(f'Say "show my {example} list" to see one.')
    return "\n".join(lines)


def task_list(tasks: Sequence[dict[str, Any]], status: str) -> str:
    if not tasks:
        return f"You don't have any {_STATUS_WORD[status]}tasks. {_EMPTY_CHEER[status]}"
    heading = "Here are all your tasks:" if status == "all" else f"Here are your {status} tasks:"
    lines = [heading, *(task_line(task) for task in tasks[:LIST_LIMIT])]
    if len(tasks) > LIST_LIMIT:
        lines.append(
            "…and more. Ask me about a task by name, or for your pending or completed ones."
        )
    return "\n".join(lines)


def with_similar_note(text: str, similar_title: str) -> str:
    return f"{text} (You also have {quoted(similar_title)} pending.)"


def nudge(title: str, pending_count: int) -> str:
    return (
        f"I've added {quoted(title)}. You now have {pending_count} pending tasks. "
        "Ready to tackle one?"
    )


def on_list(task: dict[str, Any]) -> str:
    state = "done ✓" if task.get("completed") else "still pending"
    found = f"Yes, {quoted(str(task['title']))} is on your list (task {task['id']}, {state})."
    note = str(task.get("description") or "").strip()
    return f"{found} Its note says: {note}" if note else found


def when_due(task: dict[str, Any]) -> str:
    """ "'Water plants' is due Thu 26 Nov; it repeats every week on Thursday." """
    title = quoted(str(task["title"]))
    when = task.get("due_label") or " ".join(
        str(task[key]) for key in ("due_date", "due_time") if task.get(key)
    )
    said = f"{title} is due {when}" if when else f"{title} has no due date"
    if task.get("repeat_text"):
        said += f"; it repeats {task['repeat_text']}"
    done = " It's already done ✓." if task.get("completed") else ""
    return f"{said} (task {task['id']}).{done}"


def all_on_list(query: str, tasks: Sequence[dict[str, Any]]) -> str:
    lines = "\n".join(task_line(task) for task in tasks)
    return f"Yes, {len(tasks)} tasks on your list match '{query}':\n{lines}"


def task_count(pending: int, total: int, *, capped: bool = False) -> str:
    at_least = "at least " if capped else ""
    if total == 0:
        return "Your list is empty. You're all caught up!"
    if pending == 0:
        return f"Nothing left to do: all {at_least}{total} of your tasks are done. Great work!"
    things = "task" if pending == 1 else "tasks"
    done = total - pending
    return (
        f"You have {at_least}{pending} pending {things}"
        + (f" and {done} completed." if done else ".")
        + " Say 'show my tasks' to see them."
    )


def already_on_list(task: dict[str, Any]) -> str:
    state = "done ✓" if task.get("completed") else "pending"
    return (
        f"{quoted(str(task['title']))} is already on your list (task {task['id']}, {state}), "
        "so I didn't add it again."
    )


def not_on_list(query: str) -> str:
    return f"No, I don't see '{query}' on your list. Would you like me to add it?"


def no_task_to_date(query: str) -> str:
    return (
        f"I don't see '{query}' on your list, so I can't say when it's due: I only know the "
        "dates of your tasks."
    )


def task_reopened(title: str) -> str:
    return f"I've marked {quoted(title)} as not done yet."


def confirm_rename(old: str, new: str) -> str:
    return f"Do you want me to rename {quoted(old)} to {quoted(new)}?"


def confirm_action(action: str, title: str) -> str:
    if action == "complete":
        return f"Do you want me to mark {quoted(title)} as complete?"
    return f"Do you want me to {action} {quoted(title)}?"


def no_match(query: str) -> str:
    return f"I couldn't find a task matching '{query}'. Would you like to see your current tasks?"


def multiple_matches(query: str, matches: Sequence[dict[str, Any]], action: str) -> str:
    lines = [f"I found multiple tasks matching '{query}':"]
    lines += [
        f"{position}. {t['title']} (ID: {t['id']})" for position, t in enumerate(matches, start=1)
    ]
    lines.append(f"Which task would you like to {action}? Please specify by number.")
    return "\n".join(lines)


def confirm_clear(count: int, status: str, *, more: bool = False) -> str:
    """`more`: the count is only what one look-up holds; there are more."""
    what = _STATUS_WORD[status]
    which = f"your 1 {what}task" if count == 1 else f"all {count} {what}tasks"
    if more:
        which = f"all your {what}tasks ({count:,} or more)"
    return f"Are you sure you want to delete {which}? This can't be undone. Say 'yes' to confirm."


def cleared(count: int, status: str, *, list_empty: bool = False) -> str:
    what = _STATUS_WORD[status]
    noun = "task" if count == 1 else "tasks"
    done = f"Done! I've deleted {count} {what}{noun}."
    return f"{done} Your list is clear." if list_empty else done


def cleared_partly(deleted: int, total: int) -> str:
    return f"I deleted {deleted} of {total} tasks, but hit a problem with the rest. {SYSTEM_ERROR}"


def completed_all(count: int, *, these: bool = False) -> str:
    which = f"those {count} tasks" if these else f"all {count} pending tasks"
    return f"Great job! I've marked {which} as complete."


def confirm_delete_these(titles: list[str]) -> str:
    if len(titles) == 1:
        return f"Are you sure you want to delete {quoted(titles[0])}? Say 'yes' to confirm."
    named = ", ".join(quoted(t) for t in titles[:5]) + (", ..." if len(titles) > 5 else "")
    return (
        f"Are you sure you want to delete these {len(titles)} tasks ({named})? "
        "This can't be undone. Say 'yes' to confirm."
    )


def completed_partly(completed: int, total: int) -> str:
    return (
        f"I marked {completed} of {total} tasks as complete, but hit a problem with the rest. "
        f"{SYSTEM_ERROR}"
    )


BULK_EXCEPTIONS = (
    "I can't leave some tasks out of a change to all of them. Tell me which tasks you mean, "
    "by number or title, or say 'clear my list' to delete them all."
)


# A bulk request whose scope or exceptions do not name tasks: asked, nothing changed.
def bulk_exception_unclear(name: str, titles: list[str]) -> str:
    if not name:
        return "Which tasks should I leave out? Nothing has changed yet."
    if not titles:
        return (
            f"I couldn't find {quoted(name)} among those tasks, so I haven't changed anything. "
            "Which task should I leave out?"
        )
    named = ", ".join(quoted(t) for t in titles[:5])
    return (
        f"{quoted(name)} could be more than one task ({named}), so I haven't changed anything. "
        "Which one should I leave out?"
    )


def bulk_no_such_list(name: str, lists: list[str]) -> str:
    have = f" Your lists are: {', '.join(lists)}." if lists else ""
    return (
        f"I couldn't find a list called {quoted(name)}, so I haven't changed anything.{have} "
        "Which list did you mean?"
    )


def bulk_no_such_tag(tag: str) -> str:
    return (
        f"None of your tasks is tagged {quoted(tag)}, so I haven't changed anything. "
        "Which tasks did you mean?"
    )


def bulk_scope_unread(words: str) -> str:
    return (
        f"I'm not sure which tasks {quoted(words)} covers, so I haven't changed anything. "
        "Could you name the list, or the tasks?"
    )


_ORDINAL_WORDS = dict(
    enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), start=1)
)


def position_or_number(n: int, at_position: str, numbered: str) -> str:
    ordinal = _ORDINAL_WORDS.get(n)
    which = f"'the {ordinal} one'" if ordinal else "its title"
    place = f"the {ordinal} one in the list" if ordinal else f"number {n} in the list"
    return (
        f"Do you mean {place}, {quoted(at_position)}, or task {n}, {quoted(numbered)}? "
        f"Say {which} or 'task {n}'."
    )


NOTHING_TO_UNDO = "There's nothing I can undo right now."
CANNOT_UNDO = (
    "Sorry, I can't undo that last change: I never saw what it was before. "
    "Tell me what it should be and I'll change it back."
)
CANNOT_UNDO_BULK = "Sorry, I can't undo a change to several tasks at once."
CANNOT_UNDO_SHARING = (
    "Sorry, I can't undo that: whoever lost the list needs a new invitation to have it again."
)


def sharing_undone(tool: str, arguments: dict[str, Any]) -> str:
    """ "Undone: alex@example.com's invitation to Packing is withdrawn." """
    where = arguments.get("list", "")
    if tool == "remove_member":
        return f"Undone: {arguments.get('email')} is no longer invited to {where}."
    if tool == "change_member_role":
        role = arguments.get("role")
        return f"Undone: {arguments.get('email')} is {a_role(str(role))} on {where} again."
    if tool == "leave_list":
        return f"Undone: you've left {where} again."
    return "Undone."


def a_role(role: str) -> str:
    """ "an editor", "a viewer"."""
    return "an editor" if role == "editor" else "a viewer"


ALREADY_GONE = "Those tasks are already gone, so there was nothing left to delete."
CLEAR_CANCELLED = "Okay, I won't delete anything."
NOTED_NO = "Okay! Let me know if there's anything else I can do."


def undone_several(titles: list[str]) -> str:
    named = ", ".join(quoted(t) for t in titles[:5] if t)
    more = f" and {len(titles) - 5} more" if len(titles) > 5 else ""
    return f"Undone: I've reversed those {len(titles)} changes ({named}{more})."


def undone(tool: str, arguments: dict[str, Any], data: dict[str, Any]) -> str:
    title = quoted(str(data.get("title", "")))
    if arguments.get("restore_reminder") is True:  # a snooze undone
        return f"Undone: the reminder for {title} is back the way it was."
    if arguments.get("completed") is False:
        return f"Undone: {title} is back on your pending list."
    if tool == "delete_task":
        return f"Undone: I've removed {title} again."
    if tool == "add_task":
        return f"Undone: I've restored {title} as task {data['task_id']} again."
    if tool == "complete_task":
        return f"Undone: {title} is marked complete again."
    return f"Undone: {title} is back the way it was."
