"""Pure ASGI middleware: request body size limit and security headers."""

from __future__ import annotations

import json

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The UI and the API docs (backend/api/docs.py) load only this origin's files; no inline
# scripts.
UI_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
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
    """Refuses bodies over `max_bytes` with 413, by header or by counting what arrives."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await _too_large(send, self.max_bytes)
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
                if received > self.max_bytes:
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
            await _too_large(send, self.max_bytes)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"Request body too large (limit {limit} bytes)"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
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
