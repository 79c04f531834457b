"""Pure ASGI middleware: request body size limit, security headers, the text rule."""

from __future__ import annotations

import email.message
import json
import re
from urllib.parse import parse_qsl

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.api.openai_errors import OPENAI_PREFIX, OpenAIError
from backend.api.openapi_index import openapi_index, route_path
from backend.api.validation import validation_errors_response
from backend.core.text_rule import MAX_FAULTS, NUL_PROBLEM, TextFault, text_faults, text_problem

# The UI and the API docs (backend/api/docs.py) load only this origin's files; no inline
# scripts. The UI's web app manifest is this origin's too; so is its service worker (/sw.js),
# which script-src 'self' already admits (worker-src falls back to it).
UI_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'; manifest-src 'self'"
)
# ReDoc runs its search in a worker its own script builds from a blob.
_REDOC_PATH = "/redoc"
REDOC_CSP = f"{UI_CSP}; worker-src 'self' blob:"
# Tokens, tasks and conversations (REST, and the MCP endpoint's tool results): no browser or
# proxy cache may keep a copy.
_PRIVATE_PATHS = ("/api/", "/mcp")


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("X-Frame-Options", "DENY")
                headers.setdefault("Referrer-Policy", "no-referrer")
                headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
                headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
                csp = REDOC_CSP if path == _REDOC_PATH else UI_CSP
                headers.setdefault("Content-Security-Policy", csp)
                if path.startswith(_PRIVATE_PATHS):
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodySizeLimit:
    """Refuses bodies over `max_bytes` with 413, by header or by counting what arrives; paths
    under a prefix of `larger` may send that many bytes instead."""

    def __init__(self, app: ASGIApp, max_bytes: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}

    def _limit(self, path: str) -> int:
        for prefix, limit in self.larger.items():
            if path.startswith(prefix):
                return limit
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await _too_large(send, limit, scope["path"])
                return
        received = 0
        too_large = False

        async def counting_receive() -> Message:
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Stop reading: to the app it looks as if the client went away.
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not too_large:  # whatever the app answers to a cut-off body is replaced
                await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except Exception:
            if not too_large:
                raise
        if too_large:
            await _too_large(send, limit, scope["path"])


async def _too_large(send: Send, limit: int, path: str = "") -> None:
    detail = f"Request body too large (limit {limit} bytes)"
    status, content = 413, {"detail": detail}
    if path.startswith(OPENAI_PREFIX):  # OpenAI's clients read their own error shape
        status, content = (
            400,
            OpenAIError(400, detail, param="messages", code="request_too_large").body(),
        )
    body = json.dumps(content).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class PathAlias:
    """Serves `alias` as `target` (no redirect): POST /mcp reaches the MCP endpoint mounted
    at /mcp/ directly, since many clients do not re-send a POST after a 307, and a redirect
    built from the Host header would point to http:// behind a TLS proxy."""

    def __init__(self, app: ASGIApp, alias: str, target: str) -> None:
        self.app = app
        self.alias = alias
        self.target = target

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == self.alias:
            scope = {**scope, "path": self.target, "raw_path": self.target.encode()}
        await self.app(scope, receive, send)


# The error type of a refusal by backend/core/text_rule.py, in a 422 of the usual shape.
UNSTORABLE_TEXT = "unstorable_text"


