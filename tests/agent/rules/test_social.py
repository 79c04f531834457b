"""Small talk and other assistants' jobs (backend/agent/rules/social.py), through the engine."""

from __future__ import annotations

import pytest

from backend.agent.rules.intents import detect_intent
from backend.agent.rules.social import is_about_the_assistant, is_only_thanks_or_goodbye
from backend.agent.rules.types import Intent


@pytest.mark.parametrize(
    "said",
    [
        "just wanted to say this thing has genuinely changed my life, I used to write "
        "everything on the backs of receipts and then lose them in the wash",
        "amazing, honestly you're saving my sibling relationships at this point",
        "are you an actual person or a bot by the way? my mum is convinced someone's typing",
        "do you ever get sick of people asking you to remember milk haha",
        "cheers, have a good one",
        "why are you so slow today",
    ],
)
def test_talk_about_the_assistant_is_small_talk_never_a_task_or_another_job(said: str) -> None:
    assert detect_intent(said).intent is Intent.SOCIAL


@pytest.mark.parametrize(
    "said",
    [
        "do you have the date",
        "send sal a text and tell them thanks",
        "please play come as you are by nirvana",
        "do you have any elvis music",
    ],
)
def test_another_assistants_job_is_not_taken_for_talk_about_this_one(said: str) -> None:
    assert not is_about_the_assistant(said)


def test_only_thanks_or_goodbye_is_recognised_whole_not_inside_a_request() -> None:
    assert is_only_thanks_or_goodbye("ta")
    assert is_only_thanks_or_goodbye("thanks so much, bye for now!")
    assert not is_only_thanks_or_goodbye("thanks, now add milk")
