from __future__ import annotations

import pytest

from backend.agent.rules.extract import extract_status
from backend.agent.rules.intents import detect_intent, rule_intent
from backend.agent.rules.text import core_request, prepare, strip_end_punctuation
from backend.agent.rules.types import Intent
from corpus.fake_tools import Conversation, FakeTaskStore


def detect(message: str, **kwargs: bool) -> Intent:
    return detect_intent(strip_end_punctuation(prepare(message)), **kwargs).intent


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("add buy milk", Intent.CREATE),
        ("Create a task to call mom", Intent.CREATE),
        ("remind me to call mom", Intent.CREATE),
        ("I need to buy groceries", Intent.CREATE),
        ("Don't forget to submit report", Intent.CREATE),
        ("show my tasks", Intent.LIST),
        ("What's on my list?", Intent.LIST),
        ("list completed tasks", Intent.LIST),
        ("complete task 3", Intent.COMPLETE),
        ("Mark task 3 as done", Intent.COMPLETE),
        ("Done with task 3", Intent.COMPLETE),
        ("delete task 2", Intent.DELETE),
        ("remove buy groceries", Intent.DELETE),
        ("get rid of task 4", Intent.DELETE),
        ("change task 1 to call mom", Intent.UPDATE),
        ("rename task 2 to buy oat milk", Intent.UPDATE),
        ("help", Intent.HELP),
        ("What can you do?", Intent.HELP),
        ("How do I add a task?", Intent.HELP),
        ("Hello!", Intent.GREETING),
        ("hey there", Intent.GREETING),
        ("good morning", Intent.GREETING),
        ("do the thing", Intent.UNCLEAR),
        ("task", Intent.UNCLEAR),
    ],
)
def test_explicit_commands_are_recognised(message: str, intent: Intent) -> None:
    assert detect(message) is intent


def test_a_task_id_turns_a_create_keyword_into_an_action_on_that_task() -> None:
    # "need to" is a CREATE keyword, but with a task number the action verb wins.
    assert detect("I need to finish task 3, it's done", has_task_id=True) is Intent.COMPLETE


def test_every_detection_names_the_rule_that_fired() -> None:
    detection = detect_intent("add buy milk")
    assert detection.rule == "leading verb: add"
    assert detect_intent("I need to call mom").rule == "I need to X"
    assert detect_intent("milk should be added to my list").rule == "X should be added"
    assert detect_intent("I really must call mom, tell me").rule.startswith("I need to")
    assert rule_intent("blah").rule == "no rule matched"


def test_the_spec_keyword_order_breaks_ties_when_no_sentence_pattern_fits() -> None:
    # No sentence pattern fits; "remember" (CREATE) comes before "list" (LIST) in the spec.
    detection = rule_intent("my brother will remember the list")
    assert detection.intent is Intent.CREATE
    assert detection.rule == "keyword 'remember'"


def test_the_learned_model_overrules_a_keyword_guess_that_is_not_a_request() -> None:
    # The rules alone would add "the list" (keyword 'remember'); the model reads the whole
    # sentence, and nothing is stored.
    detection = detect_intent("my brother will remember the list")
    assert detection.intent is not Intent.CREATE
    assert detection.rule.startswith("model: ")


def test_another_assistants_job_is_off_topic_and_a_task_frame_stays_an_add() -> None:
    assert detect_intent("set an alarm for 7am").intent is Intent.OFF_TOPIC
    assert detect_intent("what is the weather like").intent is Intent.OFF_TOPIC
    assert detect_intent("thanks so much").intent is Intent.SOCIAL
    # "call mom" alone reads like a phone request to the model; "I need to" makes it a task.
    assert detect_intent("i need to call mom").intent is Intent.CREATE


