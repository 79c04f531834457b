"""Greetings, help, unclear requests, compound messages, context, and beyond-the-spec behaviours
(clear all with confirmation, "is X on my list?", undo)."""

from corpus.model import Call, Case

CLEAR_ALL = tuple(Call("delete_task", {"task_id": task_id}) for task_id in range(1, 11))

CASES: list[Case] = [
    # --- Greetings -----------------------------------------------------------------------
    Case("hi", "greeting"),
    Case("Hello!", "greeting"),
    Case("hey there", "greeting"),
    Case("Good morning", "greeting"),
    Case("good afternoon!", "greeting"),
    Case("Hi bot", "greeting"),
    Case("hey 👋", "greeting"),
    Case("hiya", "greeting"),
    Case("Good evening", "greeting"),
    Case("how are you?", "greeting", note="Not a typo of 'show'."),
    Case("how's it going", "greeting"),
    # --- Help ----------------------------------------------------------------------------
    Case("help", "help"),
    Case("What can you do?", "help"),
    Case("How do I add a task?", "help", note="Asks how to add; nothing is added."),
    Case("how do I delete a task?", "help", note="Asks how to delete; nothing is deleted."),
    Case("commands", "help"),
    Case("Help me", "help"),
    Case("how can I mark something as done?", "help"),
    Case("what kind of things can I ask you?", "help"),
    Case("usage?", "help"),
    Case("I'm new here, how does this work?", "help"),
    # --- Unclear: ask to rephrase --------------------------------------------------------
    Case("task", "unclear", asks=True),
    Case("do it", "unclear", asks=True, note="Nothing earlier to refer to."),
    Case("that thing", "unclear", asks=True),
    Case("Do the thing", "unclear", asks=True),
    Case("asdfgh", "unclear", asks=True),
    Case("hmm", "unclear", asks=True),
    Case("???", "unclear", asks=True),
    Case("how about milk", "unclear", asks=True, note="'how' is not a typo of 'show'."),
    Case("mask shopping", "unclear", asks=True, note="'mask' is not a typo of 'mark'."),
    Case(
        "what's the weather like today?",
        "unclear",
        asks=True,
        note="Not about tasks despite 'what'; nothing to list.",
    ),
    # --- Compound messages ---------------------------------------------------------------
    Case(
        "Add buy milk and show me all my tasks",
        "create_task",
        (Call("add_task", {"title": "buy milk"}), Call("list_tasks", {"status": "all"})),
    ),
    Case(
        "add call the plumber then show my pending tasks",
        "create_task",
        (
            Call("add_task", {"title": "call the plumber"}),
            Call("list_tasks", {"status": "pending"}),
        ),
    ),
    Case(
        "remove the dog walking task and add feed the cat",
        "delete_task",
        (Call("delete_task", {"task_id": 7}), Call("add_task", {"title": "feed the cat"})),
    ),
    Case(
        "mark task 2 as done and delete task 5",
        "complete_task",
        (Call("complete_task", {"task_id": 2}), Call("delete_task", {"task_id": 5})),
    ),
    Case(
        "complete task 9 and add water the garden",
        "complete_task",
        (Call("complete_task", {"task_id": 9}), Call("add_task", {"title": "water the garden"})),
    ),
    Case(
        "rename task 6 to book dentist cleaning and mark task 8 as done",
        "update_task",
        (
            Call("update_task", {"task_id": 6, "title": "book dentist cleaning"}),
            Call("complete_task", {"task_id": 8}),
        ),
    ),
    Case(
        "add buy stamps, then show me what I've finished",
        "create_task",
        (Call("add_task", {"title": "buy stamps"}), Call("list_tasks", {"status": "completed"})),
    ),
    Case(
        "I called mom, also remind me to call dad tomorrow",
        "complete_task",
        (Call("complete_task", {"task_id": 2}), Call("add_task", {"title": "call dad tomorrow"})),
    ),
    Case(
        "delete task 7 and rename task 5 to pay the gas bill",
        "delete_task",
        (
            Call("delete_task", {"task_id": 7}),
            Call("update_task", {"task_id": 5, "title": "pay the gas bill"}),
        ),
    ),
    Case(
        "complete buy milk and show me what's left",
        "complete_task",
        asks=True,
        note="Stop on the first error: no task matches 'buy milk', so nothing is listed.",
    ),
    Case(
        "delete the report and add write the summary",
        "delete_task",
        asks=True,
        note="The first step needs a choice (tasks 3 and 4): ask before doing the rest.",
    ),
    Case(
        "hi! can you show me my tasks?",
        "list_tasks",
        (Call("list_tasks", {"status": "all"}),),
        note="A greeting in front of a request is politeness; the request decides.",
    ),
    # --- Context: pronouns, positions, clarification answers -----------------------------
    Case(
        "Actually, mark it as done",
        "complete_task",
        (Call("complete_task", {"task_id": 11}),),
        history=("Add buy milk",),
        note="'it' = the task just added, 11 (spec, Rule 3 example).",
    ),
    Case(
        "mark the first one done",
        "complete_task",
        (Call("complete_task", {"task_id": 1}),),
        history=("show my tasks",),
    ),
    Case(
        "number 2",
        "delete_task",
        (Call("delete_task", {"task_id": 4}),),
        history=("delete the report",),
        note="Position 2 in the list of matches (3, 4), not task 2.",
    ),
    Case(
        "task 4",
        "delete_task",
        (Call("delete_task", {"task_id": 4}),),
        history=("delete the report",),
    ),
    Case(
        "the draft one",
        "delete_task",
        (Call("delete_task", {"task_id": 4}),),
        history=("delete the report",),
        note="Of the two matches, only 'review report draft' is the draft.",
    ),
    Case(
        "the report one",
        "delete_task",
        asks=True,
        history=("delete the report",),
        note="Still matches both; ask again (spec, Rule 2).",
    ),
    Case(
        "delete it",
        "delete_task",
        (Call("delete_task", {"task_id": 12}),),
        history=("add buy milk", "add buy eggs"),
        note="'it' = the last task added, 12.",
    ),
    Case(
        "oh and delete it too",
        "delete_task",
        (Call("delete_task", {"task_id": 6}),),
        history=("complete task 6",),
    ),
    Case(
        "mark that as done",
        "complete_task",
        (Call("complete_task", {"task_id": 4}),),
        history=("rename task 4 to review final draft",),
    ),
    Case(
        "change that to call the bank on Monday",
        "update_task",
        (Call("update_task", {"task_id": 11, "title": "call the bank on Monday"}),),
        history=("I need to call the bank",),
    ),
    Case(
        "delete the sixth one",
        "delete_task",
        (Call("delete_task", {"task_id": 8}),),
        history=("show my pending tasks",),
        note="Pending list is 1, 2, 3, 4, 6, 8, 9, 10: the sixth is task 8.",
    ),
    Case(
        "the task is done",
        "complete_task",
        (Call("complete_task", {"task_id": 11}),),
        history=("add walk to the park",),
        note="'the task' = the one just added.",
    ),
    Case(
        "the passport one",
        "complete_task",
        (Call("complete_task", {"task_id": 8}),),
        history=("mark it as done",),
        note="Answers 'Which task would you like to complete?'.",
    ),
    Case(
        'and add the description "ask about the weekend" to it',
        "update_task",
        (Call("update_task", {"task_id": 2, "description": "ask about the weekend"}),),
        history=("rename task 2 to call mom tonight",),
    ),
    # --- Beyond the spec: clear everything, with confirmation ----------------------------
    Case("clear my list", "delete_task", asks=True, note="Confirm before deleting every task."),
    Case("delete everything", "delete_task", asks=True, note="Confirm before deleting every task."),
    Case("wipe all my tasks", "delete_task", asks=True, note="Confirm before deleting every task."),
    Case("remove all tasks please", "delete_task", asks=True, note="Confirm first."),
    Case("yes", "delete_task", CLEAR_ALL, history=("clear my list",)),
    Case("yes please", "delete_task", CLEAR_ALL, history=("delete everything",)),
    Case(
        "no",
        "delete_task",
        history=("clear my list",),
        note="Confirmation declined: nothing is deleted, nothing more to ask.",
    ),
    # --- Beyond the spec: "is X on my list?" (internal look-up, yes/no answer) ------------
    Case(
        "is milk on my list?",
        "list_tasks",
        asks=True,
        note="Answer no, and offer to add it; the look-up is internal.",
    ),
    Case("is walk the dog on my list?", "list_tasks", note="Answer yes (task 7, done)."),
    Case("do I have a task to call mom?", "list_tasks", note="Answer yes (task 2)."),
    Case("did I already pay the electricity bill?", "list_tasks", note="Answer yes (task 5 done)."),
    Case("have I finished the Q4 report?", "list_tasks", note="Answer no (task 3 pending)."),
    # --- Beyond the spec: undo -----------------------------------------------------------
    Case(
        "undo",
        "delete_task",
        (Call("delete_task", {"task_id": 11}),),
        history=("add buy bread",),
        note="Undoing an add deletes the new task.",
    ),
    Case(
        "undo that",
        "update_task",
        (Call("update_task", {"task_id": 2, "completed": False}),),
        history=("complete task 2",),
    ),
    Case(
        "undo",
        "update_task",
        history=("rename task 6 to book dentist cleaning",),
        note="A rename by number never saw the old title (update_task returns only the new "
        "one), so the assistant says it cannot undo it rather than guess.",
    ),
    Case(
        "undo",
        "delete_task",
        (Call("delete_task", {"task_id": 12}),),
        history=("add buy milk", "add buy eggs"),
        note="Only the last change is undone.",
    ),
    Case(
        "undo that",
        "update_task",
        history=("update task 8's description to bring two photos",),
        note="As above: the old description was never seen, so no guess.",
    ),
    Case(
        "oops, undo",
        "update_task",
        (Call("update_task", {"task_id": 9, "completed": False}),),
        history=("mark task 9 as done",),
    ),
    # --- Every task at once ("all" is not a title: it is in "call mom") -------------------
    Case(
        "complete all",
        "complete_task",
        tuple(Call("complete_task", {"task_id": n}) for n in (1, 2, 3, 4, 6, 8, 9, 10)),
    ),
    Case(
        "mark everything as done",
        "complete_task",
        tuple(Call("complete_task", {"task_id": n}) for n in (1, 2, 3, 4, 6, 8, 9, 10)),
    ),
    Case("delete all of them", "delete_task", asks=True, note="Asks before deleting all."),
    Case("cancel all", "delete_task", asks=True),
    Case("get rid of every completed task", "delete_task", asks=True),
    Case(
        "delete them",
        "delete_task",
        asks=True,
        history=("show my completed tasks",),
        note="The two listed completed tasks, after a yes.",
    ),
    Case(
        "yes",
        "delete_task",
        (Call("delete_task", {"task_id": 5}), Call("delete_task", {"task_id": 7})),
        history=("show my completed tasks", "delete both"),
    ),
    # --- Found in review (2026-11-23) -----------------------------------------------------
    Case(
        "what are my completed and pending tasks",
        "list_tasks",
        (Call("list_tasks", {"status": "all"}),),
    ),
    Case("i wanna add go jogging", "create_task", (Call("add_task", {"title": "go jogging"}),)),
    Case(
        "Hi! Delete task 1",
        "delete_task",
        (Call("delete_task", {"task_id": 1}),),
        note="The greeting template would ask what to do after it was done.",
    ),
    Case("add \u200b", "create_task", asks=True, note="An invisible title is no title."),
    Case(
        "never mind",
        "delete_task",
        history=("delete the report",),
        note="Drops the which-one question.",
    ),
    Case(
        "no wait, undo that",
        "update_task",
        (Call("update_task", {"task_id": 2, "completed": False}),),
        history=("complete task 2",),
    ),
]
