"""The OpenAI-compatible endpoint (specs/openai-compatible.md): the assistant as a model,
`todo-assistant`, for OpenAI clients (Open WebUI, the openai SDK, curl). A completion is one
chat turn, run as POST /api/chat and /api/chat/stream run theirs: the same authentication,
chat limit, message limit and turn runner. The client's history picks the stored
conversation (backend/chat/threads.py); its id is in the `X-Conversation-Id` header."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse
from sse_starlette import EventSourceResponse

from backend.api import openai_turns
from backend.api.deps import ChatAllowed, CurrentClaims, SessionMakerDep, SettingsDep
from backend.api.openai_errors import OpenAIError, OpenAIRoute, documented
from backend.api.openai_requests import (
    MODEL_ID,
    CompletionRequest,
    asked_turn,
    model_not_found,
)
from backend.api.openai_responses import (
    ASSISTANT_MODEL,
    ChatCompletion,
    ModelCard,
    ModelList,
    Usage,
    completion,
)
from backend.api.openapi_index import openapi_index, route_path
from backend.api.routes.chat import IdempotencyKey
from backend.chat.threads import History, place_turn
from backend.chat.turns import TurnRunner, shutdown_seconds

router = APIRouter(
    prefix="/v1",
    tags=["openai-compatible"],
    route_class=OpenAIRoute,
    responses=documented(400, 401, 429, 503),
)

CONVERSATION_HEADER = "X-Conversation-Id"
STREAMED = (
    "A `chat.completion`; with `stream: true`, server-sent events: `data:` lines of "
    "`chat.completion.chunk` objects (the role, the text as it is produced, `finish_reason: "
    "stop`, the usage if `stream_options.include_usage`), then `data: [DONE]`; an error once "
    "the turn has begun is a `data:` line in OpenAI's error shape. `X-Conversation-Id` names "
    "the stored conversation."
)
_ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


@router.get("/models")
async def list_models(_claims: CurrentClaims) -> ModelList:
    """The models this server offers: the assistant."""
    return ModelList(data=[ASSISTANT_MODEL])


@router.get("/models/{model}", responses=documented(404))
async def get_model(
    model: Annotated[str, Path(max_length=200)], _claims: CurrentClaims
) -> ModelCard:
    """The assistant (`todo-assistant`); any other model is a 404."""
    if model != MODEL_ID:
        raise model_not_found(model)
    return ASSISTANT_MODEL


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    responses={
        200: {"description": STREAMED, "content": {"text/event-stream": {}}},
        **documented(403, 404, 409),
    },
)
async def chat_completions(
    request: Request,
    claims: CurrentClaims,
    body: CompletionRequest,
    sessionmaker: SessionMakerDep,
    settings: SettingsDep,
    _allowed: ChatAllowed = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """One chat turn: the last message, the user's, is answered in the stored conversation
    the history before it names (continued, forked or new). System and developer messages,
    client tools and sampling parameters are ignored: the assistant follows its own
    instructions and acts only through its task tools."""
    asked = asked_turn(body, settings.max_message_chars)
    usage_asked = bool(body.stream_options and body.stream_options.include_usage)
    turns: TurnRunner = request.app.state.turns
    with openai_turns.turn_errors():
        replayed = await turns.replay(user_id=claims.user_id, client_key=idempotency_key)
    if replayed is not None:
        if body.stream:
            events = openai_turns.replayed(replayed, include_usage=usage_asked)
            return _stream(events, replayed.conversation_id, grace=0.0)
        return _completion(replayed.conversation_id, replayed.response, Usage())
    history = History(asked.before)
    read_engine = request.app.state.read_engine
    place = await place_turn(sessionmaker, read_engine, owner_id=claims.user_id, history=history)
    turn = openai_turns.CompletionTurn(
        claims.user_id, claims.may_change, asked, history, place.conversation_id, idempotency_key
    )
    if not body.stream:
        result, usage = await openai_turns.answered(request, turn)
        return _completion(result.conversation_id, result.response, usage)
    opened = await openai_turns.opened(request, turn)
    events = openai_turns.streamed(request, turn, opened, include_usage=usage_asked)
    grace = shutdown_seconds(settings.shutdown_grace_seconds)
    return _stream(events, opened.conversation_id, grace=grace)


def _completion(conversation_id: int, reply: str, usage: Usage) -> JSONResponse:
    return JSONResponse(
        completion(reply, usage), headers={CONVERSATION_HEADER: str(conversation_id)}
    )


def _stream(events: AsyncIterator[str], conversation_id: int, *, grace: float) -> Response:
    async def data() -> AsyncIterator[dict[str, str]]:
        async for payload in events:
            yield {"data": payload}

    # On shutdown the stream runs on until its turn is answered (as /api/chat/stream's).
    return EventSourceResponse(
        data(), headers={CONVERSATION_HEADER: str(conversation_id)}, shutdown_grace_period=grace
    )


@router.api_route("/{path:path}", methods=_ANY_METHOD, include_in_schema=False)
async def unknown(request: Request, path: str) -> Response:
    """OpenAI's answer to a path it does not serve, in its shape; a documented path asked
    with another method is a 405 naming the methods it takes."""
    index = openapi_index(request.app)
    found = index.find(route_path(request.scope)) if index is not None else None
    if found is not None:
        methods = set(found[0].methods) | ({"HEAD"} if "GET" in found[0].methods else set())
        message = f"Method {request.method} is not allowed for /v1/{path}"
        raise OpenAIError(405, message, headers={"Allow": ", ".join(sorted(methods))})
    raise OpenAIError(404, f"Invalid URL ({request.method} /v1/{path})")
