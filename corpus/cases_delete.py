"""Utterances that remove tasks (delete_task). Titles resolve among ALL seed tasks."""

from corpus.model import Call, Case


def _delete(task_id: int) -> Call:
    return Call("delete_task", {"task_id": task_id})


CASES: list[Case] = [
    # --- Explicit task ids ---------------------------------------------------------------
    Case("Delete task 2", "delete_task", (_delete(2),)),
    Case("remove #5", "delete_task", (_delete(5),)),
    Case("get rid of task 7", "delete_task", (_delete(7),)),
    Case("cancel task 6", "delete_task", (_delete(6),)),
    Case("delete id 10", "delete_task", (_delete(10),)),
    Case("trash number 4", "delete_task", (_delete(4),)),
    Case("please delete task 9", "delete_task", (_delete(9),)),
    Case("Can you remove task 8 please?", "delete_task", (_delete(8),)),
    Case("drop task 3", "delete_task", (_delete(3),)),
    Case("erase task 7", "delete_task", (_delete(7),)),
    Case("delet task 4", "delete_task", (_delete(4),)),
    Case(
        "delete task 3 groceries",
        "delete_task",
        (_delete(3),),
        note="Explicit id wins over a title (AC-CB9).",
    ),
    Case("delete #1 🗑️", "delete_task", (_delete(1),)),
    Case("Would you be so kind as to delete task 5?", "delete_task", (_delete(5),)),
    Case("task 10 can go", "delete_task", (_delete(10),), note="Colloquial for 'remove task 10'."),
    # --- By title ------------------------------------------------------------------------
    Case("Delete buy groceries", "delete_task", (_delete(1),)),
    Case("delete the groceries task", "delete_task", (_delete(1),)),
    Case("remove the dentist appointment", "delete_task", (_delete(6),)),
    Case(
        "get rid of walk the dog",
        "delete_task",
        (_delete(7),),
        note="Completed tasks can be deleted too.",
    ),
    Case("remove 'Pay Electricity Bill'", "delete_task", (_delete(5),)),
    Case("delete the passport one", "delete_task", (_delete(8),)),
    Case("cancel the dentist task", "delete_task", (_delete(6),)),
    Case(
        "I don't need to call mom anymore",
        "delete_task",
        (_delete(2),),
        note="'don't need ... anymore' drops the task.",
    ),
    Case("forget about watering the plants", "delete_task", (_delete(9),)),
    Case("never mind the Sarah email", "delete_task", (_delete(10),)),
    Case("scratch the dentist thing", "delete_task", (_delete(6),)),
    Case("take walk the dog off my list", "delete_task", (_delete(7),)),
    Case("take the plants off my list", "delete_task", (_delete(9),)),
    Case(
        "remove the dog walking task",
        "delete_task",
        (_delete(7),),
        note="'dog walking' is 'walk the dog' (7) reworded; no other task is about a dog.",
    ),
    Case(
        "delete finish Q4 report",
        "delete_task",
        (_delete(3),),
        note="'finish' belongs to task 3's title; the request is a delete.",
    ),
    Case('remove the task "review report draft"', "delete_task", (_delete(4),)),
    Case("get rid of the electricity bill task", "delete_task", (_delete(5),)),
    Case("delete the task to email Sarah", "delete_task", (_delete(10),)),
    Case("remvoe the dentist appointment", "delete_task", (_delete(6),)),
    Case("pls delete call mom", "delete_task", (_delete(2),)),
    Case("delete the Q4 report", "delete_task", (_delete(3),)),
    Case("delete the report draft", "delete_task", (_delete(4),)),
    Case(
        "I no longer need to renew my passport",
        "delete_task",
        (_delete(8),),
        note="No longer needed = remove, not complete.",
    ),
    # --- Several tasks match: ask which --------------------------------------------------
    Case("Delete the report", "delete_task", asks=True, note="'report' matches tasks 3 and 4."),
    Case("remove report", "delete_task", asks=True, note="Matches tasks 3 and 4."),
    Case("get rid of the report task", "delete_task", asks=True, note="Matches tasks 3 and 4."),
    # --- Nothing matches -----------------------------------------------------------------
    Case("delete buy milk", "delete_task", asks=True, note="No task matches 'buy milk'."),
    Case("remove the gym task", "delete_task", asks=True, note="No task matches 'gym'."),
    Case(
        "delete task 99",
        "delete_task",
        asks=True,
        note="No task 99: say so and offer to show the tasks.",
    ),
    # --- Pronouns with nothing to refer to ------------------------------------------------
    Case("delete it", "delete_task", asks=True, note="No earlier task to refer to."),
    Case("remove that", "delete_task", asks=True, note="No earlier task to refer to."),
    Case("get rid of that one", "delete_task", asks=True, note="No earlier task to refer to."),
    # --- Several deletions, chains -------------------------------------------------------
    Case("delete tasks 5 and 7", "delete_task", (_delete(5), _delete(7))),
    Case("remove #1 and #9", "delete_task", (_delete(1), _delete(9))),
    Case(
        "Delete task 3 and tell me what's left",
        "delete_task",
        (_delete(3), Call("list_tasks", {"status": "pending"})),
    ),
    Case(
        "delete the electricity bill and the dog walking tasks",
        "delete_task",
        (_delete(5), _delete(7)),
    ),
    # --- With history --------------------------------------------------------------------
    Case(
        "Delete that one",
        "delete_task",
        asks=True,
        history=("show my tasks",),
        note="'that one' after a list is its first row (spec, Rule 3), a guess among ten: "
        "asked first (issue 32, decision 0030: no deletion of a guessed target).",
    ),
    Case(
        "the first one",
        "delete_task",
        (_delete(3),),
        history=("delete the report",),
        note="Answers 'which one?': matches were listed as 3 then 4.",
    ),
    Case(
        "delete the second one",
        "delete_task",
        (_delete(7),),
        history=("show my completed tasks",),
        note="Completed list is 5, 7: the second is task 7.",
    ),
    Case(
        "I don't need eggs anymore",
        "delete_task",
        (_delete(11),),
        history=("add eggs",),
        note="'eggs' was added as task 11.",
    ),
    Case(
        "Task 3",
        "delete_task",
        (_delete(3),),
        history=("delete it",),
        note="Answers 'Which task would you like to delete?' (spec, Multi-Turn 1).",
    ),
]
