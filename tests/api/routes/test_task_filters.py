"""Filtering and sorting the task list by the new fields (GET /api/tasks, issue 14)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest

from tests.conftest import UserSession


def _a_zone_far_from_midnight() -> str:
    """A zone where it is now between 03:00 and 21:00, so "today" cannot turn over while a
    test runs and "two hours ago" is still today."""
    for zone in ("UTC", "Asia/Tokyo", "America/Los_Angeles", "Asia/Kolkata"):
        if 3 <= datetime.now(UTC).astimezone(ZoneInfo(zone)).hour < 21:
            return zone
    raise AssertionError("some zone is always between 03:00 and 21:00")


@pytest.fixture
async def dated(client: httpx.AsyncClient, user: UserSession) -> tuple[UserSession, date]:
    """An account with tasks due across the days around its today."""
    zone = _a_zone_far_from_midnight()
    await client.patch("/api/auth/me", json={"timezone": zone}, headers=user.headers)
    now = datetime.now(UTC).astimezone(ZoneInfo(zone))
    today = now.date()
    earlier, later = (now - timedelta(hours=2)), (now + timedelta(hours=2))
    for title, body in [
        ("yesterday all day", {"due_date": str(today - timedelta(days=1)), "priority": "low"}),
        ("today earlier", {"due_date": str(today), "due_time": earlier.strftime("%H:%M")}),
        ("today later", {"due_date": str(today), "due_time": later.strftime("%H:%M")}),
        ("today all day", {"due_date": str(today), "priority": "high", "list": "Shopping"}),
        ("tomorrow", {"due_date": str(today + timedelta(days=1)), "tags": ["work"]}),
        ("in ten days", {"due_date": str(today + timedelta(days=10)), "priority": "medium"}),
        ("no date", {"tags": ["home", "work"], "description": "ask about the Boiler"}),
    ]:
        response = await client.post(
            "/api/tasks", json={"title": title, **body}, headers=user.headers
        )
        assert response.status_code == 201, response.text
    return user, today


async def _titles(client: httpx.AsyncClient, who: UserSession, **params: str) -> list[str]:
    response = await client.get("/api/tasks", params=params, headers=who.headers)
    assert response.status_code == 200, response.text
    return [task["title"] for task in response.json()]


@pytest.mark.parametrize(
    ("due", "titles"),
    [
        ("today", ["today earlier", "today later", "today all day"]),
        ("tomorrow", ["tomorrow"]),
        ("overdue", ["yesterday all day", "today earlier"]),
        ("next_7_days", ["today earlier", "today later", "today all day", "tomorrow"]),
        ("no_date", ["no date"]),
    ],
)
async def test_due_filters_use_the_accounts_today(
    client: httpx.AsyncClient, dated: tuple[UserSession, date], due: str, titles: list[str]
) -> None:
    who, _ = dated
    assert await _titles(client, who, due=due) == titles


async def test_this_week_runs_from_today_to_sunday(
    client: httpx.AsyncClient, dated: tuple[UserSession, date]
) -> None:
    who, today = dated
    found = await _titles(client, who, due="this_week")
    assert found[:3] == ["today earlier", "today later", "today all day"]
    assert ("tomorrow" in found) == (today.weekday() != 6)  # Sunday: the week ends today
    assert "in ten days" not in found


async def test_a_completed_task_is_never_overdue(
    client: httpx.AsyncClient, dated: tuple[UserSession, date]
) -> None:
    who, _ = dated
    await client.patch("/api/tasks/1", json={"completed": True}, headers=who.headers)
    assert await _titles(client, who, due="overdue") == ["today earlier"]


@pytest.mark.parametrize(
    ("params", "titles"),
    [
        ({"list": "shopping"}, ["today all day"]),
        ({"tag": "#work"}, ["tomorrow", "no date"]),
        ({"tag": "wor"}, []),
        ({"priority": "high"}, ["today all day"]),
        ({"q": "boiler"}, ["no date"]),
        ({"q": "TODAY"}, ["today earlier", "today later", "today all day"]),
        ({"q": "100%"}, []),
        ({"tag": "work", "due": "no_date"}, ["no date"]),
    ],
)
async def test_filters_by_list_tag_priority_and_keyword(
    client: httpx.AsyncClient,
    dated: tuple[UserSession, date],
    params: dict[str, str],
    titles: list[str],
) -> None:
    who, _ = dated
    assert await _titles(client, who, **params) == titles


async def test_sorting_by_due_puts_undated_last_and_by_priority_high_first(
    client: httpx.AsyncClient, dated: tuple[UserSession, date]
) -> None:
    who, _ = dated
    by_due = await _titles(client, who, sort="due")
    assert by_due[0] == "yesterday all day"
    assert by_due[-2:] == ["in ten days", "no date"]
    assert by_due.index("today all day") < by_due.index("today earlier")  # start of the day
    by_priority = await _titles(client, who, sort="priority")
    assert by_priority[:3] == ["today all day", "in ten days", "yesterday all day"]
    by_title = await _titles(client, who, sort="title")
    assert by_title == sorted(by_title, key=str.lower)


async def test_another_users_tasks_never_pass_a_filter(
    client: httpx.AsyncClient, dated: tuple[UserSession, date], other_user: UserSession
) -> None:
    assert await _titles(client, other_user, tag="work") == []
    assert await _titles(client, other_user, due="overdue") == []


@pytest.mark.parametrize(
    "params",
    [{"due": "someday"}, {"sort": "random"}, {"priority": "urgent"}, {"list": "x" * 61}],
)
async def test_an_unknown_filter_value_is_a_422(
    client: httpx.AsyncClient, user: UserSession, params: dict[str, str]
) -> None:
    response = await client.get("/api/tasks", params=params, headers=user.headers)
    assert response.status_code == 422
