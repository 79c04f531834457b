"""Utterances that show tasks (list_tasks), with the status filter a careful reader infers."""

from corpus.model import Call, Case

ALL = (Call("list_tasks", {"status": "all"}),)
PENDING = (Call("list_tasks", {"status": "pending"}),)
COMPLETED = (Call("list_tasks", {"status": "completed"}),)

CASES: list[Case] = [
    # --- No filter: all tasks ------------------------------------------------------------
    Case("Show my tasks", "list_tasks", ALL),
    Case("list tasks", "list_tasks", ALL),
    Case("What's on my list?", "list_tasks", ALL),
    Case("Show all tasks", "list_tasks", ALL),
    Case("show me everything", "list_tasks", ALL),
    Case("Tell me my todos", "list_tasks", ALL),
    Case("let me see my list", "list_tasks", ALL),
    Case("view tasks", "list_tasks", ALL),
    Case("display all tasks", "list_tasks", ALL),
    Case("what are my tasks?", "list_tasks", ALL),
    Case("can you show me my tasks please", "list_tasks", ALL),
    Case("give me an overview of my tasks", "list_tasks", ALL),
    Case(
        "show me the to-do list",
        "list_tasks",
        ALL,
        note="'to-do list' names the list; it is not the 'to do' = pending filter.",
    ),
    Case("list every task I have", "list_tasks", ALL),
    Case(
        "show me everything, done or not",
        "list_tasks",
        ALL,
        note="'done' here does not filter: the user asks for both.",
    ),
    Case(
        "how's my list looking?",
        "list_tasks",
        ALL,
        note="A question about the list, not a request for help.",
    ),
    Case(
        "remind me what's on my list",
        "list_tasks",
        ALL,
        note="'remind me' here asks to be shown the list; nothing is added.",
    ),
    Case(
        "what did I ask you to remind me of",
        "list_tasks",
        ALL,
        note="A question about the list, not an add; no filter word, so all.",
    ),
    Case("shwo my tasks", "list_tasks", ALL),
    Case("list taks pls", "list_tasks", ALL),
    Case("my tasks 📋", "list_tasks", ALL),
    # --- Pending -------------------------------------------------------------------------
    Case("Show my pending tasks", "list_tasks", PENDING),
    Case("See pending items", "list_tasks", PENDING),
    Case("what's pending?", "list_tasks", PENDING),
    Case("What's left to do?", "list_tasks", PENDING),
    Case("what's left", "list_tasks", PENDING),
    Case("what do I still have to do", "list_tasks", PENDING),
    Case("any incomplete tasks?", "list_tasks", PENDING),
    Case("anything not done yet?", "list_tasks", PENDING),
    Case(
        "show all my pending tasks",
        "list_tasks",
        PENDING,
        note="'all' quantifies the pending tasks; the filter is pending.",
    ),
    Case("Could you list my incomplete tasks, please?", "list_tasks", PENDING),
    Case("Which of my tasks are still pending?", "list_tasks", PENDING),
    Case(
        "show me the tasks I haven't completed",
        "list_tasks",
        PENDING,
        note="Negated 'completed' means pending.",
    ),
    Case("list tasks that aren't done", "list_tasks", PENDING),
    Case("show my remaining tasks", "list_tasks", PENDING),
    Case("what's still open?", "list_tasks", PENDING),
    Case("what's outstanding", "list_tasks", PENDING),
    Case("do I have anything left to do?", "list_tasks", PENDING),
    Case("lemme see whats left", "list_tasks", PENDING),
    Case("wat do i still hav to do", "list_tasks", PENDING),
    Case("tell me what I've got to do today", "list_tasks", PENDING),
    Case("show unfinished", "list_tasks", PENDING),
    Case("What tasks haven't been finished yet?", "list_tasks", PENDING),
    # --- Completed -----------------------------------------------------------------------
    Case("Show completed tasks", "list_tasks", COMPLETED),
    Case("What did I finish?", "list_tasks", COMPLETED),
    Case("what have I completed", "list_tasks", COMPLETED),
    Case("show me my finished tasks", "list_tasks", COMPLETED),
    Case("list done tasks", "list_tasks", COMPLETED),
    Case("what's done so far?", "list_tasks", COMPLETED),
    Case("which ones are completed", "list_tasks", COMPLETED),
    Case("Any completed tasks?", "list_tasks", COMPLETED),
    Case(
        "show all completed tasks",
        "list_tasks",
        COMPLETED,
        note="'all' quantifies the completed tasks; the filter is completed.",
    ),
    Case("What have I accomplished this week?", "list_tasks", COMPLETED),
    Case("can I see what I've already checked off?", "list_tasks", COMPLETED),
    Case("Would you show me the ones I've finished?", "list_tasks", COMPLETED),
    # --- Follow-ups ----------------------------------------------------------------------
    Case(
        "yes",
        "list_tasks",
        PENDING,
        history=("complete task 99",),
        note=(
            "After 'I couldn't find task 99. Would you like to see your current tasks?' "
            "(spec, Error 1, whose example then shows the pending tasks)."
        ),
    ),
    Case(
        "yes please",
        "list_tasks",
        PENDING,
        history=("mark the laundry as done",),
        note="No pending task matches 'laundry'; the list offered is the pending one.",
    ),
    Case(
        "yes",
        "list_tasks",
        PENDING,
        history=("delete buy milk",),
        note="Nothing matches 'buy milk'; 'yes' to 'see your current tasks?' shows the pending "
        "ones, as in the spec's Error 1 recovery.",
    ),
    Case(
        "sure, show me",
        "list_tasks",
        ALL,
        history=("remove the gym task",),
        note="Nothing matches 'gym'; the user accepts the offer to see the list.",
    ),
    Case("what's on my list now?", "list_tasks", ALL, history=("add buy milk",)),
]
