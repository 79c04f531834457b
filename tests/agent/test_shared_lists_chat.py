"""Shared lists in chat, end to end (specs/sharing.md): through POST /api/chat, the Runner, the
real MCP list and sharing tools and the database, on both databases. The owner shares a list
by chat, the others accept over REST, then by chat a member adds to it and asks who added
what, and a viewer's change is refused with nothing changed."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.conftest import ChatFn, UserSession, every_task, register


async def _accept_all(client: httpx.AsyncClient, who: UserSession) -> list[dict[str, Any]]:
    waiting = await client.get("/api/invitations", headers=who.headers)
    assert waiting.status_code == 200, waiting.text
    for invitation in waiting.json():
        accepted = await client.post(
            f"/api/invitations/{invitation['id']}/accept", headers=who.headers
        )
        assert accepted.status_code == 200, accepted.text
    found: list[dict[str, Any]] = waiting.json()
    return found


def _calls(body: dict[str, Any]) -> list[str]:
    return [call["name"] for call in body["tool_calls"]]


async def test_a_list_shared_by_chat_is_used_by_its_members_and_refused_to_its_viewer(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession, chat: ChatFn
) -> None:
    # an email that reading a message would respell ("ad" as "add"): taken as typed
    viewer = await register(client, f"ad-{uuid.uuid4().hex[:8]}@example.com")
    await chat("add tent to my packing list")

    shared = await chat(f"share the packing list with {other_user.email}")
    assert shared["response"] == (
        f"I've invited {other_user.email} to your Packing list as an editor: once they "
        "accept, they can add, change and complete its tasks."
    )
    assert _calls(shared) == ["list_lists", "share_list"]
    assert shared["tool_calls"][1]["arguments"] == {
        "list": "Packing",
        "email": other_user.email,
        "role": "editor",
    }
    viewing = await chat(f"share the packing list with {viewer.email} as a viewer")
    assert viewing["tool_calls"][-1]["arguments"]["email"] == viewer.email
    assert "as a viewer" in viewing["response"]

    [invitation] = await _accept_all(client, other_user)
    assert (invitation["list"], invitation["role"]) == ("Packing", "editor")
    await _accept_all(client, viewer)

    added = await chat("add sleeping bag to the packing list", as_user=other_user)
    assert added["response"] == "I've added 'sleeping bag' to the shared Packing list."
    owners = {t["title"] for t in await every_task(client, user, list="Packing")}
    assert owners == {"tent", "sleeping bag"}

    asked = await chat("who added the tent?", as_user=other_user)
    assert asked["response"] == f"{user.email} added 'tent' (Packing list, shared)."
    mine = await chat("who added the sleeping bag?", as_user=other_user)
    assert mine["response"] == "You added 'sleeping bag' (Packing list, shared)."
    theirs = await chat("who added the sleeping bag?")
    assert theirs["response"] == f"{other_user.email} added 'sleeping bag' (Packing list, shared)."

    refused = await chat("mark the tent done", as_user=viewer)
    assert refused["response"] == (
        "'Packing' is shared with you as a viewer: you can see its tasks but not change them."
    )
    tent = next(t for t in await every_task(client, user) if t["title"] == "tent")
    assert tent["completed"] is False

    who = await chat("who is on the packing list?", as_user=viewer)
    assert who["response"].startswith(f"Packing belongs to {user.email} and is shared with you")
    assert other_user.email in who["response"]
    assert all(name in ("list_lists", "list_members") for name in _calls(who))


async def test_leaving_stopping_and_a_question_by_chat(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession, chat: ChatFn
) -> None:
    await chat("add pay the rent to my flat list")
    await chat(f"share the flat list with {other_user.email}")
    await _accept_all(client, other_user)

    asked = await chat(f"can {other_user.email} see the flat list?")
    assert asked["response"] == (
        f"Yes: {other_user.email} can see and edit your Flat list (an editor)."
    )
    assert not {"share_list", "remove_member", "stop_sharing"} & set(_calls(asked))

    not_theirs = await chat("stop sharing the flat list", as_user=other_user)
    assert not_theirs["response"] == (
        f"Only the owner of 'Flat' ({user.email}) can stop sharing it."
    )
    left = await chat("leave the flat list", as_user=other_user)
    assert left["response"] == f"You've left Flat: its tasks stay with {user.email}, its owner."
    assert await every_task(client, other_user, list="Flat") == []

    await chat(f"share the flat list with {other_user.email} as a viewer")
    stopped = await chat("stop sharing the flat list")
    assert stopped["response"] == (
        f"I've stopped sharing your Flat list: {other_user.email} no longer has it. Its tasks "
        "stay yours."
    )
    waiting = await client.get("/api/invitations", headers=other_user.headers)
    assert waiting.json() == []
