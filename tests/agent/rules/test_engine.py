"""The engine as pure functions: a plan replays the same outcomes to the same next step."""

from __future__ import annotations

import pytest

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.engine import FinalReply, advance, interpret
from backend.agent.rules.types import ToolCall, ToolOutcome, Turn
from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks

EMPTY = ConversationContext()


def run(message: str, outcomes: list[ToolOutcome], context: ConversationContext = EMPTY) -> object:
    return advance(interpret(message, context), outcomes)


def test_add_calls_add_task_then_confirms() -> None:
    first = run("Add buy groceries", [])
    assert first == ToolCall("add_task", {"title": "buy groceries"})
    assert isinstance(first, ToolCall)
    added = ToolOutcome(first, {"task_id": 5, "title": "buy groceries"})
    reply = run("Add buy groceries", [added])
    assert isinstance(reply, FinalReply)
    assert reply.text == "I've added 'buy groceries' to your list."
    assert reply.meta["focus"] == 5
    assert reply.meta["intents"] == ["create_task"]


def test_a_similar_pending_task_seen_in_the_conversation_gets_a_note() -> None:
    history = [
        Turn("user", "add buy groceries"),
        Turn(
            "assistant",
            "I've added 'buy groceries' to your list.",
            [
                {
                    "name": "add_task",
                    "arguments": {"title": "buy groceries"},
                    "result": {"task_id": 1, "status": "created", "title": "buy groceries"},
                }
            ],
            {"focus": 1},
        ),
    ]
    context = ConversationContext.from_turns(history)
    added = ToolOutcome(
        ToolCall("add_task", {"title": "buy milk"}), {"task_id": 2, "title": "buy milk"}
    )
    reply = run("add buy milk", [added], context)
    assert isinstance(reply, FinalReply)
    assert (
        reply.text == "I've added 'buy milk' to your list. (You also have 'buy groceries' pending.)"
    )


def test_the_third_add_in_a_row_counts_pending_tasks_for_a_nudge() -> None:
    history: list[Turn] = []
    for number, title in enumerate(["a one", "b two"], start=1):
        history += [
            Turn("user", f"add {title}"),
            Turn(
                "assistant",
                "ok",
                [
                    {
                        "name": "add_task",
                        "arguments": {"title": title},
                        "result": {"task_id": number, "title": title},
                    }
                ],
            ),
        ]
    context = ConversationContext.from_turns(history)
    added = ToolOutcome(
        ToolCall("add_task", {"title": "c three"}), {"task_id": 3, "title": "c three"}
    )
    lookup = run("add c three", [added], context)
    assert lookup == ToolCall("list_tasks", {"status": "pending", "limit": 1000})
    assert isinstance(lookup, ToolCall)
    pending = [{"id": n, "title": t} for n, t in [(1, "a one"), (2, "b two"), (3, "c three")]]
    reply = run("add c three", [added, ToolOutcome(lookup, pending)], context)
    assert isinstance(reply, FinalReply)
    assert reply.text == (
        "I've added 'c three'. You now have 3 pending tasks. Ready to tackle one?"
    )


def test_replaying_the_same_outcomes_gives_the_same_answer() -> None:
    call = ToolCall("list_tasks", {"status": "all", "limit": 51})
    outcome = ToolOutcome(call, [{"id": 1, "title": "a", "completed": True}])
    assert run("show my tasks", [outcome]) == run("show my tasks", [outcome])


def test_a_compound_message_chains_steps_in_order() -> None:
    message = "add buy milk and show me all tasks"
    add = run(message, [])
    assert add == ToolCall("add_task", {"title": "buy milk"})
    added = ToolOutcome(
        ToolCall("add_task", {"title": "buy milk"}), {"task_id": 1, "title": "buy milk"}
    )
    listing = run(message, [added])
    assert listing == ToolCall("list_tasks", {"status": "all", "limit": 51})
    listed = ToolOutcome(
        ToolCall("list_tasks", {"status": "all", "limit": 51}),
        [
            {"id": 1, "title": "buy milk", "completed": False},
            {"id": 2, "title": "call mom", "completed": False},
        ],
    )
    reply = run(message, [added, listed])
    assert isinstance(reply, FinalReply)
    assert reply.text == (
        "I've added 'buy milk' to your list. Here are all your tasks:\n1. buy milk\n2. call mom"
    )


def test_a_failed_step_stops_the_chain() -> None:
    message = "delete task 3 and show my tasks"
    failed = ToolOutcome(ToolCall("delete_task", {"task_id": 3}), error="Task 3 not found")
    reply = run(message, [failed])
    assert isinstance(reply, FinalReply)
    assert reply.text == "I couldn't find task 3. Would you like to see your current tasks?"
    assert reply.meta["pending"] == {"kind": "offer_list"}


def test_a_system_error_never_shows_internals() -> None:
    failed = ToolOutcome(ToolCall("add_task", {"title": "x"}), error="connection refused on 5432")
    reply = run("add x", [failed])
    assert isinstance(reply, FinalReply)
    assert reply.text == "Sorry, I encountered an issue. Please try again in a moment."


def test_it_resolves_to_the_last_task_mentioned() -> None:
    history = [
        Turn("user", "add buy groceries"),
        Turn("assistant", "I've added 'Buy groceries' to your list.", meta={"focus": 5}),
    ]
    context = ConversationContext.from_turns(history)
    assert run("mark it as done", [], context) == ToolCall("complete_task", {"task_id": 5})


def test_it_without_context_asks_which_task() -> None:
    reply = run("delete it", [])
    assert isinstance(reply, FinalReply)
    assert (
        reply.text == "Which task would you like to delete? You can say the task number or title."
    )
    assert reply.meta["pending"] == {"kind": "ask_task", "tool": "delete_task", "fields": {}}


def test_update_with_no_fields_asks_what_to_change() -> None:
    reply = run("update task 3", [])
    assert isinstance(reply, FinalReply)
    assert reply.text == (
        "What would you like to change about task 3? You can update the title or description."
    )


def test_update_title_and_description_together() -> None:
    message = (
        "Change task 3 title to 'Call mom tonight' and add description 'Ask about weekend plans'"
    )
    assert run(message, []) == ToolCall(
        "update_task",
        {"task_id": 3, "title": "Call mom tonight", "description": "Ask about weekend plans"},
    )


# --- "it" later in the same message as an add: the task just added (Rule 3) --------------


def _conversation(*titles: str) -> Conversation:
    return Conversation(FakeTaskStore(numbered_tasks(*titles)))


def test_it_after_an_add_in_the_same_message_is_the_new_task_not_the_one_in_focus() -> None:
    conversation = _conversation("buy milk", "call mom")
    conversation.say("show my tasks")
    exchange = conversation.say("add feed fish and then delete it")
    assert exchange.reply == (
        "I've added 'feed fish' to your list. I've deleted 'feed fish' from your list."
    )
    assert [t["title"] for t in conversation.store.tasks] == ["buy milk", "call mom"]


def test_a_sentence_after_an_add_can_complete_the_new_task() -> None:
    conversation = _conversation("buy milk", "call mom")
    conversation.say("complete task 2")
    conversation.say("add pay rent. mark it as done")
    assert conversation.store.tasks[-1] == {
        "id": 3,
        "title": "pay rent",
        "description": None,
        "completed": True,
    }


def test_add_then_comma_mark_it_done_adds_and_completes() -> None:
    conversation = _conversation()
    exchange = conversation.say("Add walk the dog, mark it done")
    assert [c["name"] for c in exchange.tool_calls] == ["add_task", "complete_task"]
    assert conversation.store.tasks[0]["completed"] is True


def test_a_statement_then_mark_it_done_still_completes_the_named_task() -> None:
    conversation = _conversation("walk the dog")
    exchange = conversation.say("I walked the dog, mark it done")
    assert [c["name"] for c in exchange.tool_calls] == ["list_tasks", "complete_task"]
    assert len(conversation.store.tasks) == 1


def test_an_add_then_rename_it_renames_the_new_task() -> None:
    conversation = _conversation("x")
    conversation.say("add buy milk and rename it to buy oat milk")
    assert conversation.store.tasks[-1]["title"] == "buy oat milk"


def test_a_list_then_another_request_puts_the_next_sentence_on_its_own_line() -> None:
    conversation = _conversation("buy milk", "call mom")
    reply = conversation.say("show my tasks\ncomplete task 1").reply
    assert reply == (
        "Here are all your tasks:\n1. buy milk\n2. call mom\n"
        "Great job! I've marked 'buy milk' as complete."
    )


def test_an_add_after_a_delete_in_the_same_message_names_no_task_just_deleted() -> None:
    conversation = _conversation("buy milk", "call mom")
    conversation.say("show my tasks")
    reply = conversation.say("Delete call mom and add call dad").reply
    assert reply == "I've deleted 'call mom' from your list. I've added 'call dad' to your list."


def test_three_or_more_adds_in_one_message_are_summed_up_in_one_sentence() -> None:
    conversation = _conversation()
    reply = conversation.say("add these:\n- eggs\n- bread\n- jam").reply
    assert reply == "I've added 3 tasks to your list: 'eggs', 'bread' and 'jam'."


def test_two_adds_keep_a_sentence_each() -> None:
    reply = _conversation().say("add eggs and add bread").reply
    assert reply == "I've added 'eggs' to your list. I've added 'bread' to your list."


def test_add_it_after_a_question_adds_the_item_asked_about() -> None:
    conversation = _conversation("buy milk")
    conversation.say("Is bread on my list, by any chance?")
    conversation.say("Ah. Then would you be so kind as to add it?")
    assert [t["title"] for t in conversation.store.tasks] == ["buy milk", "bread"]


def test_add_it_with_nothing_talked_about_asks_instead_of_adding_it() -> None:
    conversation = _conversation("buy milk")
    exchange = conversation.say("add it")
    assert exchange.meta["pending"] == {"kind": "ask_title"}
    assert [t["title"] for t in conversation.store.tasks] == ["buy milk"]


def test_a_statement_then_a_pronoun_command_acts_on_the_task_it_mentions() -> None:
    conversation = _conversation("buy milk", "call mom")
    conversation.say(
        "I finally called my mom last night, we talked for hours about her garden, "
        "so you can tick that one off"
    )
    assert conversation.store.tasks[1]["completed"] is True
    assert conversation.store.tasks[0]["completed"] is False


def test_mark_them_after_naming_two_positions_completes_only_those_two() -> None:
    conversation = _conversation("buy milk", "call mom", "pay rent", "walk dog", "feed cat")
    conversation.say("what's left")
    conversation.say("3rd and 4th are done. mark them.")
    assert [t["completed"] for t in conversation.store.tasks] == [False, False, True, True, False]


def test_a_request_inside_a_long_story_is_carried_out() -> None:
    conversation = _conversation("buy milk")
    conversation.say("Tomorrow I cook for my friends, so please add rice, chicken and onions")
    assert [t["title"] for t in conversation.store.tasks] == [
        "buy milk",
        "rice",
        "chicken",
        "onions",
    ]


def test_a_pronoun_with_filler_around_it_names_the_task_in_focus() -> None:
    conversation = _conversation("buy milk", "renew library books")
    conversation.say("is renew library books on there?")
    conversation.say("done w/ it")
    assert conversation.store.tasks[1]["completed"] is True
    assert conversation.store.tasks[0]["completed"] is False


def test_a_reason_after_the_target_is_not_a_second_target() -> None:
    conversation = _conversation("tape", "scissors")
    exchange = conversation.say("drop the scissors, have those")
    assert [t["title"] for t in conversation.store.tasks] == ["tape"]
    assert exchange.reply == "I've deleted 'scissors' from your list."


def test_make_it_back_like_before_undoes_a_rename() -> None:
    conversation = _conversation("milk")
    conversation.say("Change the milk to soy milk please")
    conversation.say("Ah no, I change my mind, make it back like before")
    assert [t["title"] for t in conversation.store.tasks] == ["milk"]


def test_a_statement_with_a_pronoun_then_mark_it_done_completes_the_task_asked_about() -> None:
    conversation = _conversation("milk", "eggs")
    conversation.say("Is the eggs still in my list?")
    conversation.say("Ok, I buy them yesterday, please mark it as done")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_done_after_a_sentence_about_the_new_task_completes_it() -> None:
    conversation = _conversation("milk")
    conversation.say("add pack gym bag")
    conversation.say("packed it. done")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_how_it_got_done_said_after_the_request_is_not_part_of_the_target() -> None:
    conversation = _conversation("milk", "book dentist appointment")
    conversation.say("is there anything on my list abt the dentist")
    conversation.say("ok mark that one done i booked it this morning")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_a_topic_then_i_have_finish_to_clean_it_completes_the_topic() -> None:
    conversation = _conversation("milk", "clean the bathroom")
    conversation.say("the bathroom I have finish to clean it, is very shiny now")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


@pytest.mark.parametrize(
    ("said", "completed"),
    [
        # task 2 is not on the list shown (1, 3, 4): "number two" is its second row
        ("the number two is done", [False, True, True, False]),
        # task 4 is on it: "number four" is task 4
        ("the number four is done", [False, True, False, True]),
    ],
)
def test_the_number_of_a_row_is_that_row_unless_the_list_shows_that_task(
    said: str, completed: list[bool]
) -> None:
    conversation = _conversation("milk", "eggs", "bread", "jam")
    conversation.say("complete task 2")
    conversation.say("what's left")
    conversation.say(said)
    assert [t["completed"] for t in conversation.store.tasks] == completed


# --- phrasings from the fresh batches (session 9) -------------------------------------------


def test_a_short_question_about_an_item_on_the_list_only_looks_it_up() -> None:
    conversation = _conversation("buy milk", "bread")
    exchange = conversation.say("bread on list?")
    assert exchange.meta["acts"] == ["query"]
    assert [c["name"] for c in exchange.tool_calls] == ["list_tasks"]


def test_items_said_done_together_are_completed_not_deleted() -> None:
    conversation = _conversation("milk", "eggs", "rice")
    conversation.say("milk and eggs done")
    assert [t["completed"] for t in conversation.store.tasks] == [True, True, False]


def test_several_items_to_add_with_a_reason_are_an_add_not_another_assistants_job() -> None:
    conversation = _conversation("milk")
    conversation.say("please add dates and arabic coffee, guests are coming on friday")
    assert [t["title"] for t in conversation.store.tasks] == ["milk", "dates", "arabic coffee"]
    conversation.say("I make soup tomorrow so please add potatoes, cabbage and dill")
    assert [t["title"] for t in conversation.store.tasks][-3:] == ["potatoes", "cabbage", "dill"]


def test_her_before_a_noun_is_no_pronoun_to_resolve() -> None:
    conversation = _conversation("buy milk", "call her mother")
    conversation.say(
        "guess who finally called her mother after three weeks. me. it was fine. tick that off"
    )
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_a_clear_asked_as_whether_it_is_possible_still_asks_to_confirm() -> None:
    conversation = _conversation("milk", "eggs")
    conversation.say("complete task 1")
    exchange = conversation.say("Would it be possible to clear out all the completed tasks?")
    assert exchange.meta["pending"]["kind"] == "confirm_clear"
    assert len(conversation.store.tasks) == 2


def test_done_statements_one_a_sentence_complete_each_with_its_own_praise() -> None:
    conversation = _conversation("book dentist appointment", "renew passport")
    exchange = conversation.say("dentist done. passport done.")
    assert [t["completed"] for t in conversation.store.tasks] == [True, True]
    assert exchange.reply.startswith("Great job!")
    assert "Awesome!" in exchange.reply


