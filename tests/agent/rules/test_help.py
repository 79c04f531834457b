"""The help reply teaches what the assistant does, one example each, and every example works."""

from __future__ import annotations

from backend.agent.rules import replies
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY

# What each example must do when said, in the help's order, to a new account's empty list.
_DOES = {
    "Add": [("add_task", {"title": "call mom", "due": "2026-11-25T09:00"})],
    "Dates": [("list_tasks", {"status": "pending", "limit": 51, "due": "this_week"})],
    "Lists": [("add_task", {"title": "milk", "list": "Shopping"})],
    "Tags": [("update_task", {"task_id": 1, "add_tags": ["family"]})],
    "Repeats": [("add_task", {"title": "water the plants", "repeat": "FREQ=WEEKLY;BYDAY=MO"})],
    "Reminders": [("update_task", {"task_id": 1, "remind_before": 60})],
    "Priority": [("update_task", {"task_id": 1, "priority": "high"})],
    "Done": [("complete_task", {"task_id": 1})],
    "Undo": [("update_task", {"task_id": 1, "completed": False})],
}


def test_help_names_dates_lists_tags_repeats_reminders_and_undo_with_an_example_each() -> None:
    said = Conversation(FakeTaskStore([], TODAY), now=CLOCK).say("what can you do?")
    assert said.tool_calls == []
    for what in ("Dates", "Lists", "Tags", "Repeats", "Reminders", "Undo"):
        assert f"• {what}: '" in said.reply
    assert len(said.reply) < 1000


def test_every_example_in_the_help_does_what_it_says() -> None:
    conversation = Conversation(FakeTaskStore([], TODAY), now=CLOCK)
    assert [what for what, _ in replies.HELP_EXAMPLES] == list(_DOES)
    for what, example in replies.HELP_EXAMPLES:
        exchange = conversation.say(example)
        changed = [
            (call["name"], {k: call["arguments"][k] for k in wanted if k in call["arguments"]})
            for call in exchange.tool_calls
            if call["name"] != "list_tasks" or "query" not in call["arguments"]
            for name, wanted in _DOES[what]
            if call["name"] == name
        ]
        assert changed == _DOES[what], (example, exchange.tool_calls)
