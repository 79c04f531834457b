"""The authorization matrix of shared lists (specs/sharing.md, "Security"), on a real server
over SQLite and PostgreSQL: a stranger, a viewer and a removed member try every path (REST,
/mcp over HTTP with a personal token, /mcp over stdio, chat, the calendar feed, export and
the event stream) to see, infer or change the owner's shared list. Strangers and removed
members get nothing; viewers read and change nothing; the owner's list is as it was."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

from backend.core.db import create_engine, create_sessionmaker
from backend.main import create_app
from backend.services import backup, change_notes
from tests.conftest import UserSession, client_for, make_settings, register, running
from tests.live_server import served_on_each_database
from tests.mcp_tools.test_access_tokens import token_for
from tests.mcp_tools.test_http import mcp_with
from tests.mcp_tools.test_stdio import child_env, stdio_params

# Words no reply of the assistant uses of itself ("add buy milk" is its example).
SECRET_TITLES = ("quince", "kohlrabi", "marzipan")


@dataclass
class Household:
    base_url: str
    database_url: str
    owner: UserSession
    editor: UserSession
    viewer: UserSession
    removed: UserSession
    stranger: UserSession


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    # Limits lifted: on PostgreSQL other tests' servers spend the address's budgets too.
    yield from served_on_each_database(
        request,
        tmp_path_factory,
        "shared-authorization",
        LOGIN_ATTEMPTS_PER_WINDOW="100000",
    )


async def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


@pytest.fixture
async def household(served: tuple[str, str]) -> AsyncIterator[Household]:
    """The owner's "Family" list, due tasks on it, shared with an editor and a viewer; a
    member removed from it; a stranger. Each holds tasks of their own too, so numbers 1-3
    name something of theirs."""
    base_url, database_url = served
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        people = [await register(http) for _ in range(5)]
        owner, editor, viewer, removed, stranger = people
        for person in people:
            for i in range(3):
                await _ok(
                    await http.post(
                        "/api/tasks", json={"title": f"own {i}"}, headers=person.headers
                    ),
                    201,
                )
        await _ok(
            await http.post("/api/lists", json={"name": "Family"}, headers=owner.headers), 201
        )
        for title in SECRET_TITLES[:2]:
            await _ok(
                await http.post(
                    "/api/tasks",
                    json={"title": title, "list": "Family", "due_date": "2031-05-01"},
                    headers=owner.headers,
                ),
                201,
            )
        ids = {}
        for member, role in ((editor, "editor"), (viewer, "viewer"), (removed, "editor")):
            made = await _ok(
                await http.post(
                    "/api/lists/Family/members",
                    json={"email": member.email, "role": role},
                    headers=owner.headers,
                ),
                201,
            )
            await _ok(
                await http.post(f"/api/invitations/{made['id']}/accept", headers=member.headers)
            )
            ids[member.id] = made["id"]
        await _ok(
            await http.post(
                "/api/tasks",
                json={"title": "marzipan", "list": "Family", "due_date": "2031-05-02"},
                headers=editor.headers,
            ),
            201,
        )
        await _ok(
            await http.delete(
                f"/api/lists/Family/members/{ids[removed.id]}", headers=owner.headers
            ),
            204,
        )
    yield Household(base_url, database_url, owner, editor, viewer, removed, stranger)


async def _family_as_the_owner_sees_it(
    http: httpx.AsyncClient, owner: UserSession
) -> list[tuple[str, bool]]:
    found = await _ok(
        await http.get("/api/tasks", params={"list": "Family"}, headers=owner.headers)
    )
    return sorted((t["title"], t["completed"]) for t in found)


UNTOUCHED = sorted((title, False) for title in SECRET_TITLES)


def _no_secret(text: str) -> None:
    for title in SECRET_TITLES:
        assert not re.search(rf"\b{title}\b", text), f"{title!r} leaked: {text[:300]}"


async def test_strangers_and_removed_members_learn_and_change_nothing_over_rest(
    household: Household,
) -> None:
    async with httpx.AsyncClient(base_url=household.base_url, timeout=60) as http:
        for outsider in (household.stranger, household.removed):
            headers = outsider.headers
            listed = await _ok(
                await http.get("/api/tasks", params={"limit": 1000}, headers=headers)
            )
            _no_secret(str(listed))
            _no_secret(str(await _ok(await http.get("/api/lists", headers=headers))))
            for number in range(1, 12):
                got = await http.get(f"/api/tasks/{number}", headers=headers)
                _no_secret(got.text)
                await http.patch(f"/api/tasks/{number}", json={"completed": True}, headers=headers)
            for path in ("/api/lists/Family/members", "/api/lists/Family/members/1"):
                for method in ("GET", "DELETE", "PATCH"):
                    answer = await http.request(
                        method, path, json={"role": "editor"}, headers=headers
                    )
                    assert answer.status_code in (404, 405), (method, path, answer.text)
                    _no_secret(answer.text)
            # A list of the same name made by use is theirs, not the owner's.
            await http.post("/api/tasks", json={"title": "x", "list": "Family"}, headers=headers)
            await http.delete("/api/tasks", params={"status": "all"}, headers=headers)
        assert await _family_as_the_owner_sees_it(http, household.owner) == UNTOUCHED


async def test_a_viewer_reads_but_changes_nothing_over_rest(household: Household) -> None:
    async with httpx.AsyncClient(base_url=household.base_url, timeout=60) as http:
        headers = household.viewer.headers
        seen = await _ok(await http.get("/api/tasks", params={"list": "Family"}, headers=headers))
        assert sorted(t["title"] for t in seen) == sorted(SECRET_TITLES)
        for task in seen:
            for attempt in (
                http.patch(f"/api/tasks/{task['id']}", json={"completed": True}, headers=headers),
                http.patch(f"/api/tasks/{task['id']}", json={"title": "x"}, headers=headers),
                http.patch(f"/api/tasks/{task['id']}", json={"list": "Inbox"}, headers=headers),
                http.delete(f"/api/tasks/{task['id']}", headers=headers),
            ):
                assert (await attempt).status_code == 403
        refused = await http.post(
            "/api/tasks", json={"title": "x", "list": "Family"}, headers=headers
        )
        assert refused.status_code == 403
        members = await _ok(await http.get("/api/lists/Family/members", headers=headers))
        for member in members:
            for attempt in (
                http.patch(
                    f"/api/lists/Family/members/{member['id']}",
                    json={"role": "editor"},
                    headers=headers,
                ),
                http.delete(f"/api/lists/Family/members/{member['id']}", headers=headers)
                if member["email"] != household.viewer.email
                else http.get("/api/lists", headers=headers),
            ):
                answer = await attempt
                assert answer.status_code in (200, 403), answer.text
        assert (await http.delete("/api/lists/Family/members", headers=headers)).status_code == 403
        assert (await http.delete("/api/lists/Family", headers=headers)).status_code == 403
        assert await _family_as_the_owner_sees_it(http, household.owner) == UNTOUCHED


def _text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


CHANGES = [
    ("complete_task", {"every": "all"}),
    ("delete_task", {"every": "all"}),
    ("add_task", {"title": "x", "list": "Family"}),
    ("share_list", {"list": "Family", "email": "someone@example.com"}),
    ("stop_sharing", {"list": "Family"}),
]


async def _mcp_attempts(call: Any, numbers: range) -> str:
    said = [_text(await call("list_tasks", {"limit": 1000}))]
    said.append(_text(await call("list_tasks", {"list": "Family"})))
    said.append(_text(await call("list_members", {"list": "Family"})))
    for number in numbers:
        said.append(_text(await call("update_task", {"task_id": number, "title": "pwned"})))
        said.append(_text(await call("delete_task", {"task_id": number})))
    for name, arguments in CHANGES:
        said.append(_text(await call(name, arguments)))
    return " ".join(said)


async def test_nobody_outside_reaches_the_list_over_mcp_http(household: Household) -> None:
    async with httpx.AsyncClient(base_url=household.base_url, timeout=60) as http:
        for outsider in (household.stranger, household.removed, household.viewer):
            token = (await token_for(http, outsider, "write"))["token"]
            async with mcp_with(household.base_url, token) as mcp:
                if outsider is household.viewer:
                    for name, arguments in CHANGES:
                        result = await mcp.call_tool(name, arguments)
                        if name in ("complete_task", "delete_task"):
                            continue  # "every" reaches only the viewer's own tasks
                        assert result.is_error is True, (name, _text(result))
                else:
                    _no_secret(await _mcp_attempts(mcp.call_tool, range(1, 12)))
        assert await _family_as_the_owner_sees_it(http, household.owner) == UNTOUCHED


async def test_nobody_outside_reaches_the_list_over_mcp_stdio(household: Household) -> None:
    async with httpx.AsyncClient(base_url=household.base_url, timeout=60) as http:
        for outsider in (household.stranger, household.viewer):
            token = (await token_for(http, outsider, "write"))["token"]
            env = child_env(household.database_url, MCP_USER_TOKEN=token)
            async with (
                stdio_client(stdio_params(env)) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                said = await _mcp_attempts(session.call_tool, range(1, 8))
                if outsider is household.stranger:
                    _no_secret(said)
        assert await _family_as_the_owner_sees_it(http, household.owner) == UNTOUCHED


async def test_chat_reaches_nothing_of_the_list_for_outsiders_and_changes_nothing_for_a_viewer(
    household: Household,
) -> None:
    messages = [
        "what's on the family list?",
        "complete quince",
        "delete the kohlrabi",
        "rename marzipan to pie",
        "stop sharing the family list",
        "share the family list with mallory@example.com",
        "delete everything",
        "yes",
    ]
    async with httpx.AsyncClient(base_url=household.base_url, timeout=120) as http:
        for who in (household.stranger, household.removed, household.viewer):
            conversation = None
            for message in messages:
                answer = await _ok(
                    await http.post(
                        "/api/chat",
                        json={"message": message, "conversation_id": conversation},
                        headers=who.headers,
                    )
                )
                conversation = answer["conversation_id"]
                if who is not household.viewer:
                    # The reply may say back the user's own words, never another title.
                    _no_secret(str([call["result"] for call in answer["tool_calls"]]))
                    for title in SECRET_TITLES:
                        if title not in message:
                            assert title not in answer["response"], answer["response"]
        assert await _family_as_the_owner_sees_it(http, household.owner) == UNTOUCHED
        members = await _ok(
            await http.get("/api/lists/Family/members", headers=household.owner.headers)
        )
        assert sorted(m["email"] for m in members) == sorted(
            [household.editor.email, household.viewer.email]
        )


async def test_feeds_exports_and_streams_hold_the_list_for_members_only(
    household: Household,
) -> None:
    async with httpx.AsyncClient(base_url=household.base_url, timeout=60) as http:
        feeds = {}
        for who in (household.viewer, household.stranger, household.removed):
            opened = await _ok(await http.post("/api/calendar/feed", headers=who.headers), 201)
            feeds[who.id] = (await http.get(opened["url"].replace(household.base_url, ""))).text
    assert all(title in feeds[household.viewer.id] for title in SECRET_TITLES)
    _no_secret(feeds[household.stranger.id])
    _no_secret(feeds[household.removed.id])
    engine = create_engine(make_settings(household.database_url))
    try:
        async with create_sessionmaker(engine)() as session:
            exported = {
                who.id: await backup.export_user(session, email=who.email)
                for who in (household.viewer, household.stranger, household.owner)
            }
            newest = await change_notes.newest_id(session)
    finally:
        await engine.dispose()
    _no_secret(str(exported[household.viewer.id]["tasks"]))
    assert exported[household.viewer.id]["shared_with_you_left_out"] == [
        {"list": "Family", "owner": household.owner.email, "role": "viewer"}
    ]
    _no_secret(str(exported[household.stranger.id]))
    assert sorted(
        t["title"] for t in exported[household.owner.id]["tasks"] if t["list"] == "Family"
    ) == sorted(SECRET_TITLES)
    # A change to the list now: its notes reach its owner and members, never the others.
    async with httpx.AsyncClient(base_url=household.base_url, timeout=60) as http:
        await _ok(
            await http.post(
                "/api/tasks",
                json={"title": "tea", "list": "Family"},
                headers=household.editor.headers,
            ),
            201,
        )
    engine = create_engine(make_settings(household.database_url))
    try:
        async with create_sessionmaker(engine)() as session:
            told = {
                who.id: await change_notes.since(session, after=newest, users=[who.id])
                for who in (
                    household.owner,
                    household.viewer,
                    household.stranger,
                    household.removed,
                )
            }
    finally:
        await engine.dispose()
    assert told[household.owner.id] and told[household.viewer.id]
    assert told[household.stranger.id] == [] and told[household.removed.id] == []


async def test_a_member_removed_on_one_worker_is_refused_at_once_by_another(
    served: tuple[str, str],
) -> None:
    base_url, database_url = served
    settings = make_settings(database_url)
    async with (
        httpx.AsyncClient(base_url=base_url, timeout=60) as first,
        running(create_app(settings)) as second_worker,
        client_for(second_worker) as second,
    ):
        owner, member = await register(first), await register(first)
        await _ok(await first.post("/api/lists", json={"name": "Flat"}, headers=owner.headers), 201)
        await _ok(
            await first.post(
                "/api/tasks", json={"title": "rent", "list": "Flat"}, headers=owner.headers
            ),
            201,
        )
        made = await _ok(
            await first.post(
                "/api/lists/Flat/members",
                json={"email": member.email, "role": "editor"},
                headers=owner.headers,
            ),
            201,
        )
        await _ok(
            await second.post(f"/api/invitations/{made['id']}/accept", headers=member.headers)
        )
        [seen] = await _ok(
            await second.get("/api/tasks", params={"list": "Flat"}, headers=member.headers)
        )
        await _ok(
            await first.delete(f"/api/lists/Flat/members/{made['id']}", headers=owner.headers), 204
        )
        after = await second.patch(
            f"/api/tasks/{seen['id']}", json={"completed": True}, headers=member.headers
        )
        assert after.status_code == 404
        assert (
            await _ok(
                await second.get("/api/tasks", params={"list": "Flat"}, headers=member.headers)
            )
            == []
        )
