"""Messages that only make sense after the last change (backend/agent/rules/followups.py)."""

from __future__ import annotations

import pytest

from corpus.fake_tools import Conversation, FakeTaskStore, numbered_tasks


def _after_adding(title: str) -> Conversation:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say(f"add {title}")
    return conversation


@pytest.mark.parametrize(
    ("added", "said", "title"),
    [
        ("tea", "not tea, green tea", "green tea"),
        ("tea", "not tea. green tea", "green tea"),
        ("oat milk", "no. almond milk", "almond milk"),
        ("lightbulbs", "correction: porch lightbulbs", "porch lightbulbs"),
        ("chicken", "chicken thighs*", "chicken thighs"),
        ("chese", "ugh cheese i mean", "cheese"),
        ("potatos", "sorry, I write it wrong, is potatoes", "potatoes"),
        ("buy rice", "no, is brown rice I want, not the white", "buy brown rice"),
        (
            "brown sugar",
            "Oh, my apologies, I meant icing sugar rather than brown sugar.",
            "icing sugar",
        ),
        ("orange juice", "make it two bottles", "two bottles of orange juice"),
        ("poster board", "Actually make that two poster boards", "two poster boards"),
        ("sign up for the 5k", "Wait, not the 5k, it's the 10k, eek!", "sign up for the 10k"),
        ("picl up prescription", "ugh pick not picl", "pick up prescription"),
        ("call the bank", "ok google no i said call the vet not the bank", "call the vet"),
        ("buy a present for Ana", "sorry, not Ana, is Anya, with y", "buy a present for Anya"),
        (
            "buy shoes for the wedding",
            "Sorry, is not shoes, is tie. Buy a tie for the wedding",
            "buy a tie for the wedding",
        ),
        (
            "collect the parcel from the post office",
            "My apologies, I misspoke: it ought to be the sorting office rather than the post "
            "office.",
            "collect the parcel from the sorting office",
        ),
        (
            "return ladder to jen",
            "oh wait, it's jenna, not jen. she hates being called jen haha",
            "return ladder to jenna",
        ),
        ("ice cream", "Oh, I'm so sorry, I meant iced tea, not ice cream.", "iced tea"),
    ],
)
def test_a_correction_right_after_an_add_renames_the_new_task(
    added: str, said: str, title: str
) -> None:
    conversation = _after_adding(added)
    conversation.say(said)
    assert [t["title"] for t in conversation.store.tasks] == [title]


@pytest.mark.parametrize(
    "said",
    [
        "ugh, everything is a mess",
        "thanks",
        "no thanks",
        "And stamps, please.",
        "oh cool",
        "no worries",
        "eggs too if not there",
    ],
)
def test_talk_after_an_add_is_not_a_correction(said: str) -> None:
    conversation = _after_adding("milk")
    conversation.say(said)
    assert [t["title"] for t in conversation.store.tasks if t["id"] == 1] == ["milk"]


def test_not_x_names_which_of_several_new_tasks_is_corrected() -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say("add flour, caster sugar and baking powder")
    conversation.say("Apologies, I meant self-raising flour, not just flour.")
    assert [t["title"] for t in conversation.store.tasks] == [
        "self-raising flour",
        "caster sugar",
        "baking powder",
    ]


def test_something_to_do_to_the_new_item_is_not_one_more_item() -> None:
    conversation = _after_adding("pizza")
    conversation.say("and order it")
    assert [t["title"] for t in conversation.store.tasks] == ["pizza"]


def test_just_the_pending_ones_after_a_list_shows_only_those() -> None:
    conversation = Conversation(
        FakeTaskStore(
            [
                {"id": 1, "title": "milk", "description": None, "completed": True},
                {"id": 2, "title": "eggs", "description": None, "completed": False},
            ]
        )
    )
    conversation.say("list. now.")
    shown = conversation.say("no just the stuff i havent done")
    assert shown.tool_calls[0]["arguments"]["status"] == "pending"


def test_another_old_to_new_right_after_a_rename_is_another_rename() -> None:
    conversation = Conversation(
        FakeTaskStore(
            [
                {"id": 1, "title": "eggs", "description": None, "completed": False},
                {"id": 2, "title": "milk", "description": None, "completed": False},
            ]
        )
    )
    conversation.say("rename eggs -> free range eggs")
    conversation.say("milk -> oat milk")
    assert [t["title"] for t in conversation.store.tasks] == ["free range eggs", "oat milk"]


