"""Snoozing a reminder over REST (issue 33, item 2), on both databases: the card goes, and
the reminder fires again at the snooze time, once, as a new reminder; what may be snoozed,
until when, and by whom. The clock is never waited for: a test moves a snooze's time into the
past in the database and sweeps, as the clock reaching it would leave things."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, select, update

from backend.models import Reminder
from tests.api.routes.reminder_clock import reminders_due_now
from tests.conftest import UserSession, unique_email


async def _snooze_ends(app: FastAPI, owner_id: int) -> None:
    """The clock reaches the account's snoozes, and the scheduler sweeps."""
    async with app.state.sessionmaker() as session:
        await session.exec(
            update(Reminder)
            .where(col(Reminder.owner_id) == owner_id, col(Reminder.snoozed_until).is_not(None))
            .values(snoozed_until=datetime.now(UTC) - timedelta(seconds=1))
        )
        await session.commit()
    await app.state.reminder_scheduler.sweep()


async def _snoozes(app: FastAPI, owner_id: int) -> list[datetime | None]:
    async with app.state.sessionmaker() as session:
        rows = await session.exec(
            select(Reminder.snoozed_until)
            .where(col(Reminder.owner_id) == owner_id)
            .order_by(col(Reminder.id))
        )
        return list(rows.all())


async def _task(client: httpx.AsyncClient, who: UserSession, title: str) -> None:
    body = {"title": title, "due_date": "2031-03-04", "due_time": "10:00"}
    response = await client.post("/api/tasks", json=body, headers=who.headers)
    assert response.status_code == 201, response.text


async def _listed(client: httpx.AsyncClient, who: UserSession) -> list[dict[str, Any]]:
    response = await client.get("/api/reminders", headers=who.headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["reminders"]
    return found


async def _shown(
    app: FastAPI, client: httpx.AsyncClient, who: UserSession, title: str
) -> dict[str, Any]:
    """A task of that title whose reminder has fired and is shown."""
    await _task(client, who, title)
    numbers = [task["id"] for task in (await client.get("/api/tasks", headers=who.headers)).json()]
    await reminders_due_now(app, who.id, max(numbers))
    [reminder] = [r for r in await _listed(client, who) if r["title"] == title]
    return reminder


async def _snooze(
    client: httpx.AsyncClient, who: UserSession, reminder_id: int, body: dict[str, Any]
) -> httpx.Response:
    return await client.post(f"/api/reminders/{reminder_id}/snooze", json=body, headers=who.headers)


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def test_a_snoozed_reminder_goes_and_fires_again_once_at_its_time(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "dentist")
    before = datetime.now(UTC)
    response = await _snooze(client, user, shown["id"], {"minutes": 10})
    after = datetime.now(UTC)
    assert response.status_code == 200, response.text
    body = response.json()
    # The task's new reminder: the one snoozed, to fire again at its new time.
    assert set(body) == {
        "id",
        "task_id",
        "title",
        "due_at",
        "remind_at",
        "fired_at",
        "snoozed_until",
    }
    assert (body["id"], body["task_id"], body["title"]) == (shown["id"], 1, "dentist")
    assert body["remind_at"] == body["snoozed_until"]
    until = _instant(body["snoozed_until"])
    assert before + timedelta(minutes=10) <= until <= after + timedelta(minutes=10)
    assert await _listed(client, user) == []  # the card goes, here and on the next visit
    # The task's own reminder settings are not touched: the snooze lives on the reminder.
    task = (await client.get("/api/tasks/1", headers=user.headers)).json()
    assert (task["remind_at"], task["remind_before"]) == (None, 0)

    await app.state.reminder_scheduler.sweep()  # not yet: the snooze is ahead
    assert await _listed(client, user) == []

    await _snooze_ends(app, user.id)
    [again] = await _listed(client, user)
    assert again["id"] > shown["id"]  # a new reminder, which no screen has dismissed
    assert (again["task_id"], again["title"], again["due_at"]) == (
        1,
        "dentist",
        "2031-03-04T10:00:00Z",
    )
    assert _instant(again["remind_at"]) < _instant(again["fired_at"])
    assert await _snoozes(app, user.id) == [None, None]

    await app.state.reminder_scheduler.sweep()  # once: a later sweep fires nothing more
    assert [r["id"] for r in await _listed(client, user)] == [again["id"]]


async def test_a_snooze_until_a_time_without_an_offset_is_on_the_accounts_clock(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    registered = await client.post(
        "/api/auth/register",
        json={
            "email": unique_email(),
            "password": "correct horse battery",
            "timezone": "Asia/Tokyo",
        },
    )
    account = registered.json()
    who = UserSession(account["user"]["id"], account["user"]["email"], account["access_token"])
    shown = await _shown(app, client, who, "call mum")
    tokyo_tomorrow = (datetime.now(UTC) + timedelta(hours=9) + timedelta(days=1)).date()
    # "Tomorrow 9:00" as the web UI sends it: the account's day and clock, no offset.
    asked = f"{tokyo_tomorrow.isoformat()}T09:00:00"
    response = await _snooze(client, who, shown["id"], {"until": asked})
    assert response.status_code == 200, response.text
    # 09:00 in Tokyo (UTC+9, no daylight saving) is 00:00 UTC the same day.
    assert response.json()["snoozed_until"] == f"{tokyo_tomorrow.isoformat()}T00:00:00Z"
    # With an offset, the instant is taken as it is.
    instant = (datetime.now(UTC) + timedelta(hours=5)).replace(microsecond=0)
    again = await _snooze(client, who, shown["id"], {"until": instant.isoformat()})
    assert _instant(again.json()["snoozed_until"]) == instant


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        ({"until": "2020-01-01T08:00:00Z"}, ["body", "until"], "until must be in the future"),
        ({"minutes": 0}, ["body", "minutes"], "greater than or equal to 1"),
        ({"minutes": 43_201}, ["body", "minutes"], "less than or equal to 43200"),
        ({"minutes": "10"}, ["body", "minutes"], "valid integer"),
        ({"minutes": 10, "until": "2031-01-01T08:00:00Z"}, ["body"], "not both"),
        ({}, ["body"], "give minutes or until"),
        ({"minutes": None}, ["body"], "give minutes or until"),
    ],
)
async def test_a_snooze_that_cannot_be_is_refused_with_a_reason(
    app: FastAPI,
    client: httpx.AsyncClient,
    user: UserSession,
    body: dict[str, Any],
    where: list[str],
    message: str,
) -> None:
    shown = await _shown(app, client, user, "x")
    response = await _snooze(client, user, shown["id"], body)
    assert response.status_code == 422, response.text
    [problem] = response.json()["detail"]
    assert problem["loc"] == where
    assert message in problem["msg"]
    assert len(await _listed(client, user)) == 1  # nothing changed


