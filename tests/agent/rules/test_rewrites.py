"""Roundabout requests rewritten as the plain request (backend/agent/rules/rewrites.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.rewrites import rewritten


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "do i have cheese on my shopping list if not please add it",
            "add cheese if it's not already there",
        ),
        ("are eggs on my list, if not add them", "add eggs if it's not already there"),
        ("is bacon on my shopping list, add if it's not", "add bacon if it's not already there"),
        ("i'm out of apples, add that to my list", "add apples"),
        ("i ran out of cheerios so add that to the list", "add cheerios"),
        ("i have no oranges, put them onto my list", "add oranges"),
    ],
)
def test_a_roundabout_request_becomes_the_plain_one(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    "said", ["is milk on my list?", "i'm out of ideas", "add milk", "i ran out of time today"]
)
def test_anything_else_is_left_as_said(said: str) -> None:
    assert rewritten(said) == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("the third one, I do it already this morning", "mark the third one as done."),
        ("the report for Q4, I finish it yesterday", "mark the report for Q4 as done."),
        ("eggs I have buy already", "mark eggs as done."),
        ("the last two, both I finish them", "mark the last two as done."),
        ("The first one, I not finish really", "mark The first one as not done."),
    ],
)
def test_a_task_named_first_then_said_to_be_done_is_a_completion(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "the milk, I need it",
        "my mom, I call her tomorrow",
        "let me know every meeting i have scheduled today",
        "mark it done, i cleaned it this morning",
        "the report I finish",
    ],
)
def test_a_topic_without_a_done_statement_is_left_alone(said: str) -> None:
    assert rewritten(said) == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "The chicken, please change to two kilo chicken",
            "change The chicken to two kilo chicken",
        ),
        (
            "the task of the milk, please change it to soy milk",
            "change the task of the milk to soy milk",
        ),
        (
            "and the passport one, can you change its note to X?",
            "change the passport one's note to X?",
        ),
        ("and the eighth one, the passport, scrap it", "scrap the eighth one"),
        ("the milk, make it oat milk", "change the milk to oat milk"),
    ],
)
def test_a_task_named_first_then_a_command_about_it_is_the_plain_command(
    said: str, meant: str
) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize("said", ["the first thing I did was call mom, delete it", "ok, delete it"])
def test_a_lead_in_that_names_no_task_is_not_a_topic(said: str) -> None:
    assert rewritten(said) == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "and stick a note on it that dr. alvarez is closed mondays so I don't forget",
            "add a note to it: dr. alvarez is closed mondays",
        ),
        ('and write in it the note "before 15th"', "add a note to it: before 15th"),
        (
            "Also, please add a note to it: ask for Mrs. Patel.",
            "add a note to it: ask for Mrs. Patel",
        ),
        (
            "and the pasport one add a note bring old pasport",
            "add a note to the pasport one: bring old pasport",
        ),
        (
            "Could you also update the note to say both expire in March, please?",
            "add a note to it: both expire in March",
        ),
        ("and put in the notes: burgers, buns, corn", "add a note to it: burgers, buns, corn"),
        (
            "ok, for this one put note: dr. kim, tuesday 10am",
            "add a note to it: dr. kim, tuesday 10am",
        ),
        ("note on it: usb-c, 2m", "add a note to it: usb-c, 2m"),
    ],
)
def test_a_note_said_any_way_becomes_a_note_on_its_task(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize("said", ["add note paper", "I need to write a note to my teacher"])
def test_a_task_about_a_note_is_not_a_note(said: str) -> None:
    assert rewritten(said) == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("ugh. the fourth one I actually did on the train this morning", "complete the fourth one"),
        ("right, so the last two I actually did over the weekend", "complete the last two"),
        (
            "The eleventh and twelfth items no longer apply, so they may be removed entirely.",
            "delete The eleventh and twelfth items",
        ),
    ],
)
def test_a_position_said_with_what_happened_to_it_is_that_change(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "2nd one isn't done",  # a reopen, read by its own rules
        "cancel that last thing",
        "get rid of the first three events in my calendar",
        "show me the second one",
    ],
)
def test_a_position_without_a_change_said_stays_as_it_is(said: str) -> None:
    assert rewritten(said) == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "now I want delete all the tasks, also the finished ones, everything",
            "clear my whole list",
        ),
        (
            "I want to wipe the slate completely clean - literally every single thing on this list",
            "clear my whole list",
        ),
        (
            "all the tasks that are finished, please clean them out of the list",
            "clear the completed tasks",
        ),
        (
            "get rid of all the finished stuff, it's cluttering everything",
            "clear the completed tasks",
        ),
    ],
)
def test_a_clear_said_in_passing_is_a_clear(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "get rid of everything on my calendar",
        "delete everything except the milk",
        "can you put oat milk on there? she has it in literally everything, clear?",
    ],
)
def test_everything_said_beside_another_request_is_no_clear(said: str) -> None:
    assert not rewritten(said).startswith("clear")


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "for tomorrow breakfast I need bread, butter, jam and orange juice. put all of them in "
            "list",
            "add bread, butter, jam and orange juice",
        ),
        (
            "for tomorrow I need rice, chicken, onions and tomato sauce, put them please in the "
            "list",
            "add rice, chicken, onions and tomato sauce",
        ),
    ],
)
def test_items_named_first_then_put_them_on_the_list_are_added(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "and bathroom one, make it clean the bathroom and kitchen",
            "rename bathroom one to clean the bathroom and kitchen",
        ),
        (
            "Thank you. Could you put the second one back on, please? The dog needs a walk.",
            "mark the second one as not done",
        ),
    ],
)
def test_a_task_named_first_then_changed_is_that_change(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("and the milk also, i want it lactose free milk", "change the milk to lactose free milk"),
        ("the eggs, I'd like it to be free range eggs", "change the eggs to free range eggs"),
    ],
)
def test_a_task_then_the_title_wanted_for_it_is_a_rename(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    "said", ["the milk, i want it gone", "the report, i want it done by friday"]
)
def test_a_wish_that_does_not_restate_the_title_is_no_rename(said: str) -> None:
    assert rewritten(said) == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("first up: cancel the internet", "add cancel the internet"),
        (
            "okay first thing on the fresh list: sign up for pottery class",
            "add sign up for pottery class",
        ),
    ],
)
def test_the_first_thing_for_a_list_is_added(said: str, meant: str) -> None:
    assert rewritten(said) == meant


def test_a_task_then_same_then_i_did_it_is_a_completion() -> None:
    assert rewritten("And dentist, same, I book it") == "mark dentist as done."


def test_a_task_then_is_it_finish_or_not_is_a_question() -> None:
    assert rewritten("and the report for Q4, it is finish or not yet?") == (
        "is the report for Q4 done?"
    )


def test_commands_after_a_wake_word_are_no_position_statement() -> None:
    said = "Hey Google, complete the ninth one and delete the last one"
    assert rewritten(said) == said


def test_out_of_an_item_then_add_to_a_list_adds_the_item() -> None:
    assert rewritten("i'm out of bananas; add to shopping list") == "add bananas"


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "and once that's done I'll need to vacuum the couch, put that on too",
            "add vacuum the couch",
        ),
        (
            "I just remembered I have to drop the car off on friday, can you add that?",
            "add drop the car off on friday",
        ),
        ("i need buy rice and pasta, put in list", "add rice and pasta"),
    ],
)
def test_a_thing_to_do_said_first_then_add_it_adds_that_thing(said: str, meant: str) -> None:
    assert rewritten(said) == meant


def test_having_none_of_a_thing_is_not_the_thing_to_add() -> None:
    assert not rewritten("i have no oranges, put them onto my list").startswith("add no")


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "ooh the fifth one, I keep forgetting that. put a note on it: clinic opens at 8",
            "add a note to the fifth one: clinic opens at 8",
        ),
        (
            "oh and for the suit one, put a note on it: ticket number 4471",
            "add a note to the suit task: ticket number 4471",
        ),
    ],
)
def test_a_note_asked_for_after_what_it_is_about_goes_on_that_task(said: str, meant: str) -> None:
    assert rewritten(said) == meant


def test_jot_down_on_it_as_a_note_is_a_note_on_the_task_talked_about() -> None:
    assert (
        rewritten("Could you also jot down on it, as a note, that she loves lilies?")
        == "add a note to it: she loves lilies"
    )