def test_a_misspelt_item_asked_about_is_found() -> None:
    conversation = Conversation(
        FakeTaskStore(
            [{"id": 1, "title": "renew passport", "description": None, "completed": False}]
        )
    )
    reply = conversation.say("wait is the pasport one still ther?")
    assert "renew passport" in reply.reply


@pytest.mark.parametrize(
    "said",
    [
        "sorry, I make mistake, not the milk, the eggs I buy. milk is still need",
        "wait no sorry, it wasn't milk I got, it was the eggs, milk is still on there",
    ],
)
def test_the_wrong_task_completed_is_reopened_and_the_right_one_completed(said: str) -> None:
    conversation = Conversation(
        FakeTaskStore(
            [
                {"id": 1, "title": "milk", "description": None, "completed": False},
                {"id": 2, "title": "eggs", "description": None, "completed": False},
            ]
        )
    )
    conversation.say("please mark the milk, I buy it")
    conversation.say(said)
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_one_more_item_too_after_several_deleted_at_once_is_deleted_too() -> None:
    tasks = numbered_tasks("milk", "eggs", "bananas", "paper towels")
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say("remove milk eggs bananas")
    conversation.say("paper towels too")
    assert conversation.store.tasks == []
    undone = conversation.say("undo")
    assert [t["title"] for t in conversation.store.tasks] == ["paper towels"], undone.reply


def test_a_list_narrowed_with_and_only_shows_the_pending_tasks() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("call mom", "milk")))
    conversation.say("can you tell me all what is in my list")
    exchange = conversation.say("and only the things not done yet?")
    assert [c["arguments"].get("status") for c in exchange.tool_calls] == ["pending"]


def test_a_correction_ending_in_obvs_keeps_only_the_meant_title() -> None:
    conversation = _after_adding("onoins")
    exchange = conversation.say("oops i meant onions obvs")
    assert exchange.tool_calls[-1]["arguments"]["title"] == "onions"


def test_a_removal_said_after_a_completion_is_a_removal_not_one_more_completion() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("a", "b", "c", "d")))
    conversation.say("show me what's left")
    conversation.say("the first one I actually did on the train this morning")
    exchange = conversation.say("and the third one can go, I'm not doing it, we're moving anyway")
    assert [(c["name"], c["arguments"]["task_id"]) for c in exchange.tool_calls] == [
        ("delete_task", 3)
    ]


def test_and_the_finished_ones_after_a_list_lists_the_finished_ones() -> None:
    tasks = numbered_tasks("call mom", "milk")
    tasks[1]["completed"] = True
    conversation = Conversation(FakeTaskStore(tasks))
    conversation.say("what do I still need to do")
    exchange = conversation.say("and the finish ones?")
    assert [c["arguments"].get("status") for c in exchange.tool_calls] == ["completed"]


@pytest.mark.parametrize(
    ("first", "then", "calls"),
    [
        ("delete eggs", "no, I meant milk", [("add_task", "eggs"), ("delete_task", 1)]),
        (
            "delete eggs",
            "no wait put eggs back, I meant milk",
            [("add_task", "eggs"), ("delete_task", 1)],
        ),
        ("delete eggs", "no. milk. not eggs", [("add_task", "eggs"), ("delete_task", 1)]),
        ("complete eggs", "no, I meant milk", [("update_task", 2), ("complete_task", 1)]),
    ],
)
def test_i_meant_another_task_moves_the_last_change_to_it(
    first: str, then: str, calls: list[tuple[str, object]]
) -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs")))
    conversation.say(first)
    exchange = conversation.say(then)
    said = [
        (c["name"], c["arguments"].get("title") or c["arguments"]["task_id"])
        for c in exchange.tool_calls
        if c["name"] != "list_tasks"
    ]
    assert said == calls


def test_no_i_meant_the_other_one_is_not_a_task_called_other() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs")))
    conversation.say("delete eggs")
    exchange = conversation.say("no i meant the other one")
    assert not any(c["name"] == "delete_task" for c in exchange.tool_calls)


def test_put_it_back_by_name_right_after_a_deletion_restores_it() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("milk", "eggs")))
    conversation.say("delete eggs")
    exchange = conversation.say("put eggs back")
    assert exchange.meta["acts"] == ["undo"]
    assert [t["title"] for t in conversation.store.tasks] == ["milk", "eggs"]