@pytest.mark.parametrize(
    "message",
    [
        "The paper towels, they are still in my list?",
        "bread on there?",
        "Could you please tell me whether I still need to pick up the dry cleaning?",
        "is milk on there or not, yes or no",
        "Could you tell me whether I've already called my mother?",
        "Would you be so kind as to tell me whether renewing my passport is still on my list?",
    ],
)
def test_a_question_not_put_as_a_request_only_looks(message: str) -> None:
    detection = detect_intent(prepare(message))
    assert detection.intent is Intent.LIST
    assert detection.obj


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("could you add bread?", Intent.CREATE),
        ("add milk?", Intent.CREATE),
        ("you can delete the milk?", Intent.DELETE),
    ],
)
def test_a_request_with_a_question_mark_still_acts(message: str, intent: Intent) -> None:
    assert detect_intent(prepare(message)).intent is intent


@pytest.mark.parametrize(
    "message",
    [
        "I change my mind, make it back like before",
        "change it back",
        "set it back to how it was",
        "undo pls that was wrong i havent done it yet",
        "oops undo that i havent actualy bought them yet",
        "put that back i still have to do it",
    ],
)
def test_asking_for_the_old_state_back_is_an_undo(message: str) -> None:
    assert detect_intent(core_request(prepare(message))).rule == "undo"


@pytest.mark.parametrize(
    ("message", "status"),
    [
        ("Just the stuff I've already finished.", "completed"),
        ("finished ones", "completed"),
        ("pending only", "pending"),
        ("just pending", "pending"),
        ("And now the full list, if you would.", "all"),
        ("the tasks I have yet to complete", "pending"),
        ("only the stuf i didnt finish", "pending"),
    ],
)
def test_a_status_said_on_its_own_asks_for_the_list_by_that_status(
    message: str, status: str
) -> None:
    detection = detect_intent(prepare(message))
    assert detection.intent is Intent.LIST
    assert extract_status(prepare(message)) == status


@pytest.mark.parametrize("message", ["finished", "done", "delete the finished ones"])
def test_a_done_word_alone_or_a_bulk_change_is_not_a_list_request(message: str) -> None:
    assert detect_intent(prepare(message)).intent is not Intent.LIST


def test_a_check_of_another_assistants_job_stays_off_topic() -> None:
    detection = detect_intent(prepare("can you check if my order has been delivered"))
    assert detection.intent is Intent.OFF_TOPIC


@pytest.mark.parametrize(
    ("message", "obj"),
    [
        ("2nd one not done actually", "2nd one"),
        ("bananas not done", "bananas"),
        ("ok I lied about the passport though, that one's still waiting", "the passport"),
        ("the third of them, i don't finish really, please open again", "the third of them"),
    ],
)
def test_a_task_said_not_done_is_reopened(message: str, obj: str) -> None:
    detection = detect_intent(strip_end_punctuation(prepare(message)))
    assert (detection.intent, detection.action.value, detection.obj) == (
        Intent.UPDATE,
        "reopen",
        obj,
    )


@pytest.mark.parametrize("message", ["what's not done", "tasks not done", "which ones not done"])
def test_asking_what_is_not_done_is_a_list(message: str) -> None:
    assert detect(message) is Intent.LIST


@pytest.mark.parametrize(
    ("message", "status"),
    [
        ("whats on it", "all"),
        ("what i need buy now?", "pending"),
        ("wich ones did i alredy do", "completed"),
    ],
)
def test_short_questions_about_the_list_show_it(message: str, status: str) -> None:
    assert detect(message) is Intent.LIST
    assert extract_status(prepare(message)) == status


@pytest.mark.parametrize(
    "message", ["i'm finished with my to do list", "i'm done with today's to do list"]
)
def test_finishing_the_to_do_list_completes_every_pending_task(message: str) -> None:
    conversation = Conversation(
        FakeTaskStore(
            [{"id": n, "title": f"t{n}", "description": None, "completed": False} for n in (1, 2)]
        )
    )
    conversation.say(message)
    assert all(t["completed"] for t in conversation.store.tasks)


