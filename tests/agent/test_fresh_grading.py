"""The fresh batches' grading by state (corpus/fresh.py), and the batches' own labels.

The engine's figures on the fresh batches are printed by `python -m corpus.fresh` only: these
tests prove the grader and that every label can be replayed, never what the engine gets right.
"""

from __future__ import annotations

from typing import Any

import pytest

from corpus.fake_tools import FakeTaskStore
from corpus.fresh import DEV as DEV_FOLDER
from corpus.fresh import (
    TODAY,
    FreshConversation,
    FreshTurn,
    dated_start,
    expected_after,
    grade_turn,
    label_problems,
    load_fresh,
    run_fresh,
    store_state,
)
from corpus.real import Expectation, Observed


def _one_turn(say: str, intent: str, calls: list[dict[str, Any]]) -> FreshConversation:
    expect = Expectation.from_json({"intent": intent, "calls": calls, "asks": False})
    return FreshConversation("t", "terse", "k", "T", (FreshTurn(say, expect),))


def test_an_add_with_the_labelled_due_time_is_right() -> None:
    call = {"name": "add_task", "arguments": {"title": "buy stamps", "due": "2026-11-25T09:00"}}
    result = run_fresh(_one_turn("add buy stamps tomorrow at 9", "add", [call]))
    assert result.right and not result.unasked


def test_an_add_with_another_due_day_is_wrong_but_not_unasked() -> None:
    call = {"name": "add_task", "arguments": {"title": "buy stamps", "due": "2026-11-26T09:00"}}
    result = run_fresh(_one_turn("add buy stamps tomorrow at 9", "add", [call]))
    assert not result.right and not result.unasked


def test_deleting_a_task_whose_tag_was_to_change_is_an_unasked_change() -> None:
    # The label asks only for the tag to go; a delete of the task is the worst misreading.
    store = FakeTaskStore(dated_start(), TODAY)
    before = store_state(store)
    store.delete_task(15)

    expect = Expectation.from_json(
        {
            "intent": "update",
            "calls": [{"name": "update_task", "arguments": {"task_id": 15, "tags": []}}],
            "asks": False,
        }
    )
    wanted, _ = expected_after(FakeTaskStore(dated_start(), TODAY), expect)
    observed = Observed("delete", (), False, "")
    grade = grade_turn(before, store_state(wanted), store_state(store), ([], []), expect, observed)
    assert grade.unasked and not grade.right


def test_a_shown_list_is_graded_by_the_tasks_it_shows_not_by_its_arguments() -> None:
    # "today" and the one-day range of today show the same tasks: both are right.
    store = FakeTaskStore(dated_start(), TODAY)
    today = {"status": "pending", "due": "today"}
    same_day = {"status": "pending", "due_from": "2026-11-24", "due_to": "2026-11-24"}
    by_period = store.list_tasks(**today).model_dump(mode="json")
    by_range = store.list_tasks(**same_day).model_dump(mode="json")
    assert [t["id"] for t in by_period] == [t["id"] for t in by_range] == [1, 2]


def test_the_dated_start_has_the_overdue_task_and_the_repeats_of_the_guide() -> None:
    store = FakeTaskStore(dated_start(), TODAY)
    overdue = store.list_tasks(status="pending", due="overdue").model_dump(mode="json")
    assert [t["id"] for t in overdue] == [6]
    repeating = {t["id"]: t["repeat"] for t in store.tasks if t.get("repeat")}
    assert repeating == {9: "FREQ=WEEKLY;BYDAY=MO,TH", 15: "FREQ=WEEKLY;BYDAY=SA"}


def test_a_repeat_with_no_day_starts_on_its_first_day() -> None:
    store = FakeTaskStore(dated_start(), TODAY)
    change = store.add_task("pay rent", repeat="FREQ=MONTHLY;BYMONTHDAY=1")
    assert change.model_dump()["due_date"] == "2026-12-01"


def test_a_reminder_said_as_an_offset_or_as_a_moment_is_the_same_state() -> None:
    by_offset = FakeTaskStore(dated_start(), TODAY)
    by_moment = FakeTaskStore(dated_start(), TODAY)
    by_offset.update_task(4, remind_before=60)
    by_moment.update_task(4, remind_at="2026-11-26T14:00")
    assert store_state(by_offset)[4] == store_state(by_moment)[4]


# The fresh batches and the dev batches (written the same way, for tuning).
BATCHES = load_fresh() + load_fresh(DEV_FOLDER)


@pytest.mark.parametrize("conversation", [pytest.param(c, id=c.id) for c in BATCHES])
def test_every_fresh_and_dev_label_replays_on_the_dated_start(
    conversation: FreshConversation,
) -> None:
    assert label_problems(conversation) == []
