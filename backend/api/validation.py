"""422 bodies for invalid requests: FastAPI's shape, without echoing what the client sent.

FastAPI's default handler puts each error's `input` back into the body: a password that was
too short, or a lone UTF-16 surrogate that then cannot be encoded (a 500 instead of a 422).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

_SIMPLE = (str, int, float, bool)


def _encodable(value: Any) -> Any:
    """Strings as UTF-8 can carry them (a lone surrogate becomes "?")."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


def _public(error: dict[str, Any]) -> dict[str, Any]:
    public: dict[str, Any] = {
        "type": error.get("type", "value_error"),
        "loc": [_encodable(part) for part in error.get("loc", ())],
        "msg": _encodable(str(error.get("msg", "Invalid value"))),
    }
    context = error.get("ctx")
    if isinstance(context, dict):
        simple = {k: _encodable(v) for k, v in context.items() if isinstance(v, _SIMPLE)}
        if simple:
            public["ctx"] = simple
    return public


def validation_errors_response(errors: Sequence[dict[str, Any]]) -> JSONResponse:
    """A 422 listing `errors` (pydantic's shape: type, loc, msg, ctx)."""
    return JSONResponse(status_code=422, content={"detail": [_public(e) for e in errors]})


async def validation_error_response(request: Request, exc: Exception) -> JSONResponse:
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return validation_errors_response(errors)
