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


async def _page(
    client: httpx.AsyncClient, who: UserSession, **params: str
) -> tuple[list[str], int]:
    response = await client.get("/api/tasks", params=params, headers=who.headers)
    assert response.status_code == 200, response.text
    return [task["title"] for task in response.json()], int(response.headers["x-total-count"])


async def test_a_due_range_keeps_the_tasks_due_in_it_and_counts_only_them(
    client: httpx.AsyncClient, dated: tuple[UserSession, date]
) -> None:
    who, today = dated
    day = str(today)
    assert await _page(client, who, due_from=day, due_to=day) == (
        ["today earlier", "today later", "today all day"],
        3,
    )
    # open-ended: only a first day, or only a last one
    assert await _page(client, who, due_from=str(today + timedelta(days=1))) == (
        ["tomorrow", "in ten days"],
        2,
    )
    assert await _page(client, who, due_to=str(today - timedelta(days=1))) == (
        ["yesterday all day"],
        1,
    )
    # the total counts every task in the range, not the page
    paged = await _page(
        client, who, due_from=day, due_to=str(today + timedelta(days=10)), limit="2"
    )
    assert paged == (["today earlier", "today later"], 5)


async def test_a_due_range_holds_together_with_the_due_period_status_and_other_filters(
    client: httpx.AsyncClient, dated: tuple[UserSession, date]
) -> None:
    who, today = dated
    await client.patch("/api/tasks/3", json={"completed": True}, headers=who.headers)
    week = {"due_from": str(today - timedelta(days=1)), "due_to": str(today + timedelta(days=1))}
    assert await _page(client, who, **week, due="today") == (
        ["today earlier", "today later", "today all day"],
        3,
    )
    assert await _page(client, who, **week, due="today", status="pending") == (
        ["today earlier", "today all day"],
        2,
    )
    assert await _page(client, who, **week, tag="work") == (["tomorrow"], 1)
    assert await _page(client, who, **week, due="no_date") == ([], 0)  # undated: in no range
    every_day = {"due_from": "1900-01-01", "due_to": "2999-12-31"}
    titles, total = await _page(client, who, **every_day)
    assert "no date" not in titles and total == 6


async def test_a_due_range_that_ends_before_it_starts_is_a_422_saying_so(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    params = {"due_from": "2030-11-27", "due_to": "2030-11-26"}
    response = await client.get("/api/tasks", params=params, headers=user.headers)
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert problem["loc"] == ["query", "due_from"]
    assert problem["msg"] == (
        "due_from (2030-11-27) is after due_to (2030-11-26): a range runs from its first day "
        "to its last"
    )


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ("next friday", "{name} must be YYYY-MM-DD"),
        ("26/11/2030", "{name} must be YYYY-MM-DD"),
        ("0", "{name} must be YYYY-MM-DD"),  # never a Unix time
        ("1700000000", "{name} must be YYYY-MM-DD"),
        ("20301126", "{name} must be YYYY-MM-DD"),
        ("2030-11-26T00:00", "{name} must be YYYY-MM-DD"),
        ("2030-02-30", "Input should be a valid date"),
    ],
)
@pytest.mark.parametrize("name", ["due_from", "due_to"])
async def test_a_due_range_day_that_is_not_a_yyyy_mm_dd_date_is_a_422_saying_so(
    client: httpx.AsyncClient, user: UserSession, name: str, bad: str, said: str
) -> None:
    response = await client.get("/api/tasks", params={name: bad}, headers=user.headers)
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert problem["loc"] == ["query", name]
    assert said.format(name=name) in problem["msg"], problem
