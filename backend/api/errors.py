"""The error responses routes document in OpenAPI (their bodies are `{"detail": str}`)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
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
SIGNED_IN_ONLY = _error(
    403, "Needs a sign-in token: a personal access token cannot manage tokens or the account"
)
TOO_LARGE = _error(413, "Request body too large")
TOO_MANY = _error(429, "Rate limited; see Retry-After")
UNAVAILABLE = _error(503, "The database is unreachable or overloaded; see Retry-After")

AUTHENTICATED: Responses = {**BAD_REQUEST, **UNAUTHORIZED, **TOO_LARGE, **UNAVAILABLE}

# What the edge can answer any request, whatever the operation: a body over the size limit
# (backend/api/middleware.py, BodySizeLimit), text breaking the text rule or an integer
# parameter not written as one (TextRule, IntegerParams), and, for the API's operations, an
# outage or overload (503).
_EDGE_VALIDATION = {
    "description": "Validation Error",
    "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}
    },
}


def _edge_answers(template: str) -> Responses:
    answers: Responses = {"413": _json_error(TOO_LARGE[413]), "422": _EDGE_VALIDATION}
    if template.startswith("/api/"):
        answers["503"] = _json_error(UNAVAILABLE[503])
    return answers


def _json_error(documented: dict[str, Any]) -> dict[str, Any]:
    return {
        "description": documented["description"],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDetail"}}},
    }


def document_edge_answers(app: FastAPI) -> None:
    """Makes the app's OpenAPI document list, on every operation, the answers the edge can
    give it (those its routes already document stay as they are)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        document = generate()
        for template, operations in document.get("paths", {}).items():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for status, answer in _edge_answers(template).items():
                    responses.setdefault(str(status), answer)
        return document

    app.openapi = openapi  # type: ignore[method-assign]
