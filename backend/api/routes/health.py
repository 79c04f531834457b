"""Liveness and readiness probes."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.agent.assistant import Assistant
from backend.agent.llm import OK, UNCHECKED

router = APIRouter(tags=["health"])
logger = logging.getLogger(__name__)

# How long /readyz waits for a model probe under way (its own timeout is longer): a
# readiness check is expected to answer within a second. Past this it reports the last
# finding, and the next call reads the probe's.
MODEL_WAIT_SECONDS = 0.5


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


async def _model_state(request: Request) -> str:
    """ "ok" for the rules (no network); for an LLM, what its watch knows, probed at most
    every 30 s: "ok", "unreachable", "key_refused", "failing" or "unchecked"."""
    assistant = getattr(request.app.state, "assistant", None)
    if not isinstance(assistant, Assistant):
        return UNCHECKED  # still starting
    watch = assistant.brain.watch
    return OK if watch is None else await watch.status(MODEL_WAIT_SECONDS)


@router.get(
    "/readyz",
    response_model=None,
    responses={
        200: {
            "description": 'The database answers: `status` "ok", or "degraded" when the '
            "brain's model does not answer (`model`)"
        },
        503: {"description": "The database does not answer"},
    },
)
async def readyz(request: Request) -> dict[str, str] | JSONResponse:
    """The database answers; also names the database kind, the agent's brain, and whether
    its model answers (`model`: "ok", "unreachable", "key_refused", "failing" or
    "unchecked"). `status` is "degraded", still 200, when the model does not answer; only a
    database that does not answer makes it 503."""
    # A model that does not answer makes the service "degraded", still 200: tasks, lists,
    # reminders and the UI work without it, the chat says why it cannot help, and taking
    # every instance out of rotation for a model they share would not bring it back.
    engine: AsyncEngine = request.app.state.engine
    model = await _model_state(request)
    body = {"database": engine.dialect.name, "brain": request.app.state.brain_name, "model": model}
    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception:
        logger.warning("readiness check: database unreachable", exc_info=True)
        return JSONResponse(status_code=503, content={"status": "unavailable", **body})
    status = "ok" if model in (OK, UNCHECKED) else "degraded"
    return {"status": status, **body}
