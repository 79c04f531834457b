"""The account's lists over REST (/api/lists, issue 14)."""

from __future__ import annotations

import httpx

from tests.conftest import UserSession


async def _lists(client: httpx.AsyncClient, who: UserSession) -> list[dict[str, object]]:
    response = await client.get("/api/lists", headers=who.headers)
    assert response.status_code == 200, response.text
    return list(response.json())


async def _add(client: httpx.AsyncClient, who: UserSession, title: str, **body: object) -> dict:
    response = await client.post("/api/tasks", json={"title": title, **body}, headers=who.headers)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _unshared(owner: UserSession) -> dict[str, object]:
    """What a list of one's own that nobody shares says of sharing."""
    return {"shared": False, "role": "owner", "owner": owner.email, "members": 0, "invited": 0}


async def test_every_account_starts_with_inbox_and_shopping(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    assert await _lists(client, user) == [
        {"name": "Inbox", "pending": 0, "total": 0, **_unshared(user)},
        {"name": "Shopping", "pending": 0, "total": 0, **_unshared(user)},
    ]


async def test_lists_are_made_by_use_and_counted(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await _add(client, user, "milk", list="shopping")
    done = await _add(client, user, "screws", list="Hardware")
    await _add(client, user, "call mom")
    await client.patch(f"/api/tasks/{done['id']}", json={"completed": True}, headers=user.headers)
    assert await _lists(client, user) == [
        {"name": "Inbox", "pending": 1, "total": 1, **_unshared(user)},
        {"name": "Shopping", "pending": 1, "total": 1, **_unshared(user)},
        {"name": "Hardware", "pending": 0, "total": 1, **_unshared(user)},
    ]


async def test_a_list_is_made_renamed_with_its_tasks_and_deleted_into_inbox(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    made = await client.post("/api/lists", json={"name": " Work "}, headers=user.headers)
    assert made.status_code == 201
    assert made.json() == {"name": "Work", "pending": 0, "total": 0, **_unshared(user)}
    task = await _add(client, user, "report", list="work")
    assert task["list"] == "Work"
    renamed = await client.patch("/api/lists/WORK", json={"name": "Office"}, headers=user.headers)
    assert renamed.json() == {"name": "Office", "pending": 1, "total": 1, **_unshared(user)}
    moved = await client.get(f"/api/tasks/{task['id']}", headers=user.headers)
    assert moved.json()["list"] == "Office"
    gone = await client.delete("/api/lists/office", headers=user.headers)
    assert gone.status_code == 204
    assert (await client.get(f"/api/tasks/{task['id']}", headers=user.headers)).json()["list"] == (
        "Inbox"
    )
    assert [entry["name"] for entry in await _lists(client, user)] == ["Inbox", "Shopping"]


async def test_names_are_unique_in_any_casing_and_inbox_is_fixed(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    again = await client.post("/api/lists", json={"name": "SHOPPING"}, headers=user.headers)
    assert again.status_code == 409
    taken = await client.patch("/api/lists/Shopping", json={"name": "inbox"}, headers=user.headers)
    assert taken.status_code == 409
    for call in (
        client.patch("/api/lists/Inbox", json={"name": "Mine"}, headers=user.headers),
        client.delete("/api/lists/inbox", headers=user.headers),
    ):
        response = await call
        assert response.status_code == 409
        assert "Inbox" in response.json()["detail"]
    case_only = await client.patch(
        "/api/lists/shopping", json={"name": "shopping"}, headers=user.headers
    )
    assert case_only.json()["name"] == "shopping"


async def test_unknown_and_other_users_lists_are_404(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await _add(client, other_user, "secret", list="Private")
    for response in (
        await client.delete("/api/lists/Private", headers=user.headers),
        await client.patch("/api/lists/Private", json={"name": "x"}, headers=user.headers),
    ):
        assert response.status_code == 404
    assert [entry["name"] for entry in await _lists(client, other_user)][-1] == "Private"
    assert "Private" not in [entry["name"] for entry in await _lists(client, user)]


async def test_a_blank_or_too_long_name_is_a_422(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    # The limit counts what was sent, as the schema's maxLength does, even where cleaning
    # (a control character dropped, spaces trimmed) would bring it under.
    for name in ("   ", "x" * 61, "\x82" + "x" * 60, " " + "x" * 60):
        response = await client.post("/api/lists", json={"name": name}, headers=user.headers)
        assert response.status_code == 422
        renamed = await client.patch(
            "/api/lists/Shopping", json={"name": name}, headers=user.headers
        )
        assert renamed.status_code == 422
