"""Which steps a detected request becomes (backend/agent/rules/builders.py)."""

from __future__ import annotations

from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def _conversation() -> Conversation:
    tasks = numbered_tasks("call mom", "renew passport", "milk")
    tasks[1]["description"] = "expires in March"
    tasks[2]["completed"] = True
    return Conversation(FakeTaskStore(tasks))


def test_a_note_asked_about_by_pronoun_is_read_from_the_task_talked_about() -> None:
    conversation = _conversation()
    conversation.say("is the passport on there?")
    exchange = conversation.say("what does the note on it say exactly, I know I wrote something")
    assert "expires in March" in exchange.reply
    assert exchange.tool_calls[0]["name"] == "list_tasks"
    assert all(call["name"] == "list_tasks" for call in exchange.tool_calls)


def test_which_ones_after_a_count_of_finished_tasks_lists_the_finished_ones() -> None:
    conversation = _conversation()
    conversation.say("and how many is done?")
    exchange = conversation.say("which ones?")
    assert exchange.tool_calls[-1]["arguments"]["status"] == "completed"
    assert "milk" in exchange.reply and "call mom" not in exchange.reply


def test_all_of_them_after_a_count_shows_every_task() -> None:
    conversation = _conversation()
    conversation.say("how many things I have in my list?")
    exchange = conversation.say("ok, show me all of them please")
    assert exchange.tool_calls[-1]["arguments"]["status"] == "all"
