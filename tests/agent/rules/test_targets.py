"""Which task a request means when its words name none (backend/agent/rules/targets.py)."""

from __future__ import annotations

from typing import Any

from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def _tasks() -> list[dict[str, Any]]:
    return numbered_tasks("call mom", "email Sarah about the project", "paper towels", "milk")


def _done(conversation: Conversation) -> list[int]:
    return [int(t["id"]) for t in conversation.store.tasks if t["completed"]]


def test_a_statement_then_a_pronoun_means_the_task_asked_about_last() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("did I already call mom?")
    conversation.say("I literally just got off the phone with her, so you can tick that one off")
    assert _done(conversation) == [1]


def test_it_is_done_after_a_statement_means_the_task_talked_about() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("is emailing Sarah on my list?")
    conversation.say("I send the email to her already, so it is done.")
    assert _done(conversation) == [2]


def test_a_statement_with_nothing_talked_about_before_changes_nothing() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    reply = conversation.say("I literally just got off the phone, so you can tick that one off")
    assert _done(conversation) == []
    assert reply.meta.get("pending") is not None  # it asks instead of guessing


def test_an_aside_after_the_named_task_is_not_a_second_task() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("take the paper towels off, we switched to cloth ones")
    assert [t["id"] for t in conversation.store.tasks] == [1, 2, 4]


def test_a_story_told_in_two_statements_still_names_its_task() -> None:
    tasks = [*_tasks(), {"id": 5, "title": "book dentist appointment", "completed": False}]
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say("I was at the dentist office today and I make the appointment, so put it done")
    assert _done(conversation) == [5]


def test_when_and_how_it_was_done_do_not_hide_the_task() -> None:
    tasks = [*_tasks(), {"id": 5, "title": "clean the bathroom", "completed": False}]
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say(
        "also I did the bathroom last night while listening to a podcast, so check that off too"
    )
    assert _done(conversation) == [5]


def test_clearing_everything_never_deletes_a_task_named_by_part_of_a_word() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("remove all items from todo list")
    assert len(conversation.store.tasks) == len(_tasks())


def test_a_story_that_names_the_task_in_another_sentence_part_completes_it() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("just got back from the store, I grabbed the milk so cross that off")
    assert _done(conversation) == [4]


def test_the_other_request_of_a_message_is_never_read_as_the_target() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("take bread off my shopping list and add milk")
    assert [t["title"] for t in conversation.store.tasks] == [
        "call mom",
        "email Sarah about the project",
        "paper towels",
        "milk",
        "milk",
    ]


def test_things_bought_named_without_commas_are_each_completed() -> None:
    tasks = [*_tasks(), {"id": 5, "title": "eggs", "completed": False}]
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say("milk eggs paper towels all bought. tick them off")
    assert _done(conversation) == [3, 4, 5]


def test_a_task_named_in_the_sentence_comes_before_the_one_talked_about_last() -> None:
    tasks = [*_tasks(), {"id": 5, "title": "clean the bathroom", "completed": False}]
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say("mark the call mom one done")
    conversation.say("also I did the bathroom last night, so check that off too")
    assert _done(conversation) == [1, 5]


def test_a_statement_naming_no_task_never_completes_the_finished_task_again() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("finished the milk finally")
    exchange = conversation.say("and i emialed the new client this mornin")
    assert not any(call["name"] == "complete_task" for call in exchange.tool_calls)
    assert exchange.meta.get("pending") is not None
    assert _done(conversation) == [4]


def test_it_with_when_it_was_done_and_a_request_to_tick_it_is_the_task_talked_about() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("is the paper towels one still on there?")
    conversation.say("well I finished it like an hour ago actually so you can tick it")
    assert _done(conversation) == [3]


def test_rows_named_then_both_are_those_two_rows_and_nothing_else() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("a", "b", "c", "d", "e")))
    conversation.say("show me what is not done yet please")
    conversation.say("the second and the fourth, I finish both")
    assert _done(conversation) == [2, 4]


def test_both_with_nothing_to_point_at_asks_which() -> None:
    conversation = Conversation(FakeTaskStore(_tasks()))
    conversation.say("is call mom on there?")
    exchange = conversation.say("I finish both")
    assert _done(conversation) == []
    assert exchange.meta.get("pending") is not None


def test_the_state_a_message_ends_on_names_no_task() -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("finish Q4 report", "review report draft"))
    )
    conversation.say(
        "okay so my boss just pinged me about the report and honestly it's done, "
        "mark the report as finished"
    )
    assert _done(conversation) == []


def test_a_bare_task_number_with_done_completes_that_task() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks(*[f"task {n}" for n in range(1, 16)])))
    conversation.say("list")
    exchange = conversation.say("14 done")
    assert [c["name"] for c in exchange.tool_calls] == ["complete_task"]
    assert conversation.store.tasks[13]["completed"] is True


def test_a_number_inside_a_note_names_no_task() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "pick up the suit")))
    exchange = conversation.say("for the suit one, put a note on it: ticket number 4471")
    assert exchange.tool_calls[-1]["arguments"] == {
        "task_id": 2,
        "description": "ticket number 4471",
    }


def test_an_aside_after_marked_as_completed_is_not_the_task_named() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("renew passport", "call mom")))
    conversation.say(
        "I'd be grateful if you could mark the passport renewal as completed, "
        "the new one arrived today."
    )
    assert [t["completed"] for t in conversation.store.tasks] == [True, False]


def test_an_exception_after_marked_as_done_is_kept() -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("renew passport", "call mom", "pay rent"))
    )
    conversation.say("mark every pending task as done, with the exception of renewing the passport")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True, True]
