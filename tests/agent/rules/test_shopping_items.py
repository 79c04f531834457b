"""Things bought, said without commas (backend/agent/rules/shopping_items.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.shopping_items import items_in_a_run
from corpus.fake_tools import Conversation, FakeTaskStore


@pytest.mark.parametrize(
    ("run", "items"),
    [
        ("wine chips salsa ice", ["wine", "chips", "salsa", "ice"]),
        ("tomatos onoins", ["tomatos", "onoins"]),  # each typed with one slip
        ("milk eggs paper towels", ["milk", "eggs", "paper towels"]),
        ("flour sugar", ["flour", "sugar"]),
    ],
)
def test_a_run_of_things_bought_is_several_items(run: str, items: list[str]) -> None:
    assert items_in_a_run(run) == items


@pytest.mark.parametrize(
    "run",
    ["banana bread", "chocolate cake", "baking powder", "call mom", "fresh basil", "milk"],
)
def test_a_name_of_one_thing_stays_one_item(run: str) -> None:
    assert items_in_a_run(run) is None


@pytest.mark.parametrize(
    ("said", "titles"),
    [
        ("add wine chips salsa ice", ["wine", "chips", "salsa", "ice"]),
        ("ad tomatos onoins and cilantro", ["tomatos", "onoins", "cilantro"]),
        ("add flour sugar and baking powder", ["flour", "sugar", "baking powder"]),
        ("add rice, chicken, onion also garlic please", ["rice", "chicken", "onion", "garlic"]),
        ("add chocolate cake and milk", ["chocolate cake", "milk"]),
        ("add call mom and dad", ["call mom and dad"]),
        ("add coffee filters and salt and pepper", ["coffee filters", "salt and pepper"]),
        ("add garbage bags dish soap and sponges", ["garbage bags", "dish soap", "sponges"]),
        ("add salt and pepper", ["salt and pepper"]),
    ],
)
def test_items_said_without_commas_are_added_one_task_each(said: str, titles: list[str]) -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say(said)
    assert [t["title"] for t in conversation.store.tasks] == titles
