"""A word of the task just added or renamed, spelt again (backend/agent/rules/respelling.py)."""

from __future__ import annotations

import pytest

from corpus.fake_tools import Conversation, FakeTaskStore


def _titles_after(first: str, said: str, tasks: list[dict[str, object]] | None = None) -> list[str]:
    conversation = Conversation(FakeTaskStore(tasks or []))
    conversation.say(first)
    conversation.say(said)
    return [str(t["title"]) for t in conversation.store.tasks]


@pytest.mark.parametrize(
    ("added", "said", "title"),
    [
        ("shampo", "sorry i write wrong, shampoo with two o", "shampoo"),
        (
            "call Jon about the car",
            "Sorry, I spelled his name wrong, it's John with an h.",
            "call John about the car",
        ),
        ("buy shoos for my son", "sorry i write wrong, is shoes not shoos", "buy shoes for my son"),
        ("yougurt", "spelled that wrong lol, yogurt", "yogurt"),
        ("flower", "alexa no i said flour f l o u r", "flour"),
    ],
)
def test_a_word_spelt_again_after_an_add_replaces_only_that_word(
    added: str, said: str, title: str
) -> None:
    assert _titles_after(f"add {added}", said) == [title]


def test_a_word_spelt_again_after_a_rename_fixes_the_new_title() -> None:
    tasks: list[dict[str, object]] = [{"id": 1, "title": "milk", "completed": False}]
    assert _titles_after("change milk to oat mlik", "oops oat milk i mean", tasks) == ["oat milk"]


_LANDLORD = "call the landlord about the heating"


@pytest.mark.parametrize(
    ("said", "titles"),
    [
        ("is it on there now or not", [_LANDLORD]),  # "there" is not "the" respelt
        ("thanks, that's right", [_LANDLORD]),
        ("Oh, sorry, would you undo that?", []),  # the undo, not "that" for "the"
    ],
)
def test_a_message_without_a_respelling_leaves_the_title_alone(
    said: str, titles: list[str]
) -> None:
    assert _titles_after(f"add {_LANDLORD}", said) == titles
