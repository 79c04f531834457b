"""The assistant's wording: the spec's templates, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backend.agent.rules.text import display_title

GREETING = (
    "Hi! I'm your task assistant. I can help you add, view, complete, update, and delete "
    "tasks. What would you like to do?"
)

HELP = (
    "I can help you manage your tasks! Here's what you can say:\n"
    "• 'Add [task]' - Create a new task\n"
    "• 'Show my tasks' - View all tasks\n"
    "• 'What's pending?' - View incomplete tasks\n"
    "• 'Mark task [#] as done' - Complete a task\n"
    "• 'Delete task [#]' - Remove a task\n"
    "• 'Change task [#] to [new title]' - Update a task\n"
    "\n"
    "Just talk naturally, and I'll understand!"
)

UNCLEAR = (
    "I'm not sure what you'd like me to do. Could you rephrase that? For example, you can say "
    "'Add buy groceries' or 'Show my tasks'."
)

TITLE_TOO_LONG = (
    "That title is a bit long for a task. Could you shorten it to 200 characters or fewer? "
    "You can put the details in a description with 'with ...'."
)

SYSTEM_ERROR = "Sorry, I encountered an issue. Please try again in a moment."

ENCOURAGEMENTS = ("Great job!", "Awesome!", "Well done!", "Nice work!", "Excellent!")


def quoted(title: str) -> str:
    return f"'{display_title(title)}'"


def task_added(title: str, *, casual: bool = False) -> str:
    if casual:
        return f"Got it! {quoted(title)} is now on your list."
    return f"I've added {quoted(title)} to your list."


def task_completed(title: str, *, encouragement_index: int = 0) -> str:
    cheer = ENCOURAGEMENTS[encouragement_index % len(ENCOURAGEMENTS)]
    return f"{cheer} I've marked {quoted(title)} as complete."


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


def task_not_found(task_id: int) -> str:
    return f"I couldn't find task {task_id}. Would you like to see your current tasks?"


def ask_which_task(action: str) -> str:
    return f"Which task would you like to {action}? You can say the task number or title."


def ask_what_to_update(task_id: int) -> str:
    return (
        f"What would you like to change about task {task_id}? "
        "You can update the title or description."
    )


def ask_title_to_add() -> str:
    return "What would you like to add? For example, 'Add buy groceries'."


_STATUS_WORD = {"pending": "pending ", "completed": "completed ", "all": ""}
_EMPTY_CHEER = {
    "pending": "You're all caught up!",
    "completed": "Nothing completed yet.",
    "all": "You're all caught up!",
}


def task_line(task: dict[str, Any]) -> str:
    mark = "✓ " if task.get("completed") else ""
    return f"{task['id']}. {mark}{display_title(str(task['title']))}"


def task_list(tasks: Sequence[dict[str, Any]], status: str) -> str:
    if not tasks:
        return f"You don't have any {_STATUS_WORD[status]}tasks. {_EMPTY_CHEER[status]}"
    heading = "Here are all your tasks:" if status == "all" else f"Here are your {status} tasks:"
    return "\n".join([heading, *(task_line(task) for task in tasks)])
