"""The title inside an add request (backend/agent/rules/titles.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.titles import TitleSlot, add_title
from corpus.fake_tools import Conversation, FakeTaskStore


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("paper towels on my list for shopping", "paper towels"),
        ("clean stovetop on my list of reminders", "clean stovetop"),
        ("washing the dishes on my list of tasks to accomplish", "washing the dishes"),
        ("dishes on to do list", "dishes"),
        ("clean refrigerator on my spring cleaning to do list", "clean refrigerator"),
        ("oranges to my to do shopping list", "oranges"),
        ("the chore of vacuuming to my task list", "vacuuming"),
        ("'sign up for the 5k' on my list, my friend talked me into it", "sign up for the 5k"),
        ("bread to the grocery list please, we're totally out", "bread"),
        ("return the library books, they're already two weeks late", "return the library books"),
        ("add grocery to list", "grocery"),
        ("add mop to hardware store list", "mop"),
        ("remember to put carrots in there", "carrots"),
        ("hey put carrots on that", "carrots"),
        ("i need oranges", "oranges"),
        ("re add eggs", "eggs"),
        ("add a trip to the post office", "trip to the post office"),
        ("add a dozen eggs", "a dozen eggs"),
        (
            "Might you also note down that I must return the library books",
            "return the library books",
        ),
        ("put pasta on my list then", "pasta"),
        ("put bread in list", "bread"),
        ("buy an umbrella to my list then, mine snapped last week anyway", "buy an umbrella"),
        ("candles also, for the cake", "candles"),
        ("friday to call my mother", "call my mother friday"),
        ("tommorow at 3pm i have a doctors appointment", "doctors appointment tommorow at 3pm"),
        ("tomorrow is trash day", "tomorrow is trash day"),
        ("pick up kids from school to my to do list for today", "pick up kids from school today"),
        ("grocery shopping to today's to do list", "grocery shopping today"),
        (
            "call the plumber on there, the kitchen tap's been dripping for like a week",
            "call the plumber",
        ),
        ("book dentist for tuesday. come on", "book dentist for tuesday"),
        ("write a letter to grandma", "write a letter to grandma"),
        ("put the bins out", "put the bins out"),
        ("stick the cake in the oven", "stick the cake in the oven"),
        ("write apples on my shopping list", "apples"),
        ("write new task: buy train ticket", "buy train ticket"),
        ("get a card for Jen, put that down too, she's the one leaving", "get a card for Jen"),
        ("12 eggs, not only eggs", "12 eggs"),
        ("pick up the cake on sunday, sorry, my brain is fried", "pick up the cake on sunday"),
    ],
)
def test_the_title_is_what_a_person_would_have_typed(said: str, title: str) -> None:
    assert add_title(said) == TitleSlot(title)


def test_a_condition_becomes_the_if_missing_slot() -> None:
    assert add_title("eggs if they're not already on there") == TitleSlot("eggs", if_missing=True)
    assert add_title("'olive oil' if it isn't on there yet") == TitleSlot(
        "olive oil", if_missing=True
    )
    assert add_title("milk if is not there already") == TitleSlot("milk", if_missing=True)


@pytest.mark.parametrize(
    ("said", "titles"),
    [
        (
            "I need to: call the plumber, renew the car insurance",
            ["call the plumber", "renew the car insurance"],
        ),
        (
            "add the following to my shopping list: rice, lentils, and coconut milk",
            ["rice", "lentils", "coconut milk"],
        ),
        (
            "Add to my list: call the electrician, buy light bulbs.",
            ["call the electrician", "buy light bulbs"],
        ),
        (
            "You can add 'wash the car' please? And 'vacuum the car' also.",
            ["wash the car", "vacuum the car"],
        ),
        ("add grocery run: milk, eggs, bread", ["grocery run"]),  # a title with its description
    ],
)
def test_items_introduced_by_a_colon_or_quoted_are_separate_tasks(
    said: str, titles: list[str]
) -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say(said)
    assert [t["title"] for t in conversation.store.tasks] == titles


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("be reminded to pray", "pray"),
        ("get reminded to clean my room", "clean my room"),
        ("me about doing laundry i would appreciate it", "doing laundry"),
        ("take out the trash please remind me", "take out the trash"),
        ("tell me to take out the trash in an hour", "take out the trash in an hour"),
    ],
)
def test_reminder_frames_around_the_task_are_removed(said: str, title: str) -> None:
    assert add_title(said).title == title


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("sun cream, we go to the beach on sunday", "sun cream"),
        ("on sat call mom", "call mom on sat"),
    ],
)
def test_a_short_day_name_is_a_time_only_after_on(said: str, title: str) -> None:
    assert add_title(said).title == title


def test_a_title_that_is_all_when_words_settles_instead_of_looping() -> None:
    # "at 9 morning" and "morning at 9" were each the other's rewrite: the turn never ended.
    assert add_title("at 9 that morning").title == "at 9 that morning"
