"""The title, description and separate tasks of an add (backend/agent/rules/create.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.create import reads_as_a_story
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def _conversation() -> Conversation:
    return Conversation(FakeTaskStore(numbered_tasks("milk", "eggs")))


def _titles(conversation: Conversation) -> list[str]:
    return [str(t["title"]) for t in conversation.store.tasks]


@pytest.mark.parametrize(
    "title",
    [
        "we're having people over on sunday so put chips, salsa, limes and ice",
        "I'm making lasagna tonight and I need ricotta, lasagna noodles, and fresh basil",
        "call the bank about the loan, put it on my to do list",
    ],
)
def test_a_title_that_is_still_a_story_or_names_the_list_reads_as_one(title: str) -> None:
    assert reads_as_a_story(title)


@pytest.mark.parametrize(
    "title",
    ["buy bread next time i go shopping", "call mom", "send a thank-you card to the Hendersons"],
)
def test_an_ordinary_title_does_not_read_as_a_story(title: str) -> None:
    assert not reads_as_a_story(title)


def test_a_story_is_never_stored_as_a_task_without_asking_and_a_yes_adds_it() -> None:
    conversation = _conversation()
    said = (
        "so we're hosting brunch tomorrow and I need bagels, cream cheese and orange juice, "
        "can you throw those on"
    )
    asked = conversation.say(said)
    assert asked.tool_calls == []
    assert asked.meta["pending"]["kind"] == "offer_add"
    assert _titles(conversation) == ["milk", "eggs"]
    conversation.say("yes")
    assert len(_titles(conversation)) == 3


@pytest.mark.parametrize(
    ("said", "added"),
    [
        ("oh and while you're at it, she's vegan now, so oat milk too", ["oat milk"]),
        ("and butter also, same, if not there", ["butter"]),
    ],
)
def test_what_is_said_about_the_items_is_not_an_item(said: str, added: list[str]) -> None:
    conversation = _conversation()
    conversation.say("add coffee filters")
    conversation.say(said)
    assert _titles(conversation)[3:] == added


def test_add_one_more_thing_asks_what_to_add() -> None:
    conversation = _conversation()
    asked = conversation.say("add one more thing")
    assert asked.tool_calls == []
    assert asked.meta["pending"]["kind"] == "ask_title"


def test_after_a_colon_each_comma_part_is_a_task_however_long() -> None:
    conversation = _conversation()
    conversation.say(
        "I want to add three things: buy shoes for school, fix the bicycle, call the bank"
    )
    assert _titles(conversation)[2:] == ["buy shoes for school", "fix the bicycle", "call the bank"]


def test_why_said_after_the_item_is_not_part_of_it() -> None:
    conversation = _conversation()
    conversation.say("ad dog fod to my shoping list we ran out")
    assert _titles(conversation)[2:] == ["dog fod"]


@pytest.mark.parametrize("said", ["add sth for tmrw", "add uh", "add all of those", "add it goes"])
def test_an_add_whose_title_names_nothing_asks_what_to_add(said: str) -> None:
    talk = Conversation(FakeTaskStore(numbered_tasks()))
    exchange = talk.say(said)
    assert [c for c in exchange.tool_calls if c["name"] == "add_task"] == []
    assert exchange.meta.get("pending") is not None


def _dated() -> Conversation:
    from corpus.fresh import CLOCK, TODAY, dated_start

    return Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)


def test_an_add_onto_the_tag_just_shown_tags_the_task_already_there() -> None:
    talk = _dated()
    talk.say("hey, what have I got tagged home?")
    exchange = talk.say("add the plants to that too, they're a home thing really")
    changed = [
        (c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] != "list_tasks"
    ]
    assert changed == [("update_task", {"task_id": 9, "add_tags": ["home"]})]


def test_an_add_onto_the_list_just_shown_goes_on_that_list() -> None:
    talk = _dated()
    talk.say("what's on the groceries list")
    exchange = talk.say("add butter to that")
    added = [c["arguments"] for c in exchange.tool_calls if c["name"] == "add_task"]
    assert added == [{"title": "butter", "list": "Groceries"}]
