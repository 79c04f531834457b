"""A reminder's Done and Snooze links (an email's, a push notification's), on both databases:
opening one changes nothing and shows one button; posting it acts, without signing in; the
service worker's JSON answers; and what a link may not do (altered, another account's, a
removed account's, a task gone or done already, a repeating task's past occurrence)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, select

from backend.core.signed_links import sign_link
from backend.models import Reminder, User
from backend.notifications.links import reminder_action_path
from tests.api.routes.reminder_clock import reminders_due_now
from tests.conftest import UserSession, register

JSON = {"Accept": "application/json"}


async def _fired(
    app: FastAPI, client: httpx.AsyncClient, who: UserSession, title: str, **fields: Any
) -> tuple[int, int]:
    """A task of that title whose reminder has fired: (task number, reminder id)."""
    body = {"title": title, "due_date": "2031-03-04", "due_time": "10:00", **fields}
    created = await client.post("/api/tasks", json=body, headers=who.headers)
    assert created.status_code == 201, created.text
    number = created.json()["id"]
    await reminders_due_now(app, who.id, number)
    shown = (await client.get("/api/reminders", headers=who.headers)).json()["reminders"]
    [reminder] = [r for r in shown if r["task_id"] == number]
    return number, reminder["id"]


async def _link(
    app: FastAPI, who: UserSession, reminder_id: int, action: str, minutes: int | None = None
) -> str:
    async with app.state.sessionmaker() as session:
        user = await session.get(User, who.id)
    assert user is not None
    return reminder_action_path(
        app.state.settings,
        user,
        reminder_id,
        action,  # type: ignore[arg-type]
        minutes=minutes,
    )


async def _task(client: httpx.AsyncClient, who: UserSession, number: int) -> dict[str, Any]:
    response = await client.get(f"/api/tasks/{number}", headers=who.headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def _shown_ids(client: httpx.AsyncClient, who: UserSession) -> list[int]:
    shown = (await client.get("/api/reminders", headers=who.headers)).json()["reminders"]
    return [reminder["id"] for reminder in shown]


async def _snoozed_until(app: FastAPI, reminder_id: int) -> datetime | None:
    async with app.state.sessionmaker() as session:
        found = await session.exec(select(Reminder.snoozed_until).where(Reminder.id == reminder_id))
        return found.one()


async def test_opening_a_done_link_asks_and_posting_it_completes_the_task(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    number, reminder_id = await _fired(app, client, user, "call <mom> & dad")
    link = await _link(app, user, reminder_id, "done")

    page = await client.get(link)
    assert page.status_code == 200, page.text
    assert page.headers["content-type"].startswith("text/html")
    assert "Mark “call &lt;mom&gt; &amp; dad” as done?" in page.text
    assert "<script" not in page.text
    action = re.search(r'<form method="post" action="([^"]+)"', page.text)
    assert action is not None and action.group(1).replace("&amp;", "&") == link
    assert (await _task(client, user, number))["completed"] is False
    assert reminder_id in await _shown_ids(client, user)

    done = await client.post(link)  # no sign-in
    assert done.status_code == 200, done.text
    assert "Done: “call &lt;mom&gt; &amp; dad”." in done.text
    assert (await _task(client, user, number))["completed"] is True
    assert reminder_id not in await _shown_ids(client, user)

    again = await client.post(link, headers=JSON)
    assert again.status_code == 409
    assert again.json()["ok"] is False and "done already" in again.json()["message"]
    assert (await client.get(link)).status_code == 409


async def test_done_on_a_repeating_task_moves_it_on_once(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    number, reminder_id = await _fired(app, client, user, "water plants", repeat="every day")
    link = await _link(app, user, reminder_id, "done")
    done = await client.post(link, headers=JSON)
    assert done.status_code == 200, done.text
    assert done.json() == {
        "ok": True,
        "message": "Done: “water plants”. It repeats: next due Wed 5 Mar 2031.",
    }
    moved = await _task(client, user, number)
    assert (moved["completed"], moved["due_date"]) == (False, "2031-03-05")
    # The same link again names the occurrence done already: the next one stays to do.
    again = await client.post(link, headers=JSON)
    assert again.status_code == 409
    assert "next due Wed 5 Mar 2031" in again.json()["message"]
    assert (await _task(client, user, number))["due_date"] == "2031-03-05"


async def test_a_snooze_link_snoozes_for_its_minutes_and_answers_the_service_worker_in_json(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    _, reminder_id = await _fired(app, client, user, "stretch")
    link = await _link(app, user, reminder_id, "snooze", minutes=60)
    page = await client.get(link)
    assert page.status_code == 200 and "Snooze “stretch” for 1 hour?" in page.text
    assert await _snoozed_until(app, reminder_id) is None  # opening it did nothing

    before = datetime.now(UTC)
    snoozed = await client.post(link, headers=JSON)
    assert snoozed.status_code == 200, snoozed.text
    body = snoozed.json()
    assert body["ok"] is True
    assert re.fullmatch(
        r"Snoozed “stretch” for 1 hour: it will remind you again (today|tomorrow) at \d\d:\d\d\.",
        body["message"],
    )
    until = await _snoozed_until(app, reminder_id)
    assert until is not None
    assert before + timedelta(minutes=60) <= until <= datetime.now(UTC) + timedelta(minutes=60)
    assert reminder_id not in await _shown_ids(client, user)

    # Still to fire again: it may be snoozed anew, for as long as the link says.
    longer = await _link(app, user, reminder_id, "snooze", minutes=90)
    page = await client.get(longer)
    assert "for 1 hour 30 minutes?" in page.text
    html = await client.post(longer)
    assert html.status_code == 200 and "Snoozed" in html.text
    later = await _snoozed_until(app, reminder_id)
    assert later is not None and later >= before + timedelta(minutes=90)


async def test_a_snooze_link_without_minutes_snoozes_an_hour(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    _, reminder_id = await _fired(app, client, user, "tea")
    before = datetime.now(UTC)
    response = await client.post(await _link(app, user, reminder_id, "snooze"), headers=JSON)
    assert response.status_code == 200
    until = await _snoozed_until(app, reminder_id)
    assert until is not None and until - before >= timedelta(minutes=60)
    assert until - before < timedelta(minutes=61)


@pytest.mark.parametrize("minutes", ["0", "43201", "-5", "1.5", "an hour"])
async def test_a_snooze_of_no_time_or_past_30_days_is_refused(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, minutes: str
) -> None:
    _, reminder_id = await _fired(app, client, user, "nap")
    link = await _link(app, user, reminder_id, "snooze")
    response = await client.post(f"{link}&minutes={minutes}", headers=JSON)
    assert response.status_code == 422
    assert await _snoozed_until(app, reminder_id) is None


async def test_nothing_to_snooze_once_the_task_is_done(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    number, reminder_id = await _fired(app, client, user, "post letter")
    await client.patch(f"/api/tasks/{number}", json={"completed": True}, headers=user.headers)
    response = await client.post(await _link(app, user, reminder_id, "snooze"), headers=JSON)
    assert response.status_code == 409
    assert response.json()["ok"] is False


async def test_a_dismissed_reminder_is_not_snoozed(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    _, reminder_id = await _fired(app, client, user, "read")
    await client.delete(f"/api/reminders/{reminder_id}", headers=user.headers)
    response = await client.post(await _link(app, user, reminder_id, "snooze"))
    assert response.status_code == 409
    assert response.headers["content-type"].startswith("text/html")
    assert "dismissed" in response.text


async def test_a_link_whose_task_is_gone_finds_nothing(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    number, reminder_id = await _fired(app, client, user, "cancelled")
    await client.delete(f"/api/tasks/{number}", headers=user.headers)
    for action in ("done", "snooze"):
        link = await _link(app, user, reminder_id, action)
        assert (await client.get(link)).status_code == 404
        answer = await client.post(link, headers=JSON)
        assert answer.status_code == 404 and "gone" in answer.json()["message"]


async def test_altered_foreign_and_stale_links_do_nothing(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    number, reminder_id = await _fired(app, client, user, "mine")
    other = await register(client)
    settings = app.state.settings
    async with app.state.sessionmaker() as session:
        owner = await session.get(User, user.id)
        stranger = await session.get(User, other.id)
    assert owner is not None and stranger is not None
    forger = settings.model_copy(update={"secret_key": "another-secret-that-is-long-enough-1234"})

    def token(who: User, *, signer: Any = settings, account: str | None = None) -> str:
        assert who.id is not None
        return sign_link(
            signer,
            "reminder",
            user_id=who.id,
            account=account or who.account_key,
            reminder_id=reminder_id,
        )

    cases = {
        "forged": (token(owner, signer=forger), 400),
        "an unsubscribe link": (
            sign_link(settings, "unsubscribe", user_id=user.id, account=owner.account_key),
            400,
        ),
        "a removed account's": (token(owner, account="0123456789abcdef"), 400),
        "garbage": ("abc", 400),
        "none": ("", 400),
        # Good for its own account, which does not hold this reminder.
        "another account's": (token(stranger), 404),
    }
    for name, (signed, status) in cases.items():
        for action in ("done", "snooze"):
            path = f"/api/reminder-links/{action}"
            assert (await client.get(path, params={"token": signed})).status_code == status, name
            answer = await client.post(path, params={"token": signed}, headers=JSON)
            assert answer.status_code == status, (name, answer.text)
            assert answer.json()["ok"] is False
            page = await client.post(path, params={"token": signed})
            assert page.status_code == status and "<h1>" in page.text
    assert (await _task(client, user, number))["completed"] is False
    assert await _snoozed_until(app, reminder_id) is None
    assert reminder_id in await _shown_ids(client, user)


async def test_an_unknown_action_is_a_404_or_422(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    _, reminder_id = await _fired(app, client, user, "x")
    link = await _link(app, user, reminder_id, "done")
    response = await client.post(link.replace("/done?", "/delete?"))
    assert response.status_code in (404, 422)
    async with app.state.sessionmaker() as session:
        rows = await session.exec(select(Reminder.seen_at).where(col(Reminder.id) == reminder_id))
        assert rows.one() is None
