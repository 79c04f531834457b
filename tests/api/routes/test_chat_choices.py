"""A question's choices (`choices: [{label, message}]`) through the real endpoints: POST
/api/chat, the stream's `done` event and the conversation's history, on both databases; and
sending a choice's `message` picks that reading."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.routes.test_chat_behaviour import seed, tasks
from tests.api.routes.test_chat_stream import parse_sse, stream
from tests.conftest import ChatFn, UserSession

WHICH_REPORT = [
    {"label": "Finish Q4 report (task 1)", "message": "task 1"},
    {"label": "Review report draft (task 2)", "message": "task 2"},
]


async def history(
    client: httpx.AsyncClient, user: UserSession, conversation_id: int
) -> list[dict[str, Any]]:
    response = await client.get(
        f"/api/conversations/{conversation_id}/messages", headers=user.headers
    )
    assert response.status_code == 200, response.text
    return list(response.json())


async def test_a_question_returns_its_choices_and_a_choice_sent_picks_that_task(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Finish Q4 report", "Review report draft", "Buy milk")
    asked = await chat("delete the report")
    assert "Which task would you like to delete?" in asked["response"]
    assert "delete_task" not in [call["name"] for call in asked["tool_calls"]]
    assert asked["choices"] == WHICH_REPORT

    done = await chat(asked["choices"][0]["message"])
    assert [call["name"] for call in done["tool_calls"]] == ["delete_task"]
    assert done["tool_calls"][0]["arguments"] == {"task_id": 1}
    assert done["choices"] == []
    assert [task["title"] for task in await tasks(client, user)] == [
        "Review report draft",
        "Buy milk",
    ]


async def test_a_turn_that_asks_nothing_has_no_choices(chat: ChatFn) -> None:
    body = await chat("add buy milk")
    assert body["response"] == "I've added 'buy milk' to your list."
    assert body["choices"] == []


async def test_a_confirmation_offers_yes_and_no_and_yes_in_words_confirms(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "eggs")
    asked = await chat("move buying eggs item to trash from to do list")
    assert asked["response"] == "Do you want me to delete 'eggs'?"
    assert asked["choices"] == [
        {"label": "Yes, delete 'eggs'", "message": "yes"},
        {"label": "No, leave it", "message": "no"},
    ]
    assert [task["title"] for task in await tasks(client, user)] == ["eggs"]
    done = await chat(asked["choices"][0]["message"])
    assert done["response"] == "I've deleted 'eggs' from your list."
    assert await tasks(client, user) == []


async def test_the_streams_done_event_carries_the_choices(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await seed(client, user, "Finish Q4 report", "Review report draft")
    events = parse_sse((await stream(client, user, "delete the report")).text)
    kind, done = events[-1]
    assert kind == "done"
    assert done["choices"] == WHICH_REPORT

    plain = parse_sse((await stream(client, user, "add call mom")).text)[-1]
    assert plain[0] == "done" and plain[1]["choices"] == []


async def test_the_history_gives_each_assistant_message_its_own_choices(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Finish Q4 report", "Review report draft")
    await chat("add buy milk")
    asked = await chat("delete the report")
    await chat("the second one")
    messages = await history(client, user, asked["conversation_id"])
    assert [(m["role"], m["choices"]) for m in messages] == [
        ("user", []),
        ("assistant", []),
        ("user", []),
        ("assistant", WHICH_REPORT),
        ("user", []),
        ("assistant", []),
    ]
    # "the second one" picked the second reading.
    assert [task["title"] for task in await tasks(client, user)] == [
        "Finish Q4 report",
        "buy milk",
    ]


async def test_a_retried_turn_replays_its_choices(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    await seed(client, user, "Finish Q4 report", "Review report draft")
    headers = {**user.headers, "Idempotency-Key": f"choices-{user.id}"}
    sent = {"message": "delete the report"}
    first = await client.post("/api/chat", json=sent, headers=headers)
    again = await client.post("/api/chat", json=sent, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json()["choices"] == again.json()["choices"] == WHICH_REPORT
