from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.exc import OperationalError

from backend.agent.rules.replies import SYSTEM_ERROR
from backend.core.config import Settings
from backend.main import create_app
from backend.services import conversations, tasks
from tests.conftest import ChatFn, UserSession, client_for, running


async def _tasks(client: httpx.AsyncClient, who: UserSession) -> list[dict[str, Any]]:
    response = await client.get("/api/tasks", headers=who.headers)
    return list(response.json())


async def test_add_list_complete_through_chat_changes_the_tasks(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    added = await chat("add buy milk")
    assert added["response"] == "I've added 'buy milk' to your list."
    assert added["tool_calls"] == [
        {
            "name": "add_task",
            "arguments": {"title": "buy milk"},
            "result": {"task_id": 1, "status": "created", "title": "buy milk"},
        }
    ]
    listed = await chat("show my tasks")
    assert listed["response"] == "Here are all your tasks:\n1. buy milk"
    assert listed["tool_calls"][0]["name"] == "list_tasks"
    assert listed["tool_calls"][0]["result"][0]["title"] == "buy milk"
    done = await chat("complete task 1")
    assert done["response"] == "Great job! I've marked 'buy milk' as complete."
    assert done["tool_calls"][0]["result"] == {
        "task_id": 1,
        "status": "completed",
        "title": "buy milk",
    }
    assert (await _tasks(client, user))[0]["completed"] is True


async def test_the_explicit_commands_call_the_right_tools(chat: ChatFn) -> None:
    await chat("add call mom")
    await chat("add old notes")
    pending = await chat("show pending tasks")
    assert pending["tool_calls"][0]["arguments"] == {"status": "pending", "limit": 51}
    renamed = await chat("change task 1 to call dad")
    assert renamed["tool_calls"][0]["arguments"] == {"task_id": 1, "title": "call dad"}
    assert renamed["response"] == "I've updated 'call dad'."
    deleted = await chat("delete task 2")
    assert deleted["tool_calls"][0]["arguments"] == {"task_id": 2}
    assert deleted["response"] == "I've deleted 'old notes' from your list."
    completed = await chat("show completed tasks")
    assert completed["response"] == "You don't have any completed tasks. Nothing completed yet."


async def test_greeting_and_help_call_no_tools(chat: ChatFn) -> None:
    hello = await chat("Hello!")
    assert hello["response"].startswith("Hi! I'm your task assistant.")
    assert hello["tool_calls"] == []
    assistance = await chat("help")
    assert "Here's what I can do" in assistance["response"]
    assert assistance["tool_calls"] == []


async def test_missing_task_is_reported_not_faked(chat: ChatFn) -> None:
    body = await chat("complete task 99")
    assert body["response"] == "I couldn't find task 99. Would you like to see your current tasks?"
    assert body["tool_calls"][0]["result"] == {"error": "Task 99 not found"}


async def test_a_new_app_instance_continues_the_same_conversation(
    settings: Settings, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    first = await chat("add buy groceries")
    async with running(create_app(settings)) as second_app, client_for(second_app) as other:
        response = await other.post(
            "/api/chat",
            json={"message": "mark it as done", "conversation_id": first["conversation_id"]},
            headers=user.headers,
        )
    assert response.json()["response"] == "Great job! I've marked 'buy groceries' as complete."
    assert (await _tasks(client, user))[0]["completed"] is True


async def test_only_the_last_50_messages_are_loaded(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, chat: ChatFn
) -> None:
    assistant = app.state.assistant
    seen: list[int] = []
    real_respond = assistant.respond

    async def spy(**kwargs: Any) -> Any:
        seen.append(len(kwargs["history"]))
        return await real_respond(**kwargs)

    monkeypatch.setattr(assistant, "respond", spy)
    for _ in range(27):
        await chat("hi")
    assert seen[:3] == [0, 2, 4]
    assert max(seen) == 50
    assert seen[-1] == 50


async def test_a_pronoun_beyond_the_window_is_not_resolved(chat: ChatFn) -> None:
    await chat("add task A")
    for _ in range(24):  # 2 + 48 messages: "add task A" is still inside the 50
        await chat("hello")
    inside = await chat("show my tasks")
    assert inside["tool_calls"][0]["name"] == "list_tasks"
    await chat("add task B")
    for _ in range(25):  # now everything that mentioned a task is older than 50 messages
        await chat("hello")
    beyond = await chat("delete it")
    assert beyond["response"] == (
        "Which task would you like to delete? You can say the task number or title."
    )
    assert beyond["tool_calls"] == []


async def test_user_and_assistant_messages_are_stored_with_tool_calls(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add water plants")
    messages = (
        await client.get(
            f"/api/conversations/{body['conversation_id']}/messages", headers=user.headers
        )
    ).json()
    assert [(m["role"], m["content"]) for m in messages] == [
        ("user", "add water plants"),
        ("assistant", "I've added 'water plants' to your list."),
    ]
    assert messages[1]["tool_calls"] == body["tool_calls"]


async def test_the_users_message_is_stored_before_the_agent_runs(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, client: httpx.AsyncClient, user: UserSession
) -> None:
    seen_before_run: list[list[str]] = []

    async def failing_respond(**kwargs: Any) -> Any:
        async with app.state.sessionmaker() as session:
            found = await conversations.list_conversations(session, owner_id=user.id)
            stored = await conversations.recent_messages(
                session, conversation_id=found[0].id, limit=5
            )
        seen_before_run.append([m.content for m in stored])
        raise RuntimeError("agent crashed")

    monkeypatch.setattr(app.state.assistant, "respond", failing_respond)
    with pytest.raises(RuntimeError):
        await client.post("/api/chat", json={"message": "add buy milk"}, headers=user.headers)
    assert seen_before_run == [["add buy milk"]]


async def test_a_database_failure_inside_a_tool_gives_the_friendly_reply(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    client: httpx.AsyncClient,
    user: UserSession,
    chat: ChatFn,
) -> None:
    async def broken_create(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("INSERT", {}, Exception("connection lost"))

    monkeypatch.setattr(tasks, "create_task", broken_create)
    with caplog.at_level(logging.ERROR):
        body = await chat("add buy milk")
    assert body["response"] == SYSTEM_ERROR
    assert "connection lost" not in body["response"]
    assert any("failed" in record.getMessage() for record in caplog.records)
    history = (
        await client.get(
            f"/api/conversations/{body['conversation_id']}/messages", headers=user.headers
        )
    ).json()
    assert history[0]["content"] == "add buy milk"
    assert history[1]["content"] == SYSTEM_ERROR


async def test_database_down_before_the_turn_is_a_503(
    monkeypatch: pytest.MonkeyPatch, client: httpx.AsyncClient, user: UserSession
) -> None:
    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("SELECT", {}, Exception("could not connect"))

    monkeypatch.setattr(conversations, "create_conversation", unreachable)
    response = await client.post("/api/chat", json={"message": "hi"}, headers=user.headers)
    assert response.status_code == 503
    assert response.json() == {"detail": "The service is temporarily unavailable"}


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"message": ""}, "message"),
        ({"message": "   \n\t "}, "message"),
        ({"message": "x" * 10_000}, "message"),
        ({"message": "nul\x00byte"}, "message"),
        ({"message": 5}, "message"),
        ({}, "message"),
        ({"message": "hi", "conversation_id": "abc"}, "conversation_id"),
        ({"message": "hi", "conversation_id": 0}, "conversation_id"),
        ({"message": "hi", "conversation_id": 2**62}, "conversation_id"),
    ],
)
async def test_bad_chat_input_is_a_422_naming_the_field(
    client: httpx.AsyncClient, user: UserSession, payload: dict[str, Any], field: str
) -> None:
    response = await client.post("/api/chat", json=payload, headers=user.headers)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][-1] == field


