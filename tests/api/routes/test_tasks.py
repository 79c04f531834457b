from __future__ import annotations

from datetime import datetime

import httpx

from tests.conftest import UserSession


async def _create(client: httpx.AsyncClient, who: UserSession, title: str, **extra: object) -> dict:
    response = await client.post("/api/tasks", json={"title": title, **extra}, headers=who.headers)
    assert response.status_code == 201, response.text
    return response.json()


async def test_a_new_users_first_task_is_number_1_and_numbers_are_never_reused(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    first = await _create(client, user, "buy milk")
    second = await _create(client, user, "call mom")
    assert (first["id"], second["id"]) == (1, 2)
    assert (await client.delete("/api/tasks/2", headers=user.headers)).status_code == 204
    third = await _create(client, user, "walk the dog")
    assert third["id"] == 3


async def test_task_numbers_are_per_user(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    await _create(client, user, "mine")
    await _create(client, user, "mine too")
    theirs = await _create(client, other_user, "theirs")
    assert theirs["id"] == 1


async def test_created_task_has_the_public_shape_with_aware_timestamps(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, "  Write report  ", description="with charts")
    assert set(task) == {
        "id",
        "title",
        "description",
        "completed",
        "created_at",
        "updated_at",
        "due_date",
        "due_time",
        "due_at",
        "priority",
        "list",
        "tags",
        "repeat",
        "repeat_from",
        "repeat_text",
        "remind_at",
        "remind_before",
        "shared",
        "added_by",
        "completed_by",
    }
    assert (task["remind_at"], task["remind_before"]) == (None, None)
    assert (task["due_date"], task["due_time"], task["due_at"]) == (None, None, None)
    assert (task["repeat"], task["repeat_from"], task["repeat_text"]) == (None, "schedule", None)
    assert (task["priority"], task["list"], task["tags"]) == ("none", "Inbox", [])
    assert task["title"] == "Write report"
    assert task["description"] == "with charts"
    assert task["completed"] is False
    assert datetime.fromisoformat(task["created_at"]).tzinfo is not None


async def test_list_filters_by_status(client: httpx.AsyncClient, user: UserSession) -> None:
    await _create(client, user, "open one")
    done = await _create(client, user, "done one")
    patched = await client.patch(
        f"/api/tasks/{done['id']}", json={"completed": True}, headers=user.headers
    )
    assert patched.json()["completed"] is True

    async def titles(status: str) -> list[str]:
        response = await client.get(f"/api/tasks?status={status}", headers=user.headers)
        return [t["title"] for t in response.json()]

    assert await titles("all") == ["open one", "done one"]
    assert await titles("pending") == ["open one"]
    assert await titles("completed") == ["done one"]
    bad = await client.get("/api/tasks?status=someday", headers=user.headers)
    assert bad.status_code == 422


async def test_patch_changes_only_the_given_fields_and_can_reopen(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    task = await _create(client, user, "draft", description="first")
    renamed = await client.patch(
        f"/api/tasks/{task['id']}", json={"title": "final"}, headers=user.headers
    )
    assert renamed.json()["title"] == "final"
    assert renamed.json()["description"] == "first"
    await client.patch(f"/api/tasks/{task['id']}", json={"completed": True}, headers=user.headers)
    reopened = await client.patch(
        f"/api/tasks/{task['id']}", json={"completed": False}, headers=user.headers
    )
    assert reopened.json()["completed"] is False


async def test_titles_blank_too_long_or_with_nul_are_rejected_with_detail(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    for title in ["", "   ", "x" * 201, "bad\x00title"]:
        response = await client.post("/api/tasks", json={"title": title}, headers=user.headers)
        assert response.status_code == 422, title
        assert response.json()["detail"][0]["loc"][-1] == "title"
    wrong_type = await client.post("/api/tasks", json={"title": 42}, headers=user.headers)
    assert wrong_type.status_code == 422


async def test_unicode_and_emoji_titles_survive_intact(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    title = "Acheter du café ☕ — 東京 🎉"
    task = await _create(client, user, title)
    fetched = await client.get(f"/api/tasks/{task['id']}", headers=user.headers)
    assert fetched.json()["title"] == title


async def test_another_users_task_is_404_and_unchanged(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    mine = await _create(client, user, "private")
    # Task numbers are per user: other_user has no task 1, so user's task 1 is unreachable.
    path = f"/api/tasks/{mine['id']}"
    assert (await client.get(path, headers=other_user.headers)).status_code == 404
    patch = await client.patch(path, json={"title": "hacked"}, headers=other_user.headers)
    assert patch.status_code == 404
    assert (await client.delete(path, headers=other_user.headers)).status_code == 404
    assert (await client.get("/api/tasks", headers=other_user.headers)).json() == []
    still = await client.get(path, headers=user.headers)
    assert still.json()["title"] == "private"


async def test_missing_task_and_out_of_range_ids_are_clear_errors(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    missing = await client.get("/api/tasks/999", headers=user.headers)
    assert missing.status_code == 404
    assert missing.json()["detail"] == "Task not found"
    assert (await client.get("/api/tasks/0", headers=user.headers)).status_code == 422
    huge = await client.get(f"/api/tasks/{2**70}", headers=user.headers)
    assert huge.status_code == 422
    assert (await client.get("/api/tasks/abc", headers=user.headers)).status_code == 422


async def test_tasks_need_a_token(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/tasks")).status_code == 401
    assert (await client.post("/api/tasks", json={"title": "x"})).status_code == 401
