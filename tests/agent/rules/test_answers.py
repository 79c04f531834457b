"""Answers to the assistant's open question (backend/agent/rules/answers.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.answers import yes_or_no
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks

TITLES = ("buy milk", "finish report", "call mom", "pay rent", "review report")


def _conversation(*titles: str) -> Conversation:
    return Conversation(FakeTaskStore(numbered_tasks(*titles)))


def _one_task(title: str) -> Conversation:
    return _conversation(title)


def _asked_which_report() -> Conversation:
    conversation = _conversation(*TITLES)
    asked = conversation.say("delete the report")
    assert "1. finish report (ID: 2)\n2. review report (ID: 5)" in asked.reply
    return conversation


def _titles(conversation: Conversation) -> list[str]:
    return [t["title"] for t in conversation.store.tasks]


def test_a_bare_number_that_is_both_a_position_and_a_shown_task_number_is_asked_about() -> None:
    conversation = _asked_which_report()
    exchange = conversation.say("2")
    assert exchange.tool_calls == []
    assert exchange.reply == (
        "Do you mean the second one in the list, 'review report', or task 2, 'finish report'? "
        "Say 'the second one' or 'task 2'."
    )
    assert _titles(conversation) == list(TITLES)


@pytest.mark.parametrize(
    ("answer", "deleted"), [("the second one", "review report"), ("task 2", "finish report")]
)
def test_the_question_stays_open_for_the_position_or_the_task_number(
    answer: str, deleted: str
) -> None:
    conversation = _asked_which_report()
    conversation.say("2")
    conversation.say(answer)
    assert deleted not in _titles(conversation)
    assert len(conversation.store.tasks) == 4


def test_a_bare_number_that_is_only_a_position_picks_that_listed_task() -> None:
    conversation = _asked_which_report()
    conversation.say("1")
    assert "finish report" not in _titles(conversation)


def test_a_bare_number_that_is_only_a_shown_task_number_picks_that_task() -> None:
    conversation = _asked_which_report()
    conversation.say("5")
    assert "review report" not in _titles(conversation)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("yep, put it on", True),
        ("Ah okay, then yes, add it please, I'd hate to come home without bread again.", True),
        ("well add it then", True),
        ("hey google sure put it on there", True),
        ("Yes, I am sure.", True),
        ("Hmm, no, wait. Not delete.", False),
        ("nah", False),
        ("yes but not now", False),
        ("add bread", None),  # a new request, not an answer
        ("then add get the car washed", None),
        ("what's on my list", None),
    ],
)
def test_a_yes_or_no_is_read_however_it_is_said(said: str, meant: bool | None) -> None:
    assert yes_or_no(said) is meant


def test_yes_to_the_offer_after_a_missed_lookup_adds_the_item_asked_about() -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say("is honey on there?")
    conversation.say("ya ad it pls")
    assert _titles(conversation) == ["honey"]


def test_and_after_a_lookup_asks_about_the_next_item_and_changes_nothing() -> None:
    conversation = _one_task("eggs")
    conversation.say("is bread on there?")
    answer = conversation.say("and eggs?")
    assert "eggs" in answer.reply.lower() and answer.meta["acts"] == ["query"]
    assert _titles(conversation) == ["eggs"]


@pytest.mark.parametrize("said", ["put it back", "bring it back", "olly put that back on"])
def test_put_it_back_after_a_delete_restores_the_task(said: str) -> None:
    conversation = _one_task("eggs")
    conversation.say("delete the eggs")
    assert _titles(conversation) == []
    conversation.say(said)
    assert _titles(conversation) == ["eggs"]


def test_a_clear_the_model_recognises_still_asks_before_deleting_anything() -> None:
    conversation = _one_task("eggs")
    asked = conversation.say("purge this whole list")
    assert asked.meta["pending"]["kind"] == "confirm_clear"
    assert _titles(conversation) == ["eggs"]
    conversation.say("Yes, I am sure.")
    assert _titles(conversation) == []


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("make the eggs one say a dozen eggs", "a dozen eggs"),
        ("Please change the eggs to be brown eggs.", "brown eggs"),
        ("the eggs task, new name is free range eggs", "free range eggs"),
        ("the new name for the eggs task should be 'quail eggs'", "quail eggs"),
        ("change eggs for free range eggs", "free range eggs"),
        ("the task for eggs to Sarah, please change it to 'eggs for Sarah'", "eggs for Sarah"),
        ("change eggs to something more specific, like eggs for the bbq", "eggs for the bbq"),
        ("ok google make eggs say eggs from the farm", "eggs from the farm"),
        ("for the eggs task please write the title 'brown eggs'", "brown eggs"),
    ],
)
def test_a_rename_is_understood_however_it_is_phrased(said: str, title: str) -> None:
    conversation = _one_task("eggs")
    conversation.say(said)
    assert _titles(conversation) == [title]


@pytest.mark.parametrize("said", ["I already water the plants this morning.", "plants watered"])
def test_a_completion_stated_in_passing_completes_the_task(said: str) -> None:
    conversation = Conversation(
        FakeTaskStore(
            [{"id": 1, "title": "Water the plants", "description": None, "completed": False}]
        )
    )
    conversation.say(said)
    assert conversation.store.tasks[0]["completed"] is True


def test_ok_followed_by_a_new_request_never_confirms_a_clear() -> None:
    conversation = _one_task("eggs")
    conversation.say("delete everything")
    shown = conversation.say("ok whatever, show my tasks")
    assert _titles(conversation) == ["eggs"]
    assert [c["name"] for c in shown.tool_calls] == ["list_tasks"]


@pytest.mark.parametrize(
    ("lookup", "then"),
    [
        ("did I already call mom?", "ok i just called her"),
        ("anything about mom?", "cross that off"),
        ("do i have anything about mom", "mark it done"),
        ("anything on there about mom?", "I just rang her, so mark it done"),
    ],
)
def test_after_a_lookup_it_and_her_mean_the_task_found(lookup: str, then: str) -> None:
    conversation = Conversation(
        FakeTaskStore(
            [
                {"id": 1, "title": "buy milk", "description": None, "completed": False},
                {"id": 2, "title": "call mom", "description": None, "completed": False},
            ]
        )
    )
    conversation.say(lookup)
    conversation.say(then)
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def _two_reports() -> Conversation:
    return Conversation(
        FakeTaskStore(
            [
                {"id": 1, "title": "finish report", "description": None, "completed": False},
                {"id": 2, "title": "review report", "description": None, "completed": False},
            ]
        )
    )


def test_no_the_other_one_after_a_choice_moves_the_change_to_the_other_task() -> None:
    conversation = _two_reports()
    conversation.say("complete the reprot")  # a misspelt title still finds both reports
    conversation.say("the first one")
    conversation.say("no, I meant the other one")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_a_position_with_its_name_after_a_comma_answers_which_one() -> None:
    conversation = _two_reports()
    conversation.say("rename the report to quarterly numbers")
    conversation.say("The second one, the review one.")
    assert _titles(conversation) == ["finish report", "quarterly numbers"]


def test_a_done_statement_asked_as_a_question_changes_nothing() -> None:
    conversation = _two_reports()
    asked = conversation.say("finished the report?")
    assert asked.meta["acts"] == ["query"]
    assert [t["completed"] for t in conversation.store.tasks] == [False, False]


def test_an_interjection_and_a_reason_around_a_delete_are_set_aside() -> None:
    conversation = _two_reports()
    conversation.say("Oh gosh, scratch the review report, my boss cancelled it.")
    assert _titles(conversation) == ["finish report"]


@pytest.mark.parametrize("said", ["love you too", "thank you too", "you too"])
def test_small_talk_with_too_after_an_add_adds_nothing(said: str) -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say("add milk")
    conversation.say(said)
    assert _titles(conversation) == ["milk"]


def test_one_more_item_said_with_too_and_a_condition_is_a_conditional_add() -> None:
    conversation = _one_task("bread")
    conversation.say("add milk if missing")
    conversation.say("bread too if missing")
    assert _titles(conversation) == ["bread", "milk"]


def test_show_them_after_a_count_of_completed_tasks_lists_the_completed_ones() -> None:
    conversation = _two_reports()
    conversation.say("complete task 1")
    conversation.say("May I ask how many tasks I have completed?")
    shown = conversation.say("Would you be so kind as to show them to me?")
    assert shown.tool_calls[0]["arguments"]["status"] == "completed"


@pytest.mark.parametrize(
    "said",
    [
        "Thank you. Now, would you please clear the entire list, every single item?",
        "Would you mind emptying it entirely?",
    ],
)
def test_a_clear_said_politely_still_asks_first(said: str) -> None:
    conversation = _two_reports()
    conversation.say("show my list")
    asked = conversation.say(said)
    assert asked.meta["pending"]["kind"] == "confirm_clear"
    assert len(conversation.store.tasks) == 2


def test_an_aside_after_a_done_statement_is_not_part_of_the_title() -> None:
    conversation = _two_reports()
    conversation.say("Good news, I've already finished the review report, and she loved it!")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_a_question_asked_through_a_polite_frame_looks_the_item_up() -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say("Could you tell me, please, whether sunscreen is on my list?")
    conversation.say("Yes, please add it. Thank you.")
    assert _titles(conversation) == ["sunscreen"]


@pytest.mark.parametrize(
    ("first", "then", "done"),
    [
        ("show my tasks", "The second row I do it already.", [False, True]),
        ("show my tasks", "Mark the first two like done.", [True, True]),
        ("show my tasks", "I am finish everything on my list.", [True, True]),
    ],
)
def test_non_native_phrasings_of_a_completion(first: str, then: str, done: list[bool]) -> None:
    conversation = _two_reports()
    conversation.say(first)
    conversation.say(then)
    assert [t["completed"] for t in conversation.store.tasks] == done


def test_sorry_you_can_put_it_back_undoes_the_delete() -> None:
    conversation = _two_reports()
    conversation.say("Please you delete the review report, I not need it.")
    assert _titles(conversation) == ["finish report"]
    conversation.say("Sorry, I make mistake, you can put it back?")
    assert sorted(_titles(conversation)) == ["finish report", "review report"]


def test_it_in_a_sentence_names_the_task_of_the_sentence_before() -> None:
    conversation = _two_reports()
    conversation.say("complete task 2")
    conversation.say(
        "I am afraid the review report has not been finished after all. "
        "Could you mark it as not done?"
    )
    assert [t["completed"] for t in conversation.store.tasks] == [False, False]


def test_sorry_i_did_not_finish_that_reopens_the_task_just_completed() -> None:
    conversation = _two_reports()
    conversation.say("mark the review report as complete")
    conversation.say("I am terribly sorry, I did not actually finish that. Could you reopen it?")
    assert [t["completed"] for t in conversation.store.tasks] == [False, False]


def test_no_the_other_one_after_deleting_one_of_two_restores_it_and_deletes_the_other() -> None:
    conversation = _two_reports()
    conversation.say("delete the report")
    conversation.say("the first one")
    conversation.say("no, the other one")
    assert _titles(conversation) == ["finish report"]


def test_a_delete_only_the_model_reads_asks_before_deleting_the_task_it_found() -> None:
    conversation = _one_task("eggs")
    asked = conversation.say("move buying eggs item to trash from to do list")
    assert asked.reply == "Do you want me to delete 'eggs'?"
    assert asked.meta["pending"] == {
        "kind": "confirm_task",
        "tool": "delete_task",
        "task_id": 1,
        "title": "eggs",
    }
    assert _titles(conversation) == ["eggs"]
    done = conversation.say("yes")
    assert done.reply == "I've deleted 'eggs' from your list."
    assert _titles(conversation) == []


def test_no_to_the_confirmation_keeps_the_task() -> None:
    conversation = _one_task("eggs")
    conversation.say("move buying eggs item to trash from to do list")
    kept = conversation.say("no")
    assert kept.tool_calls == []
    assert _titles(conversation) == ["eggs"]


def test_a_change_only_the_model_reads_names_a_missing_task_and_changes_nothing() -> None:
    conversation = _one_task("eggs")
    asked = conversation.say("can you take frozen food of my shopping list")
    assert asked.reply.startswith("I couldn't find a task matching 'frozen food'.")
    assert asked.meta["acts"] == ["delete"]
    assert _titles(conversation) == ["eggs"]


def test_a_change_only_the_model_reads_without_a_named_task_asks_which() -> None:
    conversation = _one_task("take out the recycling")
    asked = conversation.say(
        "i just finished taking out my recycling, so cross that off my to do list"
    )
    assert asked.meta["pending"]["kind"] == "ask_task"
    assert conversation.store.tasks[0]["completed"] is False


def test_a_yes_that_asks_for_the_full_list_shows_all_tasks() -> None:
    conversation = _one_task("eggs")
    conversation.say("remove yoga class")  # not there: "Would you like to see your tasks?"
    shown = conversation.say("ok then show me full list")
    assert shown.tool_calls[0]["arguments"]["status"] == "all"


def test_a_done_statement_asked_with_or_not_yet_changes_nothing() -> None:
    conversation = _one_task("email sarah about the project")
    exchange = conversation.say("I did already write the email to Sarah or not yet?")
    assert exchange.meta["acts"] == ["query"]
    assert conversation.store.tasks[0]["completed"] is False


def test_a_topic_question_shows_every_match_and_both_of_them_means_those() -> None:
    conversation = _conversation(*TITLES)
    found = conversation.say("anything about the report?")
    assert "2. finish report" in found.reply and "5. review report" in found.reply
    conversation.say("mark both of them done")
    done = [t["title"] for t in conversation.store.tasks if t["completed"]]
    assert done == ["finish report", "review report"]


def test_a_bare_item_with_a_question_mark_after_a_lookup_is_looked_up_too() -> None:
    conversation = _one_task("eggs")
    conversation.say("eggs on my list?")
    asked = conversation.say("bread?")
    assert asked.meta["acts"] == ["query"]
    assert asked.reply.startswith("No, I don't see 'bread' on your list.")
    assert _titles(conversation) == ["eggs"]


def test_yes_said_with_emphasis_confirms_the_clear() -> None:
    conversation = _conversation(*TITLES)
    conversation.say("delete everything")
    conversation.say("yes obviously")
    assert _titles(conversation) == []


def test_an_apologetic_no_that_names_one_task_deletes_only_that_task() -> None:
    conversation = _conversation(*TITLES)
    conversation.say("clear my whole list please")
    conversation.say("Actually no, sorry, just the pay rent one")
    assert _titles(conversation) == ["buy milk", "finish report", "call mom", "review report"]


def test_no_just_the_finished_ones_asks_again_before_clearing_the_completed_tasks() -> None:
    conversation = _conversation(*TITLES)
    conversation.say("call mom done")
    conversation.say("clear my list")
    asked = conversation.say("Alexa, no, just the finished ones")
    assert len(conversation.store.tasks) == len(TITLES)
    assert asked.meta["pending"]["kind"] == "confirm_clear"
    conversation.say("yes")
    assert _titles(conversation) == ["buy milk", "finish report", "pay rent", "review report"]


def test_actually_show_me_the_list_is_never_a_yes_to_a_clear() -> None:
    conversation = _conversation(*TITLES)
    conversation.say("clear my list")
    conversation.say("actually show me the list")
    assert len(conversation.store.tasks) == len(TITLES)


def test_the_list_named_alone_is_shown_never_asked_to_be_cleared() -> None:
    conversation = _conversation(*TITLES)
    shown = conversation.say("todo list")
    assert [c["name"] for c in shown.tool_calls] == ["list_tasks"]
    assert shown.meta.get("pending") is None


def test_show_me_with_nothing_else_named_shows_the_list() -> None:
    conversation = _conversation(*TITLES)
    shown = conversation.say("now show me")
    assert [c["name"] for c in shown.tool_calls] == ["list_tasks"]


@pytest.mark.parametrize(
    ("asked", "then"),
    [
        (
            "hey, quick question before I head to the store. did I already put bread on there?",
            "yeah go ahead and add it then, we're completely out",
        ),
        (
            "Quick question before I head to the shops, is bread already on there?",
            "Ah okay, then yes, add it please, I'd hate to come home without bread again.",
        ),
        ("ok. and bread, I have it in the list?", "no? then put it please"),
        ("do i hav bread on my lsit", "ok ad it then"),
    ],
)
def test_yes_after_asking_about_an_item_adds_that_item(asked: str, then: str) -> None:
    conversation = _conversation(*TITLES)
    conversation.say(asked)
    conversation.say(then)
    assert _titles(conversation)[-1] == "bread"


@pytest.mark.parametrize(
    "asked",
    ["what does the note on my rent one say again?", "The rent, what is the note I write for it?"],
)
def test_asking_what_a_note_says_reads_it_out(asked: str) -> None:
    conversation = Conversation(
        FakeTaskStore(
            [{"id": 1, "title": "pay rent", "description": "before the 5th", "completed": False}]
        )
    )
    reply = conversation.say(asked)
    assert "before the 5th" in reply.reply
    assert [c["name"] for c in reply.tool_calls] == ["list_tasks"]


def test_no_then_just_the_stuff_already_finished_asks_about_the_completed_ones() -> None:
    conversation = _conversation(*TITLES)
    conversation.say("call mom done")
    conversation.say("can you delete everything?")
    asked = conversation.say("hmm actually wait, no, just get rid of the stuff I already finished")
    assert asked.meta["pending"]["status"] == "completed"
    assert all(not t["completed"] for t in conversation.store.tasks if t["title"] != "call mom")


@pytest.mark.parametrize(
    "answer", ["Oh, I must be mistaken. In that case, could you please add it?", "add it then"]
)
def test_add_it_after_a_removal_found_nothing_adds_what_was_not_there(answer: str) -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk")))
    conversation.say("Would you kindly remove 'buy stamps' from my list?")
    exchange = conversation.say(answer)
    assert [c["arguments"]["title"] for c in exchange.tool_calls] == ["buy stamps"]
    assert "be mistaken" not in [t["title"] for t in conversation.store.tasks]


def test_yes_show_me_the_list_to_the_offer_shows_the_whole_list() -> None:
    tasks = numbered_tasks("milk", "eggs")
    tasks[1]["completed"] = True
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say("delete the yoga class")
    exchange = conversation.say("yeah show me the list")
    assert exchange.tool_calls[-1]["arguments"]["status"] == "all"


def test_no_thanks_to_an_offer_is_a_reply_in_kind_that_changes_nothing() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk")))
    conversation.say("is bread on there?")
    exchange = conversation.say("no thanks")
    assert exchange.meta["acts"] == ["social"]
    assert [c["name"] for c in exchange.tool_calls] == []


@pytest.mark.parametrize(
    "answer",
    ["make it water the orchids", "change it to: water the orchids", "make that water the orchids"],
)
def test_make_it_x_answers_what_to_change_with_the_new_title(answer: str) -> None:
    conversation = _conversation("buy milk", "water the plants")
    asked = conversation.say("i want to change the plants task")
    assert asked.meta["pending"]["kind"] == "ask_fields"
    conversation.say(answer)
    assert _titles(conversation) == ["buy milk", "water the orchids"]


def test_a_second_request_after_what_to_change_is_not_taken_as_the_new_title() -> None:
    conversation = _conversation("buy milk", "water the plants", "book dentist")
    conversation.say("i want to change the plants task")
    conversation.say("and the dentist you can delete")
    assert "water the plants" in _titles(conversation)
    assert "and the dentist you can delete" not in [t.lower() for t in _titles(conversation)]


def test_which_one_is_answered_by_the_first_part_when_the_rest_sets_the_other_aside() -> None:
    conversation = _asked_which_report()
    conversation.say("the finish one, the review is tomorrow's problem")
    done = [t["title"] for t in conversation.store.tasks if t["completed"]]
    assert done == []  # a delete was asked: the finish report is gone, the review stays
    assert _titles(conversation) == ["buy milk", "call mom", "pay rent", "review report"]


def test_put_that_on_too_never_adds_a_task_named_on() -> None:
    conversation = _conversation("buy milk")
    conversation.say("add give the dog a bath")
    conversation.say("and then put that on too")
    assert "on" not in [t.lower() for t in _titles(conversation)]


def test_yes_all_of_them_confirms_a_clear() -> None:
    conversation = _conversation(*TITLES)
    conversation.say("please remove all my tasks, everything, i start new")
    conversation.say("yes, all of them")
    assert _titles(conversation) == []


def test_yes_to_an_offer_with_one_more_thing_adds_both() -> None:
    conversation = _conversation("buy milk")
    conversation.say("did i ever put buter on the list")
    conversation.say("ok add it, and bred too")
    assert _titles(conversation) == ["buy milk", "buter", "bred"]
