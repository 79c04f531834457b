"""List names that hide or imitate: invisible characters, look-alikes of a list the account
has, and the per-account cap on lists, on REST and the MCP tools (issue 30)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from mcp import Client

from backend.main import create_app
from mcp_tools.principal import principal_from_meta
from mcp_tools.server import build_task_server
from tests.conftest import UserSession, client_for, make_settings, register, running
from tests.mcp_tools.test_server import call, error_text

INVISIBLE = [
    pytest.param("Inbox\u200b", id="a zero-width space after a real name"),
    pytest.param("\u200b", id="a zero-width space alone"),
    pytest.param("\u202exobnI", id="a right-to-left override"),
    pytest.param("Work\u2066", id="a direction isolate"),
    pytest.param("\ufeffWork", id="a byte order mark"),
    pytest.param("Shop\u200dping", id="a joiner between two ASCII letters"),
    pytest.param("\u3164", id="a Hangul filler that shows nothing"),
]
LOOK_ALIKES = [
    pytest.param("\u0406nbox", "Inbox", id="Cyrillic I for Latin I"),
    pytest.param("lnbox", "Inbox", id="a lower-case L for a capital I"),
    pytest.param("\uff29\uff4e\uff42\uff4f\uff58", "Inbox", id="full-width letters"),
    pytest.param("\u0405h\u043e\u0440\u0440\u0456ng", "Shopping", id="Cyrillic in Shopping"),
    pytest.param("SH0PPING", "Shopping", id="a zero for an O, in capitals"),
]
ORDINARY = [
    "Einkäufe",
    "Покупки",
    "買い物",
    "کتاب\u200cخانه",  # Persian: a joiner inside a word
    "\U0001f468\u200d\U0001f469\u200d\U0001f467 Family",  # an emoji sequence held by joiners
    "Work",
    "Modem repairs",
]


async def _names(client: httpx.AsyncClient, user: UserSession) -> list[str]:
    response = await client.get("/api/lists", headers=user.headers)
    return [entry["name"] for entry in response.json()]


@pytest.mark.parametrize("name", INVISIBLE)
async def test_a_list_name_with_invisible_characters_is_refused_everywhere(
    client: httpx.AsyncClient, user: UserSession, name: str
) -> None:
    made = await client.post("/api/lists", json={"name": name}, headers=user.headers)
    assert made.status_code == 422
    assert "invisible characters" in made.json()["detail"][0]["msg"]
    renamed = await client.patch("/api/lists/Shopping", json={"name": name}, headers=user.headers)
    assert renamed.status_code == 422
    task = await client.post(
        "/api/tasks", json={"title": "milk", "list": name}, headers=user.headers
    )
    assert task.status_code == 422
    assert await _names(client, user) == ["Inbox", "Shopping"]


@pytest.mark.parametrize(("name", "existing"), LOOK_ALIKES)
async def test_a_list_name_that_looks_like_one_the_account_has_is_a_409_saying_which(
    client: httpx.AsyncClient, user: UserSession, name: str, existing: str
) -> None:
    made = await client.post("/api/lists", json={"name": name}, headers=user.headers)
    assert made.status_code == 409
    assert f"looks like your list {existing!r}" in made.json()["detail"]
    await client.post("/api/lists", json={"name": "Work"}, headers=user.headers)
    renamed = await client.patch("/api/lists/Work", json={"name": name}, headers=user.headers)
    assert renamed.status_code == 409
    task = await client.post(
        "/api/tasks", json={"title": "milk", "list": name}, headers=user.headers
    )
    assert task.status_code == 409
    assert f"looks like your list {existing!r}" in task.json()["detail"]
    first = await client.post("/api/tasks", json={"title": "eggs"}, headers=user.headers)
    moved = await client.patch(
        f"/api/tasks/{first.json()['id']}", json={"list": name}, headers=user.headers
    )
    assert moved.status_code == 409
    assert await _names(client, user) == ["Inbox", "Shopping", "Work"]
    listed = await client.get("/api/tasks", headers=user.headers)
    assert [(t["title"], t["list"]) for t in listed.json()] == [("eggs", "Inbox")]


@pytest.mark.parametrize("name", ORDINARY)
async def test_an_ordinary_list_name_in_any_script_is_made(
    client: httpx.AsyncClient, user: UserSession, name: str
) -> None:
    await client.post("/api/lists", json={"name": "Modern art"}, headers=user.headers)
    made = await client.post("/api/lists", json={"name": name}, headers=user.headers)
    assert made.status_code == 201, made.text
    assert (await _names(client, user))[-1] == name


async def test_a_list_renamed_to_a_look_alike_of_itself_or_another_casing_is_still_it(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    renamed = await client.patch(
        "/api/lists/Shopping", json={"name": "SHOPPING"}, headers=user.headers
    )
    assert renamed.status_code == 200
    again = await client.patch(
        "/api/lists/shopping", json={"name": "\u0405hopping"}, headers=user.headers
    )
    assert again.status_code == 200
    assert await _names(client, user) == ["Inbox", "\u0405hopping"]


async def test_mcp_tools_refuse_invisible_and_look_alike_list_names_saying_why(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    server = build_task_server(app.state.sessionmaker, principal_from_meta)
    async with Client(server) as mcp:
        user = await register(client)
        hidden = error_text(await call(mcp, user, "add_task", title="milk", list="Inbox\u200b"))
        assert "Invalid list: " in hidden
        assert "invisible characters" in hidden
        alike = error_text(await call(mcp, user, "add_task", title="milk", list="\u0406nbox"))
        assert "looks like your list 'Inbox'" in alike
        await call(mcp, user, "add_task", title="eggs")
        moved = error_text(await call(mcp, user, "update_task", task_id=1, list="\u0406nbox"))
        assert "looks like your list 'Inbox'" in moved
    assert await _names(client, user) == ["Inbox", "Shopping"]


async def test_chat_says_why_a_look_alike_list_is_refused(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await client.post("/api/lists", json={"name": "Work"}, headers=user.headers)
    said = await client.post(
        "/api/chat", json={"message": "add report to my W\u043erk list"}, headers=user.headers
    )
    assert "looks like your list 'Work'" in said.json()["response"]
    assert (await client.get("/api/tasks", headers=user.headers)).json() == []
    assert await _names(client, user) == ["Inbox", "Shopping", "Work"]


MAX_LISTS = 4


@pytest.fixture
async def capped_app(database_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(database_url, max_lists_per_user=MAX_LISTS)
    async with running(create_app(settings)) as app:
        yield app


@pytest.fixture
async def capped(capped_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(capped_app) as http:
        yield http


async def _fill_to_the_cap(http: httpx.AsyncClient, user: UserSession) -> None:
    for name in ("Work", "Home"):  # with Inbox and Shopping, MAX_LISTS
        made = await http.post("/api/lists", json={"name": name}, headers=user.headers)
        assert made.status_code == 201


async def test_lists_past_the_per_account_cap_are_refused_on_rest_until_one_is_deleted(
    capped: httpx.AsyncClient,
) -> None:
    user = await register(capped)
    await _fill_to_the_cap(capped, user)
    refused: list[httpx.Response] = [
        await capped.post("/api/lists", json={"name": "Garden"}, headers=user.headers),
        await capped.post(
            "/api/tasks", json={"title": "seeds", "list": "Garden"}, headers=user.headers
        ),
    ]
    for response in refused:
        assert response.status_code == 409
        assert response.json()["detail"] == (
            f"You have reached the limit of {MAX_LISTS} lists; delete one to make another"
        )
    kept = await capped.post(
        "/api/tasks", json={"title": "report", "list": "work"}, headers=user.headers
    )
    assert kept.status_code == 201  # a list it has is no new list
    assert (await capped.get("/api/tasks", headers=user.headers)).json()[0]["list"] == "Work"
    assert (await capped.delete("/api/lists/Home", headers=user.headers)).status_code == 204
    made = await capped.post("/api/lists", json={"name": "Garden"}, headers=user.headers)
    assert made.status_code == 201


async def test_lists_past_the_cap_are_refused_by_the_mcp_tools_and_in_chat(
    capped_app: FastAPI, capped: httpx.AsyncClient
) -> None:
    user = await register(capped)
    await _fill_to_the_cap(capped, user)
    server = build_task_server(
        capped_app.state.sessionmaker, principal_from_meta, max_lists=MAX_LISTS
    )
    async with Client(server) as mcp:
        refused = error_text(await call(mcp, user, "add_task", title="seeds", list="Garden"))
        assert refused.endswith(f"limit of {MAX_LISTS} lists; delete one to make another")
    said: dict[str, Any] = (
        await capped.post(
            "/api/chat", json={"message": "add seeds to my garden list"}, headers=user.headers
        )
    ).json()
    assert "limit of 4 lists" in said["response"]
    assert (await capped.get("/api/tasks", headers=user.headers)).json() == []
    names = [e["name"] for e in (await capped.get("/api/lists", headers=user.headers)).json()]
    assert names == ["Inbox", "Shopping", "Work", "Home"]
