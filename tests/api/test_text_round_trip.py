"""A task keeps the characters the user wrote, through chat and REST alike, minus control
characters and terminal escapes; a chat request refused for its text says why."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import ChatFn, UserSession

# Emoji sequences held together by invisible characters: joiners, variation selectors,
# keycaps, skin tones.
EMOJI_TITLES = [
    "👨\u200d👩\u200d👧 birthday gift",  # family: three people joined by U+200D
    "hang the 🏳\ufe0f\u200d🌈 flag",  # rainbow flag: white flag, VS16, joiner, rainbow
    "1\ufe0f\u20e3 first thing",  # keycap one
    "thumbs 👍🏽 up",  # thumbs up, medium skin tone
]


async def _tasks(client: httpx.AsyncClient, user: UserSession) -> list[dict[str, Any]]:
    response = await client.get("/api/tasks", headers=user.headers)
    tasks: list[dict[str, Any]] = response.json()
    return tasks


@pytest.mark.parametrize("title", EMOJI_TITLES)
async def test_an_emoji_title_added_by_chat_is_stored_exactly(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn, title: str
) -> None:
    body = await chat(f"add {title}")
    assert [task["title"] for task in await _tasks(client, user)] == [title]
    assert title in body["response"] or title[:1].upper() + title[1:] in body["response"]


@pytest.mark.parametrize("title", EMOJI_TITLES)
async def test_an_emoji_title_renamed_by_chat_is_stored_exactly(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn, title: str
) -> None:
    await chat("add buy milk")
    await chat(f"rename task 1 to {title}")
    assert [task["title"] for task in await _tasks(client, user)] == [title]


async def test_a_task_named_with_joined_emoji_is_found_by_them(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add 👨\u200d👩\u200d👧 birthday gift")
    body = await chat("delete 👨\u200d👩\u200d👧")
    assert body["tool_calls"][-1]["name"] == "delete_task"
    assert await _tasks(client, user) == []


@pytest.mark.parametrize("title", EMOJI_TITLES)
async def test_an_emoji_title_round_trips_through_rest(
    client: httpx.AsyncClient, user: UserSession, title: str
) -> None:
    created = await client.post(
        "/api/tasks", json={"title": title, "description": title}, headers=user.headers
    )
    assert created.status_code == 201
    assert (created.json()["title"], created.json()["description"]) == (title, title)
    renamed = await client.patch(
        f"/api/tasks/{created.json()['id']}", json={"title": f"{title}!"}, headers=user.headers
    )
    assert renamed.json()["title"] == f"{title}!"


async def test_rest_removes_terminal_escapes_and_control_characters(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    created = await client.post(
        "/api/tasks",
        json={"title": "\x1b[31mred alert\x1b[0m\x07", "description": "ding\x07\nline two\x1b[2J"},
        headers=user.headers,
    )
    assert created.status_code == 201
    assert created.json()["title"] == "red alert"
    assert created.json()["description"] == "ding\nline two"
    updated = await client.patch(
        f"/api/tasks/{created.json()['id']}",
        json={"title": "\x1b]0;pwned\x07quiet\x08 title", "description": "tab\tkept\x7f"},
        headers=user.headers,
    )
    assert updated.json()["title"] == "quiet title"
    assert updated.json()["description"] == "tab\tkept"


async def test_rest_still_refuses_nul_and_titles_that_are_only_control_characters(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    for payload in ({"title": "nul\x00byte"}, {"title": "\x1b[0m\x07"}):
        response = await client.post("/api/tasks", json=payload, headers=user.headers)
        assert response.status_code == 422, payload
    created = await client.post("/api/tasks", json={"title": "ok"}, headers=user.headers)
    patched = await client.patch(
        f"/api/tasks/{created.json()['id']}",
        json={"description": "nul\x00byte"},
        headers=user.headers,
    )
    assert patched.status_code == 422


async def test_chat_removes_terminal_escapes_and_control_characters(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    first = await chat("add \x1b[31mred alert\x1b[0m")
    await chat("add ring the bell\x07 twice")
    titles = [task["title"] for task in await _tasks(client, user)]
    assert titles == ["red alert", "ring the bell twice"]
    assert "\x1b" not in first["response"]


async def test_a_chat_title_of_only_control_characters_is_explained(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add \x1b[0m\x07")
    assert "empty once control characters are taken out" in body["response"]
    assert await _tasks(client, user) == []


async def test_a_too_long_description_in_chat_says_what_was_wrong(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add buy milk with " + "details " * 300)
    assert body["response"].startswith("That description is too long: at most 2,000 characters.")
    assert "Sorry" not in body["response"]
    assert await _tasks(client, user) == []
    await chat("add buy milk")
    body = await chat("change the description of task 1 to " + "details " * 300)
    assert "at most 2,000 characters" in body["response"]
    assert (await _tasks(client, user))[0]["description"] is None


async def test_a_too_long_title_in_a_chat_rename_says_what_was_wrong(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add buy milk")
    body = await chat("rename task 1 to " + "very long words " * 20)
    assert "200 characters or fewer" in body["response"]
    assert [task["title"] for task in await _tasks(client, user)] == ["buy milk"]
