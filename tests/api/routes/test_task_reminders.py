"""A task's reminder over REST (issue 15), on both databases: the default of a timed task,
an offset that moves with the due, a fixed time that stays, and what is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.api.routes.test_task_repeats import _create, _patch
from tests.conftest import UserSession

DAY = "2031-03-04"


def _reminder(task: dict[str, Any]) -> tuple[str | None, int | None]:
    return task["remind_at"], task["remind_before"]


async def test_a_timed_task_reminds_at_its_time_and_an_all_day_one_does_not(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    timed = await _create(client, user, title="dentist", due_date=DAY, due_time="10:00")
    assert _reminder(timed) == ("2031-03-04T10:00:00Z", 0)
    all_day = await _create(client, user, title="bins", due_date=DAY)
    assert _reminder(all_day) == (None, None)


async def test_an_explicit_null_means_no_reminder_even_for_a_timed_task(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(
        client, user, title="dentist", due_date=DAY, due_time="10:00", remind_before=None
    )
    assert _reminder(task) == (None, None)


async def test_minutes_before_count_back_on_the_accounts_clock(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await client.patch("/api/auth/me", json={"timezone": "Asia/Tokyo"}, headers=user.headers)
    task = await _create(
        client, user, title="dentist", due_date=DAY, due_time="10:00", remind_before=30
    )
    assert _reminder(task) == ("2031-03-04T00:30:00Z", 30)  # 09:30 in Tokyo


async def test_a_fixed_time_for_an_undated_task_is_kept_as_given(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, title="call mom", remind_at="2031-03-05T08:00:00+02:00")
    assert _reminder(task) == ("2031-03-05T06:00:00Z", None)
    naive = await _create(client, user, title="call dad", remind_at="2031-03-05T08:00")
    assert _reminder(naive) == ("2031-03-05T08:00:00Z", None)  # the account's zone: UTC


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"remind_at": "2020-01-01T08:00:00Z"}, "remind_at must be in the future"),
        ({"remind_before": 30}, "remind_before needs a due_date (the task has none)"),
    ],
)
async def test_a_reminder_that_cannot_fire_is_refused_with_a_reason(
    client: httpx.AsyncClient, user: UserSession, body: dict[str, Any], detail: str
) -> None:
    [field] = body
    created = await client.post("/api/tasks", json={"title": "x", **body}, headers=user.headers)
    assert created.status_code == 422
    assert created.json()["detail"] == [
        {"type": "value_error", "loc": ["body", field], "msg": detail}
    ]
    task = await _create(client, user, title="y")
    patched = await client.patch(f"/api/tasks/{task['id']}", json=body, headers=user.headers)
    assert (patched.status_code, patched.json()) == (422, created.json())
    listed = (await client.get("/api/tasks", headers=user.headers)).json()
    assert [t["title"] for t in listed] == ["y"]  # the refused create left nothing behind


@pytest.mark.parametrize(
    "body",
    [
        {"remind_before": -1},
        {"remind_before": 40321},
        {"remind_before": "30"},
        {"remind_at": "tomorrow"},
        {"remind_at": "2031-03-05T08:00:00Z", "remind_before": 30},
    ],
)
async def test_malformed_reminders_are_422s(
    client: httpx.AsyncClient, user: UserSession, body: dict[str, Any]
) -> None:
    response = await client.post(
        "/api/tasks",
        json={"title": "x", "due_date": DAY, "due_time": "10:00", **body},
        headers=user.headers,
    )
    assert response.status_code == 422, response.text


async def test_a_reschedule_moves_an_offset_reminder_and_leaves_a_fixed_one(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    relative = await _create(
        client, user, title="dentist", due_date=DAY, due_time="10:00", remind_before=30
    )
    moved = await _patch(client, user, relative["id"], due_date="2031-03-06", due_time="15:00")
    assert _reminder(moved) == ("2031-03-06T14:30:00Z", 30)
    fixed = await _create(
        client, user, title="call", due_date=DAY, remind_at="2031-03-05T18:00:00Z"
    )
    assert _reminder(fixed) == ("2031-03-05T18:00:00Z", None)  # after the due: fixed
    stays = await _patch(client, user, fixed["id"], due_date="2031-03-10")
    assert _reminder(stays) == ("2031-03-05T18:00:00Z", None)


async def test_a_fixed_time_before_the_due_moves_with_it(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(
        client, user, title="flight", due_date=DAY, due_time="10:00", remind_at=f"{DAY}T08:00:00Z"
    )
    assert _reminder(task) == ("2031-03-04T08:00:00Z", 120)
    moved = await _patch(client, user, task["id"], due_date="2031-03-05")
    assert _reminder(moved) == ("2031-03-05T08:00:00Z", 120)


async def test_giving_a_task_its_first_time_adds_the_default_and_clearing_the_day_drops_it(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, title="dentist", due_date=DAY)
    timed = await _patch(client, user, task["id"], due_time="10:00")
    assert _reminder(timed) == ("2031-03-04T10:00:00Z", 0)
    undated = await _patch(client, user, task["id"], due_date=None)
    assert _reminder(undated) == (None, None)


async def test_null_turns_a_reminder_off_and_a_title_change_leaves_it(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, title="dentist", due_date=DAY, due_time="10:00")
    renamed = await _patch(client, user, task["id"], title="dentist (Dr Who)")
    assert _reminder(renamed) == ("2031-03-04T10:00:00Z", 0)
    off = await _patch(client, user, task["id"], remind_at=None)
    assert _reminder(off) == (None, None)
    again = await _patch(client, user, task["id"], remind_before=15)
    assert _reminder(again) == ("2031-03-04T09:45:00Z", 15)


async def test_a_done_task_reminds_no_more_and_reopening_it_arms_it_again(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(
        client, user, title="dentist", due_date=DAY, due_time="10:00", remind_before=60
    )
    done = await _patch(client, user, task["id"], completed=True)
    assert _reminder(done) == (None, 60)
    reopened = await _patch(client, user, task["id"], completed=False)
    assert _reminder(reopened) == ("2031-03-04T09:00:00Z", 60)


async def test_a_repeating_tasks_reminder_comes_again_for_its_next_date(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(
        client,
        user,
        title="standup",
        due_date=DAY,
        due_time="09:00",
        repeat="every week",
        remind_before=10,
    )
    moved = await _patch(client, user, task["id"], completed=True)
    assert (moved["completed"], moved["due_date"]) == (False, "2031-03-11")
    assert _reminder(moved) == ("2031-03-11T08:50:00Z", 10)


async def test_a_change_of_zone_keeps_a_relative_reminders_wall_clock_time(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(
        client, user, title="dentist", due_date=DAY, due_time="10:00", remind_before=30
    )
    fixed = await _create(client, user, title="call", remind_at="2031-03-05T08:00:00Z")
    await client.patch("/api/auth/me", json={"timezone": "America/New_York"}, headers=user.headers)
    moved = (await client.get(f"/api/tasks/{task['id']}", headers=user.headers)).json()
    assert _reminder(moved) == ("2031-03-04T14:30:00Z", 30)  # 09:30 in New York (EST)
    kept = (await client.get(f"/api/tasks/{fixed['id']}", headers=user.headers)).json()
    assert _reminder(kept) == ("2031-03-05T08:00:00Z", None)  # an instant is an instant


async def test_a_reminder_already_past_its_time_is_kept_as_an_offset_but_not_armed(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    soon = datetime.now(UTC) + timedelta(minutes=10)
    task = await _create(
        client,
        user,
        title="leave",
        due_date=soon.date().isoformat(),
        due_time=f"{soon:%H:%M}",
        remind_before=60,
    )
    assert _reminder(task) == (None, 60)
