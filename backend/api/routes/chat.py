"""The chat endpoint: one stateless turn of the conversation per request."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Path, Request, status
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, StrictInt, field_validator
from sse_starlette import EventSourceResponse

from backend.agent.assistant import Assistant, TextDelta
from backend.api.deps import ChatAllowed, CurrentClaims, SessionMakerDep, SettingsDep
from backend.api.errors import (
    AUTHENTICATED,
    FORBIDDEN,
    NOT_FOUND,
    TOO_MANY,
    ErrorDetail,
)
from backend.chat.turns import (
    ChatResult,
    ReplyNotStoredError,
    TurnInProgressError,
    TurnInterruptedError,
    TurnRunner,
    open_turn,
    shutdown_seconds,
)
from backend.core.config import MESSAGE_CHARS_CEILING
from backend.core.json_numbers import WHOLE
from backend.core.unavailable import RETRY_AFTER_SECONDS
from backend.domain.errors import ConversationNotFoundError
from backend.models.conversation import (
    CHOICES_MAX,
    CLIENT_KEY_MAX_LENGTH,
    Choice,
    meaningful_message,
)

UNANSWERED: dict[int | str, dict[str, Any]] = {
    503: {
        "model": ErrorDetail,
        "description": (
            "The database is unreachable, the reply could not be stored, or the service is "
            "restarting and cut the turn short (its reply, recording what was done, is stored: "
            "a retry with the same Idempotency-Key gets it); retry after Retry-After"
        ),
    }
}

router = APIRouter(
    prefix="/api",
    tags=["chat"],
    responses={**AUTHENTICATED, **TOO_MANY, **NOT_FOUND, **UNANSWERED},
)

NOT_STORED = "Your message was saved but the reply could not be; please try again"
RESTARTING = (
    "The service is restarting, so your message was cut short before its reply; what was done "
    "is recorded in the conversation. Please try again in a few seconds (with the same "
    "Idempotency-Key, you get that reply)"
)
RETRY_AFTER = {"Retry-After": str(RETRY_AFTER_SECONDS)}

# Some character that str.strip() keeps: not white space, as Python counts it (the schema's
# regex dialects, ECMA's and Rust's, leave out the separators \x1c-\x1f and NEL).
MEANINGFUL = r"[^\s\x1c-\x1f\x85]"
MEANINGFUL_HELP = "Not only white space"
MESSAGE_HELP = (
    f"{MEANINGFUL_HELP}; at most MAX_MESSAGE_CHARS characters (the documented maxLength is its "
    "default and its ceiling; GET /api/config gives this server's)"
)


class ChatRequest(BaseModel):
    # The longest message is a setting, so the route checks it (`within_message_limit`); the
    # schema documents the default.
    message: str = Field(
        min_length=1,
        pattern=MEANINGFUL,
        description=MESSAGE_HELP,
        json_schema_extra={"maxLength": MESSAGE_CHARS_CEILING},
    )
    conversation_id: Annotated[StrictInt, Field(ge=1, le=2**31 - 1), WHOLE] | None = None

    @field_validator("message")
    @classmethod
    def _meaningful(cls, value: str) -> str:
        meaningful_message(value)
        return value  # stripped once its length is checked, as typed (within_message_limit)


def message_too_long(limit: int) -> RequestValidationError:
    """The 422 pydantic would give for a message over `limit` characters."""
    return RequestValidationError(
        [
            {
                "type": "string_too_long",
                "loc": ("body", "message"),
                "msg": f"String should have at most {limit} characters",
                "ctx": {"max_length": limit},
            }
        ]
    )


async def within_message_limit(body: ChatRequest, settings: SettingsDep) -> ChatRequest:
    """The body, its message no longer than MAX_MESSAGE_CHARS as sent, then stripped (async:
    FastAPI would run a plain function in its thread pool)."""
    if len(body.message) > settings.max_message_chars:
        raise message_too_long(settings.max_message_chars)
    return body.model_copy(update={"message": meaningful_message(body.message)})


ChatBody = Annotated[ChatRequest, Depends(within_message_limit)]


class ToolCallRecord(BaseModel):
    name: str
    arguments: dict[str, Any]
    result: Any


class ChatResponse(BaseModel):
    conversation_id: int
    response: str
    tool_calls: list[ToolCallRecord]
    choices: list[Choice] = Field(
        description=(
            "When the reply asks a question with readings to pick from (which task, yes or "
            "no), at most three: each `label` to show, and the `message` that picks it when "
            "sent as the next message. Empty otherwise."
        ),
        max_length=CHOICES_MAX,
    )
    undoable: bool = Field(
        description=(
            "True when the turn changed tasks and sending `undo` as the next message of the "
            "conversation reverses that change (all of the turn's changes, together). False "
            "for a reply that changed nothing, a change that cannot be undone (a bulk change, "
            "a clear) and a reply that itself undid a change."
        ),
    )


IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=CLIENT_KEY_MAX_LENGTH,
        pattern=r"^[!-~]+$",
        description=(
            "Any unique string of visible ASCII characters, chosen by the client for this "
            "message: a retry with the same key gets the stored reply instead of a second "
            "turn (409 while the first is still being answered)"
        ),
    ),
]

IN_PROGRESS: dict[int | str, dict[str, Any]] = {
    409: {
        "model": ErrorDetail,
        "description": "A turn with this Idempotency-Key is still being answered",
    }
}


def _in_progress(exc: TurnInProgressError) -> HTTPException:
    return HTTPException(status.HTTP_409_CONFLICT, detail=str(exc), headers={"Retry-After": "2"})


def _assistant(request: Request) -> Assistant:
    assistant: Assistant = request.app.state.assistant
    return assistant


def _turns(request: Request) -> TurnRunner:
    turns: TurnRunner = request.app.state.turns
    return turns


@router.post("/chat", responses=IN_PROGRESS)
async def chat(
    request: Request,
    claims: CurrentClaims,
    body: ChatBody,
    settings: SettingsDep,
    _allowed: ChatAllowed = None,
    idempotency_key: IdempotencyKey = None,
) -> ChatResponse:
    """Send a message to the assistant; omit conversation_id to start a new conversation."""
    try:
        result = await _turns(request).chat(
            _assistant(request),
            user_id=claims.user_id,
            may_change=claims.may_change,
            message=body.message,
            conversation_id=body.conversation_id,
            window=settings.context_window_messages,
            client_key=idempotency_key,
        )
    except TurnInProgressError as exc:
        raise _in_progress(exc) from exc
    except ConversationNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Conversation not found") from exc
    except ReplyNotStoredError as exc:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, detail=NOT_STORED, headers=RETRY_AFTER
        ) from exc
    except TurnInterruptedError as exc:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, detail=RESTARTING, headers=RETRY_AFTER
        ) from exc
    return _response(result)


def _response(result: ChatResult) -> ChatResponse:
    return ChatResponse(
        conversation_id=result.conversation_id,
        response=result.response,
        tool_calls=[ToolCallRecord(**call) for call in result.tool_calls],
        choices=result.choices,
        undoable=result.undoable,
    )


@router.post(
    "/chat/stream",
    response_class=EventSourceResponse,
    responses={
        **IN_PROGRESS,
        200: {
            "description": (
                "Server-Sent Events: `tool_call` ({name, arguments, result}) as each tool call "
                "finishes, `delta` ({text}) as the reply is produced, then `done` with the "
                "body of POST /api/chat, or `error` ({detail}) if the reply could not be saved "
                "or the service is restarting and cut the turn short (its reply is stored)."
            ),
            "content": {"text/event-stream": {}},
        },
    },
)
async def chat_stream(
    request: Request,
    claims: CurrentClaims,
    body: ChatBody,
    sessionmaker: SessionMakerDep,
    settings: SettingsDep,
    _allowed: ChatAllowed = None,
    idempotency_key: IdempotencyKey = None,
) -> EventSourceResponse:
    """Like POST /api/chat, streamed. Errors before the turn starts are plain HTTP errors. A
    retried turn (same Idempotency-Key) streams only its stored `done` event."""
    turns = _turns(request)
    try:
        replayed = await turns.replay(user_id=claims.user_id, client_key=idempotency_key)
        if replayed is not None:
            return EventSourceResponse(_replayed(replayed))
        opened = await open_turn(
            sessionmaker,
            user_id=claims.user_id,
            message=body.message,
            conversation_id=body.conversation_id,
            window=settings.context_window_messages,
            client_key=idempotency_key,
            may_change=claims.may_change,
        )
    except TurnInProgressError as exc:
        raise _in_progress(exc) from exc
    except ConversationNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Conversation not found") from exc
    except ReplyNotStoredError as exc:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, detail=NOT_STORED, headers=RETRY_AFTER
        ) from exc

    async def events() -> AsyncIterator[dict[str, str]]:
        async for event in turns.stream(_assistant(request), opened):
            if isinstance(event, ChatResult):
                yield _done(event)
            elif isinstance(event, ReplyNotStoredError):
                yield {"event": "error", "data": json.dumps({"detail": NOT_STORED})}
            elif isinstance(event, TurnInterruptedError):
                yield {"event": "error", "data": json.dumps({"detail": RESTARTING})}
            elif isinstance(event, TextDelta):
                yield {"event": "delta", "data": json.dumps({"text": event.text})}
            else:
                record = ToolCallRecord(**event.call).model_dump(mode="json")
                yield {"event": "tool_call", "data": json.dumps(record)}

    # On shutdown the stream runs on until its turn is answered: finished within the grace
    # period, or cut at its end, which the stream's last event says.
    return EventSourceResponse(
        events(), shutdown_grace_period=shutdown_seconds(settings.shutdown_grace_seconds)
    )


def _done(result: ChatResult) -> dict[str, str]:
    return {"event": "done", "data": json.dumps(_response(result).model_dump(mode="json"))}


async def _replayed(result: ChatResult) -> AsyncIterator[dict[str, str]]:
    yield _done(result)


@router.post("/{user_id}/chat", responses={**FORBIDDEN, **IN_PROGRESS})
async def chat_for_user(
    user_id: Annotated[str, Path(max_length=32)],
    request: Request,
    claims: CurrentClaims,
    body: ChatBody,
    settings: SettingsDep,
    _allowed: ChatAllowed = None,
    idempotency_key: IdempotencyKey = None,
) -> ChatResponse:
    """The original Phase III path; `user_id` must be the caller's own id."""
    if user_id != str(claims.user_id):
        raise HTTPException(status.HTTP_403_FORBIDDEN, detail="You can only chat as yourself")
    return await chat(request, claims, body, settings, None, idempotency_key)
