"""The account's calendar feed: open (or rotate) and close it, and the feed itself, which
calendar apps fetch with no token but the secret in its URL (backend/services/calendar_feed.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response, status
from pydantic import BaseModel, Field

from backend.api.deps import CurrentUserId, SessionDep, limit_writes
from backend.api.errors import AUTHENTICATED, NOT_FOUND, TOO_MANY
from backend.services import calendar_feed

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
async def feed_state(user_id: CurrentUserId, session: SessionDep) -> FeedState:
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
    responses={200: {"content": {"text/calendar": {}}}, **NOT_FOUND},
)
async def feed_document(token: FeedToken, session: SessionDep) -> Response:
    """The feed: the account's pending tasks with a due date, as iCalendar events."""
    feed = await calendar_feed.feed_by_token(session, token)
    if feed is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Not Found")
    document = await calendar_feed.calendar_of(session, feed)
    # Calendar apps poll; a shared cache must never keep one account's feed.
    headers = {"Cache-Control": "private, max-age=300"}
    return Response(document, media_type="text/calendar; charset=utf-8", headers=headers)
