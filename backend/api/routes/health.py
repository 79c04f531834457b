"""Liveness and readiness probes."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

router = APIRouter(tags=["health"])
logger = logging.getLogger(__name__)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=None,
    responses={503: {"description": "The database does not answer"}},
)
async def readyz(request: Request) -> dict[str, str] | JSONResponse:
    """The database answers; also names the database kind and the agent's brain."""
    engine: AsyncEngine = request.app.state.engine
    body = {"database": engine.dialect.name, "brain": request.app.state.brain_name}
    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception:
        logger.warning("readiness check: database unreachable", exc_info=True)
        return JSONResponse(status_code=503, content={"status": "unavailable", **body})
    return {"status": "ok", **body}
