"""Speech and texting noise is read once, before anything else (noise.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.noise import without_noise
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # spoken punctuation from dictation
        ("what do I have coming up this week question mark", "what do I have coming up this week?"),
        ("add buy milk comma eggs comma bread period", "add buy milk, eggs, bread."),
        ("hashtag work add the report", "#work add the report"),
        # fillers a speech engine writes down
        ("um add uh buy milk", "add buy milk"),
        # texting shorthand
        ("wat do i hav 2day", "wat do i have today"),
        ("push it 2 fri", "push it to friday"),
        ("need 2 call mom b4 2nite", "need to call mom before tonight"),
        # short day names: always when they are no other word, elsewhere where a day goes
        ("remind me 2 book the vet fri", "remind me to book the vet friday"),
        ("add haircut sat 10am n pick up parcel", "add haircut saturday 10am and pick up parcel"),
        ("due thurs, remind me weds 6pm", "due thursday, remind me wednesday 6pm"),
        ("new task colon schedule a haircut", "new task: schedule a haircut"),
        ("sorry sat not fri", "sorry saturday not friday"),
        ("n add a note: ask about it", "and add a note: ask about it"),
        # emoji that carry meaning
        ("milk ✅", "milk done"),
        ("🗑️ the eggs", "delete the eggs"),
        ("passport ✅ mom ✅", "passport done. mom done"),
        ("1️⃣ and 2️⃣ ✅", "1 and 2 done"),
        ("add bread + cheese", "add bread and cheese"),
        ("done w the Q4 report", "done with the Q4 report"),
        # a typed slot corrected inside the message
        ("the third one's done — sorry, the fourth", "the fourth one's done"),
        ("move it to friday, no, saturday", "move it to saturday"),
        ("call mom at 4, I mean 5", "call mom at 5"),
    ],
)
def test_noise_is_read_as_the_plain_words_meant(said: str, read: str) -> None:
    assert without_noise(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "add 2 eggs",  # a count, not "to"
        "add milk, no sugar",  # no slot of a kind corrected
        "Sorry to bother you, what is due tomorrow",
        "it can wait till friday",
        "hmm",  # a hesitation the follow-up readers answer
        "add 🎂 cake for the party",  # a decoration stays in the title
        "period pants",
        "add sun cream",  # a short day name only where a day goes
        "the cat sat on the mat",
        "put on sun cream",
    ],
)
def test_words_that_are_no_noise_are_left_as_typed(said: str) -> None:
    assert without_noise(said) == said


def test_a_position_corrected_mid_message_completes_the_corrected_row() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("what's left")
    exchange = talk.say("the third one's done — sorry, the fourth")
    completed = [c["arguments"] for c in exchange.tool_calls if c["name"] == "complete_task"]
    assert completed == [{"task_id": 4}]
