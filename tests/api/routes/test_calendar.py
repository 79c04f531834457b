"""The secret calendar feed (issue 15), on both databases, read by two independent
iCalendar parsers (icalendar and vobject), as calendar apps would."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import urlparse
from zoneinfo import ZoneInfo

import httpx
import icalendar
import pytest
import vobject

from tests.conftest import UserSession


async def _open(client: httpx.AsyncClient, who: UserSession) -> str:
    response = await client.post("/api/calendar/feed", headers=who.headers)
    assert response.status_code == 201, response.text
    url: str = response.json()["url"]
    return urlparse(url).path


async def _tasks(client: httpx.AsyncClient, who: UserSession, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        response = await client.post("/api/tasks", json=body, headers=who.headers)
        assert response.status_code == 201, response.text


async def test_the_feed_holds_due_tasks_as_events_that_two_parsers_read_alike(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await client.patch("/api/auth/me", json={"timezone": "Europe/London"}, headers=user.headers)
    await _tasks(
        client,
        user,
        {"title": "Pay rent", "due_date": "2030-01-01", "repeat": "every 1st", "tags": ["home"]},
        {"title": "Dentist", "due_date": "2030-07-02", "due_time": "09:30", "priority": "high"},
        {"title": "No date"},
        {"title": "Done already", "due_date": "2030-01-05"},
    )
    [*_, done] = (await client.get("/api/tasks", headers=user.headers)).json()
    await client.patch(f"/api/tasks/{done['id']}", json={"completed": True}, headers=user.headers)
    path = await _open(client, user)

    response = await client.get(path)  # no bearer token: the URL is the secret
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/calendar")
    assert response.headers["cache-control"] == "no-cache, private"

    parsed = icalendar.Calendar.from_ical(response.content)
    events = {str(e["summary"]): e for e in parsed.walk("VEVENT")}
    assert set(events) == {"Pay rent", "Dentist"}  # undated and completed tasks dropped
    rent, dentist = events["Pay rent"], events["Dentist"]
    assert rent.decoded("dtstart") == date(2030, 1, 1)  # all-day
    assert rent.decoded("dtend") == date(2030, 1, 2)
    assert rent["rrule"].to_ical() == b"FREQ=MONTHLY;BYMONTHDAY=1"
    start = dentist.decoded("dtstart")
    # 09:30 on the account's wall clock (BST in July), with its zone
    assert start == datetime(2030, 7, 2, 9, 30, tzinfo=ZoneInfo("Europe/London"))
    assert start.utcoffset().total_seconds() == 3600  # type: ignore[union-attr]
    assert int(dentist["priority"]) == 1

    second = vobject.readOne(response.text)
    summaries = sorted(str(e.summary.value) for e in second.vevent_list)
    assert summaries == ["Dentist", "Pay rent"]
    by_name = {str(e.summary.value): e for e in second.vevent_list}
    assert by_name["Pay rent"].dtstart.value == date(2030, 1, 1)
    assert by_name["Dentist"].dtstart.value.hour == 9
    assert "FREQ=MONTHLY" in by_name["Pay rent"].rrule.value
    # nothing about the account beyond its tasks: no email, no user id
    assert user.email not in response.text
    assert f"user-{user.id}" not in response.text


async def test_rotating_or_revoking_the_feed_retires_the_old_url(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    first = await _open(client, user)
    state = (await client.get("/api/calendar/feed", headers=user.headers)).json()
    assert state["active"] is True and state["created_at"] is not None
    second = await _open(client, user)
    assert first != second
    assert (await client.get(first)).status_code == 404
    assert (await client.get(second)).status_code == 200
    revoked = await client.delete("/api/calendar/feed", headers=user.headers)
    assert revoked.status_code == 204
    assert (await client.get(second)).status_code == 404
    state = (await client.get("/api/calendar/feed", headers=user.headers)).json()
    assert state == {"active": False, "created_at": None}


async def test_a_feed_shows_only_its_owners_tasks_and_a_guess_finds_nothing(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await _tasks(client, user, {"title": "Mine", "due_date": "2030-01-01"})
    await _tasks(client, other_user, {"title": "Theirs", "due_date": "2030-01-01"})
    mine = await client.get(await _open(client, user))
    assert b"Mine" in mine.content and b"Theirs" not in mine.content
    guessed = await client.get(f"/api/calendar/{'A' * 43}.ics")
    assert guessed.status_code == 404
    malformed = await client.get("/api/calendar/short.ics")
    assert malformed.status_code in (404, 422)


async def test_managing_the_feed_needs_the_accounts_token(client: httpx.AsyncClient) -> None:
    for method in ("POST", "GET", "DELETE"):
        response = await client.request(method, "/api/calendar/feed")
        assert response.status_code == 401, method


@pytest.mark.parametrize(
    ("zone", "summer", "winter"), [("America/New_York", -4, -5), ("Europe/Berlin", 2, 1)]
)
async def test_the_feeds_zone_still_has_daylight_time_in_2040_and_2060(
    client: httpx.AsyncClient, user: UserSession, zone: str, summer: int, winter: int
) -> None:
    await client.patch("/api/auth/me", json={"timezone": zone}, headers=user.headers)
    await _tasks(
        client,
        user,
        {"title": "Summer 2040", "due_date": "2040-07-01", "due_time": "09:00"},
        {"title": "Winter 2060", "due_date": "2060-01-15", "due_time": "09:00"},
        {"title": "Summer 2060", "due_date": "2060-07-01", "due_time": "09:00"},
    )
    text = (await client.get(await _open(client, user))).text

    vtimezone = text[text.index("BEGIN:VTIMEZONE") : text.index("END:VTIMEZONE")]
    assert f"TZID:{zone}" in vtimezone
    assert "2038" not in vtimezone and "COMMENT" not in vtimezone  # no "only works until"
    # vobject reads each start through the feed's own VTIMEZONE (dateutil's reading of it).
    second = vobject.readOne(text)
    described = second.vtimezone.gettzinfo()
    expected = {"Summer 2040": summer, "Winter 2060": winter, "Summer 2060": summer}
    for event in second.vevent_list:
        start = event.dtstart.value.replace(tzinfo=described)
        assert start.utcoffset() == timedelta(hours=expected[str(event.summary.value)])
        assert start.hour == 9
    icalendar.Calendar.from_ical(text)  # and icalendar reads the document too
