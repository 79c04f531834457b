"""The ASGI app: `uvicorn backend.main:app`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from agents import set_tracing_disabled
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from backend.agent.assistant import Assistant
from backend.agent.brains import build_brain
from backend.agent.mcp_bridge import InProcessTaskTools
from backend.api.deps import INVALID_TOKEN, unauthorized
from backend.api.docs import mount_docs
from backend.api.errors import document_edge_answers
from backend.api.frontend import mount_frontend
from backend.api.middleware import (
    BodySizeLimit,
    IntegerParams,
    PathAlias,
    SecurityHeaders,
    TextRule,
)
from backend.api.openai_errors import OPENAI_PREFIX
from backend.api.openapi_index import openapi_index, route_path
from backend.api.routes import (
    auth,
    calendar,
    chat,
    config,
    connections,
    conversations,
    health,
    invitations,
    list_members,
    lists,
    notifications,
    openai_compatible,
    push,
    reminder_links,
    reminders,
    tasks,
    tokens,
)
from backend.api.shutdown import on_shutdown_signal
from backend.api.validation import validation_error_response
from backend.chat.turns import TurnPolicy, TurnRunner
from backend.core.config import Settings, get_settings
from backend.core.db import (
    create_engine,
    create_sessionmaker,
    is_unavailable,
    read_only_engine,
)
from backend.core.heap import settle_after_startup
from backend.core.limits import build_abuse_limits
from backend.core.migrate import migrate
from backend.core.security import HashingBusyError
from backend.core.unavailable import unavailable_response
from backend.domain.errors import (
    AccountGoneError,
    ForbiddenError,
    MoveBetweenOwnersError,
    NotFoundError,
    SharingRefusedError,
)
from backend.models import Reminder
from backend.notifications.delivery import Delivery
from backend.reminders.fanout import ReminderFanout
from backend.reminders.scheduler import WEB_WORKER_BATCH, ReminderScheduler
from backend.services.calendar_feed import FeedCache
from mcp_tools.http import build_http_app
from mcp_tools.principal import principal_from_meta
from mcp_tools.server import build_task_server

logger = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    # Traces would be exported to OpenAI; nothing leaves the machine unless asked to.
    set_tracing_disabled(not settings.agent_tracing)
    engine = create_engine(settings)
    sessionmaker = create_sessionmaker(engine)
    abuse_limits = build_abuse_limits(settings, engine)
    mcp_http_app, mcp_sessions = build_http_app(
        settings, sessionmaker, abuse_limits.writes, engine=engine, sign_in=abuse_limits.sign_in
    )
    # Chat's changes spend the same per-user write budget as REST's and /mcp's.
    turns = TurnRunner(sessionmaker, TurnPolicy.from_settings(settings, abuse_limits.writes))
    fanout = ReminderFanout(
        sessionmaker,
        interval_seconds=settings.reminder_check_seconds,
        streams_per_account=settings.reminder_streams_per_account,
        live_seconds=settings.live_update_seconds,
    )
    delivery = Delivery(settings, sessionmaker)

    def fired(reminders: Sequence[Reminder]) -> None:
        fanout.fired(reminders)
        delivery.wake()

    scheduler = ReminderScheduler(
        sessionmaker,
        interval_seconds=settings.reminder_check_seconds,
        batch=WEB_WORKER_BATCH,
        on_fired=fired,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await migrate(engine)
        tools = InProcessTaskTools(
            build_task_server(
                sessionmaker,
                principal_from_meta,
                max_tasks=settings.max_tasks_per_user,
                max_lists=settings.max_lists_per_user,
            )
        )
        await tools.connect()  # type: ignore[no-untyped-call]
        brain = build_brain(settings)
        assistant = Assistant(tools, brain, tracing=settings.agent_tracing)
        await assistant.start()
        app.state.assistant = assistant
        # After migrating: the VAPID key may have to be made and stored.
        dispatcher = await delivery.start()
        app.state.vapid_keys = delivery.vapid
        app.state.brain_name = brain.name
        if settings.tune_gc:
            settle_after_startup()
        background = [
            asyncio.create_task(fanout.run(), name="reminder-fanout"),
            asyncio.create_task(fanout.run_changes(), name="live-updates"),
        ]
        if settings.reminder_scheduler:
            background.append(asyncio.create_task(scheduler.run(), name="reminder-scheduler"))
            background.append(asyncio.create_task(dispatcher.run(), name="notification-delivery"))
        logger.info("ready: database=%s brain=%s", engine.dialect.name, brain.name)
        # The grace period runs from the server's signal, while clients are still connected.
        grace = settings.shutdown_grace_seconds
        stop_watching = on_shutdown_signal(lambda: turns.begin_shutdown(grace))
        try:
            async with mcp_sessions.run():
                yield
        finally:
            stop_watching()
            for job in background:
                job.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            # Turns in flight still need the tools and the database: they go last.
            await turns.finish(grace)
            await tools.cleanup()  # type: ignore[no-untyped-call]
            await delivery.close()
            await engine.dispose()

    app = FastAPI(
        title="Todo Chatbot",
        summary="Manage a todo list by chatting; MCP task tools at /mcp",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # served from this origin by backend.api.docs
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.abuse_limits = abuse_limits
    app.state.engine = engine
    app.state.read_engine = read_only_engine(engine)
    app.state.sessionmaker = sessionmaker
    app.state.turns = turns
    app.state.reminder_fanout = fanout
    app.state.calendar_cache = FeedCache(settings.calendar_feed_cache_mb * 1024 * 1024)
    app.state.reminder_scheduler = scheduler
    app.state.delivery = delivery
    app.state.brain_name = "starting"

    for router in (
        health.router,
        auth.router,
        tasks.router,
        lists.router,
        calendar.router,
        reminders.router,
        reminder_links.router,
        push.router,
        notifications.router,
        conversations.router,
        chat.router,
        config.router,
        tokens.router,
        openai_compatible.router,
        connections.router,
        list_members.router,
        invitations.router,
    ):
        app.include_router(router)

    mount_docs(app)
    app.add_exception_handler(RequestValidationError, validation_error_response)

    @app.exception_handler(AccountGoneError)
    async def _account_gone(request: Request, exc: Exception) -> Response:
        # A token outliving its account (removed by an operator) is no longer valid.
        return await http_exception_handler(request, unauthorized(INVALID_TOKEN))

    # What sharing refuses (specs/sharing.md), on every route alike: a list or task the
    # caller cannot see is a 404, a change they may not make a 403, a share that cannot be
    # made a 409, each with its reason.
    @app.exception_handler(NotFoundError)
    async def _not_found(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(ForbiddenError)
    async def _forbidden(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=403)

    @app.exception_handler(SharingRefusedError)
    @app.exception_handler(MoveBetweenOwnersError)
    async def _conflict(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(DBAPIError)
    @app.exception_handler(OSError)
    @app.exception_handler(TimeoutError)
    @app.exception_handler(PoolTimeoutError)  # no pooled connection free in time: overload
    async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, DBAPIError) and not is_unavailable(exc):
            raise exc  # a bug, not an outage: let it surface as one
        logger.error(
            "database unavailable during %s %s", request.method, request.url.path, exc_info=exc
        )
        return unavailable_response()

    @app.exception_handler(HashingBusyError)
    async def _hashing_busy(request: Request, exc: Exception) -> JSONResponse:
        logger.warning("password hashing overloaded during %s: %s", request.url.path, exc)
        return unavailable_response()

    app.mount("/mcp", mcp_http_app)
    # Innermost, so their 422s get CORS and security headers; the text rule inside the body
    # size limit, as it reads whole bodies.
    app.add_middleware(IntegerParams)
    app.add_middleware(TextRule)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
            # What a page of tasks says beyond its body: the next page and the total.
            expose_headers=["Link", "X-Total-Count"],
        )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_request_bytes,
        larger={OPENAI_PREFIX: settings.openai_max_request_bytes},
    )
    app.add_middleware(PathAlias, alias="/mcp", target="/mcp/")
    ui_page = mount_frontend(app, settings.frontend_dist)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and (page := ui_page(request)) is not None:
            return page
        if exc.status_code == 405:
            exc = with_documented_allow(request, exc)
        return await http_exception_handler(request, exc)

    document_edge_answers(app)
    return app


def with_documented_allow(request: Request, exc: StarletteHTTPException) -> StarletteHTTPException:
    """A 405 whose Allow names every method documented for the path: the router names only
    the methods of the first route that matched it."""
    index = openapi_index(request.app)
    found = index.find(route_path(request.scope)) if index is not None else None
    if found is None:
        return exc
    methods = set(found[0].methods)
    if "GET" in methods:
        methods.add("HEAD")  # the router answers HEAD wherever it answers GET
    headers = {**(exc.headers or {}), "Allow": ", ".join(sorted(methods))}
    return StarletteHTTPException(exc.status_code, detail=exc.detail, headers=headers)


app = create_app()