def test_numbers_after_a_list_that_does_not_show_one_of_them_are_rows() -> None:
    conversation = _conversation("a", "b", "c", "d", "e", "f")
    conversation.say("complete task 3")
    conversation.say("what's left?")  # shows tasks 1, 2, 4, 5, 6
    conversation.say("number 2 and number 3 is done")
    assert [t["completed"] for t in conversation.store.tasks] == [
        False,
        True,
        True,
        True,
        False,
        False,
    ]


def test_something_for_a_word_asks_nothing_about_the_list() -> None:
    conversation = _conversation("milk")
    exchange = conversation.say("you can play some music for me? something for relax")
    assert exchange.meta["acts"] == ["off_topic"]
    assert exchange.tool_calls == []


def test_clearing_the_finished_tasks_asks_first_with_their_count() -> None:
    conversation = _conversation("buy milk", "call mom", "pay rent")
    conversation.say("complete task 2")
    exchange = conversation.say("delete the finished tasks")
    assert exchange.reply.startswith("Are you sure you want to delete your 1 completed task?")
    assert exchange.meta["pending"]["kind"] == "confirm_clear"
    assert exchange.tool_calls[-1]["name"] == "list_tasks"


def test_a_no_to_clearing_that_names_one_task_deletes_only_that_one() -> None:
    conversation = _conversation("buy milk", "pick up dry cleaning", "pay rent")
    conversation.say("clear the whole list")
    conversation.say("wait no. just the dry cleaning one")
    assert [t["title"] for t in conversation.store.tasks] == ["buy milk", "pay rent"]


def test_a_no_to_clearing_that_asks_for_the_list_shows_it_and_deletes_nothing() -> None:
    conversation = _conversation("buy milk", "pay rent")
    conversation.say("Alexa, remove all items from my to-do list")
    exchange = conversation.say("Alexa, no, stop, read me the list instead")
    assert exchange.meta["acts"] == ["list"]
    assert len(conversation.store.tasks) == 2


def test_an_ok_followed_by_a_new_question_answers_it_instead_of_adding() -> None:
    conversation = _conversation("buy milk", "call mom")
    conversation.say("is bread on my list?")  # not there: the reply offers to add it
    exchange = conversation.say("ok phew. and is calling mom still on there?")
    assert exchange.meta["acts"] == ["query"]
    assert [t["title"] for t in conversation.store.tasks] == ["buy milk", "call mom"]


def test_a_question_put_topic_first_changes_nothing() -> None:
    conversation = _conversation("pay electricity bill")
    exchange = conversation.say("Please tell me, the electricity bill, I paid it already or not?")
    assert exchange.meta["acts"] == ["query"]
    assert conversation.store.tasks[0]["completed"] is False


def test_a_bare_done_right_after_a_rename_completes_the_renamed_task() -> None:
    conversation = _conversation("buy milk", "renew passport")
    conversation.say("passport on list?")
    conversation.say("rename it renew passport online")
    conversation.say("done now")
    assert conversation.store.tasks[1] == {
        "id": 2,
        "title": "renew passport online",
        "description": None,
        "completed": True,
    }


def test_an_aside_after_one_more_item_is_not_an_item() -> None:
    conversation = _conversation("buy milk")
    conversation.say("add tortillas")
    conversation.say("oh and cheese obviously, can't have tacos without cheese haha")
    assert [t["title"] for t in conversation.store.tasks] == ["buy milk", "tortillas", "cheese"]


def test_an_outing_said_done_completes_the_task_it_was_for() -> None:
    conversation = _conversation("buy groceries", "call mom")
    conversation.say("I already did the grocery run yesterday so you can check that off")
    assert [t["completed"] for t in conversation.store.tasks] == [True, False]


def test_a_note_asked_for_with_could_you_also_sets_the_description() -> None:
    conversation = _conversation("buy milk")
    conversation.say("add pick up the cake")
    conversation.say('Could you also add a note to it saying "due Thursday"?')
    assert conversation.store.tasks[1]["description"] == "due Thursday"


