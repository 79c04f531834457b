"""The task tools over streamable HTTP, behind the same bearer tokens as the REST API."""

from __future__ import annotations

import logging
from contextvars import ContextVar

from mcp.server.auth.provider import AccessToken, TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from backend.core.config import Settings
from backend.core.db import SessionMaker, is_unavailable
from backend.core.limits import CountedLimit
from backend.core.limits.sign_in import SignInThrottle
from backend.core.security import AccessClaims, InvalidTokenError, read_access_token
from backend.core.unavailable import unavailable_response
from backend.services import access_tokens, users
from mcp_tools.principal import READ_SCOPE, WRITE_SCOPE, principal_from_token
from mcp_tools.server import ChangeGate, build_task_server

logger = logging.getLogger(__name__)


# A personal access token the endpoint's gate (`PostOnly`) has just looked up, so the SDK's
# verifier does not look it up again in the same request.
_gated: ContextVar[tuple[str, AccessClaims] | None] = ContextVar("mcp_gated_token", default=None)


class AccessTokenVerifier(TokenVerifier):
    """Accepts the API's own bearer tokens whose accounts still exist: sign-in tokens, and
    personal access tokens not revoked or expired, each looked up on every request. The
    token's scope rides along (`tasks:read`, `tasks:write`): a read token's changes are
    refused by the tools (mcp_tools/principal.py)."""

    def __init__(self, settings: Settings, sessionmaker: SessionMaker) -> None:
        self._settings = settings
        self._sessionmaker = sessionmaker

    async def _claims(self, token: str) -> AccessClaims | None:
        if access_tokens.looks_like_token(token):
            gated = _gated.get()
            if gated is not None and gated[0] == token:
                return gated[1]
            async with self._sessionmaker() as session:
                engine = session.bind
            assert isinstance(engine, AsyncEngine)
            return await access_tokens.resolve(engine, token)
        try:
            claims = read_access_token(token, self._settings)
        except InvalidTokenError:
            return None
        async with self._sessionmaker() as session:
            if await users.token_account(session, claims) is None:
                return None
        return claims

    async def verify_token(self, token: str) -> AccessToken | None:
        claims = await self._claims(token)
        if claims is None:
            return None
        scopes = [READ_SCOPE, WRITE_SCOPE] if claims.may_change else [READ_SCOPE]
        return AccessToken(
            token=token,
            client_id=f"user-{claims.user_id}",
            scopes=scopes,
            subject=str(claims.user_id),
        )


class PostOnly:
    """Stateless streamable HTTP has no stream for the server to push on: a GET would open an
    event stream that never carries anything and never ends, so it is refused (405), as the
    MCP transport allows. Paths below the endpoint are the API's JSON 404s.

    An outage or overload (no pooled connection free in time, say, while the bearer token is
    checked) is answered 503 with Retry-After by the endpoint's error handler, which then
    raises it on (Starlette always does); it ends here, as the REST API's would."""

    def __init__(
        self,
        app: Starlette,
        *,
        engine: AsyncEngine | None = None,
        sign_in: SignInThrottle | None = None,
    ) -> None:
        self.app = app
        self._engine = engine
        self._sign_in = sign_in
        app.add_exception_handler(Exception, _server_error)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _below_endpoint(scope):
            await JSONResponse({"detail": "Not Found"}, status_code=404)(scope, receive, send)
            return
        if scope["type"] == "http" and scope["method"] == "GET":
            refusal = JSONResponse(
                {"detail": "This MCP endpoint is stateless: POST JSON-RPC requests to it"},
                status_code=405,
                headers={"Allow": "POST"},
            )
            await refusal(scope, receive, send)
            return
        try:
            if scope["type"] == "http" and await self._refused_token(scope, receive, send):
                return
            await self.app(scope, receive, send)
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            logger.error("database unavailable during an MCP request", exc_info=exc)

    async def _refused_token(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Wrong personal access tokens are throttled per client address like wrong passwords
        (a right one is never refused for an attacker's misses): answered here, 401 or 429."""
        token = _personal_bearer(scope)
        if token is None or self._engine is None or self._sign_in is None:
            return False
        claims = await access_tokens.resolve(self._engine, token)
        if claims is not None:
            _gated.set((token, claims))
            return False
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        wait = await self._sign_in.admit(address, access_tokens.THROTTLE_ACCOUNT)
        if wait is not None:
            answer = JSONResponse(
                {"error": "too_many_requests", "error_description": "Too many wrong tokens"},
                status_code=429,
                headers={"Retry-After": str(wait)},
            )
        else:
            await self._sign_in.failed(address, access_tokens.THROTTLE_ACCOUNT)
            answer = JSONResponse(
                {"error": "invalid_token", "error_description": "Invalid or expired token"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
            )
        await answer(scope, receive, send)
        return True


def _personal_bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            header: str = bytes(value).decode("latin-1")
            scheme, _, credential = header.partition(" ")
            credential = credential.strip()
            if scheme.lower() == "bearer" and access_tokens.looks_like_token(credential):
                return credential
            return None
    return None


async def _server_error(request: Request, exc: Exception) -> Response:
    if is_unavailable(exc):
        return unavailable_response()
    return JSONResponse({"detail": "Internal Server Error"}, status_code=500)


def _below_endpoint(scope: Scope) -> bool:
    """Whether the request is for a path under the mount other than the endpoint itself."""
    path: str = scope["path"]
    return path.removeprefix(scope.get("root_path", "")) not in ("", "/")


def write_gate(writes: CountedLimit) -> ChangeGate:
    """The REST API's per-user write budget, for tools that change tasks over /mcp."""

    async def gate(user_id: int) -> None:
        wait = await writes.hit(str(user_id))
        if wait is not None:
            raise ToolError(f"Too many changes; please wait {wait} seconds")

    return gate


def build_http_app(
    settings: Settings,
    sessionmaker: SessionMaker,
    writes: CountedLimit | None = None,
    *,
    engine: AsyncEngine | None = None,
    sign_in: SignInThrottle | None = None,
) -> tuple[ASGIApp, StreamableHTTPSessionManager]:
    """The ASGI app to mount at /mcp, and its session manager (run it in the app's lifespan)."""
    base_url = f"http://{settings.host}:{settings.port}"
    server = build_task_server(
        sessionmaker,
        principal_from_token,
        auth=AuthSettings(
            issuer_url=base_url,
            resource_server_url=None,
            validate_token_resource=False,
        ),
        token_verifier=AccessTokenVerifier(settings, sessionmaker),
        max_tasks=settings.max_tasks_per_user,
        max_lists=settings.max_lists_per_user,
        before_change=write_gate(writes) if writes is not None else None,
    )
    app = server.streamable_http_app(
        streamable_http_path="/",
        # Stateless JSON responses: any worker can answer any request, like the REST API.
        stateless_http=True,
        json_response=True,
        # Bearer auth, not cookies, protects this endpoint, so any Host header is fine.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return PostOnly(app, engine=engine, sign_in=sign_in), server.session_manager
