"""The error responses routes document in OpenAPI (their bodies are `{"detail": str}`)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel


class ErrorDetail(BaseModel):
    detail: str


Responses = dict[int | str, dict[str, Any]]


def _error(status: int, description: str) -> Responses:
    return {status: {"model": ErrorDetail, "description": description}}


BAD_REQUEST = _error(400, "The request body could not be parsed")
UNAUTHORIZED = _error(401, "Missing, invalid or expired bearer token")
FORBIDDEN = _error(403, "Not allowed for this user")
NOT_FOUND = _error(404, "Not found (or not the caller's)")
CONFLICT = _error(409, "Already exists")
TOO_MANY_TASKS = _error(409, "The account holds the most tasks allowed (MAX_TASKS_PER_USER)")
TOO_LARGE = _error(413, "Request body too large")
TOO_MANY = _error(429, "Rate limited; see Retry-After")
UNAVAILABLE = _error(503, "The database is unreachable or overloaded; see Retry-After")

AUTHENTICATED: Responses = {**BAD_REQUEST, **UNAUTHORIZED, **TOO_LARGE, **UNAVAILABLE}

# How long a client is told to wait after a 503 (an outage, or more load than fits).
RETRY_AFTER_SECONDS = 5


def unavailable_response() -> JSONResponse:
    """The 503 for an outage or overload: the database unreachable, no pooled connection free
    in time, too many password checks waiting."""
    return JSONResponse(
        status_code=503,
        content={"detail": "The service is temporarily unavailable"},
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )
