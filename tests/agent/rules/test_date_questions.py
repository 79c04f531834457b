"""Questions about when (date_questions.py): each row's examples are read by that row and no
earlier one, its not-examples by none of them, and the engine shows the tasks due then."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from backend.agent.rules.date_questions import ROWS, date_filters
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)  # a Tuesday


def _first_row(text: str) -> str | None:
    for row in ROWS:
        if row.pattern.search(text) and date_filters(text, NOW) is not None:
            return row.name
    return None


@pytest.mark.parametrize(
    ("row", "example"), [(row.name, example) for row in ROWS for example in row.examples]
)
def test_a_row_reads_its_examples_before_any_other_row(row: str, example: str) -> None:
    assert date_filters(example, NOW) is not None, example
    assert _first_row(example) == row


@pytest.mark.parametrize("text", [text for row in ROWS for text in row.not_examples])
def test_a_row_leaves_its_not_examples_alone(text: str) -> None:
    assert date_filters(text, NOW) is None


@pytest.mark.parametrize(
    ("question", "filters"),
    [
        ("anything for tomorrow?", {"due": "tomorrow"}),
        ("what's happening Thursday", {"due_from": "2026-11-26", "due_to": "2026-11-26"}),
        ("have I fallen behind?", {"due": "overdue"}),
        ("what's next?", {"due": "next_7_days"}),
        ("anything due before friday?", {"due_from": "2026-11-24", "due_to": "2026-11-26"}),
        ("what do I have to do by friday", {"due_from": "2026-11-24", "due_to": "2026-11-27"}),
        ("just today's?", {"due": "today"}),
        ("what's on this weekend", {"due_from": "2026-11-28", "due_to": "2026-11-29"}),
        ("anything next week", {"due_from": "2026-11-30", "due_to": "2026-12-06"}),
        ("can you tell me what's on friday", {"due_from": "2026-11-27", "due_to": "2026-11-27"}),
    ],
)
def test_a_date_question_gives_the_period_it_asks_about(
    question: str, filters: dict[str, str]
) -> None:
    assert date_filters(question, NOW) == filters


@pytest.mark.parametrize(
    ("question", "filters"),
    [
        # a short fragment that narrows the period: "?", or a leading "and" / "just" / "only"
        ("due today?", {"due": "today"}),
        ("overdue?", {"due": "overdue"}),
        ("and sun?", {"due_from": "2026-11-29", "due_to": "2026-11-29"}),
        ("and today. quick", {"due": "today"}),
        ("tomorrow?", {"due": "tomorrow"}),
        ("📅 today?", {"due": "today"}),
        # non-native and texting forms of asking
        ("what I have tomorrow?", {"due": "tomorrow"}),
        ("wat do i hav today", {"due": "today"}),
        ("what I have to do on friday?", {"due_from": "2026-11-27", "due_to": "2026-11-27"}),
        # ranges, both days inclusive
        (
            "What've I got on between now and Friday?",
            {"due_from": "2026-11-24", "due_to": "2026-11-27"},
        ),
        (
            "Which tasks are due between Thursday and Saturday, inclusive?",
            {"due_from": "2026-11-26", "due_to": "2026-11-28"},
        ),
        # fillers and politeness around the period
        (
            "Is there anything due before Thursday that I ought to be aware of?",
            {"due_from": "2026-11-24", "due_to": "2026-11-25"},
        ),
        ("AND WHAT'S ON FOR TOMORROW NOW", {"due": "tomorrow"}),
        ("show me what I've still got to do this week", {"due": "this_week"}),
        (
            "Could you show me everything that's due this Thursday, please?",
            {"due_from": "2026-11-26", "due_to": "2026-11-26"},
        ),
        ("so what's coming up for me in the next week or so?", {"due": "next_7_days"}),
        ("wat stuff have i got with no date on it", {"due": "no_date"}),
        # the period said straight after "what's", a word of the plans between
        ("what's tomorrow look like", {"due": "tomorrow"}),
        ("what else is on friday", {"due_from": "2026-11-27", "due_to": "2026-11-27"}),
        ("WHAT AM I BEHIND ON", {"due": "overdue"}),
        ("what's on the go this week?", {"due": "this_week"}),
        (
            "Would you kindly tell me what I have scheduled for Thursday?",
            {"due_from": "2026-11-26", "due_to": "2026-11-26"},
        ),
    ],
)
def test_a_date_question_is_read_however_it_asks_and_whatever_fillers_it_has(
    question: str, filters: dict[str, str]
) -> None:
    assert date_filters(question, NOW) == filters


@pytest.mark.parametrize(
    "not_a_date_question",
    [
        "what's the weather tomorrow",
        "what's on my calendar friday",
        "tell me what day today is",
        "what is the name of the 13th president",
        "what's on your mind today",
        "am i free on sunday between two and four",
        "what did I finish today",
        "what's on my to do list today",
        "add call mom tomorrow",
        "move the dentist to friday",
        # a bare period is an answer, not a question, unless it asks or narrows
        "tomorrow",
        "friday at 5",
        "I'll be late tonight?",
        "what is today",
        "what's on my schedule friday",  # the calendar's
        "the meeting between monday and friday?",
        "tomorrow? no, add it for friday",
        "and buy milk tomorrow",
    ],
)
def test_other_questions_and_changes_are_no_date_question(not_a_date_question: str) -> None:
    assert date_filters(not_a_date_question, NOW) is None


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("anything for tomorrow?", [10]),
        ("what's happening Thursday", [4, 9]),
        ("have I fallen behind?", [6]),
        ("anything due before friday?", [1, 2, 4, 9, 10]),
    ],
)
def test_a_date_question_shows_the_pending_tasks_due_then_and_changes_nothing(
    question: str, shown: list[int]
) -> None:
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    before = [dict(t) for t in talk.store.tasks]
    exchange = talk.say(question)
    assert exchange.meta.get("listed") == shown
    assert talk.store.tasks == before
