"""Shared lists over REST (specs/sharing.md), on both databases: invitations by email,
roles, members' own numbers, who added and completed what, and every refusal: a viewer's
change, a stranger's look, a removed member's next request, another account's acceptance."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import UserSession, every_task, register, unique_email


async def make_list(client: httpx.AsyncClient, who: UserSession, name: str) -> None:
    response = await client.post("/api/lists", json={"name": name}, headers=who.headers)
    assert response.status_code == 201, response.text


async def add(
    client: httpx.AsyncClient, who: UserSession, title: str, **fields: Any
) -> dict[str, Any]:
    response = await client.post("/api/tasks", json={"title": title, **fields}, headers=who.headers)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def invite(
    client: httpx.AsyncClient, owner: UserSession, name: str, email: str, role: str = "editor"
) -> httpx.Response:
    return await client.post(
        f"/api/lists/{name}/members", json={"email": email, "role": role}, headers=owner.headers
    )


async def share(
    client: httpx.AsyncClient,
    owner: UserSession,
    name: str,
    member: UserSession,
    role: str = "editor",
) -> int:
    """The list shared with `member`, who accepted: the membership's id."""
    made = await invite(client, owner, name, member.email, role)
    assert made.status_code == 201, made.text
    accepted = await client.post(
        f"/api/invitations/{made.json()['id']}/accept", headers=member.headers
    )
    assert accepted.status_code == 200, accepted.text
    member_id: int = made.json()["id"]
    return member_id


async def lists_of(client: httpx.AsyncClient, who: UserSession) -> dict[str, dict[str, Any]]:
    response = await client.get("/api/lists", headers=who.headers)
    assert response.status_code == 200
    return {entry["name"]: entry for entry in response.json()}


