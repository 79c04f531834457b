"""Utterances that add tasks (create_task), including several adds in one message."""

from corpus.model import Call, Case


def _add(title: str, description: str | None = None) -> Call:
    arguments = {"title": title}
    if description is not None:
        arguments["description"] = description
    return Call("add_task", arguments)


CASES: list[Case] = [
    # --- Plain trigger words -------------------------------------------------------------
    Case("Add buy milk", "create_task", (_add("buy milk"),)),
    Case("add pick up dry cleaning", "create_task", (_add("pick up dry cleaning"),)),
    Case(
        "Create a task to book flights to Lisbon", "create_task", (_add("book flights to Lisbon"),)
    ),
    Case(
        "create task: clean the garage",
        "create_task",
        (_add("clean the garage"),),
        note="The ':' follows the trigger, so it introduces the title, not a description.",
    ),
    Case("Add a task to buy printer ink", "create_task", (_add("buy printer ink"),)),
    Case("add new task call the landlord", "create_task", (_add("call the landlord"),)),
    Case("I need to buy milk", "create_task", (_add("buy milk"),)),
    Case("remind me to buy milk", "create_task", (_add("buy milk"),)),
    Case("Remember to call the bank", "create_task", (_add("call the bank"),)),
    Case(
        "Don't forget to submit the expense report",
        "create_task",
        (_add("submit the expense report"),),
        note="An add: 'report' here is part of the new title, not a reference to tasks 3/4.",
    ),
    Case("don't forget to pick up the kids at 3", "create_task", (_add("pick up the kids at 3"),)),
    Case("Make a note to buy stamps", "create_task", (_add("buy stamps"),)),
    Case("task to fix the leaking tap", "create_task", (_add("fix the leaking tap"),)),
    Case("remind me to call grandma on Sunday", "create_task", (_add("call grandma on Sunday"),)),
    # --- Polite requests -----------------------------------------------------------------
    Case("Can you add get a haircut?", "create_task", (_add("get a haircut"),)),
    Case(
        "Could you please add call the electrician", "create_task", (_add("call the electrician"),)
    ),
    Case("would you mind adding buy cat food?", "create_task", (_add("buy cat food"),)),
    Case("Please add renew library card, thanks!", "create_task", (_add("renew library card"),)),
    Case("Add pick up prescription please", "create_task", (_add("pick up prescription"),)),
    Case("can you remind me to send the invoice?", "create_task", (_add("send the invoice"),)),
    Case(
        "I'd like to add a task: schedule a car service",
        "create_task",
        (_add("schedule a car service"),),
        note="':' right after 'add a task' introduces the title.",
    ),
    Case(
        "Kindly create a task to book the team lunch", "create_task", (_add("book the team lunch"),)
    ),
    # --- Indirect forms, list names, no trigger word first --------------------------------
    Case(
        "milk should be added to my shopping list",
        "create_task",
        (_add("milk"),),
        note="Passive add; the list name is not part of the title.",
    ),
    Case("put eggs on the list", "create_task", (_add("eggs"),)),
    Case("add eggs to my shopping list", "create_task", (_add("eggs"),)),
    Case("add bread to my todo list", "create_task", (_add("bread"),)),
    Case(
        'can you put "renew car insurance" on my list?',
        "create_task",
        (_add("renew car insurance"),),
    ),
    Case("stick pay the nanny on my to-do list", "create_task", (_add("pay the nanny"),)),
    Case("I have to return the rental car", "create_task", (_add("return the rental car"),)),
    Case("i gotta get gas", "create_task", (_add("get gas"),)),
    Case("don't let me forget to water the lawn", "create_task", (_add("water the lawn"),)),
    Case(
        "note to self: defrost the freezer",
        "create_task",
        (_add("defrost the freezer"),),
        note="'note to self:' introduces the title; no description.",
    ),
    Case("todo: fix the bike", "create_task", (_add("fix the bike"),)),
    Case("add to my list: return library books", "create_task", (_add("return library books"),)),
    Case("new task - order new glasses", "create_task", (_add("order new glasses"),)),
    Case(
        "Buy birthday card for Tom",
        "create_task",
        (_add("Buy birthday card for Tom"),),
        note="A bare to-do phrase is an add (spec, Behavior 4: 'Buy groceries').",
    ),
    Case("I need to call the dentist", "create_task", (_add("call the dentist"),)),
    # --- Quoted titles -------------------------------------------------------------------
    Case('add "call the plumber"', "create_task", (_add("call the plumber"),)),
    Case("Add 'Finish the slides'", "create_task", (_add("Finish the slides"),)),
    Case(
        'create a task called "Plan birthday party"', "create_task", (_add("Plan birthday party"),)
    ),
    Case(
        "please add a task named 'Send thank-you notes'",
        "create_task",
        (_add("Send thank-you notes"),),
    ),
    # --- Titles containing words that are also keywords ----------------------------------
    Case("add update resume", "create_task", (_add("update resume"),)),
    Case("add show tickets for Friday", "create_task", (_add("show tickets for Friday"),)),
    Case("remind me to delete old photos", "create_task", (_add("delete old photos"),)),
    Case("add complete tax return", "create_task", (_add("complete tax return"),)),
    Case(
        "remember to cancel the gym membership",
        "create_task",
        (_add("cancel the gym membership"),),
    ),
    Case(
        "add remove old shelf from garage", "create_task", (_add("remove old shelf from garage"),)
    ),
    Case("I need to change the car oil", "create_task", (_add("change the car oil"),)),
    Case(
        "don't forget to edit the wedding video", "create_task", (_add("edit the wedding video"),)
    ),
    Case(
        "add see the doctor about my knee", "create_task", (_add("see the doctor about my knee"),)
    ),
    Case("remind me to tell Mom about the trip", "create_task", (_add("tell Mom about the trip"),)),
    Case("add help Jake move house", "create_task", (_add("help Jake move house"),)),
    Case("add say hi to grandma", "create_task", (_add("say hi to grandma"),)),
    Case("remember to clear out the fridge", "create_task", (_add("clear out the fridge"),)),
    Case("add mark essays", "create_task", (_add("mark essays"),)),
    Case("remind me to finish reading Dune", "create_task", (_add("finish reading Dune"),)),
    Case(
        "add make a list of wedding gifts", "create_task", (_add("make a list of wedding gifts"),)
    ),
    Case("add view apartment on Main St", "create_task", (_add("view apartment on Main St"),)),
    Case("add rename the photo folders", "create_task", (_add("rename the photo folders"),)),
    # --- Numbers inside titles (never a task id) -----------------------------------------
    Case("add buy 2 apples", "create_task", (_add("buy 2 apples"),)),
    Case("add read chapter 3", "create_task", (_add("read chapter 3"),)),
    Case(
        "remind me to call mom at 5pm",
        "create_task",
        (_add("call mom at 5pm"),),
        note="A new task; not a reference to task 2 'call mom'.",
    ),
    Case("add run 5k on Saturday", "create_task", (_add("run 5k on Saturday"),)),
    Case("add pay rent of $1200", "create_task", (_add("pay rent of $1200"),)),
    Case(
        "add book a table for 4 at 7:30",
        "create_task",
        (_add("book a table for 4 at 7:30"),),
        note="The ':' in a time is not a description separator.",
    ),
    Case(
        "add submit form #12 to HR",
        "create_task",
        (_add("submit form #12 to HR"),),
        note="'#12' names a form inside the new title; it is not a task id.",
    ),
    Case("remind me to buy 3 birthday cards", "create_task", (_add("buy 3 birthday cards"),)),
    # --- Descriptions --------------------------------------------------------------------
    Case(
        "add Report with executive summary",
        "create_task",
        (_add("Report", "executive summary"),),
    ),
    Case(
        "add plan the trip: book flights and hotel",
        "create_task",
        (_add("plan the trip", "book flights and hotel"),),
    ),
    Case(
        "add prepare slides — include Q3 numbers",
        "create_task",
        (_add("prepare slides", "include Q3 numbers"),),
    ),
    Case(
        "add pack for vacation including sunscreen and a hat",
        "create_task",
        (_add("pack for vacation", "sunscreen and a hat"),),
    ),
    Case(
        "add call the vet, description: ask about Max's diet",
        "create_task",
        (_add("call the vet", "ask about Max's diet"),),
    ),
    Case(
        'add "Quarterly taxes" with description "gather all receipts"',
        "create_task",
        (_add("Quarterly taxes", "gather all receipts"),),
    ),
    Case(
        "add grocery run: milk, eggs, bread",
        "create_task",
        (_add("grocery run", "milk, eggs, bread"),),
        note="One task whose description lists items; not three tasks.",
    ),
    Case(
        "Create task Plan offsite, description pick a venue and date",
        "create_task",
        (_add("Plan offsite", "pick a venue and date"),),
    ),
    Case(
        "remind me to prepare the board deck — focus on churn numbers",
        "create_task",
        (_add("prepare the board deck", "focus on churn numbers"),),
    ),
    # --- Emoji and unicode ---------------------------------------------------------------
    Case(
        "add café ☕ with Zoë",
        "create_task",
        (_add("café ☕", "Zoë"),),
        note="'with ...' is the description marker; unicode kept as typed in both fields.",
    ),
    Case("add 🎂 order birthday cake", "create_task", (_add("🎂 order birthday cake"),)),
    Case("remind me to call José", "create_task", (_add("call José"),)),
    Case(
        "add buy crème brûlée ingredients 🍮",
        "create_task",
        (_add("buy crème brûlée ingredients 🍮"),),
    ),
    Case("add 牛乳を買う", "create_task", (_add("牛乳を買う"),)),
    # --- Casing, punctuation, typos ------------------------------------------------------
    Case(
        "ADD CALL THE INSURANCE COMPANY",
        "create_task",
        (_add("CALL THE INSURANCE COMPANY"),),
        note="The title keeps the user's own casing.",
    ),
    Case("add book the venue!!!", "create_task", (_add("book the venue"),)),
    Case("Add Buy Flowers For Anna.", "create_task", (_add("Buy Flowers For Anna"),)),
    Case("addd take out the recycling", "create_task", (_add("take out the recycling"),)),
    Case("remidn me to call the vet", "create_task", (_add("call the vet"),)),
    Case("creat a task to order new contacts", "create_task", (_add("order new contacts"),)),
    # --- Several tasks in one message ----------------------------------------------------
    Case("add milk and add eggs", "create_task", (_add("milk"), _add("eggs"))),
    Case(
        "add these: milk, eggs, bread",
        "create_task",
        (_add("milk"), _add("eggs"), _add("bread")),
    ),
    Case(
        "add 'call the bank' and 'pay rent'",
        "create_task",
        (_add("call the bank"), _add("pay rent")),
    ),
    Case(
        "add three tasks: laundry, dishes and vacuuming",
        "create_task",
        (_add("laundry"), _add("dishes"), _add("vacuuming")),
    ),
    Case(
        "remind me to call grandma and also add buy stamps",
        "create_task",
        (_add("call grandma"), _add("buy stamps")),
    ),
    Case(
        "add:\n- milk\n- eggs\n- coffee",
        "create_task",
        (_add("milk"), _add("eggs"), _add("coffee")),
        note="A bulleted list is clearly several tasks.",
    ),
    Case(
        "add buy bread and milk",
        "create_task",
        (_add("buy bread and milk"),),
        note="One errand; 'and' inside a single title is not a list of tasks.",
    ),
    Case(
        "add salt and pepper to my shopping list",
        "create_task",
        (_add("salt and pepper"),),
        note="'salt and pepper' is one item; the list name is dropped.",
    ),
]
