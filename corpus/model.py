"""The shape of the utterance corpus (see cases_*.py) and the task list every case starts from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Every case starts with this user's task list (id = the per-user task number).
SEED_TASKS: list[dict[str, Any]] = [
    {"id": 1, "title": "buy groceries", "description": None, "completed": False},
    {"id": 2, "title": "call mom", "description": None, "completed": False},
    {"id": 3, "title": "finish Q4 report", "description": None, "completed": False},
    {"id": 4, "title": "review report draft", "description": None, "completed": False},
    {"id": 5, "title": "pay electricity bill", "description": None, "completed": True},
    {"id": 6, "title": "book dentist appointment", "description": None, "completed": False},
    {"id": 7, "title": "walk the dog", "description": None, "completed": True},
    {"id": 8, "title": "renew passport", "description": "expires in March", "completed": False},
    {"id": 9, "title": "water the plants", "description": None, "completed": False},
    {"id": 10, "title": "email Sarah about the project", "description": None, "completed": False},
]


@dataclass(frozen=True)
class Call:
    """An expected tool call: its name and exactly these arguments (never user_id)."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    """One utterance and what the assistant must do with it.

    - `intent`: one of create_task, list_tasks, complete_task, delete_task, update_task,
      help, greeting, unclear (for a compound message: the first clause's intent).
    - `calls`: the tool calls that must be made, in order, counting only calls that change
      tasks (add/complete/delete/update) and list_tasks calls made to SHOW tasks to the user
      (with their `status` argument). Look-ups the assistant makes internally to resolve a
      title are not counted. Empty for greeting/help/unclear and for questions back.
    - `asks`: True when the right answer is a question back to the user (clarification:
      several tasks match, no task named, nothing to update, confirm a bulk delete...).
    - `history`: earlier user messages of the same conversation, each sent through the
      assistant first (so "it", "the first one" or "yes" can refer to what happened there).
      Tasks those messages add get the next numbers (11, 12, ...).
    """

    say: str
    intent: str
    calls: tuple[Call, ...] = ()
    asks: bool = False
    history: tuple[str, ...] = ()
    note: str = ""


# The real-utterance and conversation corpora (data/*.jsonl) start from this longer list:
# the ten above plus shopping items, so that "is milk on my list?" or "take eggs off" have
# something real to find (see corpus/LABELLING.md).
STANDARD_TASKS: list[dict[str, Any]] = [
    *SEED_TASKS,
    {"id": 11, "title": "milk", "description": None, "completed": False},
    {"id": 12, "title": "eggs", "description": None, "completed": False},
    {"id": 13, "title": "bananas", "description": None, "completed": True},
    {"id": 14, "title": "paper towels", "description": None, "completed": False},
    {"id": 15, "title": "clean the bathroom", "description": None, "completed": False},
    {"id": 16, "title": "pick up dry cleaning", "description": None, "completed": True},
]


# The fresh batches' start (corpus/LABELLING.md, "the dated start"): the standard tasks with
# due dates, reminders, repeats, lists, tags and a priority, on the clock of Tuesday 24
# November 2026, 12:00 in the user's zone (UTC).
_DATED_FIELDS: dict[int, dict[str, Any]] = {
    1: {"due_date": "2026-11-24", "due_time": "18:00", "tags": ["errand"]},
    2: {"due_date": "2026-11-24"},
    3: {"due_date": "2026-11-27", "list": "Work", "priority": "high", "tags": ["work"]},
    4: {
        "due_date": "2026-11-26",
        "due_time": "15:00",
        "list": "Work",
        "remind_before": 30,
        "remind_at": "2026-11-26T15:00",
    },
    6: {"due_date": "2026-11-20"},
    8: {"due_date": "2026-12-01"},
    9: {"due_date": "2026-11-26", "repeat": "FREQ=WEEKLY;BYDAY=MO,TH"},
    10: {"due_date": "2026-11-25", "due_time": "10:00", "list": "Work", "tags": ["work"]},
    11: {"list": "Groceries"},
    12: {"list": "Groceries"},
    14: {"list": "Groceries"},
    15: {"due_date": "2026-11-28", "tags": ["home"], "repeat": "FREQ=WEEKLY;BYDAY=SA"},
}
DATED_TASKS: list[dict[str, Any]] = [
    {**task, **_DATED_FIELDS.get(int(task["id"]), {})} for task in STANDARD_TASKS
]
