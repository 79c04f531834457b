"""Repeating tasks over REST (issue 15), on both databases: the rule, its label, and a
completion that moves the same task to its next date."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlmodel import col, select

from backend.domain.due import today_in
from backend.models import TaskCompletion
from tests.conftest import ChatFn, UserSession


async def _create(client: httpx.AsyncClient, who: UserSession, **body: Any) -> dict[str, Any]:
    response = await client.post("/api/tasks", json=body, headers=who.headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def _patch(
    client: httpx.AsyncClient, who: UserSession, task_id: int, **body: Any
) -> dict[str, Any]:
    response = await client.patch(f"/api/tasks/{task_id}", json=body, headers=who.headers)
    assert response.status_code == 200, response.text
    patched: dict[str, Any] = response.json()
    return patched


async def test_a_repeat_phrase_is_stored_as_its_rule_with_a_label(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    before = today_in("UTC")
    task = await _create(client, user, title="Pay rent", repeat="every 1st of the month")
    after = today_in("UTC")
    assert task["repeat"] == "FREQ=MONTHLY;BYMONTHDAY=1"
    assert (task["repeat_from"], task["repeat_text"]) == ("schedule", "every month on the 1st")

    def first_of(today: date) -> str:
        following = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
        return (today if today.day == 1 else following).isoformat()

    # no date given: the rule's first day from today (a midnight may fall in the request)
    assert task["due_date"] in {first_of(before), first_of(after)}


async def test_completing_a_repeating_task_moves_it_to_its_next_date_and_keeps_it_pending(
    client: httpx.AsyncClient, user: UserSession, app: FastAPI
) -> None:
    task = await _create(
        client,
        user,
        title="Invoice",
        due_date="2030-01-31",
        due_time="09:00",
        repeat="FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
    )
    assert task["repeat_text"] == "every month on the 31st"
    done = await _patch(client, user, task["id"], completed=True)
    # the 31st falls on February's last day; still the same, pending task
    assert (done["id"], done["completed"], done["due_date"], done["due_time"]) == (
        task["id"],
        False,
        "2030-02-28",
        "09:00",
    )
    again = await _patch(client, user, task["id"], completed=True)
    assert again["due_date"] == "2030-03-31"
    async with app.state.sessionmaker() as session:
        completions = (
            await session.exec(
                select(TaskCompletion).where(col(TaskCompletion.owner_id) == user.id)
            )
        ).all()
    assert [(c.task_number, c.title, str(c.due_date)) for c in completions] == [
        (task["id"], "Invoice", "2030-01-31"),
        (task["id"], "Invoice", "2030-02-28"),
    ]


async def test_a_repeat_from_completion_counts_from_today(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, title="Water the fern", repeat="3 days after I finish it")
    assert (task["repeat_from"], task["repeat_text"]) == (
        "completion",
        "every 3 days after completion",
    )
    before = today_in("UTC")
    done = await _patch(client, user, task["id"], completed=True)
    after = today_in("UTC")
    assert done["due_date"] in {(d + timedelta(days=3)).isoformat() for d in (before, after)}


async def test_stopping_a_repeat_makes_the_next_completion_close_the_task(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, title="Bins", due_date="2030-01-01", repeat="every monday")
    rescheduled = await _patch(client, user, task["id"], due_date="2030-01-10")
    assert rescheduled["repeat"] == "FREQ=WEEKLY;BYDAY=MO"  # a reschedule keeps the rule
    stopped = await _patch(client, user, task["id"], repeat=None)
    assert (stopped["repeat"], stopped["repeat_text"]) == (None, None)
    done = await _patch(client, user, task["id"], completed=True)
    assert (done["completed"], done["due_date"]) == (True, "2030-01-10")


async def test_a_repeat_that_is_no_rule_or_phrase_is_a_422_that_says_what_works(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    for repeat in ("whenever", "FREQ=HOURLY", "FREQ=DAILY;COUNT=3"):
        response = await client.post(
            "/api/tasks", json={"title": "x", "repeat": repeat}, headers=user.headers
        )
        assert response.status_code == 422, repeat
        assert "repeat" in response.text
    task = await _create(client, user, title="x")
    response = await client.patch(
        f"/api/tasks/{task['id']}", json={"repeat": "sometimes"}, headers=user.headers
    )
    assert response.status_code == 422


async def test_another_users_repeating_task_cannot_be_completed(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    task = await _create(client, user, title="Mine", due_date="2030-01-01", repeat="daily")
    response = await client.patch(
        f"/api/tasks/{task['id']}", json={"completed": True}, headers=other_user.headers
    )
    assert response.status_code == 404
    [mine] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert mine["due_date"] == "2030-01-01"


async def test_completing_a_repeating_task_in_chat_says_when_it_is_next_and_undo_restores_it(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await _create(client, user, title="Pay rent", due_date="2030-01-01", repeat="every 1st")
    done = await chat("mark pay rent as done")
    assert done["response"].endswith(
        "I've marked 'Pay rent' as complete. It repeats every month on the 1st; "
        "next: Fri 1 Feb 2030."
    ), done["response"]
    [task] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (task["completed"], task["due_date"]) == (False, "2030-02-01")
    undone = await chat("undo")
    assert undone["response"] == "Undone: 'Pay rent' is back the way it was."
    [task] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (task["completed"], task["due_date"]) == (False, "2030-01-01")


async def test_a_repeat_said_in_chat_is_stored_with_its_first_day(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    added = await chat("remind me to water the plants every 3 days")
    assert "repeats every 3 days" in added["response"], added["response"]
    await chat("add stretch daily")
    await chat("add buy a daily planner")
    plants, stretch, planner = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (plants["title"], plants["repeat"]) == ("water the plants", "FREQ=DAILY;INTERVAL=3")
    assert plants["due_date"] is not None  # the rule's first day: today
    assert (stretch["title"], stretch["repeat_text"]) == ("stretch", "every day")
    assert (planner["title"], planner["repeat"]) == ("buy a daily planner", None)


async def test_skipping_stopping_and_setting_a_repeat_in_chat(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await _create(client, user, title="Pay rent", due_date="2030-01-01", repeat="every 1st")
    skipped = await chat("skip this one of pay rent")
    assert skipped["response"] == "Skipped: 'Pay rent' is next due Fri 1 Feb 2030."
    [task] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (task["due_date"], task["completed"]) == ("2030-02-01", False)
    undone = await chat("undo")
    assert undone["response"] == "Undone: 'Pay rent' is back the way it was."
    stopped = await chat("stop repeating pay rent")
    assert stopped["response"] == "Done: 'Pay rent' no longer has a repeat."
    restarted = await chat("make it repeat every monday")
    assert restarted["response"] == "Done: 'Pay rent' is now repeating every Monday."
    [task] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (task["due_date"], task["repeat"]) == ("2030-01-01", "FREQ=WEEKLY;BYDAY=MO")
    plain = await _create(client, user, title="Once")
    refused = await chat(f"skip task {plain['id']}")
    assert refused["response"] == (
        f"Task {plain['id']} doesn't repeat, so there's no next one to skip to."
    )