@pytest.mark.parametrize(
    ("added", "said", "title"),
    [
        ("chiken breast", "ugh chicken*", "chicken breast"),
        ("cal the bank about the card", "*call", "call the bank about the card"),
        ("concert tickets", "oh wait, it's actually theatre tickets, my bad", "theatre tickets"),
    ],
)
def test_a_starred_word_fixes_that_word_of_the_task_just_added(
    added: str, said: str, title: str
) -> None:
    conversation = _after_adding(added)
    exchange = conversation.say(said)
    assert exchange.tool_calls[-1]["arguments"]["title"] == title


def test_a_correction_right_after_a_rename_by_number_renames_the_same_task_again() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("call mom", "review report draft")))
    conversation.say("rename 2 to review final report draft")
    conversation.say("no. shorter. just review final draft")
    assert [t["title"] for t in conversation.store.tasks] == ["call mom", "review final draft"]
    undone = conversation.say("undo")
    assert [t["title"] for t in conversation.store.tasks] == [
        "call mom",
        "review final report draft",
    ]
    assert undone.tool_calls[-1]["arguments"] == {
        "task_id": 2,
        "title": "review final report draft",
    }


def test_not_x_right_after_completing_everything_reopens_x() -> None:
    conversation = Conversation(
        FakeTaskStore(numbered_tasks("buy milk", "book dentist", "pay rent"))
    )
    conversation.say("mark everything as done")
    conversation.say("wait, not the dentist one, I still haven't booked that")
    assert [t["completed"] for t in conversation.store.tasks] == [True, False, True]


def test_not_another_task_right_after_one_completion_reopens_nothing() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "book dentist")))
    conversation.say("I booked the dentist")
    conversation.say("not the milk")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_a_story_ending_so_now_it_really_is_done_completes_the_task_talked_about() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("buy milk", "call mom")))
    conversation.say("I called mom! check it off")
    conversation.say("hmm actually she didn't pick up. can you undo that")
    conversation.say("ok she just rang me back and we had a proper chat, so now it really is done")
    assert [t["completed"] for t in conversation.store.tasks] == [False, True]


def test_i_should_have_said_corrects_the_task_just_added() -> None:
    conversation = Conversation(FakeTaskStore([]))
    conversation.say("Please add call the landlord about the leak.")
    conversation.say("Sorry, I should have said the heating, not the leak.")
    assert [t["title"] for t in conversation.store.tasks] == ["call the landlord about the heating"]


def test_undo_the_last_thing_undoes_a_rename() -> None:
    conversation = Conversation(FakeTaskStore(numbered_tasks("call mom")))
    conversation.say("hey google rename call mom to call mom and dad")
    conversation.say("hey google undo the last thing")
    assert [t["title"] for t in conversation.store.tasks] == ["call mom"]


def _dated() -> Conversation:
    from corpus.fresh import CLOCK, TODAY, dated_start

    return Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)


def test_an_hour_alone_corrects_the_time_just_set_in_its_half_of_the_day() -> None:
    talk = _dated()
    talk.say("add take the chicken out of the freezer at 6")
    updated = [c["arguments"] for c in talk.say("no, 7").tool_calls if c["name"] == "update_task"]
    assert updated == [{"task_id": 17, "due": "2026-11-24T19:00"}]


def test_a_time_said_of_an_all_day_task_just_added_keeps_its_day() -> None:
    talk = _dated()
    talk.say("add pick up prescription friday")
    exchange = talk.say("and it's at 4 in the afternoon, not all day")
    updated = [c["arguments"] for c in exchange.tool_calls if c["name"] == "update_task"]
    assert updated == [{"task_id": 17, "due": "2026-11-27T16:00"}]


def test_a_row_after_a_completion_with_a_change_of_its_own_is_that_change() -> None:
    talk = _dated()
    talk.say("can you read me what's left")
    talk.say("the first two are done, tick them both")
    exchange = talk.say("and the last one, the bathroom, can you move it to sunday")
    changed = [
        (c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] != "list_tasks"
    ]
    assert changed == [("update_task", {"task_id": 15, "due": "2026-11-29"})]


@pytest.mark.parametrize(
    ("said", "fields"),
    [
        ("make that one high priority", {"priority": "high"}),
        ("make it seven thirty p m", {"due": "2026-11-28T19:30"}),
    ],
)
def test_make_that_one_after_an_add_says_its_fields_never_a_new_title(
    said: str, fields: dict[str, str]
) -> None:
    talk = _dated()
    talk.say("add dinner with the hendersons on saturday")
    updated = [c["arguments"] for c in talk.say(said).tool_calls if c["name"] == "update_task"]
    assert updated == [{"task_id": 17, **fields}]
