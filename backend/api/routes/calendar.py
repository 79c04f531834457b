"""The account's calendar feed: open (or rotate) and close it, and the feed itself, which
calendar apps fetch with no token but the secret in its URL (backend/services/calendar_feed.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Header, HTTPException, Path, Request, Response, status
from pydantic import BaseModel, Field

from backend.api.deps import (
    CurrentUserId,
    ReadSessionDep,
    SessionDep,
    SessionMakerDep,
    limit_writes,
    spend,
)
from backend.api.errors import AUTHENTICATED, NOT_FOUND, TOO_MANY
from backend.core.db import read_only
from backend.core.limits import AbuseLimits
from backend.services import calendar_feed
from backend.services.calendar_feed import FeedCache

router = APIRouter(prefix="/api/calendar", tags=["calendar"])

# secrets.token_urlsafe(32): 43 characters of the URL-safe alphabet.
FeedToken = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{43}$", description="The feed's secret")]


class FeedOpened(BaseModel):
    url: str = Field(description="The feed's secret URL: shown once, rotated by a new POST")
    created_at: datetime


class FeedState(BaseModel):
    active: bool
    created_at: datetime | None = None


@router.post(
    "/feed",
    status_code=status.HTTP_201_CREATED,
    responses={**AUTHENTICATED, **TOO_MANY},
    dependencies=[Depends(limit_writes)],
)
async def open_feed(request: Request, user_id: CurrentUserId, session: SessionDep) -> FeedOpened:
    """A new secret feed URL for calendar apps; an earlier one stops working (rotation)."""
    token, feed = await calendar_feed.open_feed(session, owner_id=user_id)
    url = str(request.url_for("calendar_feed_document", token=token))
    return FeedOpened(url=url, created_at=feed.created_at)


@router.get("/feed", responses=AUTHENTICATED)
async def feed_state(user_id: CurrentUserId, session: ReadSessionDep) -> FeedState:
    """Whether the account has a feed (its URL was shown once and is not kept)."""
    feed = await calendar_feed.feed_of(session, owner_id=user_id)
    return FeedState(active=feed is not None, created_at=feed.created_at if feed else None)


@router.delete(
    "/feed",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**AUTHENTICATED, **TOO_MANY},
    dependencies=[Depends(limit_writes)],
)
async def close_feed(user_id: CurrentUserId, session: SessionDep) -> Response:
    """Revokes the feed: its URL answers 404 from now on."""
    await calendar_feed.close_feed(session, owner_id=user_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/{token}.ics",
    name="calendar_feed_document",
    response_class=Response,
    responses={
        200: {"content": {"text/calendar": {}}},
        304: {"description": "Unchanged since the version If-None-Match names"},
        **NOT_FOUND,
        **TOO_MANY,
    },
)
async def feed_document(
    token: FeedToken,
    request: Request,
    sessionmaker: SessionMakerDep,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    """The feed: the account's pending tasks with a due date, as iCalendar events. Each
    answer carries an ETag: sent back in If-None-Match it gets a 304 while the tasks are
    unchanged. A feed URL is fetched at most CALENDAR_FEED_REQUESTS_PER_MINUTE times a
    minute (429 with Retry-After beyond)."""
    # Reads only, and no session is held while rendering: on SQLite no write lock is taken.
    async with sessionmaker() as session:
        await read_only(session)
        feed = await calendar_feed.feed_by_token(session, token)
        if feed is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Not Found")
        # Counted for live feeds only: guessed URLs cost a lookup, never a counter.
        await _spend_feed_budget(request, feed.token_hash)
        version = await calendar_feed.version_of(session, feed)
    # no-cache: a client keeps its copy but asks every time (a 304 costs no rendering), so
    # a revoked or rotated feed stops at once; private: no shared cache keeps it.
    headers = {"Cache-Control": "no-cache, private", "ETag": version.etag}
    if if_none_match is not None and _names(if_none_match, version.etag):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    cache: FeedCache = request.app.state.calendar_cache
    document = await cache.document(version, lambda: calendar_feed.render(sessionmaker, version))
    return Response(document, media_type="text/calendar; charset=utf-8", headers=headers)


async def _spend_feed_budget(request: Request, feed_key: str) -> None:
    limits: AbuseLimits = request.app.state.abuse_limits
    await spend(limits.calendar_feed, feed_key, "This feed is fetched too often; please slow down")


def _names(if_none_match: str, etag: str) -> bool:
    """If-None-Match's weak comparison (RFC 9110 13.1.2): any listed tag, W/ or not, or *."""
    wanted = etag.removeprefix("W/")
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == wanted:
            return True
    return False
