"""Utterances that mark tasks as done (complete_task).

Titles resolve among PENDING seed tasks only: 1 buy groceries, 2 call mom, 3 finish Q4 report,
4 review report draft, 6 book dentist appointment, 8 renew passport, 9 water the plants,
10 email Sarah about the project. Tasks 5 and 7 are already completed.
"""

from corpus.model import Call, Case


def _done(task_id: int) -> Call:
    return Call("complete_task", {"task_id": task_id})


CASES: list[Case] = [
    # --- Explicit task ids ---------------------------------------------------------------
    Case("Mark task 3 as done", "complete_task", (_done(3),)),
    Case("complete task 2", "complete_task", (_done(2),)),
    Case("#6 done", "complete_task", (_done(6),)),
    Case("Done with task 9", "complete_task", (_done(9),)),
    Case("Finished task 8", "complete_task", (_done(8),)),
    Case(
        "mark 3 as complete",
        "complete_task",
        (_done(3),),
        note="A bare number after 'mark' is an id.",
    ),
    Case("id 10 is done", "complete_task", (_done(10),)),
    Case("number 4 is finished", "complete_task", (_done(4),)),
    Case("task 1 done", "complete_task", (_done(1),)),
    Case("I've finished task 6", "complete_task", (_done(6),)),
    Case("Could you please mark #2 as completed?", "complete_task", (_done(2),)),
    Case("check off task 9", "complete_task", (_done(9),)),
    Case("tick off #1", "complete_task", (_done(1),)),
    Case("task 4 is finished now", "complete_task", (_done(4),)),
    Case("cross off number 6", "complete_task", (_done(6),)),
    Case("mark task 10 as complete please", "complete_task", (_done(10),)),
    Case("I completed task 8", "complete_task", (_done(8),)),
    Case(
        "task 6 ✅", "complete_task", (_done(6),), note="A check mark next to a task id means done."
    ),
    Case("compelte task 4", "complete_task", (_done(4),)),
    Case("i finshed #9 lol", "complete_task", (_done(9),)),
    Case(
        "mark task 3 groceries as done",
        "complete_task",
        (_done(3),),
        note="Explicit id wins over a title (AC-CB9).",
    ),
    Case("Please mark task #2 done, thank you!", "complete_task", (_done(2),)),
    # --- By title ------------------------------------------------------------------------
    Case("Complete buy groceries", "complete_task", (_done(1),)),
    Case("I finished the Q4 report", "complete_task", (_done(3),)),
    Case("mark call mom as done", "complete_task", (_done(2),)),
    Case("I called mom", "complete_task", (_done(2),)),
    Case("done with the groceries", "complete_task", (_done(1),)),
    Case("I watered the plants", "complete_task", (_done(9),)),
    Case("booked the dentist appointment ✅", "complete_task", (_done(6),)),
    Case("renewed my passport!", "complete_task", (_done(8),)),
    Case("emailed Sarah about the project", "complete_task", (_done(10),)),
    Case("mark 'Review Report Draft' complete", "complete_task", (_done(4),)),
    Case("finished reviewing the report draft", "complete_task", (_done(4),)),
    Case("the passport one is done", "complete_task", (_done(8),)),
    Case("dentist appointment is booked", "complete_task", (_done(6),)),
    Case("plants are watered 🌱", "complete_task", (_done(9),)),
    Case(
        "mark finish Q4 report as done",
        "complete_task",
        (_done(3),),
        note="The title itself contains 'finish'; it is task 3's exact title.",
    ),
    Case(
        "just got the groceries",
        "complete_task",
        (_done(1),),
        note="Reporting the errand as done; only 'buy groceries' fits.",
    ),
    Case("I already called mom, you can tick that off", "complete_task", (_done(2),)),
    Case("mark the grocerys as done", "complete_task", (_done(1),)),
    Case("can you check off the Sarah email?", "complete_task", (_done(10),)),
    Case("The plants task is complete", "complete_task", (_done(9),)),
    # --- Several pending tasks match: ask which ------------------------------------------
    Case(
        "I finished the report",
        "complete_task",
        asks=True,
        note="'report' matches pending tasks 3 and 4.",
    ),
    Case("mark the report as done", "complete_task", asks=True, note="Matches tasks 3 and 4."),
    Case("complete report", "complete_task", asks=True, note="Matches tasks 3 and 4."),
    # --- Nothing matches -----------------------------------------------------------------
    Case("mark buy milk as done", "complete_task", asks=True, note="No task matches 'buy milk'."),
    Case("I finished the laundry", "complete_task", asks=True, note="No task matches 'laundry'."),
    Case(
        "complete task 99",
        "complete_task",
        asks=True,
        note="No task 99: say so and offer to show the tasks (spec, Error 1).",
    ),
    Case(
        "mark walk the dog as done",
        "complete_task",
        note="'walk the dog' (7) is already completed: say so (nothing to ask or change).",
    ),
    # --- Pronouns with nothing to refer to ------------------------------------------------
    Case("mark it as done", "complete_task", asks=True, note="No earlier task to refer to."),
    Case("I finished it", "complete_task", asks=True, note="No earlier task to refer to."),
    Case("that one's done", "complete_task", asks=True, note="No earlier task to refer to."),
    # --- Several completions, chains -----------------------------------------------------
    Case("mark task 3 and task 4 as done", "complete_task", (_done(3), _done(4))),
    Case("I finished tasks 2 and 9", "complete_task", (_done(2), _done(9))),
    Case("done with the groceries and the plants", "complete_task", (_done(1), _done(9))),
    Case(
        "mark task 1 as done and show me what's left",
        "complete_task",
        (_done(1), Call("list_tasks", {"status": "pending"})),
    ),
    # --- With history --------------------------------------------------------------------
    Case("Mark it as done", "complete_task", (_done(11),), history=("add buy milk",)),
    Case(
        "mark the fifth one as done",
        "complete_task",
        (_done(6),),
        history=("show my pending tasks",),
        note="Pending list is 1, 2, 3, 4, 6, 8, 9, 10: the fifth is task 6 (a position, not id 5).",
    ),
    Case(
        "the second one",
        "complete_task",
        (_done(4),),
        history=("I finished the report",),
        note="Answers 'which one?': matches were listed as 3 then 4.",
    ),
    Case(
        "task 3",
        "complete_task",
        (_done(3),),
        history=("mark it as done",),
        note="Answers 'Which task would you like to complete?'.",
    ),
    Case(
        "the first one is done",
        "complete_task",
        (_done(1),),
        history=("show me what's left",),
        note="First task of the pending list shown.",
    ),
]