@pytest.mark.parametrize(
    "message",
    [
        "oops wrong one undo",
        "oh no, this was wrong, go back please",
        "go back",
        "oh no undo taht, wrong one",
    ],
)
def test_an_undo_said_with_an_apology_is_an_undo(message: str) -> None:
    assert detect_intent(prepare(message)).action.value == "undo"


@pytest.mark.parametrize(
    "message",
    [
        "i walk the dog already today or not? i don't remember",
        "I want know if the bananas is already bought",
    ],
)
def test_asking_whether_something_is_done_changes_nothing(message: str) -> None:
    detection = detect_intent(strip_end_punctuation(prepare(message)))
    assert (detection.intent, detection.action.value) == (Intent.LIST, "lookup")


def test_how_much_things_on_my_list_is_a_count() -> None:
    detection = detect_intent(strip_end_punctuation(prepare("how much things now in my list?")))
    assert (detection.intent, detection.action.value) == (Intent.LIST, "count")


def test_things_needed_said_without_the_i_are_added() -> None:
    conversation = Conversation(FakeTaskStore([]))
    exchange = conversation.say("need shampo, tooth paste and mac and cheese")
    assert [call["arguments"]["title"] for call in exchange.tool_calls] == [
        "shampo",
        "tooth paste",
        "mac and cheese",
    ]


def test_asked_whether_the_list_has_a_topic_looks_it_up_and_shows_nothing() -> None:
    message = "Would you be able to tell me whether there's anything on my list about the car?"
    detection = detect_intent(strip_end_punctuation(prepare(message)))
    assert (detection.intent, detection.action.value, detection.obj) == (
        Intent.LIST,
        "lookup",
        "car",
    )


@pytest.mark.parametrize(
    ("message", "item"),
    [("passport?", "passport"), ("report stuff still open?", "report stuff")],
)
def test_a_thing_asked_about_on_its_own_is_looked_up(message: str, item: str) -> None:
    detection = detect_intent(prepare(message))
    assert (detection.intent, detection.action.value, detection.obj) == (
        Intent.LIST,
        "lookup",
        item,
    )


@pytest.mark.parametrize("message", ["why?", "really?", "huh?", "what?"])
def test_a_bare_question_word_is_not_looked_up(message: str) -> None:
    assert detect_intent(prepare(message)).action.value != "lookup"


def test_a_question_after_a_story_is_that_question() -> None:
    conversation = Conversation(FakeTaskStore([]))
    exchange = conversation.say(
        "ok I'm at the store and my brain is mush, what was I supposed to get again"
    )
    assert [(c["name"], c["arguments"]["status"]) for c in exchange.tool_calls] == [
        ("list_tasks", "pending")
    ]


@pytest.mark.parametrize("message", ["that's not done", "so that is not done"])
def test_not_done_is_never_read_as_done(message: str) -> None:
    assert rule_intent(prepare(message)).intent is not Intent.COMPLETE


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("the bathroom is clean now, finally", Intent.COMPLETE),
        ("the bathroom is not finish", Intent.UPDATE),
    ],
)
def test_a_state_said_of_a_task_is_its_completion_or_reopening(
    message: str, intent: Intent
) -> None:
    assert rule_intent(prepare(message)).intent is intent


@pytest.mark.parametrize("message", ["take off call dad", "and take off call dad"])
def test_take_off_another_person_never_deletes_a_task_for_someone_else(message: str) -> None:
    conversation = Conversation(FakeTaskStore([{"id": 1, "title": "call mom", "completed": False}]))
    exchange = conversation.say(message)
    assert not any(call["name"] == "delete_task" for call in exchange.tool_calls)
    assert [t["title"] for t in conversation.store.tasks] == ["call mom"]


