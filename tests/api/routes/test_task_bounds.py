"""Rules and dates the service can compute with (issue 30), over REST on both databases.

A repeat whose step is nothing or that never comes round is a 422 saying why, as are due dates
and reminder times outside the years 1900 to 2999; a completion never trips on a request's own
fields. What was stored before these bounds (a rule with INTERVAL=0, a task due 9999-12-31)
still completes, moves with a change of zone and shows in the calendar feed.
"""

from __future__ import annotations

from datetime import date, time
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, select, update

from backend.domain.due import today_in
from backend.models import Task
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


def _refusal(response: httpx.Response) -> tuple[list[str], str]:
    """A 422's field and message."""
    assert response.status_code == 422, response.text
    [problem] = response.json()["detail"]
    return problem["loc"], problem["msg"]


async def _zone(client: httpx.AsyncClient, who: UserSession, zone: str) -> None:
    response = await client.patch("/api/auth/me", json={"timezone": zone}, headers=who.headers)
    assert response.status_code == 200, response.text


async def _store(app: FastAPI, who: UserSession, task_id: int, **columns: Any) -> None:
    """Columns written as data stored before the bounds were: past every check."""
    async with app.state.sessionmaker() as session:
        await session.exec(
            update(Task)
            .where(col(Task.owner_id) == who.id, col(Task.number) == task_id)
            .values(**columns)
        )
        await session.commit()


