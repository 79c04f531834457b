"""Chat turns through the real app in this process, without uvicorn: the harness of
`bench.turn_cost`, `bench.agent_decision` and `bench.targets`' count of statements per turn.

A turn is `POST /api/chat` over httpx's ASGI transport, so it runs everything a worker runs
for a turn but the socket and HTTP parsing: the route, auth, the chat limit, the Agents SDK
Runner with the app's brain, the MCP task tools (in memory), the database. The caller makes
the app (`create_app(bench_settings(...))`), so it can instrument it before it starts, and
times or counts the turns as it needs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from backend.core.config import Settings
from bench.server import SECRET

# The in-process message mix (bench.turn_cost's and bench.agent_decision's; bench.load's mix
# for servers is another), and the tasks the account starts with, so that "complete task 1",
# "delete the groceries task" and "change task 2" find theirs.
TURN_MESSAGES = (
    "add buy milk",
    "show my tasks",
    "what's left?",
    "complete task 1",
    "delete the groceries task",
    "is milk on my list?",
    "hello",
    "change task 2 to call dad",
)
TASK_TITLES = ("buy groceries", "call mom", "finish report", "walk the dog")
PASSWORD = "bench password"


def bench_settings(database_url: str, **overrides: Any) -> Settings:
    """The app's settings for a benchmark: the benchmark's key, and no chat limit (a
    benchmark sends more turns a minute than a person may)."""
    return Settings(
        database_url=database_url,
        secret_key=SECRET,
        chat_requests_per_minute=10**9,
        **overrides,
    )


class Chat:
    """One signed-in account of the app, talking in one conversation."""

    def __init__(self, client: httpx.AsyncClient, token: str) -> None:
        self._client = client
        self.headers = {"Authorization": f"Bearer {token}"}
        self.conversation_id: int | None = None

    async def turn(self, message: str) -> dict[str, Any]:
        """One turn in the conversation (the first starts it): the reply's body. An error
        answer raises."""
        response = await self._client.post(
            "/api/chat",
            json={"message": message, "conversation_id": self.conversation_id},
            headers=self.headers,
        )
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        self.conversation_id = body["conversation_id"]
        return body


@asynccontextmanager
async def in_process_chat(
    app: FastAPI, *, email: str, task_titles: Sequence[str] = ()
) -> AsyncIterator[Chat]:
    """`app` started (its lifespan: migrations, the brain, the MCP tools) and served in this
    process; a new account `email` signed up, with `task_titles` as its tasks."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            registered = await client.post(
                "/api/auth/register", json={"email": email, "password": PASSWORD}
            )
            registered.raise_for_status()
            chat = Chat(client, registered.json()["access_token"])
            for title in task_titles:
                added = await client.post("/api/tasks", json={"title": title}, headers=chat.headers)
                added.raise_for_status()
            yield chat
