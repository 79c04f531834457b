"""Fired reminders: the ones to show (also missed ones, on the next visit), a live stream of
them while the web UI is open, dismissing and snoozing them (backend/reminders/store.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from sse_starlette import EventSourceResponse
from starlette.types import Receive, Scope, Send

from backend.api.deps import (
    CurrentClaims,
    CurrentUserId,
    ReadSessionDep,
    SessionDep,
    SessionMakerDep,
)
from backend.api.errors import AUTHENTICATED, NOT_FOUND, TOO_MANY, ErrorDetail, Responses
from backend.core.db import read_only
from backend.core.timeutil import utcnow
from backend.models import Reminder, ReminderPublic, User
from backend.models.reminder import ReminderSnooze, ReminderSnoozed
from backend.reminders import store as reminders
from backend.reminders.fanout import Changed, ReminderFanout, TooManyStreamsError
from backend.reminders.snooze import SnoozeTimeError, snooze_until
from backend.reminders.store import ReminderNotFoundError, ReminderNotSnoozableError

router = APIRouter(prefix="/api/reminders", tags=["reminders"])

ReminderId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The reminder's id")]


class ReminderList(BaseModel):
    reminders: list[ReminderPublic]


class Dismissed(BaseModel):
    dismissed: int


@router.get("", responses=AUTHENTICATED)
async def list_reminders(user_id: CurrentUserId, session: ReadSessionDep) -> ReminderList:
    """Reminders that have fired and are not dismissed yet, oldest first: what the web UI
    shows when it opens (the ones missed while it was closed)."""
    found = await reminders.unseen(session, owner_id=user_id)
    return ReminderList(reminders=[ReminderPublic.of(reminder) for reminder in found])


# A place frees only when one of the account's streams closes, whenever that is: the web UI
# retries with its own backoff anyway.
STREAM_RETRY_AFTER_SECONDS = 60


class _ReleasingStream(EventSourceResponse):
    """Gives the stream's place back however the response ends: the events' generator may
    never start (a client gone at once, a HEAD request), so its own `finally` is not
    enough."""

    def __init__(self, events: AsyncIterator[dict[str, str]], release: Callable[[], None]) -> None:
        super().__init__(events)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


@router.get(
    "/stream",
    response_class=EventSourceResponse,
    responses={
        **AUTHENTICATED,
        **TOO_MANY,
        200: {
            "description": (
                "Server-Sent Events: a `reminder` event (a Reminder, its id as the event id) "
                "for each undismissed reminder at once, then for each one as it fires; a "
                '`changed` event (`{"kinds": ["tasks", "lists", "invitations"]}`, no id) '
                "when something the user sees changed elsewhere (another member of a shared "
                "list, another screen), within LIVE_UPDATE_SECONDS: read those again. The "
                "stream ends once the token expires or the account is removed (within "
                "REMINDER_CHECK_SECONDS)."
            ),
            "content": {"text/event-stream": {}},
        },
    },
)
async def stream_reminders(
    request: Request, claims: CurrentClaims, sessionmaker: SessionMakerDep
) -> EventSourceResponse:
    """The user's reminders as they fire, for as long as the connection stays open and the
    token is good. An account holds at most REMINDER_STREAMS_PER_ACCOUNT streams on one
    server process (429 beyond, until one closes)."""
    fanout: ReminderFanout = request.app.state.reminder_fanout
    try:
        # Subscribed before the undismissed ones are read: none can fall between the two.
        subscription = fanout.subscribe(claims)
    except TooManyStreamsError as exc:
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            detail=f"{exc}; close one first",
            headers={"Retry-After": str(STREAM_RETRY_AFTER_SECONDS)},
        ) from exc

    async def events() -> AsyncIterator[dict[str, str]]:
        sent: set[int] = set()
        async with sessionmaker() as session:
            await read_only(session)
            waiting = await reminders.unseen(session, owner_id=claims.user_id)
        for missed in waiting:
            sent.add(missed.id or 0)
            yield _event(missed)
        # None: the fanout ended the stream (token expired, account gone).
        while (item := await subscription.next()) is not None:
            if isinstance(item, Changed):
                yield _changed(item)
            elif item.id not in sent:
                sent.add(item.id or 0)
                yield _event(item)

    return _ReleasingStream(events(), lambda: fanout.unsubscribe(subscription))


def _changed(change: Changed) -> dict[str, str]:
    """What the web UI should read again: no id, so a reconnect's Last-Event-ID stays the
    last reminder's."""
    return {"event": "changed", "data": json.dumps({"kinds": sorted(change.kinds)})}