def test_a_task_named_first_then_a_note_after_a_colon_sets_that_tasks_note() -> None:
    conversation = _conversation("book dentist appointment", "water the plants")
    conversation.say("The dentist task, can you write in it a note: ask for cleaning")
    assert conversation.store.tasks[0]["description"] == "ask for cleaning"
    assert conversation.store.tasks[1]["description"] is None


def test_x_should_be_y_renames_only_when_y_keeps_the_name() -> None:
    conversation = _conversation("milk", "finish report")
    conversation.say("and milk should be oat milk. how many times do I have to say it")
    conversation.say("the report should be done by friday")
    assert [t["title"] for t in conversation.store.tasks] == ["oat milk", "finish report"]


def test_mark_it_all_complete_after_saying_everything_is_done_completes_every_task() -> None:
    conversation = _conversation("a", "b", "c")
    conversation.say("everything on there is done. mark it all complete.")
    assert [t["completed"] for t in conversation.store.tasks] == [True, True, True]


def test_one_more_item_a_sentence_repeats_the_last_completion() -> None:
    conversation = _conversation("buy groceries", "milk", "eggs", "bread")
    conversation.say("groceries done")
    conversation.say("milk. eggs too")
    assert [t["completed"] for t in conversation.store.tasks] == [True, True, True, False]


def test_and_x_after_correcting_the_task_just_added_adds_x() -> None:
    conversation = _conversation("milk")
    conversation.say("add tootpaste")
    conversation.say("ugh i mean toothpaste")
    conversation.say("and shampo")
    assert [t["title"] for t in conversation.store.tasks] == ["milk", "toothpaste", "shampo"]


FAMILY = "👨\u200d👩\u200d👧"  # three emoji joined by zero-width joiners


def test_a_title_keeps_the_joiners_of_its_emoji_though_matching_reads_without_them() -> None:
    assert run(f"add {FAMILY} birthday gift", []) == ToolCall(
        "add_task", {"title": f"{FAMILY} birthday gift"}
    )
    assert run(f"add buy cake with {FAMILY} candles", []) == ToolCall(
        "add_task", {"title": "buy cake", "description": f"{FAMILY} candles"}
    )
    assert run(f"rename task 2 to {FAMILY} gift", []) == ToolCall(
        "update_task", {"task_id": 2, "title": f"{FAMILY} gift"}
    )


def test_a_title_search_carries_the_joiners_the_stored_titles_have() -> None:
    search = run(f"delete {FAMILY}", [])
    assert search == ToolCall("list_tasks", {"status": "all", "query": FAMILY})
    assert isinstance(search, ToolCall)
    found = ToolOutcome(search, [{"id": 4, "title": f"{FAMILY} birthday gift"}])
    assert run(f"delete {FAMILY}", [found]) == ToolCall("delete_task", {"task_id": 4})


@pytest.mark.parametrize(
    ("error", "reply"),
    [
        (
            "Invalid description: String should have at most 2000 characters",
            "That description is too long: at most 2,000 characters. Could you shorten it?",
        ),
        (
            "Invalid title: String should have at most 200 characters",
            "That title is a bit long for a task. Could you shorten it to 200 characters or "
            "fewer? You can put the details in a description with 'with ...'.",
        ),
        (
            "Invalid title: String should have at least 1 character",
            "That title is empty once control characters are taken out. What would you like "
            "the task to say?",
        ),
        (
            "Invalid title: Input should be a valid string",
            "I couldn't save that title: input should be a valid string.",
        ),
        ("database is locked", "Sorry, I encountered an issue. Please try again in a moment."),
    ],
)
def test_a_refused_add_says_why_in_plain_words(error: str, reply: str) -> None:
    message = "add buy milk with the oat one"
    call = run(message, [])
    assert isinstance(call, ToolCall)
    answer = run(message, [ToolOutcome(call, error=error)])
    assert isinstance(answer, FinalReply)
    assert answer.text == reply
