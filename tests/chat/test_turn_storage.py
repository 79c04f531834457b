"""How a chat turn opens and closes in the database, on both databases (PostgreSQL does each
in one statement, SQLite in a transaction): the same results either way."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import event, text

from backend.agent.assistant import AgentReply
from backend.chat.turns import (
    ReplyNotStoredError,
    TurnInProgressError,
    finish_turn,
    open_turn,
)
from backend.domain.errors import ConversationNotFoundError
from backend.models import MessageRole
from backend.services import conversations, users
from tests.conftest import unique_email


async def _new_user(app: FastAPI) -> int:
    async with app.state.sessionmaker() as session:
        user = await users.register_user(session, email=unique_email(), password="pw-12345678")
    assert user.id is not None
    return user.id


async def _conversation(app: FastAPI, owner: int) -> int:
    opened = await open_turn(
        app.state.sessionmaker, user_id=owner, message="hello", conversation_id=None, window=50
    )
    return opened.conversation_id


async def _stored(app: FastAPI, conversation_id: int) -> list[tuple[Any, ...]]:
    async with app.state.engine.connect() as connection:
        rows = await connection.execute(
            text(
                "SELECT role, content, tool_calls IS NULL, meta IS NULL, client_key FROM message"
                " WHERE conversation_id = :cid ORDER BY id"
            ),
            {"cid": conversation_id},
        )
        return [tuple(row) for row in rows]


async def _updated_at(app: FastAPI, conversation_id: int) -> Any:
    async with app.state.engine.connect() as connection:
        return await connection.scalar(
            text("SELECT updated_at FROM conversation WHERE id = :cid"), {"cid": conversation_id}
        )


@contextmanager
def _statements(app: FastAPI) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    engine = app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


async def test_a_turn_sees_the_messages_before_its_own_oldest_first_and_stores_it(
    app: FastAPI,
) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)
    calls = [{"name": "list_tasks", "arguments": {}, "result": [{"task_id": 1}]}]
    first = await open_turn(
        app.state.sessionmaker, user_id=owner, message="show", conversation_id=cid, window=50
    )
    await finish_turn(app.state.sessionmaker, first, AgentReply("Here", calls, {"rule": "x"}))

    second = await open_turn(
        app.state.sessionmaker, user_id=owner, message="thanks", conversation_id=cid, window=50
    )

    assert [(t.role, t.content) for t in second.history] == [
        ("user", "hello"),
        ("user", "show"),
        ("assistant", "Here"),
    ]
    assert second.history[-1].tool_calls == calls
    assert second.history[-1].meta == {"rule": "x"}
    assert second.zone == "UTC"
    assert [row[:2] for row in await _stored(app, cid)][-1] == ("user", "thanks")


async def test_the_window_holds_only_the_newest_messages(app: FastAPI) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)
    for n in range(4):
        await open_turn(
            app.state.sessionmaker, user_id=owner, message=f"m{n}", conversation_id=cid, window=50
        )

    opened = await open_turn(
        app.state.sessionmaker, user_id=owner, message="last", conversation_id=cid, window=2
    )

    assert [t.content for t in opened.history] == ["m2", "m3"]


async def test_another_users_conversation_is_not_found_and_nothing_is_stored(
    app: FastAPI,
) -> None:
    owner, stranger = await _new_user(app), await _new_user(app)
    cid = await _conversation(app, owner)
    before = await _stored(app, cid)

    with pytest.raises(ConversationNotFoundError):
        await open_turn(
            app.state.sessionmaker, user_id=stranger, message="x", conversation_id=cid, window=50
        )
    with pytest.raises(ConversationNotFoundError):
        await open_turn(
            app.state.sessionmaker, user_id=owner, message="x", conversation_id=2**31 - 1, window=50
        )

    assert await _stored(app, cid) == before


async def test_a_reply_is_stored_with_its_key_text_and_empty_tool_calls(app: FastAPI) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)
    opened = await open_turn(
        app.state.sessionmaker,
        user_id=owner,
        message="hi",
        conversation_id=cid,
        window=50,
        client_key="key-1",
    )

    await finish_turn(app.state.sessionmaker, opened, AgentReply("Hello!", [], {}))

    role, content, no_calls, no_meta, key = (await _stored(app, cid))[-1]
    assert (role, content, key) == (MessageRole.ASSISTANT.value, "Hello!", "key-1")
    assert (no_calls, no_meta) == (False, False)  # [] and {}, as given


async def test_opening_and_closing_a_turn_mark_the_conversation_active(app: FastAPI) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)
    created = await _updated_at(app, cid)

    opened = await open_turn(
        app.state.sessionmaker, user_id=owner, message="a", conversation_id=cid, window=50
    )
    after_open = await _updated_at(app, cid)
    await finish_turn(app.state.sessionmaker, opened, AgentReply("b", [], {}))

    assert created < after_open < await _updated_at(app, cid)


async def test_a_reply_to_a_conversation_deleted_during_its_turn_is_not_stored(
    app: FastAPI,
) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)
    opened = await open_turn(
        app.state.sessionmaker, user_id=owner, message="a", conversation_id=cid, window=50
    )
    async with app.state.sessionmaker() as session:
        await conversations.delete_conversation(session, owner_id=owner, conversation_id=cid)

    with pytest.raises(ReplyNotStoredError):
        await finish_turn(app.state.sessionmaker, opened, AgentReply("b", [], {}))

    assert await _stored(app, cid) == []


async def test_a_second_turn_with_the_same_key_is_refused(app: FastAPI) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)
    await open_turn(
        app.state.sessionmaker,
        user_id=owner,
        message="a",
        conversation_id=cid,
        window=50,
        client_key="same",
    )

    with pytest.raises(TurnInProgressError):
        await open_turn(
            app.state.sessionmaker,
            user_id=owner,
            message="a",
            conversation_id=cid,
            window=50,
            client_key="same",
        )


async def test_on_postgresql_a_turn_opens_and_closes_in_one_statement_each(
    app: FastAPI,
) -> None:
    owner = await _new_user(app)
    cid = await _conversation(app, owner)

    with _statements(app) as opening:
        opened = await open_turn(
            app.state.sessionmaker, user_id=owner, message="a", conversation_id=cid, window=50
        )
    with _statements(app) as closing:
        await finish_turn(app.state.sessionmaker, opened, AgentReply("b", [], {}))

    if app.state.engine.dialect.name == "postgresql":
        assert len(opening) == 1 and opening[0].lstrip().startswith("WITH")
        assert len(closing) == 1 and closing[0].lstrip().startswith("WITH")
    else:  # no data-modifying CTEs: statements in a transaction that takes the write lock
        assert opening[0] == closing[0] == "BEGIN IMMEDIATE"
        assert len(opening) == 4 and len(closing) == 3
