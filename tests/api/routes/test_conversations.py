from __future__ import annotations

import httpx

from tests.conftest import ChatFn, UserSession


async def test_conversations_are_listed_newest_first_and_titled_by_their_first_message(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    first = await client.post("/api/chat", json={"message": "add buy milk"}, headers=user.headers)
    second = await client.post("/api/chat", json={"message": "show my tasks"}, headers=user.headers)
    listed = (await client.get("/api/conversations", headers=user.headers)).json()
    assert [c["id"] for c in listed] == [
        second.json()["conversation_id"],
        first.json()["conversation_id"],
    ]
    assert [c["title"] for c in listed] == ["show my tasks", "add buy milk"]


async def test_messages_come_back_in_order_with_tool_calls(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add buy milk")
    await chat("show my tasks")
    response = await client.get(
        f"/api/conversations/{body['conversation_id']}/messages", headers=user.headers
    )
    messages = response.json()
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[0]["content"] == "add buy milk"
    assert messages[1]["tool_calls"][0]["name"] == "add_task"
    assert messages[0]["tool_calls"] == []


async def test_messages_page_backwards_with_limit_and_before_id(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("hello")
    await chat("help")
    url = f"/api/conversations/{body['conversation_id']}/messages"
    newest_two = (await client.get(f"{url}?limit=2", headers=user.headers)).json()
    assert [m["content"] for m in newest_two][0] == "help"
    older = (
        await client.get(f"{url}?limit=2&before_id={newest_two[0]['id']}", headers=user.headers)
    ).json()
    assert [m["content"] for m in older][0] == "hello"


async def test_deleting_a_conversation_removes_it_and_its_messages(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add buy milk")
    cid = body["conversation_id"]
    assert (
        await client.delete(f"/api/conversations/{cid}", headers=user.headers)
    ).status_code == 204
    assert (
        await client.get(f"/api/conversations/{cid}/messages", headers=user.headers)
    ).status_code == 404
    assert cid not in [
        c["id"] for c in (await client.get("/api/conversations", headers=user.headers)).json()
    ]
    # Deleting the conversation does not delete the tasks it created.
    assert [t["title"] for t in (await client.get("/api/tasks", headers=user.headers)).json()] == [
        "buy milk"
    ]


async def test_another_users_conversation_is_invisible(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add secret plan")
    cid = body["conversation_id"]
    read = await client.get(f"/api/conversations/{cid}/messages", headers=other_user.headers)
    delete = await client.delete(f"/api/conversations/{cid}", headers=other_user.headers)
    assert read.status_code == delete.status_code == 404
    assert (await client.get("/api/conversations", headers=other_user.headers)).json() == []
    still = await client.get(f"/api/conversations/{cid}/messages", headers=user.headers)
    assert len(still.json()) == 2
