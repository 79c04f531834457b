"""A question about when one task is due is a look-up that says its due and repeat."""

from __future__ import annotations

import pytest

from backend.agent.rules.intents import detect_intent
from backend.agent.rules.query import asks_when_due
from backend.agent.rules.types import Action, Intent
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("Hello! Could you tell me when my passport renewal is due?", "passport renewal"),
        ("And when are the plants next due a water?", "plants"),
        ("when's the draft review?", "draft review"),
        ("when is the rent due", "rent"),
    ],
)
def test_a_question_about_when_one_task_is_due_looks_that_task_up(said: str, task: str) -> None:
    assert asks_when_due(said) == task
    detection = detect_intent(said)
    assert (detection.intent, detection.action) == (Intent.LIST, Action.LOOKUP)


@pytest.mark.parametrize(
    "said",
    ["when is everything due", "when are my tasks due this week", "when I get home add milk"],
)
def test_a_when_question_about_no_one_task_is_no_look_up(said: str) -> None:
    assert asks_when_due(said) is None


def test_the_reply_says_the_due_and_the_repeat_as_stored_and_changes_nothing() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("And when are the plants next due a water?")
    assert all(c["name"] == "list_tasks" for c in exchange.tool_calls)
    assert "water the plants" in exchange.reply
    assert "2026-11-26" in exchange.reply
    assert "repeats every Monday and Thursday" in exchange.reply


def test_a_timed_task_is_said_with_its_time() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("when's the draft review?")
    assert "2026-11-26 15:00" in exchange.reply


def test_a_when_question_about_no_task_is_another_apps_date_and_offers_nothing() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("when is my car insurance due")
    assert exchange.meta.get("acts") == ["off_topic"]
    assert not exchange.meta.get("pending")


def test_a_when_question_names_its_task_outright_or_is_about_no_task() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("when's the gas bill due")  # no electricity bill
    assert exchange.meta.get("acts") == ["off_topic"]


def test_a_when_question_about_a_done_task_is_about_no_task_to_do() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("when is my electric bill due")  # paid: no due to tell
    assert exchange.meta.get("acts") == ["off_topic"]
