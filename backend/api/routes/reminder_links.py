"""A reminder's Done and Snooze without signing in: the links in a reminder's email and the
actions of its push notification (the service worker holds no access token). Each carries a
signed token naming the account and the reminder (backend/core/signed_links.py).

GET shows a page with one button and changes nothing (mail scanners follow links); POST
acts. A POST that accepts JSON (the service worker) is answered `{"ok", "message"}`; anything
else an HTML page.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request, status
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.api.deps import ReadSessionDep, SessionDep, SettingsDep
from backend.api.errors import Responses
from backend.api.routes.notifications import html_page, post_button
from backend.core.config import Settings
from backend.core.signed_links import InvalidLinkError, read_link
from backend.core.timeutil import utcnow
from backend.domain.due import counted, on_clock, short_day, today_in
from backend.domain.errors import ForbiddenError, TaskNotFoundError
from backend.models import Reminder, Task, User
from backend.models.reminder import SNOOZE_MAX_MINUTES, ReminderSnooze
from backend.notifications.links import REMINDER_LINK_PATH, reminder_link_path
from backend.reminders import store as reminders
from backend.reminders.snooze import snooze_until
from backend.reminders.store import ReminderNotFoundError, ReminderNotSnoozableError
from backend.services import tasks, users

router = APIRouter(prefix=REMINDER_LINK_PATH, tags=["reminders"])

Action = Annotated[Literal["done", "snooze"], Path(description="What the link does")]
Token = Annotated[str, Query(max_length=2000, description="The signed token from the link")]
Minutes = Annotated[
    int,
    Query(
        ge=1,
        le=SNOOZE_MAX_MINUTES,
        description=f"For snooze: how many minutes (1-{SNOOZE_MAX_MINUTES:,}: up to 30 days)",
    ),
]
DEFAULT_SNOOZE_MINUTES = 60


class LinkProblem(Exception):
    """Why the link does nothing: the status, a title and what to tell the person."""

    def __init__(self, status_code: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status_code, self.title, self.message = status_code, title, message


@dataclass(frozen=True)
class Target:
    user: User
    reminder: Reminder
    task: Task


def _answer(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "text/html": {},
            "application/json": {
                "example": {"ok": False, "message": description, "detail": description}
            },
        },
    }


LINK_ANSWERS: Responses = {
    200: {
        "description": (
            'A page (GET: the button; POST: what was done), or `{"ok": true, "message"}` to a '
            "POST that accepts application/json"
        ),
        "content": {"text/html": {}, "application/json": {"example": {"ok": True}}},
    },
    400: _answer("The link is not valid: altered, expired, or its account removed"),
    404: _answer("The reminder is gone (its task was deleted)"),
    409: _answer("Nothing to do: the task is done already, or the reminder was dismissed"),
}


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "").lower()


def _title(task: Task | Reminder) -> str:
    return "“" + " ".join(task.title.split()) + "”"


def _duration(minutes: int) -> str:
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [
        counted(amount, unit)
        for amount, unit in ((days, "day"), (hours, "hour"), (mins, "minute"))
        if amount
    ]
    return " ".join(parts)


async def _target(session: AsyncSession, settings: Settings, token: str) -> Target:
    """The account, reminder and task the link names; LinkProblem if it names none."""
    try:
        claims = read_link(settings, "reminder", token)
    except InvalidLinkError as exc:
        raise LinkProblem(
            status.HTTP_400_BAD_REQUEST,
            "This link does not work",
            "This link is not valid: it may have been altered or have expired. Open the app "
            "to see your reminders.",
        ) from exc
    user = await users.get_user(session, user_id=claims.user_id)
    if user is None or user.account_key != claims.account:
        raise LinkProblem(
            status.HTTP_400_BAD_REQUEST,
            "This link does not work",
            "This link is no longer valid: its account has been removed.",
        )
    assert claims.reminder_id is not None  # a "reminder" link names one
    reminder = await session.get(Reminder, claims.reminder_id)
    task = await session.get(Task, reminder.task_pk) if reminder is not None else None
    if reminder is None or task is None or reminder.owner_id != user.id:
        raise LinkProblem(
            status.HTTP_404_NOT_FOUND,
            "Reminder not found",
            "This reminder is gone: its task has been deleted.",
        )
    if task.completed:
        raise LinkProblem(
            status.HTTP_409_CONFLICT, "Already done", f"{_title(task)} is done already."
        )
    return Target(user, reminder, task)


def _moved_on(target: Target) -> LinkProblem | None:
    """A repeating task done (or moved) since its reminder fired: the link's occurrence is
    past, and Done must not complete the next one."""
    task, reminder = target.task, target.reminder
    if task.repeat_rule is None or task.due_at == reminder.due_at or task.due_date is None:
        return None
    today = today_in(target.user.timezone)
    return LinkProblem(
        status.HTTP_409_CONFLICT,
        "Already done",
        f"This one is done already: {_title(task)} is next due {short_day(task.due_date, today)}.",
    )


def _problem_answer(problem: LinkProblem, as_json: bool) -> Response:
    if as_json:
        return JSONResponse(
            {"ok": False, "message": problem.message, "detail": problem.message},
            status_code=problem.status_code,
        )
    body = f"<p>{html.escape(problem.message)}</p>\n"
    return html_page(problem.title, body, status_code=problem.status_code)


@router.get("/{action}", response_class=HTMLResponse, responses=LINK_ANSWERS)
async def confirm_page(
    action: Action,
    settings: SettingsDep,
    session: ReadSessionDep,
    token: Token = "",
    minutes: Minutes = DEFAULT_SNOOZE_MINUTES,
) -> Response:
    """The page a link opens: what it will do, and one button that does it."""
    try:
        target = await _target(session, settings, token)
        if action == "done" and (problem := _moved_on(target)) is not None:
            raise problem
    except LinkProblem as problem:
        return _problem_answer(problem, as_json=False)
    # The same link, token and all: the button POSTs what the email or notification named.
    path = reminder_link_path(action, token, minutes=minutes if action == "snooze" else None)
    if action == "done":
        question, button = f"Mark {_title(target.task)} as done?", "Mark done"
    else:
        question, button = f"Snooze {_title(target.task)} for {_duration(minutes)}?", "Snooze"
    return html_page(question, post_button(path, button))


@router.post("/{action}", response_class=HTMLResponse, responses=LINK_ANSWERS)
async def act(
    action: Action,
    request: Request,
    settings: SettingsDep,
    session: SessionDep,
    token: Token = "",
    minutes: Minutes = DEFAULT_SNOOZE_MINUTES,
) -> Response:
    """Does what the link says: "done" completes the reminder's task (a repeating one moves
    to its next date) and dismisses the reminder; "snooze" has it remind again after
    `minutes` (an hour unless given)."""
    as_json = _wants_json(request)
    try:
        target = await _target(session, settings, token)
        if action == "done":
            message = await _done(session, target)
        else:
            message = await _snooze(session, target, minutes)
    except LinkProblem as problem:
        return _problem_answer(problem, as_json)
    if as_json:
        return JSONResponse({"ok": True, "message": message})
    title = "Done" if action == "done" else "Snoozed"
    return html_page(title, f"<p>{html.escape(message)}</p>\n")


async def _done(session: AsyncSession, target: Target) -> str:
    problem = _moved_on(target)
    if problem is not None:
        raise problem
    user, reminder = target.user, target.reminder
    assert user.id is not None and reminder.id is not None
    try:
        # The reminder's number is its user's for the task (on a shared list, not the
        # owner's).
        after = await tasks.complete_task(session, user_id=user.id, task_id=reminder.task_number)
        await reminders.dismiss(session, owner_id=user.id, reminder_id=reminder.id)
    except (TaskNotFoundError, ReminderNotFoundError) as exc:
        raise LinkProblem(
            status.HTTP_404_NOT_FOUND,
            "Reminder not found",
            "This reminder is gone: its task has been deleted.",
        ) from exc
    except ForbiddenError as exc:
        raise LinkProblem(status.HTTP_403_FORBIDDEN, "Not yours to change", str(exc)) from exc
    if not after.completed and after.due_date is not None:
        next_day = short_day(after.due_date, today_in(user.timezone))
        return f"Done: {_title(after)}. It repeats: next due {next_day}."
    return f"Done: {_title(after)}."


async def _snooze(session: AsyncSession, target: Target, minutes: int) -> str:
    user, reminder = target.user, target.reminder
    assert user.id is not None and reminder.id is not None
    now = utcnow()
    until = snooze_until(ReminderSnooze(minutes=minutes), now=now, zone_name=user.timezone)
    try:
        await reminders.snooze(session, owner_id=user.id, reminder_id=reminder.id, until=until)
    except ReminderNotFoundError as exc:
        raise LinkProblem(
            status.HTTP_404_NOT_FOUND,
            "Reminder not found",
            "This reminder is gone: its task has been deleted.",
        ) from exc
    except ReminderNotSnoozableError as exc:
        raise LinkProblem(status.HTTP_409_CONFLICT, "Nothing to snooze", str(exc)) from exc
    local = on_clock(until, user.timezone)
    today = today_in(user.timezone, now)
    day = {0: "today", 1: "tomorrow"}.get((local.date() - today).days)
    day = day or f"on {short_day(local.date(), today)}"
    return (
        f"Snoozed {_title(reminder)} for {_duration(minutes)}: it will remind you again "
        f"{day} at {local:%H:%M}."
    )
