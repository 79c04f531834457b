"""Fired reminders: the ones to show (also missed ones, on the next visit), a live stream of
them while the web UI is open, and dismissing them (backend/services/reminders.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response, status
from pydantic import BaseModel
from sse_starlette import EventSourceResponse

from backend.api.deps import CurrentUserId, SessionDep, SessionMakerDep
from backend.api.errors import AUTHENTICATED, NOT_FOUND
from backend.models import Reminder, ReminderPublic
from backend.reminders.fanout import ReminderFanout
from backend.services import reminders
from backend.services.reminders import ReminderNotFoundError

router = APIRouter(prefix="/api/reminders", tags=["reminders"])

ReminderId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The reminder's id")]


class ReminderList(BaseModel):
    reminders: list[ReminderPublic]


class Dismissed(BaseModel):
    dismissed: int


@router.get("", responses=AUTHENTICATED)
async def list_reminders(user_id: CurrentUserId, session: SessionDep) -> ReminderList:
    """Reminders that have fired and are not dismissed yet, oldest first: what the web UI
    shows when it opens (the ones missed while it was closed)."""
    found = await reminders.unseen(session, owner_id=user_id)
    return ReminderList(reminders=[ReminderPublic.of(reminder) for reminder in found])


@router.get(
    "/stream",
    response_class=EventSourceResponse,
    responses={
        **AUTHENTICATED,
        200: {
            "description": (
                "Server-Sent Events: a `reminder` event (a Reminder, its id as the event id) "
                "for each undismissed reminder at once, then for each one as it fires."
            ),
            "content": {"text/event-stream": {}},
        },
    },
)
async def stream_reminders(
    request: Request, user_id: CurrentUserId, sessionmaker: SessionMakerDep
) -> EventSourceResponse:
    """The user's reminders as they fire, for as long as the connection stays open."""
    fanout: ReminderFanout = request.app.state.reminder_fanout

    async def events() -> AsyncIterator[dict[str, str]]:
        # Subscribed before the undismissed ones are read: none can fall between the two.
        async with fanout.subscribe(user_id) as queue:
            sent: set[int] = set()
            async with sessionmaker() as session:
                waiting = await reminders.unseen(session, owner_id=user_id)
            for reminder in waiting:
                sent.add(reminder.id or 0)
                yield _event(reminder)
            while True:
                reminder = await queue.get()
                if reminder.id not in sent:
                    sent.add(reminder.id or 0)
                    yield _event(reminder)

    return EventSourceResponse(events())


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
    """Dismiss one reminder (dismissing it again is harmless)."""
    try:
        await reminders.dismiss(session, owner_id=user_id, reminder_id=reminder_id)
    except ReminderNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Reminder not found") from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)


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