@pytest.mark.parametrize("message", ["lol ok tell me a joke", "know any good jokes?"])
def test_asking_for_a_joke_is_small_talk(message: str) -> None:
    assert rule_intent(prepare(message)).intent is Intent.SOCIAL


def test_k_cross_it_off_with_how_it_got_done_completes_the_task_talked_about() -> None:
    conversation = Conversation(FakeTaskStore([{"id": 1, "title": "milk", "completed": False}]))
    conversation.say("is milk stil on ther")
    conversation.say("k cross it off got some on the way hom")
    assert conversation.store.tasks[0]["completed"]


@pytest.mark.parametrize(
    "message",
    [
        "I see. In that case, could you simply confirm that paper towels are on my list?",
        "please check that eggs are still on there",
    ],
)
def test_asked_to_confirm_an_item_is_listed_changes_nothing(message: str) -> None:
    conversation = Conversation(FakeTaskStore([{"id": 1, "title": "eggs", "completed": False}]))
    exchange = conversation.say(message)
    assert [c["name"] for c in exchange.tool_calls] == ["list_tasks"]
    assert conversation.store.tasks == [{"id": 1, "title": "eggs", "completed": False}]


@pytest.mark.parametrize(
    "message",
    [
        "i need to know again",
        "i have to get going",
        "i need for you to ask the question again",
        "i need to know the weather",
    ],
)
def test_what_someone_needs_from_the_assistant_is_no_task(message: str) -> None:
    conversation = Conversation(FakeTaskStore([]))
    exchange = conversation.say(message)
    assert not any(call["name"] == "add_task" for call in exchange.tool_calls)


def test_mark_down_writes_a_task_down_and_never_completes_one() -> None:
    conversation = Conversation(
        FakeTaskStore([{"id": 1, "title": "clean the bathroom", "completed": False}])
    )
    exchange = conversation.say("mark down cleaning the bathroom on my list of things to do")
    assert [c["name"] for c in exchange.tool_calls] == ["add_task"]
    assert not conversation.store.tasks[0]["completed"]


def test_read_them_out_after_a_count_lists_what_was_counted() -> None:
    conversation = Conversation(FakeTaskStore([{"id": 1, "title": "milk", "completed": False}]))
    conversation.say("How many things do I still have left to do? Be honest with me.")
    exchange = conversation.say("Yikes. Okay, read them out to me.")
    assert [(c["name"], c["arguments"]["status"]) for c in exchange.tool_calls] == [
        ("list_tasks", "pending")
    ]


@pytest.mark.parametrize(
    "message",
    [
        "please order everything you see on my shopping list",
        "i need to buy everything on the shopping list",
        "add pepsi to my shopping bag",
        "add everything to my shopping cart",
    ],
)
def test_ordering_what_is_on_the_list_is_a_shops_job_and_adds_nothing(message: str) -> None:
    assert rule_intent(prepare(message)).intent is Intent.OFF_TOPIC


def test_i_finished_something_not_on_the_list_completes_nothing() -> None:
    conversation = Conversation(
        FakeTaskStore([{"id": 1, "title": "finish Q4 report", "completed": False}])
    )
    exchange = conversation.say("I finished the laundry")
    assert not conversation.store.tasks[0]["completed"]
    assert exchange.meta.get("pending") is not None


def test_change_the_note_to_say_x_stores_x() -> None:
    conversation = Conversation(
        FakeTaskStore([{"id": 1, "title": "renew passport", "completed": False}])
    )
    exchange = conversation.say("change the note on the passport one to say expires in april")
    assert exchange.tool_calls[-1]["arguments"]["description"] == "expires in april"


def test_ive_got_people_coming_is_no_done_statement_and_the_add_beside_it_adds() -> None:
    conversation = Conversation(FakeTaskStore([]))
    exchange = conversation.say(
        "right so I've got people coming over on Saturday, can you add hummus and olives"
    )
    assert [c["arguments"]["title"] for c in exchange.tool_calls] == ["hummus", "olives"]