async def test_a_snooze_reaches_at_most_30_days_ahead(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "far")
    too_far = datetime.now(UTC) + timedelta(days=30, minutes=5)
    response = await _snooze(client, user, shown["id"], {"until": too_far.isoformat()})
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert problem["loc"] == ["body", "until"]
    assert problem["msg"] == "until must be at most 30 days ahead (43,200 minutes)"
    far = await _snooze(client, user, shown["id"], {"minutes": 43_200})
    assert far.status_code == 200, far.text
    # 43,200.0 is a whole number to JSON, as it is for every other count of the API.
    assert (await _snooze(client, user, shown["id"], {"minutes": 43_200.0})).status_code == 200


async def test_nobody_snoozes_another_users_reminder(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    mine = await _shown(app, client, user, "mine")
    theirs = await _snooze(client, other_user, mine["id"], {"minutes": 10})
    assert (theirs.status_code, theirs.json()) == (404, {"detail": "Reminder not found"})
    missing = await _snooze(client, user, 2**31 - 1, {"minutes": 10})
    assert missing.status_code == 404
    assert [r["id"] for r in await _listed(client, user)] == [mine["id"]]
    assert await _snoozes(app, user.id) == [None]
    anonymous = await client.post(f"/api/reminders/{mine['id']}/snooze", json={"minutes": 10})
    assert anonymous.status_code == 401


async def test_a_snoozed_reminder_can_be_snoozed_anew_until_it_fires_again(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "stretch")
    first = await _snooze(client, user, shown["id"], {"minutes": 10})
    later = await _snooze(client, user, shown["id"], {"minutes": 60})
    assert later.status_code == 200  # a retry, or another screen's choice: the time moves
    assert _instant(later.json()["snoozed_until"]) > _instant(first.json()["snoozed_until"])
    await _snooze_ends(app, user.id)
    [again] = await _listed(client, user)
    # Fired again: the old one is spent, the new one is what there is to snooze now.
    spent = await _snooze(client, user, shown["id"], {"minutes": 10})
    assert spent.status_code == 409
    assert "snooze the one shown" in spent.json()["detail"]
    assert (await _snooze(client, user, again["id"], {"minutes": 10})).status_code == 200


async def test_a_dismissed_reminder_or_one_whose_task_is_done_is_not_snoozed(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    dismissed = await _shown(app, client, user, "dismissed")
    await client.delete(f"/api/reminders/{dismissed['id']}", headers=user.headers)
    refused = await _snooze(client, user, dismissed["id"], {"minutes": 10})
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("The reminder is dismissed")
    done = await _shown(app, client, user, "done")
    await client.patch(
        f"/api/tasks/{done['task_id']}", json={"completed": True}, headers=user.headers
    )
    moot = await _snooze(client, user, done["id"], {"minutes": 10})
    assert (moot.status_code, moot.json()) == (
        409,
        {"detail": "The reminder's task is done: there is nothing to snooze"},
    )
    assert await _snoozes(app, user.id) == [None, None]


async def test_dismissing_a_snoozed_reminder_leaves_its_snooze(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    """Another screen still showing the card dismisses it: the snooze asked for stands."""
    shown = await _shown(app, client, user, "both screens")
    await _snooze(client, user, shown["id"], {"minutes": 10})
    gone = await client.delete(f"/api/reminders/{shown['id']}", headers=user.headers)
    assert gone.status_code == 204
    assert (await client.delete("/api/reminders", headers=user.headers)).json() == {"dismissed": 0}
    await _snooze_ends(app, user.id)
    assert [r["title"] for r in await _listed(client, user)] == ["both screens"]


async def test_a_snooze_fires_with_the_task_as_it_is_then(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "old name")
    await _snooze(client, user, shown["id"], {"minutes": 10})
    await client.patch(
        "/api/tasks/1",
        json={"title": "new name", "due_date": "2031-03-05", "remind_at": None},
        headers=user.headers,
    )
    await _snooze_ends(app, user.id)
    [again] = await _listed(client, user)
    assert (again["title"], again["due_at"]) == ("new name", "2031-03-05T10:00:00Z")


async def test_a_snooze_coming_due_for_a_task_done_since_ends_without_firing(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "done meanwhile")
    await _snooze(client, user, shown["id"], {"minutes": 10})
    await client.patch("/api/tasks/1", json={"completed": True}, headers=user.headers)
    await _snooze_ends(app, user.id)
    assert await _snoozes(app, user.id) == [None]  # spent, not kept for a reopening
    await client.patch("/api/tasks/1", json={"completed": False}, headers=user.headers)
    await app.state.reminder_scheduler.sweep()
    assert await _listed(client, user) == []


async def test_deleting_a_task_takes_its_snoozed_reminder_with_it(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "deleted")
    await _snooze(client, user, shown["id"], {"minutes": 10})
    assert (await client.delete("/api/tasks/1", headers=user.headers)).status_code == 204
    assert await _snoozes(app, user.id) == []
    await _snooze_ends(app, user.id)
    assert await _listed(client, user) == []


async def test_the_snooze_path_takes_only_a_reminder_id(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    for bad in ("0", str(2**31), "abc"):
        response = await client.post(
            f"/api/reminders/{bad}/snooze", json={"minutes": 10}, headers=user.headers
        )
        assert response.status_code == 422, bad
        assert response.json()["detail"][0]["loc"] == ["path", "reminder_id"]


async def test_undoing_a_snooze_shows_the_reminder_again_and_it_does_not_fire_twice(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    shown = await _shown(app, client, user, "water plants")
    assert (await _snooze(client, user, shown["id"], {"minutes": 60})).status_code == 200
    assert await _listed(client, user) == []

    undone = await client.delete(f"/api/reminders/{shown['id']}/snooze", headers=user.headers)
    assert undone.status_code == 200, undone.text
    assert undone.json() == shown  # the old reminder, back as it was
    assert await _listed(client, user) == [shown]
    assert await _snoozes(app, user.id) == [None]

    await _snooze_ends(app, user.id)  # nothing snoozed is left to fire
    assert await _listed(client, user) == [shown]
    again = await client.delete(f"/api/reminders/{shown['id']}/snooze", headers=user.headers)
    assert again.status_code == 409
    assert "no snooze to undo" in again.json()["detail"]


async def test_a_snooze_that_fired_again_or_another_accounts_has_nothing_to_undo(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    shown = await _shown(app, client, user, "pay rent")
    assert (await _snooze(client, user, shown["id"], {"minutes": 5})).status_code == 200
    stranger = await client.delete(
        f"/api/reminders/{shown['id']}/snooze", headers=other_user.headers
    )
    assert stranger.status_code == 404
    await _snooze_ends(app, user.id)
    late = await client.delete(f"/api/reminders/{shown['id']}/snooze", headers=user.headers)
    assert late.status_code == 409
    [fired_again] = await _listed(client, user)
    assert fired_again["id"] > shown["id"]
