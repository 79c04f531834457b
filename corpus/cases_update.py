"""Utterances that change a task's title, description or done state (update_task).

Titles resolve among ALL seed tasks.
"""

from typing import Any

from corpus.model import Call, Case


def _update(task_id: int, **fields: Any) -> Call:
    return Call("update_task", {"task_id": task_id, **fields})


CASES: list[Case] = [
    # --- New title by id -----------------------------------------------------------------
    Case(
        "Change task 1 to buy groceries and milk",
        "update_task",
        (_update(1, title="buy groceries and milk"),),
    ),
    Case(
        "rename task 2 to call mom tonight", "update_task", (_update(2, title="call mom tonight"),)
    ),
    Case(
        "update task 3 title to 'Finish Q4 report by Friday'",
        "update_task",
        (_update(3, title="Finish Q4 report by Friday"),),
    ),
    Case(
        "edit task 4, new title: review final report draft",
        "update_task",
        (_update(4, title="review final report draft"),),
    ),
    Case(
        "can you rename task number 6 to schedule dentist cleaning?",
        "update_task",
        (_update(6, title="schedule dentist cleaning"),),
    ),
    Case(
        "task 2 should be called phone grandma",
        "update_task",
        (_update(2, title="phone grandma"),),
    ),
    Case(
        "change #9 to water the plants and the lawn",
        "update_task",
        (_update(9, title="water the plants and the lawn"),),
    ),
    Case(
        "rename task 6 to 'go to the dentist'",
        "update_task",
        (_update(6, title="go to the dentist"),),
    ),
    Case(
        "rename task 9 to go to the garden centre",
        "update_task",
        (_update(9, title="go to the garden centre"),),
        note="The new title starts after the first 'to'; its own 'to' stays.",
    ),
    Case(
        "rename task 4 to delete old drafts",
        "update_task",
        (_update(4, title="delete old drafts"),),
        note="'delete' is part of the new title.",
    ),
    Case("change task 1 to buy 3 apples", "update_task", (_update(1, title="buy 3 apples"),)),
    Case(
        "rename task 9 to water the plants 🌱",
        "update_task",
        (_update(9, title="water the plants 🌱"),),
    ),
    Case(
        "modify task 10 to say email Sarah about the budget",
        "update_task",
        (_update(10, title="email Sarah about the budget"),),
    ),
    Case(
        "revise task 3 to finish Q4 report and slides",
        "update_task",
        (_update(3, title="finish Q4 report and slides"),),
    ),
    Case(
        "updte task 8 to renew passport and visa",
        "update_task",
        (_update(8, title="renew passport and visa"),),
    ),
    # --- New description -----------------------------------------------------------------
    Case(
        "add a description to task 3: use the new template",
        "update_task",
        (_update(3, description="use the new template"),),
        note="'add' a description to an existing task is an update, not a new task.",
    ),
    Case(
        "set the description of task 6 to 'ask for a morning slot'",
        "update_task",
        (_update(6, description="ask for a morning slot"),),
    ),
    Case(
        "change task 9 description to use the blue watering can",
        "update_task",
        (_update(9, description="use the blue watering can"),),
    ),
    Case(
        'update task 8\'s description to "expires in April"',
        "update_task",
        (_update(8, description="expires in April"),),
    ),
    Case(
        "for task 2, add the description ask about Sunday lunch",
        "update_task",
        (_update(2, description="ask about Sunday lunch"),),
    ),
    Case(
        "update the description of the passport task to bring two photos",
        "update_task",
        (_update(8, description="bring two photos"),),
    ),
    # --- Title and description together --------------------------------------------------
    Case(
        "Change task 2 title to 'call mom tonight' and add description 'ask about weekend plans'",
        "update_task",
        (_update(2, title="call mom tonight", description="ask about weekend plans"),),
        note="One update_task call with both fields (spec, Scenario 4).",
    ),
    Case(
        'update task 6: title "book dentist for June", description "Dr. Patel, morning"',
        "update_task",
        (_update(6, title="book dentist for June", description="Dr. Patel, morning"),),
    ),
    Case(
        "rename task 10 to email Sarah the project plan with description attach the Gantt chart",
        "update_task",
        (_update(10, title="email Sarah the project plan", description="attach the Gantt chart"),),
    ),
    # --- By title ------------------------------------------------------------------------
    Case(
        "rename call mom to call mom and dad",
        "update_task",
        (_update(2, title="call mom and dad"),),
    ),
    Case(
        "change buy groceries to buy groceries at Costco",
        "update_task",
        (_update(1, title="buy groceries at Costco"),),
    ),
    Case(
        "rename 'walk the dog' to 'walk the dog twice'",
        "update_task",
        (_update(7, title="walk the dog twice"),),
    ),
    Case(
        "change the passport task to renew passport and visa",
        "update_task",
        (_update(8, title="renew passport and visa"),),
    ),
    Case(
        'change "book dentist appointment" to "book dentist appointment for June"',
        "update_task",
        (_update(6, title="book dentist appointment for June"),),
    ),
    Case(
        "rename the Sarah task to email Sarah about the launch",
        "update_task",
        (_update(10, title="email Sarah about the launch"),),
    ),
    Case(
        'change the description of the plants task to "ferns need extra water"',
        "update_task",
        (_update(9, description="ferns need extra water"),),
    ),
    # --- Done state back to not done -----------------------------------------------------
    Case("mark task 5 as not done", "update_task", (_update(5, completed=False),)),
    Case("reopen task 7", "update_task", (_update(7, completed=False),)),
    Case("uncheck the electricity bill", "update_task", (_update(5, completed=False),)),
    Case(
        "oops, I haven't actually walked the dog yet",
        "update_task",
        (_update(7, completed=False),),
        note="Task 7 is completed; the user says it is not done after all.",
    ),
    # --- Questions back ------------------------------------------------------------------
    Case(
        "rename the report to final report",
        "update_task",
        asks=True,
        note="'report' matches tasks 3 and 4.",
    ),
    Case(
        "Update task 3",
        "update_task",
        asks=True,
        note="Nothing to change was given (spec, Error 7).",
    ),
    Case("edit task 6", "update_task", asks=True, note="Nothing to change was given."),
    Case(
        "I want to change something in task 8", "update_task", asks=True, note="Nothing to change."
    ),
    Case("edit the passport task", "update_task", asks=True, note="Task 8, but nothing to change."),
    Case(
        "rename it to call the bank", "update_task", asks=True, note="No earlier task to refer to."
    ),
    Case(
        "rename buy milk to buy oat milk",
        "update_task",
        asks=True,
        note="No task matches 'buy milk'.",
    ),
    Case(
        "change task 42 to water the garden",
        "update_task",
        asks=True,
        note="No task 42: say so and offer to show the tasks.",
    ),
    # --- With history --------------------------------------------------------------------
    Case(
        "actually, make it call the bank tomorrow",
        "update_task",
        (_update(11, title="call the bank tomorrow"),),
        history=("add call the bank",),
        note="'make it ...' right after an add renames the new task 11 (spec, Rule 3).",
    ),
    Case(
        "add a description to it: sourdough from the bakery",
        "update_task",
        (_update(11, description="sourdough from the bakery"),),
        history=("add buy bread",),
    ),
    Case(
        "change the title to finish Q4 report draft",
        "update_task",
        (_update(3, title="finish Q4 report draft"),),
        history=("update task 3",),
        note="Answers 'What would you like to change about task 3?'.",
    ),
    Case(
        "the second one",
        "update_task",
        (_update(4, title="final report"),),
        history=("rename the report to final report",),
        note="Answers 'which one?': matches were listed as 3 then 4.",
    ),
    # --- A task named, the change not: ask what should change (Error 7) ----------------
    Case("Rename buy groceries", "update_task", asks=True),
    Case("update call mom", "update_task", asks=True),
    Case(
        "buy oat milk",
        "update_task",
        (Call("update_task", {"task_id": 1, "title": "buy oat milk"}),),
        history=("rename buy groceries",),
    ),
    Case(
        "change the description to before 5pm",
        "update_task",
        (Call("update_task", {"task_id": 2, "description": "before 5pm"}),),
        history=("update call mom",),
    ),
    Case(
        "change task 1 to call dad and task 2 to buy milk",
        "update_task",
        (
            Call("update_task", {"task_id": 1, "title": "call dad"}),
            Call("update_task", {"task_id": 2, "title": "buy milk"}),
        ),
        note="One verb, two renames.",
    ),
]
