"""Due dates, priorities, lists and tags over REST, and the account's time zone (issue 14)."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import UserSession, unique_email


async def _create(client: httpx.AsyncClient, who: UserSession, **body: object) -> httpx.Response:
    return await client.post("/api/tasks", json={"title": "pay rent", **body}, headers=who.headers)


async def _zone(client: httpx.AsyncClient, who: UserSession, zone: str) -> httpx.Response:
    return await client.patch("/api/auth/me", json={"timezone": zone}, headers=who.headers)


async def test_a_task_keeps_its_due_day_time_priority_list_and_tags(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    assert (await _zone(client, user, "America/New_York")).status_code == 200
    response = await _create(
        client,
        user,
        due_date="2026-11-25",
        due_time="09:00",
        priority="high",
        list="Shopping",
        tags=["#Home", "errands", "home"],
    )
    assert response.status_code == 201, response.text
    task = response.json()
    assert (task["due_date"], task["due_time"]) == ("2026-11-25", "09:00")
    assert task["due_at"].startswith("2026-11-25T14:00:00")  # 09:00 in New York is 14:00 UTC
    assert (task["priority"], task["list"], task["tags"]) == (
        "high",
        "Shopping",
        ["home", "errands"],
    )
    again = await client.get(f"/api/tasks/{task['id']}", headers=user.headers)
    assert again.json() == task


async def test_an_all_day_task_is_due_at_the_start_of_its_day_in_a_far_zone(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Pacific/Kiritimati")  # UTC+14
    task = (await _create(client, user, due_date="2026-11-25")).json()
    assert task["due_time"] is None
    assert task["due_at"].startswith("2026-11-24T10:00:00")


async def test_changing_the_zone_keeps_the_wall_clock_time(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = (await _create(client, user, due_date="2026-07-01", due_time="09:00")).json()
    assert task["due_at"].startswith("2026-07-01T09:00:00")
    changed = await _zone(client, user, "Europe/London")
    assert changed.json()["timezone"] == "Europe/London"
    moved = (await client.get(f"/api/tasks/{task['id']}", headers=user.headers)).json()
    assert (moved["due_date"], moved["due_time"]) == ("2026-07-01", "09:00")
    assert moved["due_at"].startswith("2026-07-01T08:00:00")  # British summer time


async def test_an_update_sets_and_clears_each_field(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = (await _create(client, user)).json()
    url = f"/api/tasks/{task['id']}"
    set_all = {
        "due_date": "2026-12-01",
        "due_time": "18:30",
        "priority": "low",
        "list": "hardware",
        "tags": ["diy"],
    }
    changed = (await client.patch(url, json=set_all, headers=user.headers)).json()
    assert (changed["due_time"], changed["priority"], changed["list"]) == (
        "18:30",
        "low",
        "hardware",
    )
    only_time = (await client.patch(url, json={"due_time": None}, headers=user.headers)).json()
    assert (only_time["due_date"], only_time["due_time"]) == ("2026-12-01", None)
    cleared = {"due_date": None, "priority": "none", "tags": []}
    cleared_task = (await client.patch(url, json=cleared, headers=user.headers)).json()
    assert (cleared_task["due_date"], cleared_task["due_at"]) == (None, None)
    assert (cleared_task["priority"], cleared_task["tags"]) == ("none", [])
    assert cleared_task["list"] == "hardware"  # a list is only ever moved, never cleared


async def test_a_list_named_in_another_casing_is_the_same_list(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = (await _create(client, user, list="shopping")).json()
    assert task["list"] == "Shopping"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"due_time": "09:00"}, "due_time needs a due_date"),
        ({"due_date": "2026-11-25", "due_time": "9am"}, "HH:MM"),
        ({"due_date": "2026-11-25", "due_time": 0}, "HH:MM"),
        ({"due_date": 1764000000}, "YYYY-MM-DD"),
        ({"due_date": "2026-02-30"}, "due_date"),
        ({"priority": "urgent"}, "priority"),
        ({"priority": 1}, "priority"),
        ({"tags": ["two words"]}, "tag"),
        ({"tags": [f"t{n}" for n in range(11)]}, "at most 10 tags"),
        ({"list": "   "}, "list must not be blank"),
    ],
)
async def test_a_bad_field_is_a_422_naming_the_problem(
    client: httpx.AsyncClient, user: UserSession, body: dict[str, object], field: str
) -> None:
    response = await _create(client, user, **body)
    assert response.status_code == 422
    assert field in response.text
    assert (await client.get("/api/tasks", headers=user.headers)).json() == []


async def test_a_time_for_a_task_without_a_day_is_refused_on_update(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = (await _create(client, user)).json()
    response = await client.patch(
        f"/api/tasks/{task['id']}", json={"due_time": "10:00"}, headers=user.headers
    )
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert (problem["loc"], problem["msg"]) == (
        ["body", "due_time"],
        "due_time needs a due_date (the task has none)",
    )


async def test_sign_up_takes_the_browsers_zone_and_refuses_an_unknown_one(
    client: httpx.AsyncClient,
) -> None:
    password = "correct horse battery"
    ok = await client.post(
        "/api/auth/register",
        json={"email": unique_email(), "password": password, "timezone": "Asia/Kolkata"},
    )
    assert ok.status_code == 201
    assert ok.json()["user"]["timezone"] == "Asia/Kolkata"
    for zone in ("Mars/Olympus", "../../etc/passwd", ""):
        bad = await client.post(
            "/api/auth/register",
            json={"email": unique_email(), "password": password, "timezone": zone},
        )
        assert bad.status_code == 422


async def test_an_unknown_zone_change_is_a_422_and_changes_nothing(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    assert (await _zone(client, user, "Nowhere/Special")).status_code == 422
    me = await client.get("/api/auth/me", headers=user.headers)
    assert me.json()["timezone"] == "UTC"
