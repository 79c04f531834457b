"""Due-day ranges on task lists (`TaskQuery.due_from` / `due_to`), on both databases."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from fastapi import FastAPI

from backend.domain.due import today_in
from backend.domain.errors import DueRangeError
from backend.models import TaskCreate, TaskStatus
from backend.services import tasks, users
from tests.conftest import unique_email

ZONE = "Pacific/Kiritimati"  # UTC+14: its days are not the server's
DAYS = {
    "Nov 25": date(2030, 11, 25),
    "Nov 26 morning": date(2030, 11, 26),
    "Nov 26 evening": date(2030, 11, 26),
    "Nov 27": date(2030, 11, 27),
    "Dec 1": date(2030, 12, 1),
    "undated": None,
}


async def _owner(app: FastAPI) -> int:
    async with app.state.sessionmaker() as session:
        user = await users.register_user(
            session, email=unique_email(), password="pw-12345678", timezone=ZONE
        )
    assert user.id is not None
    return user.id


async def _add(app: FastAPI, owner: int, days: dict[str, date | None]) -> None:
    async with app.state.sessionmaker() as session:
        for title, day in days.items():
            data = TaskCreate(title=title, due_date=day)
            await tasks.create_task(session, user_id=owner, data=data)


async def _titles(app: FastAPI, owner: int, **filters: object) -> list[str]:
    async with app.state.sessionmaker() as session:
        query = tasks.TaskQuery(**filters)  # type: ignore[arg-type]
        page = await tasks.task_page(session, user_id=owner, query=query)
    return [task.title for task in page.tasks]


async def test_a_one_day_range_keeps_only_the_tasks_due_that_day(app: FastAPI) -> None:
    owner = await _owner(app)
    await _add(app, owner, DAYS)
    day = date(2030, 11, 26)
    found = await _titles(app, owner, due_from=day, due_to=day)
    assert found == ["Nov 26 morning", "Nov 26 evening"]


async def test_a_range_includes_both_of_its_ends(app: FastAPI) -> None:
    owner = await _owner(app)
    await _add(app, owner, DAYS)
    found = await _titles(app, owner, due_from=date(2030, 11, 25), due_to=date(2030, 11, 27))
    assert found == ["Nov 25", "Nov 26 morning", "Nov 26 evening", "Nov 27"]


async def test_a_range_open_at_its_end_keeps_every_task_due_from_its_first_day(
    app: FastAPI,
) -> None:
    owner = await _owner(app)
    await _add(app, owner, DAYS)
    found = await _titles(app, owner, due_from=date(2030, 11, 27))
    assert found == ["Nov 27", "Dec 1"]


async def test_a_range_open_at_its_start_keeps_every_task_due_up_to_its_last_day(
    app: FastAPI,
) -> None:
    owner = await _owner(app)
    await _add(app, owner, DAYS)
    found = await _titles(app, owner, due_to=date(2030, 11, 26))
    assert found == ["Nov 25", "Nov 26 morning", "Nov 26 evening"]


async def test_a_task_with_no_due_date_is_in_no_range(app: FastAPI) -> None:
    owner = await _owner(app)
    await _add(app, owner, {"undated": None, "also undated": None})
    wide_from, wide_to = date(1900, 1, 1), date(2999, 12, 31)
    assert await _titles(app, owner, due_from=wide_from) == []
    assert await _titles(app, owner, due_to=wide_to) == []
    assert await _titles(app, owner, due_from=wide_from, due_to=wide_to) == []


async def test_a_range_holds_together_with_the_due_period_and_the_status(app: FastAPI) -> None:
    owner = await _owner(app)
    today = today_in(ZONE)
    await _add(
        app,
        owner,
        {
            "yesterday": today - timedelta(days=1),
            "today": today,
            "tomorrow": today + timedelta(days=1),
            "in three days": today + timedelta(days=3),
            "in ten days": today + timedelta(days=10),
            "undated": None,
        },
    )
    async with app.state.sessionmaker() as session:
        await tasks.complete_task(session, user_id=owner, task_id=3)  # tomorrow
    wide = {"due_from": today - timedelta(days=1), "due_to": today + timedelta(days=20)}
    in_week = await _titles(app, owner, due=tasks.DueFilter.NEXT_7_DAYS, **wide)
    assert in_week == ["today", "tomorrow", "in three days"]
    # the period and the range both hold: only days in both
    narrow = {"due_from": today + timedelta(days=1), "due_to": today + timedelta(days=20)}
    both = await _titles(app, owner, due=tasks.DueFilter.NEXT_7_DAYS, **narrow)
    assert both == ["tomorrow", "in three days"]
    pending = await _titles(
        app, owner, due=tasks.DueFilter.NEXT_7_DAYS, status=TaskStatus.PENDING, **narrow
    )
    assert pending == ["in three days"]
    done = await _titles(app, owner, status=TaskStatus.COMPLETED, **wide)
    assert done == ["tomorrow"]
    # a period that has no day in the range: nothing
    assert await _titles(app, owner, due=tasks.DueFilter.TODAY, **narrow) == []
    assert await _titles(app, owner, due=tasks.DueFilter.NO_DATE, **wide) == []


async def test_the_total_counts_only_the_tasks_in_the_range(app: FastAPI) -> None:
    owner = await _owner(app)
    await _add(app, owner, DAYS)
    query = tasks.TaskQuery(due_from=date(2030, 11, 26), due_to=date(2030, 12, 1), limit=1)
    async with app.state.sessionmaker() as session:
        page = await tasks.task_page(session, user_id=owner, query=query)
        total = await tasks.matching_total(session, user_id=owner, query=query, page=page)
    assert [task.title for task in page.tasks] == ["Nov 26 morning"]
    assert (total, page.next_offset) == (4, 1)


def test_a_range_that_ends_before_it_starts_is_refused_saying_so() -> None:
    with pytest.raises(DueRangeError) as refused:
        tasks.TaskQuery(due_from=date(2030, 11, 27), due_to=date(2030, 11, 26))
    assert str(refused.value) == (
        "due_from (2030-11-27) is after due_to (2030-11-26): a range runs from its first day "
        "to its last"
    )
    assert refused.value.field == "due_from"
