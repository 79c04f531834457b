"""Acting on a task named by title (backend/agent/rules/task_actions.py)."""

from __future__ import annotations

from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def _conversation() -> Conversation:
    return Conversation(
        FakeTaskStore(numbered_tasks("email Sarah about the project", "pay electricity bill"))
    )


def test_a_deletion_named_only_by_likeness_is_asked_first_and_done_on_yes() -> None:
    conversation = _conversation()
    asked = conversation.say("delete email john")
    assert asked.tool_calls[-1]["name"] == "list_tasks"
    assert asked.reply == "Do you want me to delete 'email Sarah about the project'?"
    assert len(conversation.store.tasks) == 2
    conversation.say("yes")
    assert [t["title"] for t in conversation.store.tasks] == ["pay electricity bill"]


def test_a_deletion_asked_first_and_refused_deletes_nothing() -> None:
    conversation = _conversation()
    conversation.say("remove pay water bill")
    conversation.say("no")
    assert len(conversation.store.tasks) == 2


def test_a_deletion_named_plainly_is_done_at_once() -> None:
    conversation = _conversation()
    conversation.say("delete the electricity bill")
    assert [t["title"] for t in conversation.store.tasks] == ["email Sarah about the project"]
