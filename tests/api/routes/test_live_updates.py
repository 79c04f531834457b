"""Live updates of shared lists over the event stream (specs/sharing.md, "Live"), on both
databases: a member's open stream is told when another member changes the list, on any
worker; a removed member's is told once that the list is gone and never again after."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest
from fastapi import FastAPI

from backend.main import create_app
from backend.reminders.fanout import ReminderFanout
from backend.services import change_notes
from tests.api.routes.test_sharing import add, invite, make_list, share
from tests.asgi_stream import EventStream, open_stream
from tests.conftest import UserSession, client_for, make_settings, register, running

STREAM = "/api/reminders/stream"


def _fanout(app: FastAPI) -> ReminderFanout:
    fanout: ReminderFanout = app.state.reminder_fanout
    return fanout


async def _kinds(stream: EventStream) -> set[str]:
    event = await stream.next_event()
    assert event is not None, "the stream ended"
    assert event["event"] == "changed"
    assert "id" not in event  # a reconnect resumes after the last reminder, not a change
    kinds: list[str] = json.loads(event["data"])["kinds"]
    return set(kinds)


async def _told_until(stream: EventStream, kind: str, shows: Callable[[], Awaitable[bool]]) -> None:
    """Reads the stream as the web UI does: on each event naming `kind`, reads again, until
    what it reads shows the change (a stream just opened may first hear of earlier changes;
    the stream's hang guard bounds the wait)."""
    while True:
        if kind in await _kinds(stream) and await shows():
            return


async def _newest_note(app: FastAPI) -> int:
    async with app.state.sessionmaker() as session:
        return await change_notes.newest_id(session)


async def _notes_for(app: FastAPI, user: UserSession, after: int) -> list[tuple[int, int, str]]:
    async with app.state.sessionmaker() as session:
        return await change_notes.since(session, after=after, users=[user.id])


@pytest.fixture(scope="module")
async def other_worker(database_url: str) -> AsyncIterator[FastAPI]:
    """A second web worker on the same database: what one changes, the other's streams hear."""
    async with running(create_app(make_settings(database_url))) as application:
        yield application


async def test_a_members_open_stream_is_told_when_another_member_changes_the_list(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Shopping list")
    await share(client, user, "Shopping list", other_user)

    async def shows_the_milk() -> bool:
        seen = await client.get(
            "/api/tasks", params={"list": "Shopping list"}, headers=other_user.headers
        )
        return [t["title"] for t in seen.json()] == ["oat milk"]

    async with open_stream(app, STREAM, other_user.headers) as stream:
        assert stream.status == 200
        await add(client, user, "oat milk", list="Shopping list")
        await _fanout(app).poll_changes()
        await _told_until(stream, "tasks", shows_the_milk)


async def test_a_change_made_on_one_worker_reaches_a_stream_open_on_another(
    app: FastAPI,
    other_worker: FastAPI,
    client: httpx.AsyncClient,
    user: UserSession,
    other_user: UserSession,
) -> None:
    await make_list(client, user, "Chores")
    await share(client, user, "Chores", other_user)
    task = await add(client, user, "bins", list="Chores")

    async def shows_the_new_title() -> bool:
        async with client_for(other_worker) as http:
            seen = await http.get(
                "/api/tasks", params={"list": "Chores"}, headers=other_user.headers
            )
        return [t["title"] for t in seen.json()] == ["recycling"]

    async with open_stream(other_worker, STREAM, other_user.headers) as stream:
        renamed = await client.patch(
            f"/api/tasks/{task['id']}", json={"title": "recycling"}, headers=user.headers
        )
        assert renamed.status_code == 200
        await _fanout(other_worker).poll_changes()
        await _told_until(stream, "tasks", shows_the_new_title)


async def test_an_unshared_lists_changes_write_no_notes(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    before = await _newest_note(app)
    await make_list(client, user, "Private")
    made = await add(client, user, "diary", list="Private")
    await client.patch(f"/api/tasks/{made['id']}", json={"completed": True}, headers=user.headers)
    await client.delete(f"/api/tasks/{made['id']}", headers=user.headers)
    assert await _notes_for(app, user, before) == []


async def test_an_invitee_with_the_app_open_is_told_of_the_invitation(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Garden")

    async def shows_the_invitation() -> bool:
        waiting = await client.get("/api/invitations", headers=other_user.headers)
        return [i["list"] for i in waiting.json()] == ["Garden"]

    async with open_stream(app, STREAM, other_user.headers) as stream:
        assert (await invite(client, user, "Garden", other_user.email)).status_code == 201
        await _fanout(app).poll_changes()
        await _told_until(stream, "invitations", shows_the_invitation)


async def test_a_removed_member_is_told_once_and_never_again_of_the_list(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Trip")
    member_id = await share(client, user, "Trip", other_user)

    async def shows_no_trip() -> bool:
        lists = await client.get("/api/lists", headers=other_user.headers)
        return "Trip" not in [entry["name"] for entry in lists.json()]

    async with open_stream(app, STREAM, other_user.headers) as stream:
        removed = await client.delete(f"/api/lists/Trip/members/{member_id}", headers=user.headers)
        assert removed.status_code == 204
        await _fanout(app).poll_changes()
        await _told_until(stream, "lists", shows_no_trip)
    after_removal = await _newest_note(app)
    await add(client, user, "passport", list="Trip")
    await invite(client, user, "Trip", (await register(client)).email)
    # The list's notes go to whoever has it when they are read: not the removed member.
    assert await _notes_for(app, other_user, after_removal) == []
    assert await _notes_for(app, user, after_removal) != []


async def test_a_viewers_stream_hears_the_owners_changes_too(
    app: FastAPI, user: UserSession
) -> None:
    async with client_for(app) as http:
        viewer = await register(http)
        await make_list(http, user, "Menu")
        await share(http, user, "Menu", viewer, "viewer")

        async def shows_the_soup() -> bool:
            seen = await http.get("/api/tasks", params={"list": "Menu"}, headers=viewer.headers)
            return [t["title"] for t in seen.json()] == ["soup"]

        async with open_stream(app, STREAM, viewer.headers) as stream:
            await add(http, user, "soup", list="Menu")
            await _fanout(app).poll_changes()
            await _told_until(stream, "tasks", shows_the_soup)