async def test_a_conversation_id_that_is_not_yours_is_404(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add secret")
    for conversation_id in (body["conversation_id"], 2**31 - 1):
        response = await client.post(
            "/api/chat",
            json={"message": "show my tasks", "conversation_id": conversation_id},
            headers=other_user.headers,
        )
        assert response.status_code == 404
        assert response.json()["detail"] == "Conversation not found"


async def test_chat_cannot_touch_another_users_tasks(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession, chat: ChatFn
) -> None:
    await chat("add private thing")
    completed = await chat("complete task 1", as_user=other_user)
    assert (
        completed["response"] == "I couldn't find task 1. Would you like to see your current tasks?"
    )
    deleted = await chat("delete task 1", as_user=other_user)
    assert deleted["tool_calls"][0]["result"] == {"error": "Task 1 not found"}
    listed = await chat("show my tasks", as_user=other_user)
    assert listed["tool_calls"][0]["result"] == []
    assert (await _tasks(client, user))[0] == {
        **(await _tasks(client, user))[0],
        "title": "private thing",
        "completed": False,
    }


async def test_the_user_id_path_alias_works_only_for_yourself(
    client: httpx.AsyncClient, user: UserSession, other_user: UserSession
) -> None:
    own = await client.post(
        f"/api/{user.id}/chat", json={"message": "add from alias"}, headers=user.headers
    )
    assert own.status_code == 200
    assert own.json()["tool_calls"][0]["name"] == "add_task"
    foreign = await client.post(
        f"/api/{user.id}/chat", json={"message": "show my tasks"}, headers=other_user.headers
    )
    assert foreign.status_code == 403


async def test_chat_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/chat", json={"message": "hi"})
    assert response.status_code == 401


async def test_a_too_long_title_in_chat_gets_a_helpful_reply_and_no_task(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("add " + "call the plumber about the leaking kitchen sink " * 5)
    assert "200 characters" in body["response"]
    assert body["tool_calls"][0]["result"]["error"].startswith("Invalid title")
    assert await _tasks(client, user) == []
