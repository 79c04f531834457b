"""The error responses routes document in OpenAPI (their bodies are `{"detail": str}`)."""

from __future__ import annotations

from typing import Any

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
_NEW_LIST_REFUSED = (
    "`list` names a new list the account may not make: one that looks like a list it has "
    '("Іnbox" in Cyrillic), or one past MAX_LISTS_PER_USER'
)
TASK_REFUSED = _error(
    409, f"The account holds the most tasks allowed (MAX_TASKS_PER_USER), or {_NEW_LIST_REFUSED}"
)
NEW_LIST_REFUSED = _error(409, _NEW_LIST_REFUSED[0].upper() + _NEW_LIST_REFUSED[1:])
LIST_REFUSED = _error(
    409,
    "A list of that name, or one that looks the same, exists; or the account holds the most "
    "lists allowed (MAX_LISTS_PER_USER)",
)
TOO_LARGE = _error(413, "Request body too large")
TOO_MANY = _error(429, "Rate limited; see Retry-After")
UNAVAILABLE = _error(503, "The database is unreachable; retry later")

AUTHENTICATED: Responses = {**BAD_REQUEST, **UNAUTHORIZED, **TOO_LARGE, **UNAVAILABLE}
