"""Rules and the learned model reconciled (backend/agent/rules/arbiter.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.intents import detect_intent
from backend.agent.rules.text import prepare, strip_end_punctuation
from backend.agent.rules.types import Intent
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def detect(message: str) -> Intent:
    return detect_intent(strip_end_punctuation(prepare(message))).intent


@pytest.mark.parametrize(
    "message",
    [
        "ok so she needs a costume for the school play, can you add costume for Mia's play",
        "ok, add cook dinner for my family",
    ],
)
def test_an_add_of_an_undated_thing_is_an_add_though_it_sounds_like_another_job(
    message: str,
) -> None:
    assert detect(message) is Intent.CREATE


@pytest.mark.parametrize(
    "message",
    [
        "add birthday with mom for next month",
        "add valentine's day with her tomorrow",
        "add my practice at king's park on feb four at two pm",
        "add lunch with Tom to my calendar",
    ],
)
def test_an_add_of_a_dated_event_stays_another_assistants_job(message: str) -> None:
    assert detect(message) is Intent.OFF_TOPIC


def test_thanks_beside_an_add_does_not_turn_it_into_small_talk() -> None:
    message = "Thank you kindly. Would you also add dish soap and sponges while you're at it?"
    assert detect("Would you also add dish soap and sponges while you're at it?") is Intent.CREATE
    assert detect(message) is Intent.CREATE


@pytest.mark.parametrize("message", ["can you remember who compiled you", "thanks, that's all"])
def test_small_talk_is_not_added_as_a_task(message: str) -> None:
    assert detect(message) in (Intent.SOCIAL, Intent.GREETING)


def test_remind_me_to_do_a_thing_is_an_add_though_the_model_hears_another_job() -> None:
    assert detect("alexa remind me to bring an umbrella") is Intent.CREATE


def test_an_add_of_a_thing_to_do_with_a_long_description_stays_an_add() -> None:
    assert detect("add buy milk with " + "details " * 30) is Intent.CREATE


@pytest.mark.parametrize("message", ["scrap it all", "bin the lot"])
def test_a_clear_said_with_its_verb_asks_however_chatty_the_model_finds_it(message: str) -> None:
    detection = detect_intent(strip_end_punctuation(prepare(message)))
    assert detection.action.value == "clear"


def test_thanks_said_first_in_its_own_sentence_does_not_outweigh_the_request() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs", done=(1,))))
    conversation.say("show my list")
    exchange = conversation.say("Thank you. Now only the ones still to be done, if you would.")
    assert exchange.tool_calls[-1]["arguments"]["status"] == "pending"


def test_mark_them_as_purchased_after_a_lookup_completes_the_task_found() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs")))
    conversation.say("is eggs on my list?")
    conversation.say("Splendid. Please mark them as purchased.")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]
