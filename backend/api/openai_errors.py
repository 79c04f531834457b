"""OpenAI's error shape on the OpenAI-compatible endpoint (/v1, specs/openai-compatible.md):
`{"error": {"message", "type", "param", "code"}}`, which OpenAI clients read (the rest of the
API answers `{"detail": ...}`). The router's own route class turns every error its routes and
their shared dependencies raise into it, so authentication, the chat limit and validation
stay the ones the rest of the API uses."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from backend.core.db import is_unavailable
from backend.core.unavailable import RETRY_AFTER_SECONDS
from backend.domain.errors import AccountGoneError

logger = logging.getLogger(__name__)

# The paths whose errors are in OpenAI's shape.
OPENAI_PREFIX = "/v1/"
INVALID_REQUEST = "invalid_request_error"
# OpenAI's type and code for each status the shared parts of the API answer with.
_BY_STATUS: dict[int, tuple[str, str | None]] = {
    400: (INVALID_REQUEST, None),
    401: (INVALID_REQUEST, "invalid_api_key"),
    403: (INVALID_REQUEST, "insufficient_permissions"),
    404: (INVALID_REQUEST, None),
    405: (INVALID_REQUEST, "method_not_allowed"),
    409: (INVALID_REQUEST, "conflict"),
    429: ("requests", "rate_limit_exceeded"),
    503: ("server_error", "service_unavailable"),
}
UNAVAILABLE = "The service is temporarily unavailable"
INVALID_TOKEN = "Invalid or expired token"  # as backend/api/deps.py words it
# OpenAI's clients retry a 5xx on their own unless told not to: a turn that may have changed
# tasks must not run again without its Idempotency-Key.
NO_RETRY = {"x-should-retry": "false"}


class OpenAIErrorBody(BaseModel):
    message: str
    type: str
    param: str | None
    code: str | None


class OpenAIErrorResponse(BaseModel):
    error: OpenAIErrorBody


_DOCUMENTED = {
    400: "The request cannot be taken; `param` names what is wrong",
    401: "Missing, invalid or expired key (a sign-in token or a personal access token)",
    403: "Not allowed for this key",
    404: "No such model (`model_not_found`)",
    409: "A turn with this Idempotency-Key is still being answered",
    429: "Past the account's chat limit; see Retry-After",
    503: "The database is unreachable, or the turn's reply could not be stored; see Retry-After",
}


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answers of these error statuses, in OpenAI's shape."""
    return {
        status: {"model": OpenAIErrorResponse, "description": _DOCUMENTED[status]}
        for status in statuses
    }


class OpenAIError(Exception):
    """An answer in OpenAI's error shape."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        kind: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        default_kind, default_code = _BY_STATUS.get(status, ("server_error", None))
        self.status = status
        self.message = message
        self.param = param
        self.code = code if code is not None else default_code
        self.kind = kind or default_kind
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        error = {
            "message": _encodable(self.message),
            "type": self.kind,
            "param": None if self.param is None else _encodable(self.param),
            "code": self.code,
        }
        return {"error": error}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


def _encodable(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


def param_of(loc: Sequence[str | int]) -> str | None:
    """A body location as OpenAI names parameters: ("body", "messages", 3, "content") is
    `messages[3].content`."""
    name = ""
    for part in loc[1:] if loc and loc[0] == "body" else loc:
        name += f"[{part}]" if isinstance(part, int) else f".{part}" if name else str(part)
    return name or None


def _validation_error(errors: Sequence[Any]) -> OpenAIError:
    """The first problem of a body FastAPI refused, as OpenAI words it."""
    # A history too long or empty is said first: its messages' own faults are beside the point.
    ordered = sorted(errors, key=lambda e: e.get("type") not in ("too_long", "too_short"))
    error: dict[str, Any] = ordered[0] if ordered else {}
    kind, loc = str(error.get("type", "")), tuple(error.get("loc", ()))
    param, said = param_of(loc), str(error.get("msg", "Invalid value"))
    if kind == "json_invalid":
        return OpenAIError(400, "We could not parse the JSON body of your request")
    if param is None:  # the body itself
        return OpenAIError(400, "The request body must be a JSON object", code="invalid_type")
    if kind == "missing":
        return OpenAIError(
            400,
            f"Missing required parameter: '{param}'.",
            param=param,
            code="missing_required_parameter",
        )
    if kind == "too_long":
        limit = error.get("ctx", {}).get("max_length")
        message = f"Invalid '{param}': array too long. Expected at most {limit} items."
        return OpenAIError(400, message, param=param, code="array_above_max_length")
    if kind == "too_short":
        message = f"Invalid '{param}': empty array. Expected at least one item."
        return OpenAIError(400, message, param=param, code="empty_array")
    if kind.endswith(("_type", "_parsing")):
        message = f"Invalid type for '{param}': {said}."
        return OpenAIError(400, message, param=param, code="invalid_type")
    return OpenAIError(400, f"Invalid '{param}': {said}.", param=param, code="invalid_value")


def _http_error(exc: StarletteHTTPException) -> OpenAIError:
    detail = exc.detail if isinstance(exc.detail, str) else "Request refused"
    return OpenAIError(exc.status_code, detail, headers=exc.headers)


def _outage(request: Request, exc: Exception) -> OpenAIError:
    logger.error(
        "database unavailable during %s %s", request.method, request.url.path, exc_info=exc
    )
    return OpenAIError(503, UNAVAILABLE, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class OpenAIRoute(APIRoute):
    """A route that answers every error in OpenAI's shape: its own, and those of the shared
    dependencies (401 and 403 of authentication, 429 of the chat limit, a refused body, an
    outage), which the rest of the API answers in its own shape."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except OpenAIError as exc:
                return exc.response()
            except RequestValidationError as exc:
                return _validation_error(exc.errors()).response()
            except StarletteHTTPException as exc:
                return _http_error(exc).response()
            except AccountGoneError:
                # A token outliving its account (removed by an operator) is no longer valid.
                refused = OpenAIError(401, INVALID_TOKEN, headers={"WWW-Authenticate": "Bearer"})
                return refused.response()
            except (OSError, TimeoutError, PoolTimeoutError) as exc:
                return _outage(request, exc).response()
            except DBAPIError as exc:
                if not is_unavailable(exc):
                    raise  # a bug, not an outage: let it surface as one
                return _outage(request, exc).response()

        return answer
