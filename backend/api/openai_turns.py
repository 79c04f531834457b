"""A chat completion's turn, run as POST /api/chat and /api/chat/stream run theirs (the turn
runner, `open_turn` and the turn's stream), in the conversation its history names; once
answered, where the history now stands is remembered (backend/chat/threads.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from fastapi import Request

from backend.agent.assistant import Assistant, TextDelta
from backend.api.openai_errors import NO_RETRY, OpenAIError
from backend.api.openai_requests import AskedTurn
from backend.api.openai_responses import DONE, Chunks, Usage
from backend.api.routes.chat import NOT_STORED, RESTARTING, RETRY_AFTER
from backend.chat.threads import History, remember_turn
from backend.chat.turns import (
    ChatResult,
    OpenTurn,
    ReplyNotStoredError,
    TurnInProgressError,
    TurnInterruptedError,
    TurnRunner,
    open_turn,
)
from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.domain.errors import ConversationNotFoundError


@dataclass(frozen=True)
class CompletionTurn:
    """One completion's turn: whose, what it asks after which history, in which conversation
    (None: a new one), with the client's Idempotency-Key if it sent one."""

    user_id: int
    may_change: bool
    asked: AskedTurn
    history: History
    conversation_id: int | None
    client_key: str | None


class _App:
    """What a turn uses of the app."""

    def __init__(self, request: Request) -> None:
        state = request.app.state
        self.turns: TurnRunner = state.turns
        self.assistant: Assistant = state.assistant
        self.sessionmaker: SessionMaker = state.sessionmaker
        self.settings: Settings = state.settings


@contextmanager
def turn_errors() -> Iterator[None]:
    """A turn's errors as POST /api/chat answers them, in OpenAI's shape. A 503 once the turn
    has begun is not retried by OpenAI's clients on their own: that would run it again."""
    try:
        yield
    except TurnInProgressError as exc:
        raise OpenAIError(409, str(exc), headers={"Retry-After": "2"}) from exc
    except ReplyNotStoredError as exc:
        raise OpenAIError(503, NOT_STORED, headers={**RETRY_AFTER, **NO_RETRY}) from exc
    except TurnInterruptedError as exc:
        raise OpenAIError(503, RESTARTING, headers={**RETRY_AFTER, **NO_RETRY}) from exc


async def _remember_shown(
    app: _App, turn: CompletionTurn, conversation_id: int, shown: str
) -> None:
    """Where the history stands when the client was shown other than the stored reply (a
    stream whose reply failed part way): the turn kept the stored reply's point with it."""
    await remember_turn(
        app.sessionmaker,
        owner_id=turn.user_id,
        conversation_id=conversation_id,
        through=turn.history.through(turn.asked.message, shown),
    )


async def answered(request: Request, turn: CompletionTurn) -> tuple[ChatResult, Usage]:
    """The whole turn (TurnRunner.chat), its reply and the usage it records."""
    app = _App(request)

    async def chat(conversation_id: int | None) -> ChatResult:
        return await app.turns.chat(
            app.assistant,
            user_id=turn.user_id,
            may_change=turn.may_change,
            message=turn.asked.message,
            conversation_id=conversation_id,
            window=app.settings.context_window_messages,
            client_key=turn.client_key,
            thread=turn.history,
        )

    with turn_errors():
        try:
            result = await chat(turn.conversation_id)
        except ConversationNotFoundError:  # deleted since its history was looked up
            result = await chat(None)
    return result, Usage.recorded(result.usage)


async def opened(request: Request, turn: CompletionTurn) -> OpenTurn:
    """The turn opened (its message stored) for streaming, as /api/chat/stream opens it."""
    app = _App(request)

    async def open_in(conversation_id: int | None) -> OpenTurn:
        return await open_turn(
            app.sessionmaker,
            user_id=turn.user_id,
            message=turn.asked.message,
            conversation_id=conversation_id,
            window=app.settings.context_window_messages,
            client_key=turn.client_key,
            may_change=turn.may_change,
            thread=turn.history,
        )

    with turn_errors():
        try:
            return await open_in(turn.conversation_id)
        except ConversationNotFoundError:  # deleted since its history was looked up
            return await open_in(None)


async def streamed(
    request: Request, turn: CompletionTurn, opened_turn: OpenTurn, *, include_usage: bool
) -> AsyncIterator[str]:
    """The opened turn's chunks (TurnRunner.stream): the role, its text as it is produced,
    the stop, the usage if asked, then [DONE]; or an error if its reply was not stored or the
    service cut it short. The turn runs on if the client goes away."""
    app = _App(request)
    chunks = Chunks(include_usage=include_usage)
    yield chunks.role()
    shown = ""
    async for event in app.turns.stream(app.assistant, opened_turn):
        if isinstance(event, TextDelta):
            shown += event.text
            yield chunks.text(event.text)
        elif isinstance(event, ChatResult):
            # The stored reply is authoritative: what the stream has not shown of it, it
            # shows now (after a failure, the whole reply).
            rest = event.response.removeprefix(shown)
            if rest == event.response and shown:
                rest = f"\n\n{event.response}"
            if rest:
                shown += rest
                yield chunks.text(rest)
            if shown != event.response:
                await _remember_shown(app, turn, opened_turn.conversation_id, shown)
            yield chunks.stop()
            if include_usage:
                yield chunks.usage(Usage.recorded(event.usage))
            yield DONE
        elif isinstance(event, ReplyNotStoredError | TurnInterruptedError):
            said = RESTARTING if isinstance(event, TurnInterruptedError) else NOT_STORED
            yield json.dumps(OpenAIError(503, said).body())


async def replayed(result: ChatResult, *, include_usage: bool) -> AsyncIterator[str]:
    """A retried turn's stored reply (same Idempotency-Key) as one stream; no turn ran, so it
    used nothing."""
    chunks = Chunks(include_usage=include_usage)
    yield chunks.role()
    yield chunks.text(result.response)
    yield chunks.stop()
    if include_usage:
        yield chunks.usage(Usage())
    yield DONE
