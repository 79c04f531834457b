"""Task CRUD for the web UI (`/api/tasks`), over the same service as the MCP tools."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import BeforeValidator

from backend.api.deps import (
    CurrentUserId,
    ReadSessionDep,
    SessionDep,
    SettingsDep,
    limit_task_reads,
    limit_writes,
)
from backend.api.errors import AUTHENTICATED, NEW_LIST_REFUSED, NOT_FOUND, TASK_REFUSED, TOO_MANY
from backend.domain.errors import (
    DueRangeError,
    InvalidTaskChangeError,
    ListExistsError,
    ListLimitError,
    TaskLimitError,
    TaskNotFoundError,
)
from backend.models import TaskCreate, TaskPublic, TaskStatus, TaskUpdate
from backend.models.task import LIST_NAME_MAX_LENGTH, Priority, parse_day
from backend.services import tasks

router = APIRouter(prefix="/api/tasks", tags=["tasks"], responses=AUTHENTICATED)

# Task changes count against the caller's per-minute write budget (429 beyond).
WRITES = [Depends(limit_writes)]

TaskId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The task's per-user number")]


def _iso_day(field: str) -> BeforeValidator:
    """A day parameter written "2026-11-26" only (pydantic would read "0" as a Unix time)."""
    return BeforeValidator(lambda value: parse_day(value, field))


TOTAL_COUNT = "X-Total-Count"
PAGE_HEADERS = {
    "Link": {
        "description": 'While more tasks follow: the next page, `<...&offset=N>; rel="next"`',
        "schema": {"type": "string"},
    },
    TOTAL_COUNT: {
        "description": "How many tasks pass the filters, on every page",
        "schema": {"type": "integer", "minimum": 0},
    },
}


@router.get(
    "",
    responses={**TOO_MANY, 200: {"description": "A page of tasks", "headers": PAGE_HEADERS}},
    dependencies=[Depends(limit_task_reads)],
)
async def list_tasks(
    request: Request,
    response: Response,
    user_id: CurrentUserId,
    session: ReadSessionDep,
    status_filter: Annotated[TaskStatus, Query(alias="status")] = TaskStatus.ALL,
    list_name: Annotated[
        str | None, Query(alias="list", max_length=LIST_NAME_MAX_LENGTH, description="Any casing")
    ] = None,
    tag: Annotated[str | None, Query(max_length=31, description="With or without '#'")] = None,
    priority: Priority | None = None,
    due: Annotated[tasks.DueFilter | None, Query(description="In the account's time zone")] = None,
    due_from: Annotated[
        date | None,
        _iso_day("due_from"),
        Query(description="Due on this day or later (an ISO date, the account's days)"),
    ] = None,
    due_to: Annotated[
        date | None,
        _iso_day("due_to"),
        Query(description="Due on this day or earlier (an ISO date, the account's days)"),
    ] = None,
    q: Annotated[
        str | None, Query(max_length=200, description="A word in the title or the note")
    ] = None,
    sort: tasks.TaskSort = tasks.TaskSort.NUMBER,
    limit: Annotated[
        int, Query(ge=1, le=tasks.TASK_PAGE_MAX, description="Tasks in this page")
    ] = tasks.TASK_PAGE,
    offset: Annotated[
        int, Query(ge=0, le=tasks.MAX_OFFSET, description="Tasks skipped before this page")
    ] = 0,
) -> list[TaskPublic]:
    """A page of the caller's tasks that pass every filter given, by task number unless
    `sort` says otherwise (`due`: soonest first, undated last; `priority`: high first;
    `created`; `title`), ties by task number. `due_from` and `due_to` keep the tasks due
    from one day to another, both included (either may be left open; an undated task is in
    no range; 422 if `due_from` is after `due_to`). A page holds `limit` tasks (100 unless
    asked, at most 1000) from the `offset`-th one; when more follow, the `Link` header names
    the next page (`rel="next"`, the same filters and order). `X-Total-Count` says how many
    tasks pass the filters in all."""
    try:
        query = tasks.TaskQuery(
            status=status_filter,
            list_name=list_name,
            tag=tag,
            priority=priority,
            due=due,
            due_from=due_from,
            due_to=due_to,
            keyword=q,
            sort=sort,
            limit=limit,
            offset=offset,
        )
    except DueRangeError as exc:
        raise RequestValidationError(
            [{"type": "value_error", "loc": ("query", exc.field), "msg": str(exc)}]
        ) from exc
    page = await tasks.task_page(session, user_id=user_id, query=query)
    if page.next_offset is not None:
        following = request.url.include_query_params(limit=limit, offset=page.next_offset)
        response.headers["Link"] = f'<{following.path}?{following.query}>; rel="next"'
    total = await tasks.matching_total(session, user_id=user_id, query=query, page=page)
    response.headers[TOTAL_COUNT] = str(total)
    return [TaskPublic.of(task) for task in page.tasks]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses={**TASK_REFUSED, **TOO_MANY},
    dependencies=WRITES,
)
async def create_task(
    body: TaskCreate, user_id: CurrentUserId, session: SessionDep, settings: SettingsDep
) -> TaskPublic:
    """Add a task; it gets the caller's next task number. An account holds at most
    `MAX_TASKS_PER_USER` tasks (409 beyond). A `list` the account does not have yet is
    created, unless its name looks like one it has or it holds `MAX_LISTS_PER_USER` (409);
    `due_date` and `due_time` are in the account's time zone. A timed task reminds at its time
    unless `remind_before` or `remind_at` says otherwise (null: no reminder)."""
    try:
        task = await tasks.create_task(
            session,
            user_id=user_id,
            data=body,
            max_tasks=settings.max_tasks_per_user,
            max_lists=settings.max_lists_per_user,
        )
    except (TaskLimitError, ListExistsError, ListLimitError) as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    except InvalidTaskChangeError as exc:
        raise _refused(exc) from exc
    return TaskPublic.of(task)


def _refused(exc: InvalidTaskChangeError) -> RequestValidationError:
    """A 422 in the shape of any other (the schema's), naming the field refused."""
    return RequestValidationError(
        [{"type": "value_error", "loc": ("body", exc.field), "msg": str(exc)}]
    )


@router.get("/{task_id}", responses=NOT_FOUND)
async def get_task(task_id: TaskId, user_id: CurrentUserId, session: ReadSessionDep) -> TaskPublic:
    """One task by its number."""
    try:
        task = await tasks.get_task(session, user_id=user_id, task_id=task_id)
    except TaskNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Task not found") from exc
    return TaskPublic.of(task)


@router.patch(
    "/{task_id}", responses={**NOT_FOUND, **NEW_LIST_REFUSED, **TOO_MANY}, dependencies=WRITES
)
async def update_task(
    task_id: TaskId,
    body: TaskUpdate,
    user_id: CurrentUserId,
    session: SessionDep,
    settings: SettingsDep,
) -> TaskPublic:
    """Change a task's title, description, completion, due day and time, priority, list or
    tags. A null `due_date` clears the due date and time, a null `due_time` the time only;
    `priority: "none"` clears the priority, `tags: []` the tags."""
    try:
        task = await tasks.update_task(
            session,
            user_id=user_id,
            task_id=task_id,
            data=body,
            max_lists=settings.max_lists_per_user,
        )
    except TaskNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Task not found") from exc
    except (ListExistsError, ListLimitError) as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    except InvalidTaskChangeError as exc:
        raise _refused(exc) from exc
    return TaskPublic.of(task)


@router.delete(
    "/{task_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**NOT_FOUND, **TOO_MANY},
    dependencies=WRITES,
)
async def delete_task(task_id: TaskId, user_id: CurrentUserId, session: SessionDep) -> Response:
    """Delete a task; its number is never reused."""
    try:
        await tasks.delete_task(session, user_id=user_id, task_id=task_id)
    except TaskNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Task not found") from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)
