"""A list request narrowed by a list or a tag the user keeps, read against their own lists
(backend/agent/rules/named_filters.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.named_filters import words_beyond_asking
from backend.agent.rules.steps import LOOKUP_LIMIT, SHOW_LIMIT
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start


def _shown(message: str) -> dict[str, object]:
    """The arguments of the list the reply shows (a look-up of the lists may come first)."""
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    calls = [c["arguments"] for c in talk.say(message).tool_calls if c["name"] == "list_tasks"]
    shown = [a for a in calls if a.get("limit") == SHOW_LIMIT]
    assert len(shown) == 1, calls
    return shown[0]


@pytest.mark.parametrize(
    ("message", "narrowed"),
    [
        ("work stuff?", {"list": "Work"}),
        ("show me my work stuff 💼", {"list": "Work"}),
        ("thx. whats on work now", {"list": "Work"}),
        ("whats left on groceries", {"list": "Groceries"}),
        ("May I see my groceries list, please?", {"list": "Groceries"}),
        # the user keeps no Shopping list: the shopping list is their Groceries
        ("What's on the shopping list?", {"list": "Groceries"}),
        ("whats on my wrok list", {"list": "Work"}),  # a typing slip
        ("show errand tagged", {"tag": "errand"}),
        # said as a tag, the tag, though a list has the name too
        ("Please show me all tasks tagged 'work'.", {"tag": "work"}),
    ],
)
def test_a_list_or_tag_named_in_a_list_request_narrows_what_is_shown(
    message: str, narrowed: dict[str, str]
) -> None:
    shown = _shown(message)
    assert {k: v for k, v in shown.items() if k in ("list", "tag")} == narrowed


def test_words_naming_no_list_or_tag_show_the_list_as_asked() -> None:
    shown = _shown("show me everything for the party")
    assert "list" not in shown and "tag" not in shown


@pytest.mark.parametrize(
    "message",
    ["show my tasks", "what's left", "Would you be so kind as to show them to me?"],
)
def test_a_list_request_naming_nothing_more_reads_no_lists_first(message: str) -> None:
    assert words_beyond_asking(message) == ()
    talk = Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)
    limits = [c["arguments"].get("limit") for c in talk.say(message).tool_calls]
    assert LOOKUP_LIMIT not in limits