class TextRule:
    """Refuses a request whose text breaks backend/core/text_rule.py's rule (NUL, lone
    surrogates) with a 422 naming each place: a path parameter of the route the path leads
    to, a query parameter, a header, anywhere in a JSON body (keys too). One check for every
    route, before any of them reads the request, so both databases answer alike.

    JSON bodies are read as FastAPI reads them (`application/json` or `+json`, Python's JSON
    reader) and handed on unchanged. Bodies under `skip_bodies_under` are not looked into:
    the MCP endpoint's JSON-RPC messages, whose tool arguments the tool server checks itself
    and refuses as MCP errors, and the OpenAI-compatible endpoint's, which refuses them in
    OpenAI's error shape (backend/api/openai_requests.py).
    """

    def __init__(
        self, app: ASGIApp, skip_bodies_under: tuple[str, ...] = ("/mcp/", OPENAI_PREFIX)
    ) -> None:
        self.app = app
        self.skip_bodies_under = skip_bodies_under

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        faults = [*_path_faults(scope), *_query_faults(scope), *_header_faults(scope)]
        if _json_body(scope) and not scope["path"].startswith(self.skip_bodies_under):
            message = await _read_body(receive)
            faults += _body_faults(message.get("body", b""))
            receive = _replay(message, receive)
        if faults:
            errors = [
                {"type": UNSTORABLE_TEXT, "loc": fault.loc, "msg": fault.problem}
                for fault in faults[:MAX_FAULTS]
            ]
            await validation_errors_response(errors)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _path_faults(scope: Scope) -> list[TextFault]:
    """Faults in the path parameters of the documented path the request's path fits; an
    unknown path stays a 404."""
    if text_problem(scope["path"]) is None:
        return []
    index = openapi_index(scope.get("app"))
    found = index.find(route_path(scope)) if index is not None else None
    return text_faults(found[1], ("path",)) if found is not None else []


def _query_faults(scope: Scope) -> list[TextFault]:
    query: bytes = scope.get("query_string", b"")
    if not query:
        return []
    # As Starlette reads it (undecodable bytes become U+FFFD, so only %00 can break the rule).
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    faults: list[TextFault] = []
    for name, value in pairs:
        problem = text_problem(name) or text_problem(value)
        if problem is not None:
            faults.append(TextFault(("query", name), problem))
    return faults


def _header_faults(scope: Scope) -> list[TextFault]:
    # Header values are bytes read as Latin-1: only NUL can break the rule (RFC 9110 forbids it).
    return [
        TextFault(("header", name.decode("latin-1")), NUL_PROBLEM)
        for name, value in scope.get("headers", [])
        if b"\x00" in value
    ]


def _json_body(scope: Scope) -> bool:
    """Whether FastAPI would read the body as JSON (its content-type rule)."""
    if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
        return False
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            message = email.message.Message()
            message["content-type"] = value.decode("latin-1")
            subtype = message.get_content_subtype()
            return message.get_content_maintype() == "application" and (
                subtype == "json" or subtype.endswith("+json")
            )
    return False


async def _read_body(receive: Receive) -> Message:
    """The request's body as one message (or the disconnect that cut it short)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return message
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}


def _replay(first: Message, receive: Receive) -> Receive:
    """`first`, then whatever comes next (a disconnect, which streaming replies watch for)."""
    pending = [first]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


def _body_faults(body: bytes) -> list[TextFault]:
    # Pure ASCII without a backslash holds no NUL and no surrogate once read (a raw NUL is
    # invalid JSON): most bodies skip the second reading.
    if body.isascii() and b"\\" not in body:
        return []
    try:
        document = json.loads(body)  # as FastAPI reads it: bytes, surrogates let through
    except (ValueError, RecursionError):
        return []  # the app answers what it cannot read
    return text_faults(document, ("body",))


# What an integer looks like in a URL: ASCII digits, a minus sign at most. Python's int() (and
# so FastAPI) also reads " 6", "+6" and "6_000", which the schema's "integer" does not allow.
_INTEGER = re.compile(r"-?[0-9]+")
_NOT_AN_INTEGER = "Input should be a valid integer, unable to parse string as an integer"


class IntegerParams:
    """Refuses a path or query parameter documented as an integer unless it is written as
    one (a 422 naming it, in the shape of any other), so what the schema says is what is
    accepted."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            errors = _integer_errors(scope)
            if errors:
                await validation_errors_response(errors)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _integer_errors(scope: Scope) -> list[dict[str, object]]:
    index = openapi_index(scope.get("app"))
    found = index.find(route_path(scope)) if index is not None else None
    if found is None:
        return []
    documented, path_params = found
    integers = documented.integers.get(scope["method"], frozenset())
    if not integers:
        return []
    query = scope.get("query_string", b"").decode("latin-1")
    written = [("path", name, value) for name, value in path_params.items()] + [
        ("query", name, value) for name, value in parse_qsl(query, keep_blank_values=True)
    ]
    return [
        {"type": "int_parsing", "loc": (place, name), "msg": _NOT_AN_INTEGER}
        for place, name, value in written
        if (place, name) in integers and not _INTEGER.fullmatch(value)
    ]
