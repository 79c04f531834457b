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
        # times and dates in words or run together
        ("dentist on december tenth at two thirty pm", "dentist on december 10th at 2:30 pm"),
        ("add haircut fri 1230", "add haircut friday 12:30"),
        ("the first of march", "march 1st"),
        ("prep slides, high prio", "prep slides, high priority"),
        ("print 2 copies at 300 dpi", "print 2 copies at 300 dpi"),  # no clock
        ("move it to friday, no, saturday", "move it to saturday"),
        ("call mom at 4, I mean 5", "call mom at 5"),
        # a time said instead of another corrects the time; the old one gives only the half
        ("and make it 5 instead of 6, before the rush", "and make it at 5, before the rush"),
        ("make it for 11 o'clock rather than 10", "make it at 11"),
        ("move it to 4, not 3", "move it to 4"),
        ("make it 5 instead of 6pm", "make it at 5pm"),
        # a thing named with a determiner, corrected right after it is said
        ("delete the eggs, no, the milk", "delete the milk"),
        ("call the dentist, no wait, the vet", "call the vet"),
        # the thing named after "I meant", with the reason for the change between
        (
            "mark the passport done - no wait, that's not till next week, "
            "I meant the email to Sarah",
            "mark the email to Sarah",
        ),
        # "about" typed short; "p m" said apart
        ("remind me bout groceries at 5", "remind me about groceries at 5"),
        ("make it seven thirty p m", "make it 7:30 pm"),
        # an item of a list taken back as it is said
        ("add shampoo, conditioner, no not conditioner, toothpaste", "add shampoo, toothpaste"),
    ],
)
def test_noise_is_read_as_the_plain_words_meant(said: str, read: str) -> None:
    assert without_noise(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "add 2 eggs",  # a count, not "to"
        "buy 5 apples instead of 6",  # a count corrected stays in the title
        "add milk, no sugar",  # no slot of a kind corrected
        "add milk, not oat milk",  # nothing said before is taken back
        "recovering from a bout of flu",  # a bout, not "about"
        "move the draft review to friday, no, the plants",  # not the thing right before it
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


def test_a_thing_corrected_mid_message_completes_only_the_corrected_thing() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    exchange = talk.say("I got the eggs — er, no, the milk, I bought the milk")
    completed = [c["arguments"] for c in exchange.tool_calls if c["name"] == "complete_task"]
    assert completed == [{"task_id": 11}]


def test_a_time_instead_of_another_moves_the_task_within_its_day() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("add an urgent tag to the grocery shopping one")
    exchange = talk.say("and make it 5 instead of 6, I want to get there before the rush")
    changed = [c["arguments"] for c in exchange.tool_calls if c["name"] == "update_task"]
    assert changed == [{"task_id": 1, "due": "2026-11-24T17:00"}]


def test_this_one_after_a_list_with_a_time_instead_of_another_is_no_rename() -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    talk.say("what I have tomorrow?")
    exchange = talk.say("this one, can you make it for 11 o'clock instead of 10")
    changed = [c["arguments"] for c in exchange.tool_calls if c["name"] == "update_task"]
    assert changed == [{"task_id": 10, "due": "2026-11-25T11:00"}]