def _event(reminder: Reminder) -> dict[str, str]:
    body = ReminderPublic.of(reminder).model_dump(mode="json")
    return {"event": "reminder", "id": str(reminder.id), "data": json.dumps(body)}


@router.delete(
    # ":int", so that DELETE /api/reminders/stream is a 405 (no such method), not a 422
    "/{reminder_id:int}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**AUTHENTICATED, **NOT_FOUND},
)
async def dismiss_reminder(
    reminder_id: ReminderId, user_id: CurrentUserId, session: SessionDep
) -> Response:
    """Dismiss one reminder (dismissing it again is harmless; a snooze asked for stands)."""
    try:
        await reminders.dismiss(session, owner_id=user_id, reminder_id=reminder_id)
    except ReminderNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Reminder not found") from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)


NOT_SNOOZABLE: Responses = {
    409: {
        "model": ErrorDetail,
        "description": (
            "Nothing to snooze: the reminder is dismissed (or has fired again since it was "
            "snoozed), or its task is done"
        ),
    }
}


@router.post("/{reminder_id:int}/snooze", responses={**AUTHENTICATED, **NOT_FOUND, **NOT_SNOOZABLE})
async def snooze_reminder(
    reminder_id: ReminderId, body: ReminderSnooze, user_id: CurrentUserId, session: SessionDep
) -> ReminderSnoozed:
    """Dismiss a reminder for now: it fires again, once, after `minutes` or at `until`
    (within 30 days), as a new reminder. One snoozed already and still to fire again may be
    snoozed anew (its time changes); one dismissed, or whose task is done, is a 409."""
    now = utcnow()
    zone_name = "UTC"
    if body.until is not None and body.until.tzinfo is None:
        user = await session.get(User, user_id)
        zone_name = user.timezone if user is not None else zone_name
    try:
        until = snooze_until(body, now=now, zone_name=zone_name)
    except SnoozeTimeError as exc:
        raise RequestValidationError(
            [{"type": "value_error", "loc": ("body", exc.field), "msg": str(exc)}]
        ) from exc
    try:
        snoozed = await reminders.snooze(
            session, owner_id=user_id, reminder_id=reminder_id, until=until
        )
    except ReminderNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Reminder not found") from exc
    except ReminderNotSnoozableError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return ReminderSnoozed.of(snoozed)


NOTHING_TO_UNDO: Responses = {
    409: {
        "model": ErrorDetail,
        "description": "No snooze to undo: it is not snoozed, or has fired again since",
    }
}


@router.delete(
    "/{reminder_id:int}/snooze", responses={**AUTHENTICATED, **NOT_FOUND, **NOTHING_TO_UNDO}
)
async def undo_snooze(
    reminder_id: ReminderId, user_id: CurrentUserId, session: SessionDep
) -> ReminderPublic:
    """Undo a snooze that has yet to fire: the reminder is shown again as it was."""
    try:
        restored = await reminders.unsnooze(session, owner_id=user_id, reminder_id=reminder_id)
    except ReminderNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Reminder not found") from exc
    except ReminderNotSnoozableError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return ReminderPublic.of(restored)


@router.delete("", responses=AUTHENTICATED)
async def dismiss_reminders(
    user_id: CurrentUserId,
    session: SessionDep,
    through: Annotated[
        int | None,
        Query(ge=1, le=2**31 - 1, description="Only up to this id: one that fired since stays"),
    ] = None,
) -> Dismissed:
    """Dismiss every reminder shown."""
    count = await reminders.dismiss_all(session, owner_id=user_id, through=through)
    return Dismissed(dismissed=count)