@pytest.mark.parametrize(
    ("repeat", "why"),
    [
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("FREQ=DAILY;INTERVAL=-1", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("0 days after I finish it", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("FREQ=YEARLY;INTERVAL=11", "INTERVAL must be from 1 to 10 for a yearly repeat"),
    ],
)
async def test_a_rule_with_interval_zero_is_refused_with_a_422_saying_why(
    client: httpx.AsyncClient, user: UserSession, repeat: str, why: str
) -> None:
    for body in ({}, {"due_date": "2030-01-01"}):
        response = await client.post(
            "/api/tasks", json={"title": "Water", "repeat": repeat, **body}, headers=user.headers
        )
        loc, message = _refusal(response)
        assert loc == ["body", "repeat"] and why in message, message
    task = await _create(client, user, title="Water", due_date="2030-01-01")
    response = await client.patch(
        f"/api/tasks/{task['id']}", json={"repeat": repeat}, headers=user.headers
    )
    loc, message = _refusal(response)
    assert loc == ["body", "repeat"] and why in message, message
    [kept] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert kept["repeat"] is None


@pytest.mark.parametrize(
    "repeat",
    [
        "FREQ=YEARLY;BYSETPOS=366",
        "FREQ=DAILY;BYSETPOS=366",
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
        "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6",
    ],
)
async def test_a_rule_that_never_comes_round_is_refused_with_a_422_saying_why(
    client: httpx.AsyncClient, user: UserSession, repeat: str
) -> None:
    for body in ({}, {"due_date": "2030-01-01", "due_time": "09:00"}):
        response = await client.post(
            "/api/tasks", json={"title": "Never", "repeat": repeat, **body}, headers=user.headers
        )
        loc, message = _refusal(response)
        assert loc == ["body", "repeat"], loc
        assert message.startswith(f"repeat {repeat!r} never comes round: no day after "), message
    task = await _create(client, user, title="Never", due_date="2030-01-01")
    response = await client.patch(
        f"/api/tasks/{task['id']}", json={"repeat": repeat}, headers=user.headers
    )
    assert _refusal(response)[0] == ["body", "repeat"]
    assert len((await client.get("/api/tasks", headers=user.headers)).json()) == 1


async def test_a_due_date_that_leaves_the_rule_no_date_is_refused_naming_the_repeat(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    # February, on the due date's day of the month: every 1st, but never a 30th
    task = await _create(
        client, user, title="Feb", due_date="2030-01-01", repeat="FREQ=YEARLY;BYMONTH=2"
    )
    response = await client.patch(
        f"/api/tasks/{task['id']}", json={"due_date": "2030-01-30"}, headers=user.headers
    )
    loc, message = _refusal(response)
    assert loc == ["body", "repeat"] and "never comes round" in message, message
    [kept] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert kept["due_date"] == "2030-01-01"


@pytest.mark.parametrize(
    "rule", ["FREQ=DAILY;INTERVAL=0", "FREQ=DAILY;INTERVAL=-1", "FREQ=YEARLY;BYSETPOS=366"]
)
async def test_completing_a_stored_rule_that_cannot_repeat_completes_the_task_and_stops_it(
    client: httpx.AsyncClient, user: UserSession, app: FastAPI, rule: str
) -> None:
    task = await _create(client, user, title="Legacy", due_date="2030-01-01", repeat="daily")
    await _store(app, user, task["id"], repeat_rule=rule)
    listed = (await client.get(f"/api/tasks/{task['id']}", headers=user.headers)).json()
    assert (listed["repeat"], listed["repeat_text"]) == (rule, rule)  # labelled as it is
    done = await _patch(client, user, task["id"], completed=True)
    assert (done["completed"], done["due_date"], done["repeat"], done["repeat_text"]) == (
        True,
        "2030-01-01",
        None,
        None,
    )


async def test_completing_a_stored_rule_that_cannot_repeat_in_bulk_completes_it(
    client: httpx.AsyncClient, user: UserSession, app: FastAPI
) -> None:
    task = await _create(client, user, title="Legacy", due_date="2030-01-01", repeat="daily")
    await _store(app, user, task["id"], repeat_rule="FREQ=DAILY;INTERVAL=0")
    response = await client.post(
        "/api/chat", json={"message": "complete all my tasks"}, headers=user.headers
    )
    assert response.status_code == 200, response.text
    [done] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (done["completed"], done["repeat"]) == (True, None)


async def test_completing_with_a_null_reminder_completes_the_task(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    plain = await _create(client, user, title="Call", due_date="2030-01-01", due_time="09:00")
    done = await _patch(client, user, plain["id"], completed=True, remind_before=None)
    assert (done["completed"], done["remind_at"], done["remind_before"]) == (True, None, None)
    other = await _create(client, user, title="Write", due_date="2030-01-01", due_time="09:00")
    done = await _patch(client, user, other["id"], completed=True, remind_at=None)
    assert (done["completed"], done["remind_at"]) == (True, None)
    kept = await _create(client, user, title="Read", due_date="2030-01-01", due_time="09:00")
    done = await _patch(client, user, kept["id"], completed=True, remind_before=30)
    # a done task reminds no more; its offset is kept for a reopening
    assert (done["completed"], done["remind_at"], done["remind_before"]) == (True, None, 30)
    weekly = await _create(
        client, user, title="Bins", due_date="2030-01-07", due_time="07:00", repeat="weekly"
    )
    moved = await _patch(client, user, weekly["id"], completed=True, remind_before=None)
    assert (moved["completed"], moved["due_date"], moved["remind_at"]) == (
        False,
        "2030-01-14",
        None,
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"due_date": "9999-12-31", "due_time": "23:59"}, "due_date"),
        ({"due_date": "0001-01-01", "due_time": "00:00"}, "due_date"),
        ({"due_date": "1899-12-31"}, "due_date"),
        ({"due_date": "3000-01-01"}, "due_date"),
        ({"remind_at": "0001-01-01T00:00:00"}, "remind_at"),
        ({"remind_at": "9999-12-31T23:59:00"}, "remind_at"),
        ({"remind_at": "9999-12-31T23:59:00-12:00"}, "remind_at"),
        ({"remind_at": "3000-01-01T00:00:00Z"}, "remind_at"),
    ],
)
async def test_a_date_outside_the_supported_years_is_a_422_naming_the_field(
    client: httpx.AsyncClient, user: UserSession, body: dict[str, Any], field: str
) -> None:
    await _zone(client, user, "Etc/GMT+12")
    response = await client.post("/api/tasks", json={"title": "x", **body}, headers=user.headers)
    loc, message = _refusal(response)
    assert loc == ["body", field], loc
    assert f"{field} must be from 1900-01-01 to 2999-12-31" in message, message
    task = await _create(client, user, title="x")
    response = await client.patch(f"/api/tasks/{task['id']}", json=body, headers=user.headers)
    assert _refusal(response)[0] == ["body", field]
    await _zone(client, user, "Etc/GMT-14")
    response = await client.post("/api/tasks", json={"title": "x", **body}, headers=user.headers)
    assert _refusal(response)[0] == ["body", field]


async def test_the_first_and_last_supported_days_are_kept_in_any_zone(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    for zone in ("Etc/GMT+12", "Etc/GMT-14"):
        await _zone(client, user, zone)
        first = await _create(client, user, title="a", due_date="1900-01-01", due_time="00:00")
        last = await _create(
            client, user, title="b", due_date="2999-12-31", due_time="23:59", remind_before=0
        )
        assert (first["due_date"], last["due_date"]) == ("1900-01-01", "2999-12-31")
        reminded = await _create(client, user, title="c", remind_at="2999-12-31T23:59:00")
        assert reminded["remind_at"] is not None


async def test_completing_a_yearly_task_on_the_last_supported_day_ends_its_repeat(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Etc/GMT+12")
    task = await _create(
        client, user, title="Last", due_date="2998-12-31", due_time="23:59", repeat="yearly"
    )
    moved = await _patch(client, user, task["id"], completed=True)
    assert (moved["completed"], moved["due_date"], moved["repeat"]) == (
        False,
        "2999-12-31",
        "FREQ=YEARLY",
    )
    done = await _patch(client, user, task["id"], completed=True)
    assert (done["completed"], done["due_date"], done["repeat"]) == (True, "2999-12-31", None)
    # a repeat with no date after its first is no repeat: refused, saying why
    response = await client.post(
        "/api/tasks",
        json={"title": "x", "due_date": "2999-12-31", "repeat": "yearly"},
        headers=user.headers,
    )
    loc, message = _refusal(response)
    assert loc == ["body", "repeat"]
    assert message == (
        "repeat 'FREQ=YEARLY' has no date after 2999-12-31 by 2999-12-31, the last day"
    )


async def _stored_at_the_ends(app: FastAPI, client: httpx.AsyncClient, user: UserSession) -> None:
    """Tasks due at the calendar's very ends, with reminders and a yearly rule, as they could
    be stored before dates were bounded."""
    for title, day, clock in (
        ("Last", date(9999, 12, 31), time(23, 59)),
        ("First", date(1, 1, 1), time(0, 0)),
        ("Last all day", date(9999, 12, 31), None),
    ):
        task = await _create(client, user, title=title, due_date="2030-01-01", due_time="09:00")
        await _store(app, user, task["id"], due_date=day, due_time=clock, repeat_rule="FREQ=YEARLY")


async def test_the_calendar_feed_serves_tasks_stored_at_the_ends_of_the_calendar(
    client: httpx.AsyncClient, user: UserSession, app: FastAPI
) -> None:
    await _zone(client, user, "Etc/GMT+12")
    await _stored_at_the_ends(app, client, user)
    await _create(client, user, title="Ordinary", due_date="2030-01-01", repeat="weekly")
    legacy = await _create(client, user, title="Legacy", due_date="2030-01-01", repeat="daily")
    await _store(app, user, legacy["id"], repeat_rule="FREQ=DAILY;INTERVAL=0")
    opened = await client.post("/api/calendar/feed", headers=user.headers)
    assert opened.status_code in (200, 201), opened.text
    feed = await client.get(opened.json()["url"])
    assert feed.status_code == 200, feed.text
    assert "SUMMARY:Ordinary" in feed.text and "RRULE:FREQ=WEEKLY" in feed.text
    assert "SUMMARY:Last" not in feed.text  # no day past the calendar's end is published
    # a rule stored before rules were checked is not handed to calendar apps: its day shows once
    assert "SUMMARY:Legacy" in feed.text and "INTERVAL=0" not in feed.text


@pytest.mark.parametrize("zone", ["Etc/GMT-14", "Etc/GMT+12"])
async def test_changing_the_zone_keeps_working_with_tasks_stored_at_the_ends_of_the_calendar(
    client: httpx.AsyncClient, user: UserSession, app: FastAPI, zone: str
) -> None:
    await _stored_at_the_ends(app, client, user)
    await _zone(client, user, zone)
    tasks = (await client.get("/api/tasks?sort=due", headers=user.headers)).json()
    assert [t["due_date"] for t in tasks] == ["0001-01-01", "9999-12-31", "9999-12-31"]
    first, *lasts = tasks
    # the year-1 task moves on to its next 1 January (no walk through 2000 years); those
    # due past the calendar's end complete, their yearly rule having no date left
    moved = await _patch(client, user, first["id"], completed=True)
    next_new_year = date(today_in(zone).year + 1, 1, 1).isoformat()
    assert (moved["completed"], moved["due_date"]) == (False, next_new_year)
    for task in lasts:
        done = await _patch(client, user, task["id"], completed=True)
        assert (done["completed"], done["due_date"], done["repeat"]) == (True, "9999-12-31", None)
    async with app.state.sessionmaker() as session:
        rows = (await session.exec(select(Task).where(col(Task.owner_id) == user.id))).all()
    assert all(row.due_at is not None for row in rows)


async def test_a_task_given_no_date_by_a_rare_rule_starts_on_its_first_day(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(
        client, user, title="Leap Monday", repeat="FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"
    )
    leap_mondays = [date(y, 2, 29) for y in (2044, 2072) if date(y, 2, 29) >= today_in("UTC")]
    assert task["due_date"] == leap_mondays[0].isoformat()


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        (
            "remind me to water the plants 0 days after I finish it",
            "I can't set that repeat: a repeat can be every 1 to 3650 days. Try one like "
            "'every monday' or 'every 3 days'.",
        ),
        (
            "add stretch every 999 months",
            "I can't set that repeat: a repeat can be every 1 to 120 months. Try one like "
            "'every monday' or 'every 3 days'.",
        ),
        (
            "add file taxes on 31 December 9999",
            "I can only keep dates from the year 1900 to 2999. Which date did you mean?",
        ),
        (
            "remind me to call mom on 31/12/3000",
            "I can only keep dates from the year 1900 to 2999. Which date did you mean?",
        ),
    ],
)
async def test_a_repeat_or_date_the_service_cannot_keep_gets_a_reply_saying_why_in_chat(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn, message: str, reply: str
) -> None:
    answered = await chat(message)
    assert answered["response"] == reply
    assert (await client.get("/api/tasks", headers=user.headers)).json() == []


async def test_completing_a_stored_rule_that_cannot_repeat_in_chat_says_it_wont_repeat_again(
    client: httpx.AsyncClient, user: UserSession, app: FastAPI, chat: ChatFn
) -> None:
    task = await _create(client, user, title="Legacy", due_date="2030-01-01", repeat="daily")
    await _store(app, user, task["id"], repeat_rule="FREQ=DAILY;INTERVAL=0")
    skipped = await chat("skip this one of legacy")
    assert skipped["response"] == (
        f"Task {task['id']} has no next date to skip to: its rule 'FREQ=DAILY;INTERVAL=0' can no "
        "longer be kept: INTERVAL must be from 1 to 3650 for a daily repeat (every 1 to 3650 "
        "days)."
    )
    done = await chat("mark legacy as done")
    assert done["response"].endswith(
        "I've marked 'Legacy' as complete. It won't repeat again: its rule "
        "'FREQ=DAILY;INTERVAL=0' can no longer be kept: INTERVAL must be from 1 to 3650 for a "
        "daily repeat (every 1 to 3650 days)."
    ), done["response"]
    [closed] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (closed["completed"], closed["repeat"]) == (True, None)
    undone = await chat("undo")
    assert undone["response"] == "Undone: 'Legacy' is back on your pending list."
    [reopened] = (await client.get("/api/tasks", headers=user.headers)).json()
    assert (reopened["completed"], reopened["due_date"]) == (False, "2030-01-01")
