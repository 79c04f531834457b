"""The one answer to an outage or overload, for every HTTP edge (the REST API and /mcp)."""

from __future__ import annotations

from starlette.responses import JSONResponse

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
