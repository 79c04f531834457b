"""A task's reminder in the calendar feed (issue 33): a VALARM, read over HTTP on both
databases by two independent parsers (icalendar and vobject), as calendar apps would. An
offset is a trigger relative to the event's start (so it comes with every occurrence); a
fixed instant is an absolute UTC trigger (RFC 5545 fires it once)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any
from urllib.parse import urlparse
from zoneinfo import ZoneInfo

import httpx
import icalendar
import vobject

from tests.conftest import UserSession


async def _open(client: httpx.AsyncClient, who: UserSession) -> str:
    response = await client.post("/api/calendar/feed", headers=who.headers)
    assert response.status_code == 201, response.text
    path: str = urlparse(response.json()["url"]).path
    return path


async def _task(client: httpx.AsyncClient, who: UserSession, **body: Any) -> dict[str, Any]:
    response = await client.post("/api/tasks", json=body, headers=who.headers)
    assert response.status_code == 201, response.text
    task: dict[str, Any] = response.json()
    return task


async def _zone(client: httpx.AsyncClient, who: UserSession, name: str) -> None:
    response = await client.patch("/api/auth/me", json={"timezone": name}, headers=who.headers)
    assert response.status_code == 200, response.text


async def _feed(client: httpx.AsyncClient, who: UserSession) -> str:
    response = await client.get(await _open(client, who))
    assert response.status_code == 200, response.text
    return response.text


def _events(feed: str) -> dict[str, icalendar.Component]:
    parsed = icalendar.Calendar.from_ical(feed)
    return {str(event["summary"]): event for event in parsed.walk("VEVENT")}


def _alarms(event: icalendar.Component) -> list[icalendar.Component]:
    return [part for part in event.subcomponents if part.name == "VALARM"]


def _instant(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00")).astimezone(UTC)


def _fires(event: icalendar.Component, zone: str) -> datetime:
    """When an app alerts for the event's first occurrence: its start (an all-day event's
    midnight in the account's zone, RFC 5545 3.8.6.3) plus the relative trigger."""
    start = event.decoded("dtstart")
    if not isinstance(start, datetime):
        start = datetime.combine(start, datetime.min.time(), tzinfo=ZoneInfo(zone))
    trigger = _alarms(event)[0].decoded("trigger")
    assert isinstance(trigger, timedelta)
    return start.astimezone(UTC) + trigger  # an exact duration: not on the wall clock


async def test_a_task_with_a_reminder_carries_an_alarm_an_hour_before(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Europe/London")
    task = await _task(
        client, user, title="Dentist", due_date="2030-07-02", due_time="09:30", remind_before=60
    )
    feed = await _feed(client, user)

    [alarm] = _alarms(_events(feed)["Dentist"])
    assert str(alarm["action"]) == "DISPLAY"
    assert str(alarm["description"]) == "Dentist"
    assert alarm.decoded("trigger") == timedelta(hours=-1)
    assert "TRIGGER:-PT1H\r\n" in feed  # relative to the start: no VALUE, no RELATED=END
    # The instant an app alerts is the one the service reminds at (08:30 BST).
    assert _fires(_events(feed)["Dentist"], "Europe/London") == _instant(task["remind_at"])
    assert _instant(task["remind_at"]) == datetime(2030, 7, 2, 7, 30, tzinfo=UTC)

    [event] = vobject.readOne(feed).vevent_list
    [valarm] = event.valarm_list
    assert valarm.action.value == "DISPLAY"
    assert valarm.description.value == "Dentist"
    assert valarm.trigger.value == timedelta(hours=-1)


async def test_a_reminder_at_a_fixed_time_is_an_absolute_utc_trigger(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Europe/London")
    # After the due time, so it is kept as an instant rather than an offset.
    task = await _task(
        client,
        user,
        title="Call back",
        due_date="2030-07-02",
        due_time="09:30",
        remind_at="2030-07-02T18:00",
    )
    assert task["remind_before"] is None
    feed = await _feed(client, user)

    [alarm] = _alarms(_events(feed)["Call back"])
    assert alarm.decoded("trigger") == datetime(2030, 7, 2, 17, 0, tzinfo=UTC)  # 18:00 BST
    assert "TRIGGER;VALUE=DATE-TIME:20300702T170000Z\r\n" in feed
    assert str(alarm["description"]) == "Call back"

    [event] = vobject.readOne(feed).vevent_list
    assert event.valarm.trigger.value == datetime(2030, 7, 2, 17, 0, tzinfo=UTC)


async def test_a_task_without_a_reminder_has_no_alarm(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _task(client, user, title="Pay rent", due_date="2030-01-01")
    # A timed task reminds at its time unless told otherwise: here it is told.
    await _task(
        client, user, title="Meeting", due_date="2030-01-02", due_time="10:00", remind_at=None
    )
    await _task(client, user, title="Standup", due_date="2030-01-03", due_time="10:00")
    feed = await _feed(client, user)

    events = _events(feed)
    assert _alarms(events["Pay rent"]) == [] and _alarms(events["Meeting"]) == []
    [at_its_time] = _alarms(events["Standup"])
    assert at_its_time.decoded("trigger") == timedelta(0)
    assert feed.count("BEGIN:VALARM") == 1
    by_name = {str(e.summary.value): e for e in vobject.readOne(feed).vevent_list}
    assert "valarm" not in by_name["Pay rent"].contents


async def test_a_repeating_tasks_reminder_alarms_before_every_occurrence(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "America/New_York")
    await _task(
        client,
        user,
        title="Team call",
        due_date="2030-03-04",
        due_time="09:00",
        repeat="every monday",
        remind_before=30,
    )
    feed = await _feed(client, user)

    event = _events(feed)["Team call"]
    assert "RRULE:FREQ=WEEKLY" in feed
    [alarm] = _alarms(event)
    # Relative to the start, so each occurrence alarms at 08:30 on its own wall clock: EST
    # before the clocks change on March 10th, EDT after (read through the feed's VTIMEZONE).
    assert alarm.decoded("trigger") == timedelta(minutes=-30)
    assert "VALUE=DATE-TIME" not in feed

    [parsed] = vobject.readOne(feed).vevent_list
    first, second = list(parsed.getrruleset(addRDate=True))[:2]
    trigger = parsed.valarm.trigger.value
    assert (first + trigger).astimezone(UTC) == datetime(2030, 3, 4, 13, 30, tzinfo=UTC)
    assert (second + trigger).astimezone(UTC) == datetime(2030, 3, 11, 12, 30, tzinfo=UTC)


async def test_a_fixed_reminder_on_a_repeating_task_alarms_once(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _task(
        client,
        user,
        title="Water plants",
        due_date="2030-03-04",
        due_time="09:00",
        repeat="every day",
        remind_at="2030-03-04T12:00:00Z",
    )
    feed = await _feed(client, user)

    event = _events(feed)["Water plants"]
    assert "rrule" in event
    [alarm] = _alarms(event)
    # An absolute trigger fires once on a repeating event (RFC 5545 3.8.6.3), as the
    # service's own fixed reminder does.
    assert alarm.decoded("trigger") == datetime(2030, 3, 4, 12, 0, tzinfo=UTC)


async def test_an_all_day_tasks_reminder_counts_from_nine_on_its_day(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Europe/Berlin")
    task = await _task(client, user, title="Passport", due_date="2030-07-10", remind_before=1440)
    feed = await _feed(client, user)

    event = _events(feed)["Passport"]
    assert event.decoded("dtstart") == date(2030, 7, 10)
    # 09:00 the day before, counted from the event's midnight: 15 hours before it.
    assert "TRIGGER:-PT15H\r\n" in feed
    assert _fires(event, "Europe/Berlin") == _instant(task["remind_at"])
    assert _instant(task["remind_at"]) == datetime(2030, 7, 9, 7, 0, tzinfo=UTC)


async def test_a_day_before_is_counted_in_exact_hours_across_a_change_of_clocks(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Europe/London")
    # British Summer Time starts at 01:00 UTC on 2030-03-31: the service reminds 24 hours
    # before, which "-P1D" (a day on the wall clock) would make 23.
    task = await _task(
        client, user, title="Flight", due_date="2030-03-31", due_time="10:00", remind_before=1440
    )
    feed = await _feed(client, user)

    assert "TRIGGER:-PT24H\r\n" in feed and "P1D" not in feed
    assert _fires(_events(feed)["Flight"], "Europe/London") == _instant(task["remind_at"])


async def test_an_all_day_reminder_on_the_day_the_clocks_change(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _zone(client, user, "Europe/Berlin")
    # Summer time starts at 01:00 UTC on Sunday 2030-03-31: midnight to 09:00 is 8 hours.
    once = await _task(client, user, title="Once", due_date="2030-03-31", remind_before=0)
    await _task(
        client, user, title="Weekly", due_date="2030-03-31", repeat="weekly", remind_before=0
    )
    feed = await _feed(client, user)

    events = _events(feed)
    # A single event alarms exactly when the service reminds: 09:00 CEST.
    assert _alarms(events["Once"])[0].decoded("trigger") == timedelta(hours=8)
    assert _fires(events["Once"], "Europe/Berlin") == _instant(once["remind_at"])
    # A repeating one alarms at 09:00 on the wall clock of every other week (10:00 this day).
    assert _alarms(events["Weekly"])[0].decoded("trigger") == timedelta(hours=9)
