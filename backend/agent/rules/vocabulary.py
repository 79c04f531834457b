"""The assistant's vocabulary, in one place: words that start a task, list nouns, done words.

Patterns and slot extractors read these lists instead of spelling their own, so a word added
here is understood everywhere.
"""

from __future__ import annotations

# Verbs a task usually starts with ("buy milk", "call mom"): a phrase led by one is a task.
TASK_VERBS: frozenset[str] = frozenset(
    """
    buy call phone ring email e-mail text message pay book pick drop clean wash write send post
    mail get grab order return renew water walk feed cook prepare submit file meet visit study
    practice practise read learn bake fetch bring collect organize organise plan prep vacuum mow
    iron fold repair sign print apply register cancel go attend make reserve donate sell ship pack
    unpack charge back backup upload download install tidy sweep mop shop research review draft
    finish follow reply respond thank invite ask tell take put fix check schedule do see find
    clear empty start stop set change update remove delete move cut paint hang replace wrap
    """.split()
)

# Nouns that name the list itself ("my shopping list", "the chores").
LIST_NOUNS: tuple[str, ...] = (
    "list",
    "lists",
    "to-do list",
    "todo list",
    "to do list",
    "todos",
    "to-dos",
    "tasks",
    "reminders",
    "agenda",
    "checklist",
    "chores",
    "errands",
)

# Words that say a task is finished.
DONE_WORDS: tuple[str, ...] = (
    "done",
    "complete",
    "completed",
    "finished",
    "finish",
    "ticked off",
    "checked off",
    "crossed off",
    "sorted",
)


# Things other assistants keep, as a regex alternation: "the first three events in my
# calendar", "delete everything on my calendar" are not about the task list.
OTHER_APPS_THINGS = (
    r"events?|calendar|alarms?|contacts?|emails?|inbox|messages?|notifications?|playlists?|"
    r"songs?|music|photos?|files?|meetings?|history|cart|basket"
)


def is_task_verb(word: str) -> bool:
    return word.lower() in TASK_VERBS


# Verbs that start a request of their own: where a list of commands splits ("tick off X,
# move Y to Thursday") and what a tail after "and" can never be one more item of.
COMMAND_VERB = (
    r"delete|remove|add|cancel|tick\s+off|cross\s+off|check\s+off|mark|complete|"
    r"move|shift|push|shove|bump|postpone|reschedule|tag|untag|scrap|kill|ditch|"
    r"nuke|erase|get\s+rid\s+of|chuck"
)
