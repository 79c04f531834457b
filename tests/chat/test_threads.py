"""The fingerprints that lead an OpenAI client's history to its stored conversation
(backend/chat/threads.py): what makes two histories the same, and what never does."""

from __future__ import annotations

from backend.chat.threads import History
from backend.models import MessageRole

USER, ASSISTANT = MessageRole.USER, MessageRole.ASSISTANT


def test_a_history_through_a_reply_is_the_next_messages_history_before_it() -> None:
    before = History([(USER, "add buy milk")])
    through = before.through("delete that one", "I've deleted 'buy milk' from your list.")
    resent = History(
        [
            (USER, "add buy milk"),
            (USER, "delete that one"),
            (ASSISTANT, "I've deleted 'buy milk' from your list."),
        ]
    )
    assert resent.before == through
    assert before.before != through


def test_white_space_is_collapsed_and_nothing_else_is() -> None:
    said = History([(USER, "add buy milk"), (ASSISTANT, "Done.")]).before
    assert History([(USER, "  add\tbuy\n\nmilk "), (ASSISTANT, "Done. ")]).before == said
    assert History([(USER, "add buy Milk"), (ASSISTANT, "Done.")]).before != said
    assert History([(USER, "add buymilk"), (ASSISTANT, "Done.")]).before != said


def test_who_said_it_and_where_one_message_ends_count() -> None:
    one = History([(USER, "add buy milk")]).before
    assert History([(ASSISTANT, "add buy milk")]).before != one
    assert History([(USER, "add buy"), (USER, "milk")]).before != one
    assert (
        History([(USER, "add"), (USER, "buy milk")]).before
        != History([(USER, "add buy"), (USER, "milk")]).before
    )


def test_an_empty_history_is_empty_and_text_of_any_kind_reads() -> None:
    assert History([]).empty and not History([(USER, "hi")]).empty
    assert len(History([(USER, "half a pair \ud800"), (USER, "emoji 👍🏽")]).before) == 64