async def test_an_invitation_is_pending_until_accepted_then_the_list_is_the_members_too(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Family")
    await add(client, user, "milk", list="Family")
    await add(client, user, "eggs", list="Family")
    made = await invite(client, user, "family", other_user.email.upper(), "editor")
    assert made.status_code == 201, made.text
    invitation = made.json()
    assert invitation == {
        "id": invitation["id"],
        "list": "Family",
        "email": other_user.email,
        "role": "editor",
        "status": "pending",
        "owner": user.email,
    }
    # Pending: nothing of the list reaches the invitee yet.
    assert "Family" not in await lists_of(client, other_user)
    assert await every_task(client, other_user) == []
    pending = await client.get("/api/invitations", headers=other_user.headers)
    assert [i["id"] for i in pending.json()] == [invitation["id"]]
    accepted = await client.post(
        f"/api/invitations/{invitation['id']}/accept", headers=other_user.headers
    )
    assert accepted.status_code == 200, accepted.text
    assert accepted.json() == {
        "name": "Family",
        "pending": 2,
        "total": 2,
        "shared": True,
        "role": "editor",
        "owner": user.email,
        "members": 1,
        "invited": 0,
    }
    seen = await every_task(client, other_user, list="family")
    assert [(t["id"], t["title"], t["shared"], t["added_by"]) for t in seen] == [
        (1, "milk", True, user.email),
        (2, "eggs", True, user.email),
    ]
    owners = await lists_of(client, user)
    assert owners["Family"]["shared"] is True
    assert owners["Family"]["members"] == 1
    assert owners["Inbox"]["shared"] is False
    assert (await client.get("/api/invitations", headers=other_user.headers)).json() == []


async def test_members_number_shared_tasks_in_their_own_sequence(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    for i in range(5):
        await add(client, user, f"owner's own {i}")
    await make_list(client, user, "Trip")
    await add(client, user, "passport", list="Trip")
    await add(client, other_user, "member's own")
    await share(client, user, "Trip", other_user)
    # The member's numbers continue their own counter: 2, not the owner's 6.
    [passport] = await every_task(client, other_user, list="Trip")
    assert (passport["id"], passport["title"]) == (2, "passport")
    added = await add(client, other_user, "sunscreen", list="trip")
    assert added["id"] == 3
    owner_view = await every_task(client, user, list="Trip")
    assert [(t["id"], t["title"]) for t in owner_view] == [(6, "passport"), (7, "sunscreen")]
    assert owner_view[1]["added_by"] == other_user.email


async def test_an_editor_completes_changes_and_deletes_and_the_task_says_who(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "House")
    paint = await add(client, user, "paint", list="House")
    await share(client, user, "House", other_user, "editor")
    [seen] = await every_task(client, other_user, list="House")
    done = await client.patch(
        f"/api/tasks/{seen['id']}", json={"completed": True}, headers=other_user.headers
    )
    assert done.status_code == 200, done.text
    assert done.json()["completed_by"] == other_user.email
    owner_side = (await client.get(f"/api/tasks/{paint['id']}", headers=user.headers)).json()
    assert (owner_side["completed"], owner_side["completed_by"]) == (True, other_user.email)
    renamed = await client.patch(
        f"/api/tasks/{seen['id']}",
        json={"title": "white paint", "completed": False},
        headers=other_user.headers,
    )
    assert renamed.json()["completed_by"] is None
    deleted = await client.delete(f"/api/tasks/{seen['id']}", headers=other_user.headers)
    assert deleted.status_code == 204
    assert await every_task(client, user, list="House") == []


async def test_a_viewer_reads_and_every_change_is_refused_and_changes_nothing(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Chores")
    await add(client, user, "vacuum", list="Chores")
    await share(client, user, "Chores", other_user, "viewer")
    [seen] = await every_task(client, other_user, list="Chores")
    number, headers = seen["id"], other_user.headers
    attempts = [
        client.patch(f"/api/tasks/{number}", json={"completed": True}, headers=headers),
        client.patch(f"/api/tasks/{number}", json={"title": "mine"}, headers=headers),
        client.delete(f"/api/tasks/{number}", headers=headers),
        client.post("/api/tasks", json={"title": "x", "list": "Chores"}, headers=headers),
        client.patch("/api/lists/Chores", json={"name": "Mine"}, headers=headers),
        client.delete("/api/lists/Chores", headers=headers),
        invite(client, other_user, "Chores", unique_email()),
    ]
    for attempt in attempts:
        response = await attempt
        assert response.status_code == 403, response.text
        assert "Chores" in response.json()["detail"]
    [after] = await every_task(client, user, list="Chores")
    assert (after["title"], after["completed"]) == ("vacuum", False)
    assert (await lists_of(client, other_user))["Chores"]["role"] == "viewer"


async def test_a_stranger_learns_nothing_of_a_shared_list_not_even_that_it_exists(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    stranger = await register(client)
    await make_list(client, user, "Family")
    await add(client, user, "milk", list="Family")
    await share(client, user, "Family", other_user)
    headers = stranger.headers
    for path in ("/api/lists/Family/members", "/api/lists/Nothing/members"):
        answered = await client.get(path, headers=headers)
        assert (answered.status_code, answered.json()) == (404, {"detail": "List not found"})
    refused = await invite(client, stranger, "Family", unique_email())
    assert (refused.status_code, refused.json()) == (404, {"detail": "List not found"})
    assert await every_task(client, stranger, list="Family") == []
    assert "Family" not in await lists_of(client, stranger)
    # The stranger's number 1 is nobody's task of theirs: the same 404 as any number.
    for number in (1, 2):
        got = await client.get(f"/api/tasks/{number}", headers=headers)
        assert got.status_code == 404
    member_id = (await client.get("/api/lists/Family/members", headers=user.headers)).json()[0][
        "id"
    ]
    for response in (
        await client.delete(f"/api/lists/Family/members/{member_id}", headers=headers),
        await client.patch(
            f"/api/lists/Family/members/{member_id}", json={"role": "viewer"}, headers=headers
        ),
    ):
        assert response.status_code == 404


async def test_a_removed_member_loses_the_list_at_once(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Family")
    await add(client, user, "milk", list="Family")
    member_id = await share(client, user, "Family", other_user)
    [seen] = await every_task(client, other_user, list="Family")
    removed = await client.delete(f"/api/lists/Family/members/{member_id}", headers=user.headers)
    assert removed.status_code == 204
    assert await every_task(client, other_user) == []
    assert "Family" not in await lists_of(client, other_user)
    gone = await client.patch(
        f"/api/tasks/{seen['id']}", json={"completed": True}, headers=other_user.headers
    )
    assert gone.status_code == 404
    assert (await lists_of(client, user))["Family"]["shared"] is False


async def test_a_member_leaves_and_the_owner_keeps_every_task(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Flat")
    member_id = await share(client, user, "Flat", other_user)
    await add(client, other_user, "bins", list="Flat")
    left = await client.delete(f"/api/lists/Flat/members/{member_id}", headers=other_user.headers)
    assert left.status_code == 204
    assert "Flat" not in await lists_of(client, other_user)
    assert [t["title"] for t in await every_task(client, user, list="Flat")] == ["bins"]


async def test_a_member_cannot_remove_or_rerole_another_member(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    third = await register(client)
    await make_list(client, user, "Team")
    await share(client, user, "Team", other_user, "editor")
    third_id = await share(client, user, "Team", third, "viewer")
    kicked = await client.delete(f"/api/lists/Team/members/{third_id}", headers=other_user.headers)
    assert kicked.status_code == 403
    promoted = await client.patch(
        f"/api/lists/Team/members/{third_id}", json={"role": "editor"}, headers=other_user.headers
    )
    assert promoted.status_code == 403
    members = (await client.get("/api/lists/Team/members", headers=third.headers)).json()
    assert sorted((m["email"], m["role"]) for m in members) == sorted(
        [(other_user.email, "editor"), (third.email, "viewer")]
    )


async def test_a_role_change_holds_from_the_next_request(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Packing")
    await add(client, user, "socks", list="Packing")
    member_id = await share(client, user, "Packing", other_user, "editor")
    [seen] = await every_task(client, other_user, list="Packing")
    demoted = await client.patch(
        f"/api/lists/Packing/members/{member_id}", json={"role": "viewer"}, headers=user.headers
    )
    assert demoted.json()["role"] == "viewer"
    refused = await client.patch(
        f"/api/tasks/{seen['id']}", json={"completed": True}, headers=other_user.headers
    )
    assert refused.status_code == 403
    await client.patch(
        f"/api/lists/Packing/members/{member_id}", json={"role": "editor"}, headers=user.headers
    )
    allowed = await client.patch(
        f"/api/tasks/{seen['id']}", json={"completed": True}, headers=other_user.headers
    )
    assert allowed.status_code == 200


async def test_an_invitation_is_its_emails_alone_and_gone_once_declined(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    stranger = await register(client)
    await make_list(client, user, "Secret")
    made = (await invite(client, user, "Secret", other_user.email)).json()
    for verb in ("accept", "decline"):
        taken = await client.post(f"/api/invitations/{made['id']}/{verb}", headers=stranger.headers)
        assert (taken.status_code, taken.json()) == (404, {"detail": "Invitation not found"})
    assert (await client.get("/api/invitations", headers=stranger.headers)).json() == []
    declined = await client.post(
        f"/api/invitations/{made['id']}/decline", headers=other_user.headers
    )
    assert declined.status_code == 204
    replayed = await client.post(
        f"/api/invitations/{made['id']}/accept", headers=other_user.headers
    )
    assert replayed.status_code == 404
    assert "Secret" not in await lists_of(client, other_user)
    # A new invitation is a new id; the old one stays dead.
    again = (await invite(client, user, "Secret", other_user.email)).json()
    assert again["id"] != made["id"]


async def test_an_invitation_waits_for_an_account_made_later_with_its_email(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    email = unique_email()
    await make_list(client, user, "Garden")
    await add(client, user, "seeds", list="Garden")
    made = (await invite(client, user, "Garden", email, "viewer")).json()
    newcomer = await register(client, email)
    [waiting] = (await client.get("/api/invitations", headers=newcomer.headers)).json()
    assert (waiting["id"], waiting["list"], waiting["owner"]) == (made["id"], "Garden", user.email)
    await client.post(f"/api/invitations/{made['id']}/accept", headers=newcomer.headers)
    assert [t["title"] for t in await every_task(client, newcomer)] == ["seeds"]


async def test_a_shared_list_named_like_the_members_own_carries_the_owners_email(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Groceries")
    await add(client, user, "owner's bread", list="Groceries")
    await make_list(client, other_user, "groceries")
    await add(client, other_user, "my apples", list="groceries")
    await share(client, user, "Groceries", other_user)
    shown = f"Groceries ({user.email})"
    names = await lists_of(client, other_user)
    assert {"groceries", shown} <= names.keys()
    mine = await every_task(client, other_user, list="groceries")
    theirs = await every_task(client, other_user, list=shown)
    assert [t["title"] for t in mine] == ["my apples"]
    assert [(t["title"], t["list"]) for t in theirs] == [("owner's bread", shown)]
    added = await add(client, other_user, "butter", list=shown)
    assert added["list"] == shown
    assert "butter" in [t["title"] for t in await every_task(client, user, list="Groceries")]


async def test_deleting_a_shared_list_takes_it_from_every_member_at_once(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Party")
    await add(client, user, "balloons", list="Party")
    await share(client, user, "Party", other_user)
    assert (await client.delete("/api/lists/Party", headers=user.headers)).status_code == 204
    assert await every_task(client, other_user) == []
    assert "Party" not in await lists_of(client, other_user)
    # The owner's tasks moved to the owner's Inbox, as for any list.
    assert [t["title"] for t in await every_task(client, user, list="Inbox")] == ["balloons"]


async def test_stop_sharing_removes_every_member_and_invitation(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Trip")
    await share(client, user, "Trip", other_user)
    await invite(client, user, "Trip", unique_email(), "viewer")
    trip = (await lists_of(client, user))["Trip"]
    assert (trip["members"], trip["invited"]) == (1, 1)
    # Invitations are the owner's business: a member is told of none.
    assert (await lists_of(client, other_user))["Trip"]["invited"] == 0
    stopped = await client.delete("/api/lists/Trip/members", headers=user.headers)
    assert sorted(m["status"] for m in stopped.json()) == ["accepted", "pending"]
    assert (await client.get("/api/lists/Trip/members", headers=user.headers)).json() == []
    assert "Trip" not in await lists_of(client, other_user)


async def test_what_cannot_be_shared_is_refused_with_a_reason(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Books")
    inbox = await invite(client, user, "Inbox", other_user.email)
    assert inbox.status_code == 409 and "Inbox" in inbox.json()["detail"]
    yourself = await invite(client, user, "Books", user.email)
    assert yourself.status_code == 409 and "your own email" in yourself.json()["detail"]
    assert (await invite(client, user, "Books", other_user.email)).status_code == 201
    twice = await invite(client, user, "Books", other_user.email)
    assert twice.status_code == 409 and "invited already" in twice.json()["detail"]
    bad = await invite(client, user, "Books", "not an email")
    assert bad.status_code == 422
    role = await client.post(
        "/api/lists/Books/members",
        json={"email": unique_email(), "role": "owner"},
        headers=user.headers,
    )
    assert role.status_code == 422


async def test_a_task_moves_only_between_lists_of_the_same_owner(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Family")
    await share(client, user, "Family", other_user)
    mine = await add(client, other_user, "my own thing")
    moved = await client.patch(
        f"/api/tasks/{mine['id']}", json={"list": "Family"}, headers=other_user.headers
    )
    assert moved.status_code == 409
    assert "different people" in moved.json()["detail"]
    shared = await add(client, other_user, "milk", list="Family")
    out = await client.patch(
        f"/api/tasks/{shared['id']}", json={"list": "Inbox"}, headers=other_user.headers
    )
    assert out.status_code == 409
    # The owner moves it to a list of theirs nobody shares: the member loses it.
    owner_number = (await every_task(client, user, list="Family"))[0]["id"]
    kept = await client.patch(
        f"/api/tasks/{owner_number}", json={"list": "Inbox"}, headers=user.headers
    )
    assert kept.status_code == 200 and kept.json()["shared"] is False
    assert [t["title"] for t in await every_task(client, other_user)] == ["my own thing"]
