"""Whether a turn's change can be undone (`undoable`) through the real endpoints: POST
/api/chat, the stream's `done` event, a retried Idempotency-Key and the conversation's history,
on both databases; and sending "undo", as the web UI's button does, reverses the turn's changes,
then the ones before them."""

from __future__ import annotations

import httpx

from tests.api.routes.test_chat_behaviour import seed, tasks
from tests.api.routes.test_chat_choices import history
from tests.api.routes.test_chat_stream import parse_sse, stream
from tests.conftest import ChatFn, UserSession


async def titles(client: httpx.AsyncClient, user: UserSession) -> list[str]:
    return [task["title"] for task in await tasks(client, user)]


async def test_a_change_is_undoable_and_a_look_up_is_not(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    added = await chat("add milk")
    assert [call["name"] for call in added["tool_calls"]] == ["add_task"]
    assert added["undoable"] is True
    shown = await chat("show my tasks")
    assert [call["name"] for call in shown["tool_calls"]] == ["list_tasks"]
    assert shown["undoable"] is False
    assert await titles(client, user) == ["milk"]


async def test_undo_after_a_turn_of_two_changes_removes_both(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    added = await chat("add milk and eggs")
    assert [call["name"] for call in added["tool_calls"]] == ["add_task", "add_task"]
    assert added["undoable"] is True
    assert sorted(await titles(client, user)) == ["eggs", "milk"]

    undone = await chat("undo")
    assert sorted(call["name"] for call in undone["tool_calls"]) == ["delete_task", "delete_task"]
    assert undone["undoable"] is False
    assert await tasks(client, user) == []


async def test_undo_twice_goes_back_step_after_step(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    assert (await chat("add stamps"))["undoable"] is True
    assert (await chat("add envelopes"))["undoable"] is True
    assert await titles(client, user) == ["stamps", "envelopes"]

    first = await chat("undo")
    assert [call["name"] for call in first["tool_calls"]] == ["delete_task"]
    assert await titles(client, user) == ["stamps"]
    second = await chat("undo")
    assert [call["name"] for call in second["tool_calls"]] == ["delete_task"]
    assert await tasks(client, user) == []


async def test_a_clear_is_not_undoable(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "stamps", "envelopes")
    asked = await chat("delete all my tasks")
    assert asked["undoable"] is False
    cleared = await chat("yes")
    assert "delete_task" in [call["name"] for call in cleared["tool_calls"]]
    assert cleared["undoable"] is False
    assert await tasks(client, user) == []


async def test_the_streams_done_event_carries_the_flag(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    added = parse_sse((await stream(client, user, "add milk")).text)[-1]
    assert added[0] == "done" and added[1]["undoable"] is True
    shown = parse_sse((await stream(client, user, "show my tasks")).text)[-1]
    assert shown[0] == "done" and shown[1]["undoable"] is False


async def test_a_retried_turn_replays_the_flag(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    headers = {**user.headers, "Idempotency-Key": f"undo-{user.id}"}
    sent = {"message": "add milk"}
    first = await client.post("/api/chat", json=sent, headers=headers)
    again = await client.post("/api/chat", json=sent, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json()["undoable"] is again.json()["undoable"] is True
    streamed = await client.post("/api/chat/stream", json=sent, headers=headers)
    assert parse_sse(streamed.text) == [("done", first.json())]
    assert await titles(client, user) == ["milk"]


async def test_the_history_gives_each_message_its_own_flag(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    added = await chat("add milk")
    await chat("show my tasks")
    await chat("undo")
    messages = await history(client, user, added["conversation_id"])
    assert [(m["role"], m["undoable"]) for m in messages] == [
        ("user", False),
        ("assistant", True),
        ("user", False),
        ("assistant", False),
        ("user", False),
        ("assistant", False),
    ]
    assert await tasks(client, user) == []
