"""Tasks on a shared list behave as one's own (specs/sharing.md, "Tasks on a shared list"),
on both databases: a reminder goes to whoever set it, under their own number, and to nobody
once they leave; repeats, due dates, priorities and tags work for an editor; an invitation
reaches only its own list; the task cap is the owner's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI
from sqlmodel import col, select, update

from backend.main import create_app
from backend.models import Task, TaskStatus
from backend.services import tasks
from tests.api.routes.test_sharing import add, invite, make_list, share
from tests.conftest import UserSession, client_for, every_task, make_settings, register, running


async def _fire(app: FastAPI, task_id: int, owner: UserSession) -> None:
    """The clock reaches the reminder of the owner's task `task_id`; the scheduler sweeps."""
    async with app.state.sessionmaker() as session:
        await session.exec(
            update(Task)
            .where(col(Task.owner_id) == owner.id, col(Task.number) == task_id)
            .values(remind_at=datetime.now(UTC) - timedelta(seconds=1))
        )
        await session.commit()
    await app.state.reminder_scheduler.sweep()


async def _pk(app: FastAPI, owner: UserSession, number: int) -> int:
    async with app.state.sessionmaker() as session:
        found = await session.exec(
            select(Task.pk).where(col(Task.owner_id) == owner.id, col(Task.number) == number)
        )
        return int(found.one() or 0)


async def _shown(client: httpx.AsyncClient, who: UserSession) -> list[tuple[int, str]]:
    response = await client.get("/api/reminders", headers=who.headers)
    assert response.status_code == 200, response.text
    return [(r["task_id"], r["title"]) for r in response.json()["reminders"]]


async def test_a_reminder_on_a_shared_task_goes_to_whoever_set_it_under_their_number(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    for i in range(4):
        await add(client, other_user, f"member's own {i}")
    await make_list(client, user, "Family")
    shared = await add(client, user, "pick up the cake", list="Family")
    await share(client, user, "Family", other_user)
    [seen] = await every_task(client, other_user, list="Family")
    assert seen["id"] == 5  # the member's own sequence
    set_it = await client.patch(
        f"/api/tasks/{seen['id']}",
        json={"due_date": "2031-06-01", "due_time": "10:00", "remind_before": 30},
        headers=other_user.headers,
    )
    assert set_it.status_code == 200, set_it.text
    # The reminder is the member's: the owner sees the task without it.
    owner_view = (await client.get(f"/api/tasks/{shared['id']}", headers=user.headers)).json()
    assert (owner_view["remind_at"], owner_view["remind_before"]) == (None, None)
    mine = (await client.get(f"/api/tasks/{seen['id']}", headers=other_user.headers)).json()
    assert mine["remind_before"] == 30
    await _fire(app, shared["id"], user)
    assert await _shown(client, other_user) == [(5, "pick up the cake")]
    assert await _shown(client, user) == []


async def test_a_member_who_leaves_is_reminded_of_nothing_more(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Flat")
    shared = await add(client, user, "pay the rent", list="Flat")
    member_id = await share(client, user, "Flat", other_user)
    [seen] = await every_task(client, other_user, list="Flat")
    await client.patch(
        f"/api/tasks/{seen['id']}",
        json={"remind_at": "2031-06-01T09:00:00Z"},
        headers=other_user.headers,
    )
    left = await client.delete(f"/api/lists/Flat/members/{member_id}", headers=other_user.headers)
    assert left.status_code == 204
    await _fire(app, shared["id"], user)
    assert await _shown(client, other_user) == []
    async with app.state.sessionmaker() as session:
        stored = await session.get(Task, (await _pk(app, user, shared["id"])))
        assert stored is not None and stored.remind_at is None  # their reminder went with them


async def test_an_editor_uses_repeats_due_dates_priorities_and_tags_on_a_shared_task(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Chores")
    await share(client, user, "Chores", other_user)
    made = await add(
        client,
        other_user,
        "water the plants",
        list="Chores",
        due_date="2031-01-05",
        priority="high",
        tags=["home"],
        repeat="every week",
    )
    assert (made["priority"], made["tags"], made["repeat_text"]) == ("high", ["home"], "every week")
    done = await client.patch(
        f"/api/tasks/{made['id']}", json={"completed": True}, headers=other_user.headers
    )
    assert done.status_code == 200, done.text
    # A repeating task moves on to its next date, still pending, for everyone.
    assert (done.json()["completed"], done.json()["due_date"]) == (False, "2031-01-12")
    [owner_view] = await every_task(client, user, list="Chores")
    assert (owner_view["due_date"], owner_view["added_by"]) == ("2031-01-12", other_user.email)
    tagged = await every_task(client, other_user, tag="home", priority="high")
    assert [t["title"] for t in tagged] == ["water the plants"]


async def test_an_invitation_joins_only_its_own_list(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Picnic")
    await make_list(client, user, "Private")
    await add(client, user, "sandwiches", list="Picnic")
    await add(client, user, "diary", list="Private")
    made = (await invite(client, user, "Picnic", other_user.email, "viewer")).json()
    accepted = await client.post(
        f"/api/invitations/{made['id']}/accept", headers=other_user.headers
    )
    assert accepted.json()["name"] == "Picnic"
    assert [t["title"] for t in await every_task(client, other_user)] == ["sandwiches"]
    hidden = await client.get("/api/lists/Private/members", headers=other_user.headers)
    assert hidden.status_code == 404
    again = await client.post(f"/api/invitations/{made['id']}/accept", headers=other_user.headers)
    assert again.status_code == 404  # accepted already: no longer pending


async def test_a_members_adds_count_against_the_owners_task_limit(database_url: str) -> None:
    settings = make_settings(database_url, max_tasks_per_user=3)
    async with running(create_app(settings)) as capped, client_for(capped) as client:
        owner, member = await register(client), await register(client)
        await make_list(client, owner, "Big")
        await share(client, owner, "Big", member)
        for title in ("one", "two"):
            await add(client, owner, title)
        added = await add(client, member, "three", list="Big")
        assert added["added_by"] == member.email
        refused = await client.post(
            "/api/tasks", json={"title": "four", "list": "Big"}, headers=member.headers
        )
        assert refused.status_code == 409
        assert "limit of 3 tasks" in refused.json()["detail"]
        # The member's own tasks are theirs to count.
        assert (
            await client.post("/api/tasks", json={"title": "mine"}, headers=member.headers)
        ).status_code == 201


async def test_a_members_every_task_change_leaves_the_lists_shared_with_them_alone(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await make_list(client, user, "Family")
    await add(client, user, "milk", list="Family")
    await share(client, user, "Family", other_user)
    await add(client, other_user, "my own errand")
    async with app.state.sessionmaker() as session:
        done = await tasks.complete_tasks(session, user_id=other_user.id, status=TaskStatus.PENDING)
        assert done.titles == ["my own errand"]
        gone = await tasks.delete_tasks(session, user_id=other_user.id, status=TaskStatus.ALL)
        assert gone.titles == ["my own errand"]
        # Named by number, a shared task is within reach (the member is an editor).
        [milk] = await every_task(client, other_user, list="Family")
        named = await tasks.complete_tasks(session, user_id=other_user.id, numbers=[milk["id"]])
        assert named.titles == ["milk"]
