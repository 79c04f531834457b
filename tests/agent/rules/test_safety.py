"""The first duty: nothing changes that was not asked (backend/agent/rules/safety.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.safety import asks_without_requesting, removes_a_field
from backend.agent.turn_limits import CHANGING_TOOLS
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

CHANGING = CHANGING_TOOLS


def _talk() -> Conversation:
    return Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)


def _changes(talk: Conversation, message: str) -> list[tuple[str, dict[str, object]]]:
    exchange = talk.say(message)
    return [(c["name"], c["arguments"]) for c in exchange.tool_calls if c["name"] in CHANGING]


@pytest.mark.parametrize(
    "question",
    [
        "have I fallen behind?",
        "did you delete the eggs?",
        "is milk on my list or not?",
        "did i already finish the report?",
        "have you added milk?",
    ],
)
def test_a_question_by_its_form_changes_nothing(question: str) -> None:
    assert asks_without_requesting(question)
    assert _changes(_talk(), question) == []


@pytest.mark.parametrize(
    "request_",
    [
        "can you add milk?",
        "could you please delete task 12?",
        "would you mind ticking off the eggs?",
        "If it's no trouble, could you add light bulbs?",
        "add oat milk?",
        "need to call the plumber",
        "do the dishes",
        "when you get a chance add stamps",
    ],
)
def test_a_request_worded_as_a_question_or_a_bare_task_is_not_a_question(request_: str) -> None:
    assert not asks_without_requesting(request_)


def test_a_request_worded_as_a_question_still_acts() -> None:
    assert _changes(_talk(), "could you add stamps?") == [("add_task", {"title": "stamps"})]


@pytest.mark.parametrize(
    ("message", "change"),
    [
        (
            "take the home tag off the clean the bathroom task",
            ("update_task", {"task_id": 15, "remove_tags": ["home"]}),
        ),
        (
            "remove the errand tag from buy groceries",
            ("update_task", {"task_id": 1, "remove_tags": ["errand"]}),
        ),
        ("delete the tag from task 15", ("update_task", {"task_id": 15, "tags": []})),
        ("untag task 3 from work", ("update_task", {"task_id": 3, "remove_tags": ["work"]})),
        (
            "remove the reminder from the report draft",
            ("update_task", {"task_id": 4, "remind_at": "none"}),
        ),
    ],
)
def test_taking_a_field_off_a_task_changes_that_field_and_never_deletes(
    message: str, change: tuple[str, dict[str, object]]
) -> None:
    assert _changes(_talk(), message) == [change]


def test_a_field_named_in_a_delete_the_rules_cannot_read_is_asked_about() -> None:
    talk = _talk()
    exchange = talk.say("please delete the hashtag on the plumber")
    assert [c for c in exchange.tool_calls if c["name"] in CHANGING] == []
    assert exchange.meta.get("pending") is not None
    assert [t["id"] for t in talk.store.tasks] == [t["id"] for t in dated_start()]


@pytest.mark.parametrize(
    "title_with_a_field_word",
    ["delete the date night task", "remove time sheet", "delete the reminder to call mom"],
)
def test_a_field_word_inside_a_title_is_not_a_field(title_with_a_field_word: str) -> None:
    assert not removes_a_field(title_with_a_field_word)


def test_a_delete_named_only_by_part_of_a_sentence_is_confirmed_first() -> None:
    talk = _talk()
    said = "the dentist's office is booked solid anyway so the dentist thing can go, delete it"
    exchange = talk.say(said)
    assert [c for c in exchange.tool_calls if c["name"] in CHANGING] == []
    assert "delete 'book dentist appointment'" in exchange.reply
    assert _changes(talk, "yes") == [("delete_task", {"task_id": 6})]


def test_a_delete_whose_sentence_says_the_whole_task_acts() -> None:
    said = "I'm not renewing my passport this year, we're staying home anyway, so delete it"
    assert _changes(_talk(), said) == [("delete_task", {"task_id": 8})]


def test_a_rename_that_keeps_nothing_of_the_title_is_asked_first() -> None:
    talk = _talk()
    talk.say("add pick up the kids from soccer at 4")
    exchange = talk.say("oh shoot, it's 5:30 actually, not 4")
    assert [c for c in exchange.tool_calls if c["name"] in CHANGING] == []
    assert exchange.reply.startswith("Do you want me to rename 'pick up the kids from soccer'")
    assert _changes(talk, "no") == []
    assert talk.store.tasks[-1]["title"] == "pick up the kids from soccer"


@pytest.mark.parametrize(
    ("first", "correction", "title"),
    [
        ("add rice", "not rice, brown rice", "brown rice"),
        ("add chiken", "chicken*", "chicken"),
        ("add bred", "no i meant bread", "bread"),
        ("add call the plumber", "rename it to call the landlord", "call the landlord"),
    ],
)
def test_a_rename_said_in_words_or_keeping_the_title_acts(
    first: str, correction: str, title: str
) -> None:
    talk = _talk()
    talk.say(first)
    assert _changes(talk, correction) == [("update_task", {"task_id": 17, "title": title})]


@pytest.mark.parametrize(
    "message",
    [
        "Bin the eggs, and shove the paper towels over to the Inbox, would you",
        "delete the dry cleaning, and the paper towels put in work list, my office need them",
        "so the dentist rang and cancelled on me. just take it off, I'll rebook in the new year",
    ],
)
def test_a_deletion_whose_words_name_several_tasks_asks_which_and_deletes_nothing(
    message: str,
) -> None:
    talk = _talk()
    assert _changes(talk, message) == []
    assert talk.say("the first one").tool_calls  # the question offered them as choices


@pytest.mark.parametrize(
    "message",
    [
        "all shopping things mark as done, but not the eggs, eggs i don't buy yet",
        "delete the groceries except the eggs",
    ],
)
def test_a_task_named_as_an_exception_is_never_the_one_changed(message: str) -> None:
    changed = {arguments.get("task_id") for _, arguments in _changes(_talk(), message)}
    assert 12 not in changed  # the eggs


@pytest.mark.parametrize(
    "said",
    [
        "they're always a nightmare to get hold of",
        "it was a long week honestly",
        "Oh, I must have forgotten to put it on in the first place. Never mind.",
    ],
)
def test_a_statement_about_something_is_talk_never_a_new_task(said: str) -> None:
    assert _changes(_talk(), said) == []


def test_a_wave_off_after_a_task_was_not_found_adds_nothing() -> None:
    talk = _talk()
    talk.say("Please take the hairdresser off my list, I've cancelled it.")
    assert _changes(talk, "Oh, I must have forgotten to put it on in the first place.") == []


def test_a_task_not_found_is_still_added_when_asked_for_then() -> None:
    talk = _talk()
    talk.say("remove buy stamps")
    assert _changes(talk, "could you please add it then?") == [
        ("add_task", {"title": "buy stamps"})
    ]


def test_a_field_taken_off_beside_an_emoji_is_never_a_delete() -> None:
    changes = _changes(_talk(), "move finish Q4 report to inbox 📥 and get rid of the priority 😌")
    assert [name for name, _ in changes] == ["update_task"]


@pytest.mark.parametrize(
    ("message", "completed"),
    [
        ("mark every grocery item done", [11, 12, 14]),
        # the exception said after the verb still stays as it is
        ("all shopping things mark as done, but not the eggs, eggs i don't buy yet", [11, 14]),
    ],
)
def test_a_list_named_by_its_kind_of_thing_completes_that_list_and_spares_its_exception(
    message: str, completed: list[int]
) -> None:
    changes = _changes(_talk(), message)
    assert changes == [("complete_task", {"task_ids": completed})]


def test_a_rename_to_words_saying_when_that_drop_the_title_is_asked_first() -> None:
    talk = _talk()
    talk.say("can you add take the bins out every wednesday evening?")
    # the repeat is what changed: read as the repeat, the weekday kept
    assert _changes(talk, "oh wait, it's every other week now, the council changed it") == [
        ("update_task", {"task_id": 17, "repeat": "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"})
    ]


def test_something_said_about_someone_is_talk_never_a_task() -> None:
    said = "My grandson is coming to stay on Saturday, I'm ever so excited."
    assert _changes(_talk(), said) == []


@pytest.mark.parametrize(
    ("said", "task_id", "note"),
    [
        (
            "Additionally, please add a note to the Q4 report: include the revised figures.",
            3,
            "include the revised figures",
        ),
        ("add a note to the passport saying renew online", 8, "renew online"),
    ],
)
def test_a_note_added_to_a_task_named_with_the_goes_on_that_task(
    said: str, task_id: int, note: str
) -> None:
    assert _changes(_talk(), said) == [("update_task", {"task_id": task_id, "description": note})]
