"""The five task tools, and the list and sharing tools beside them (`sharing_tools.py`).
Type hints are the contract; a missing task raises (`isError`)."""

from __future__ import annotations

import builtins
import inspect
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal, Protocol

import pydantic_core
from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field, StrictBool, StrictInt, ValidationError
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.db import SessionMaker, read_only
from backend.core.text_rule import text_faults
from backend.domain.due import OutsideCalendarError, due_label, on_clock, read_due
from backend.domain.due import zone as zone_of
from backend.domain.errors import (
    DueRangeError,
    InvalidTaskChangeError,
    ListExistsError,
    ListLimitError,
    NoNextDateError,
    NotRepeatingError,
    ServiceError,
    TaskLimitError,
    TaskNotFoundError,
)
from backend.domain.reminder_times import (
    ALL_DAY_REMINDER_TIME,
    REMIND_BEFORE_MAX_MINUTES,
    reminder_label,
)
from backend.models import Task, TaskCreate, TaskStatus, TaskUpdate
from backend.models.task import LIST_NAME_MAX_LENGTH, Priority, parse_day, tag_word
from backend.models.tool_results import (
    BulkChange,
    ChangeOutcome,
    ListedTask,
    SharedListedTask,
    TaskChange,
    UndoArguments,
)
from backend.services import tasks
from mcp_tools.principal import PrincipalSource, acting_user, changing_user
from mcp_tools.sharing_tools import register_sharing_tools

SERVER_NAME = "todo-tasks"
INSTRUCTIONS = (
    "Task tools for one user's todo list. Tasks are addressed by their task_id, the per-user "
    "task number shown to the user. Every call acts for the authenticated user."
)

UserId = Annotated[
    str | int | None,
    Field(description="Optional; must be the authenticated user's id if given"),
]
# Strict: "1", true and 1.0 are not task 1 (a JSON integer is; pydantic's lax mode would
# take all three, and a bool is an int to Python). So for every number and flag below.
TaskId = Annotated[StrictInt, Field(ge=1, le=2**31 - 1, description="The task number")]
# One bulk call may name at most this many tasks (the default per-user task cap).
MAX_BULK_TASKS = 10_000
Title = Annotated[str, Field(description="The task title")]
TaskIds = Annotated[
    list[TaskId] | None,
    Field(
        min_length=1,
        max_length=MAX_BULK_TASKS,
        description="Several task numbers, changed at once (instead of task_id)",
    ),
]
# A bulk result names every task it changed, but titles only this many (a bounded reply).
BULK_TITLES = 20
Due = Annotated[
    str | None,
    Field(
        max_length=40,
        description="When it is due, in the user's time zone: an ISO date (2026-11-25) or "
        "date-time (2026-11-25T09:00)",
    ),
]
PriorityName = Literal["none", "low", "medium", "high"]
ListName = Annotated[
    str | None,
    Field(
        max_length=LIST_NAME_MAX_LENGTH,
        description="The list it is in (any casing; a new name makes the list). Default Inbox",
    ),
]
Tags = Annotated[
    list[str] | None, Field(max_length=10, description='Short words, e.g. ["work", "home"]')
]
# The new fields an add or an update echoes when it was given them (an older client's call
# gets the result it always got).
_FIELD_KEYS = {
    "repeat": ("repeat", "repeat_text", "due_date", "due_time", "due_label"),
    "due": ("due_date", "due_time", "due_label"),
    "priority": ("priority",),
    "list": ("list",),
    "tags": ("tags",),
    "remind": ("remind_at", "remind_before", "remind_label"),
}


class SingleTaskChange(Protocol):
    async def __call__(
        self, session: AsyncSession, *, user_id: int, task_id: int
    ) -> tasks.Changed: ...


async def _complete_one(session: AsyncSession, *, user_id: int, task_id: int) -> tasks.Changed:
    data = TaskUpdate(completed=True)
    return await tasks.change_task(session, user_id=user_id, task_id=task_id, data=data)


async def _delete_one(session: AsyncSession, *, user_id: int, task_id: int) -> tasks.Changed:
    return tasks.Changed(await tasks.delete_task(session, user_id=user_id, task_id=task_id))


def _ended_json(changed: tasks.Changed) -> dict[str, Any]:
    """What a completion that ended a task's repeat adds to its result: no repeat now, and
    why (its rule never comes round again)."""
    if changed.repeat_ended is None:
        return {}
    return {"repeat": None, "repeat_text": None, "repeat_ended": changed.repeat_ended}


class BulkTaskChange(Protocol):
    async def __call__(
        self,
        session: AsyncSession,
        *,
        user_id: int,
        numbers: Sequence[int] | None = None,
        status: TaskStatus | None = None,
    ) -> tasks.BulkChange: ...


def _targets(task_id: int | None, task_ids: list[int] | None, every: str | None) -> str:
    given = [
        name
        for name, value in (("task_id", task_id), ("task_ids", task_ids), ("every", every))
        if value is not None
    ]
    if len(given) != 1:
        raise ToolError("Give exactly one of task_id, task_ids or every")
    return "one" if given == ["task_id"] else "many"


def _not_found(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"Task {numbers[0]} not found"
    return f"Tasks {', '.join(str(n) for n in numbers)} not found"


def _view_only(numbers: list[int]) -> str:
    named = ", ".join(str(n) for n in numbers)
    which = f"Task {named} is" if len(numbers) == 1 else f"Tasks {named} are"
    return f"{which} on a list shared with you as a viewer: you can see, not change them"


def _bulk_result(change: tasks.BulkChange, status: str) -> BulkChange:
    result: dict[str, Any] = {
        "task_ids": change.numbers,
        "status": status,
        "count": len(change.numbers),
        "titles": change.titles[:BULK_TITLES],
    }
    if change.missing:
        result["not_found"] = change.missing
    if change.repeat_ended:  # completed on their last date: they stopped repeating
        result["repeat_ended"] = change.repeat_ended
    if change.read_only:  # on a list shared with the user to view only: unchanged
        result["read_only"] = change.read_only
    return BulkChange.model_validate(result)


def _fields_json(task: Task, zone: str, now: datetime | None = None) -> dict[str, Any]:
    return {
        "due_date": task.due_date.isoformat() if task.due_date else None,
        "due_time": f"{task.due_time:%H:%M}" if task.due_time else None,
        "due_label": due_label(
            task.due_date, task.due_time, zone, completed=task.completed, now=now
        ),
        "priority": task.priority,
        "list": task.list_name,
        "tags": task.tag_list,
        "repeat": task.repeat_rule,
        "repeat_text": task.repeat_text,
    }


def _remind_json(task: Task, zone: str) -> dict[str, Any]:
    """A task's reminder, echoed by the changes that set it (lists leave it out: it is
    asked about rarely, and every listed field is paid for in each later turn)."""
    return {
        "remind_at": _local_iso(task.remind_at, zone),
        "remind_before": task.remind_before,
        "remind_label": reminder_label(task.remind_at, task.remind_before, zone),
    }


def _local_iso(moment: datetime | None, zone_name: str) -> str | None:
    """An instant on the user's clock, as `due` is given ("2026-11-25T08:30")."""
    if moment is None:
        return None
    return f"{on_clock(moment, zone_name):%Y-%m-%dT%H:%M}"


def _listed_page(listed: list[ListedTask], total: int, page: tasks.TaskPage) -> CallToolResult:
    """A page of tasks as MCPServer sends a returned list, `{"result": [...]}` and one text
    block per task (as it always has), with where the list stands in `_meta`: the data stays
    the bare list every client reads."""
    return CallToolResult(
        content=[
            TextContent(
                type="text", text=pydantic_core.to_json(task, fallback=str, indent=2).decode()
            )
            for task in listed
        ],
        structured_content={
            "result": [task.model_dump(mode="json", by_alias=True) for task in listed]
        },
        _meta={"total": total}
        | ({} if page.next_offset is None else {"next_offset": page.next_offset}),
    )


def _listed(task: Task, zone: str, now: datetime) -> ListedTask:
    fields = {
        "id": task.number,
        "title": task.title,
        "description": task.description,
        "completed": task.completed,
        "created_at": task.created_at.isoformat(),
        "updated_at": task.updated_at.isoformat(),
        **_fields_json(task, zone, now),
        "due_at": task.due_at.isoformat() if task.due_at else None,
    }
    sharing = task.sharing
    if sharing is None:
        return ListedTask.model_validate(fields)
    return SharedListedTask.model_validate(
        {**fields, "added_by": sharing.added_by, "completed_by": sharing.completed_by}
    )


def _sharing_json(task: Task) -> dict[str, Any]:
    """What a change's result says of a task on a shared list: that it is, and who added and
    completed it (nothing for a task of the user's own unshared list)."""
    sharing = task.sharing
    if sharing is None:
        return {}
    return {
        "list": task.list_name,
        "shared": True,
        "added_by": sharing.added_by,
        "completed_by": sharing.completed_by,
    }


def _changed_json(task: Task, status: str, zone: str, given: set[str]) -> dict[str, Any]:
    """An add's or an update's result: the task's number, status and title, and the new
    fields among `given` as they now stand."""
    result: dict[str, Any] = {"task_id": task.number, "status": status, "title": task.title}
    if given:
        fields = {
            **_fields_json(task, zone),
            **(_remind_json(task, zone) if "remind" in given else {}),
        }
        for name in sorted(given):
            result.update({key: fields[key] for key in _FIELD_KEYS[name]})
    return result | _sharing_json(task)


def _due_argument(task: Task) -> str:
    clock = f"T{task.due_time:%H:%M}" if task.due_time else ""
    return f"{task.due_date.isoformat()}{clock}" if task.due_date else "none"


def _arguments_of(task: Task, fields: set[str], zone: str) -> UndoArguments:
    """The update_task arguments that would put `fields` back as they are on `task`."""
    arguments: UndoArguments = {}
    if "due" in fields:
        arguments["due"] = _due_argument(task)
    if "priority" in fields:
        arguments["priority"] = task.priority
    if "list" in fields:
        arguments["list"] = task.list_name
    if "tags" in fields:
        arguments["tags"] = task.tag_list
    if "repeat" in fields:
        arguments["repeat"] = task.repeat_rule or "none"
        arguments["due"] = _due_argument(task)
    if "remind" in fields:
        if task.remind_before is not None:
            arguments["remind_before"] = task.remind_before
        else:
            arguments["remind_at"] = _local_iso(task.remind_at, zone) or "none"
    return arguments


def _remind_data(
    remind_at: str | None, remind_before: int | None, zone_name: str
) -> dict[str, Any]:
    """The TaskCreate/TaskUpdate fields of the reminder arguments ("none" removes it)."""
    data: dict[str, Any] = {}
    if remind_at is not None:
        if remind_at.strip().lower() in ("none", ""):
            data["remind_at"] = None
        else:
            try:
                day, clock = read_due(remind_at, zone_name, field="remind_at")
            except OutsideCalendarError as exc:
                raise ToolError(f"Invalid remind_at: {exc}") from exc
            except ValueError as exc:
                raise ToolError(
                    "Invalid remind_at: give an ISO date-time (2026-11-25T08:30) in the "
                    'user\'s time zone, or "none"'
                ) from exc
            at = datetime.combine(day, clock or ALL_DAY_REMINDER_TIME, tzinfo=zone_of(zone_name))
            data["remind_at"] = at
    if remind_before is not None:
        data["remind_before"] = remind_before
    return data


def _due_data(due: str | None, zone: str) -> dict[str, Any]:
    """The TaskCreate/TaskUpdate fields of a `due` argument ("none" clears it)."""
    if due is None:
        return {}
    if due.strip().lower() in ("none", ""):
        return {"due_date": None, "due_time": None}
    try:
        day, clock = read_due(due, zone)
    except ValueError as exc:
        raise ToolError(f"Invalid due: {exc}") from exc
    return {"due_date": day, "due_time": clock}


def _range_day(text: str | None, field: str) -> date | None:
    """A `due_from` / `due_to` argument: an ISO date ("2026-11-26"), a day on the user's
    clock. ToolError says what is expected."""
    if text is None:
        return None
    given = text.strip()
    try:
        return date.fromisoformat(str(parse_day(given, field)))
    except ValueError as exc:
        raise ToolError(
            f"Invalid {field}: give an ISO date (2026-11-26), a day on the user's clock, "
            f"not {given!r}"
        ) from exc


RemindAt = Annotated[
    str | None,
    Field(
        max_length=40,
        description="When to remind: an ISO date-time (2026-11-25T08:30) in the user's time "
        'zone; "none" for no reminder. A timed task reminds at its time by default',
    ),
]
RemindBefore = Annotated[
    StrictInt | None,
    Field(
        ge=0,
        le=REMIND_BEFORE_MAX_MINUTES,
        description="Remind this many minutes before the due time (0: at it); it moves with "
        "the task",
    ),
]
Repeats = Annotated[
    str | None,
    Field(
        max_length=200,
        description="How it repeats: an RRULE (FREQ=MONTHLY;BYMONTHDAY=1) or a phrase "
        "('every monday', 'every 1st of the month', '3 days after I finish it')",
    ),
]


def _retagged(tags: list[str], added: list[str], removed: list[str]) -> list[str]:
    """The tags after taking `removed` off `tags` and adding `added` (any casing, with or
    without "#"); a removed tag it does not have is simply not there."""
    gone = {tag_word(tag) for tag in removed}
    return [*(tag for tag in tags if tag_word(tag) not in gone), *added]


def _given(**fields: object) -> set[str]:
    return {name for name, value in fields.items() if value is not None}


def _validation_message(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "input"
    return f"Invalid {field}: {first['msg']}"


# Called with the acting user before a tool changes tasks; raises ToolError to refuse (a
# transport's per-user write limit).
ChangeGate = Callable[[int], Awaitable[None]]


def _tool(server: MCPServer) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`server.tool()`, described by the function's docstring without its source indentation
    (a client shows the description as it is sent)."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        described = server.tool(description=inspect.cleandoc(function.__doc__ or ""))
        return described(function)

    return register


class TaskServer(MCPServer):
    """Rejected arguments are answered in brief ("Invalid task_id: Input should be greater
    than or equal to 1"), as the in-process path answers them: not pydantic's full report,
    which echoes the caller's input and links to its documentation.

    Every transport's tool calls come through here, so this is where the API's text rule
    (backend/core/text_rule.py) meets tool arguments."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        faults = text_faults(arguments)
        if faults:
            where = ".".join(str(part) for part in faults[0].loc)
            raise ToolError(f"Invalid {where}: {faults[0].problem}")
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            # A refusal the user may be told (a list shared with them only to view, one
            # they cannot see): its message, as any tool error.
            if isinstance(exc.__cause__, ServiceError):
                raise ToolError(str(exc.__cause__)) from exc.__cause__
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                # Still caused by the ValidationError: the SDK then logs field names only.
                raise ToolError(_validation_message(exc.__cause__)) from exc.__cause__
            raise


def build_task_server(
    sessionmaker: SessionMaker,
    principal: PrincipalSource,
    *,
    auth: AuthSettings | None = None,
    token_verifier: TokenVerifier | None = None,
    max_tasks: int | None = None,
    max_lists: int | None = None,
    before_change: ChangeGate | None = None,
) -> MCPServer:
    """A server whose tools act for whoever `principal` says the caller is."""
    server: MCPServer = TaskServer(
        SERVER_NAME,
        instructions=INSTRUCTIONS,
        auth=auth,
        token_verifier=token_verifier,
        # The SDK configures root logging only if nothing has yet; keep it quiet by default.
        log_level="WARNING",
    )

    @_tool(server)
    async def add_task(
        title: Title,
        ctx: Context,
        user_id: UserId = None,
        description: str | None = None,
        due: Due = None,
        priority: PriorityName | None = None,
        list: ListName = None,
        tags: Tags = None,
        repeat: Repeats = None,
        remind_at: RemindAt = None,
        remind_before: RemindBefore = None,
        number: Annotated[
            TaskId | None,
            Field(
                description="Only to bring back a deleted task: its old number (free, as "
                "numbers are never reused)"
            ),
        ] = None,
    ) -> TaskChange:
        """Create a new task for the user, optionally with a due date or time, a priority,
        a list, tags, a repeat (with no due date, it is due on the repeat's first day) and a
        reminder."""
        owner = changing_user(await principal(ctx), user_id)
        if before_change is not None:
            await before_change(owner)
        async with sessionmaker() as session:
            reminded = remind_at is not None or remind_before is not None
            dated = due is not None or repeat is not None or reminded
            zone = await tasks.account_zone(session, owner) if dated else "UTC"
            fields = {"priority": priority, "list": list, "tags": tags, "repeat": repeat}
            try:
                data = TaskCreate.model_validate(
                    {
                        "title": title,
                        "description": description,
                        **_due_data(due, zone),
                        **{name: value for name, value in fields.items() if value is not None},
                        **_remind_data(remind_at, remind_before, zone),
                    }
                )
            except ValidationError as exc:
                raise ToolError(_validation_message(exc)) from exc
            try:
                task = await tasks.create_task(
                    session,
                    user_id=owner,
                    data=data,
                    max_tasks=max_tasks,
                    max_lists=max_lists,
                    number=number,
                )
            except (TaskLimitError, InvalidTaskChangeError, ListExistsError, ListLimitError) as exc:
                raise ToolError(str(exc)) from exc
        given = _given(due=due, **fields, remind=True if reminded else None)
        return TaskChange.model_validate(_changed_json(task, "created", zone, given))

    @_tool(server)
    async def list_tasks(
        ctx: Context,
        user_id: UserId = None,
        status: Literal["all", "pending", "completed"] = "all",
        query: Annotated[
            str | None,
            Field(max_length=200, description="Only tasks whose title shares a word with this"),
        ] = None,
        limit: Annotated[
            StrictInt | None,
            Field(
                ge=1,
                le=tasks.TASK_PAGE_MAX,
                description=f"At most this many (and never more than {tasks.TASK_PAGE_MAX})",
            ),
        ] = None,
        list: Annotated[
            str | None, Field(max_length=LIST_NAME_MAX_LENGTH, description="Only this list's")
        ] = None,
        tag: Annotated[str | None, Field(max_length=31, description="Only tasks with this tag")] = (
            None
        ),
        priority: Annotated[
            PriorityName | None, Field(description="Only tasks of this priority")
        ] = None,
        due: Annotated[
            tasks.DueFilter | None,
            Field(description="Only tasks due then, in the user's time zone"),
        ] = None,
        due_from: Annotated[
            str | None,
            Field(
                max_length=40,
                description="Only tasks due on this day or later: an ISO date (2026-11-26) "
                "in the user's time zone",
            ),
        ] = None,
        due_to: Annotated[
            str | None,
            Field(
                max_length=40,
                description="Only tasks due on this day or earlier: an ISO date (2026-11-26) "
                "in the user's time zone",
            ),
        ] = None,
        q: Annotated[
            str | None,
            Field(max_length=200, description="Only tasks whose title or description has this"),
        ] = None,
        sort: Annotated[
            tasks.TaskSort, Field(description="The order: by number (default), due date...")
        ] = tasks.TaskSort.NUMBER,
        offset: Annotated[
            StrictInt | None,
            Field(
                ge=0,
                le=tasks.MAX_OFFSET,
                description="Skip this many first: the next page starts at the result's "
                "_meta.next_offset",
            ),
        ] = None,
        reminder: Annotated[
            Literal["fired"] | None,
            Field(
                description='"fired": only tasks whose reminder has fired and is still shown '
                "(not dismissed), the most recently fired first"
            ),
        ] = None,
    ) -> Annotated[CallToolResult, builtins.list[ListedTask]]:
        """List the user's tasks, optionally only pending or completed ones, a title search,
        a list, a tag, a priority, a due period ("today", "overdue"...) or a range of due days
        (due_from to due_to, both included; undated tasks are in no range), in an order. A due
        task has a due_label ("tomorrow 09:00", "overdue by 2 days"). A page holds at most
        `limit` tasks (1000); the result's _meta gives `total` (every task the filters
        match) and `next_offset` (absent on the last page). `reminder="fired"` keeps the
        tasks whose reminder has fired and is still shown, the most recently fired first."""
        owner = acting_user(await principal(ctx), user_id)
        task_status = TaskStatus(status)
        first_day, last_day = _range_day(due_from, "due_from"), _range_day(due_to, "due_to")
        try:
            wanted = tasks.TaskQuery(
                status=task_status,
                list_name=list,
                tag=tag,
                priority=Priority(priority) if priority is not None else None,
                due=due,
                due_from=first_day,
                due_to=last_day,
                keyword=q,
                sort=sort,
                title_search=query,
                limit=limit,
                offset=offset or 0,
                fired_reminder=reminder == "fired",
            )
        except DueRangeError as exc:
            raise ToolError(str(exc)) from exc
        filters = (list, tag, priority, due, first_day, last_day, q, reminder)
        async with sessionmaker() as session:
            await read_only(session)
            if filters == (None,) * len(filters) and sort is tasks.TaskSort.NUMBER:
                # The plain list (every turn that resolves a title): one prepared statement.
                page = await tasks.list_page(
                    session,
                    user_id=owner,
                    status=task_status,
                    limit=limit,
                    offset=wanted.offset,
                    title_search=query,
                )
            else:
                page = await tasks.task_page(session, user_id=owner, query=wanted)
            # Counted only when the page cannot tell (a full page, or one past the end).
            total = await tasks.matching_total(session, user_id=owner, query=wanted, page=page)
            dated = any(task.due_date is not None for task in page.tasks)
            zone = await tasks.account_zone(session, owner) if dated else "UTC"
        now = datetime.now(UTC)  # one "today" for the whole list's due labels
        return _listed_page([_listed(task, zone, now) for task in page.tasks], total, page)

    async def change_tasks(
        ctx: Context,
        user_id: str | int | None,
        targets: tuple[int | None, list[int] | None, str | None],
        one: SingleTaskChange,
        many: BulkTaskChange,
        done: str,
    ) -> ChangeOutcome:
        """complete_task and delete_task alike: one task by number, or several in one
        statement (`task_ids`, or `every` task of a status)."""
        owner = changing_user(await principal(ctx), user_id)
        if before_change is not None:
            await before_change(owner)
        task_id, task_ids, every = targets
        async with sessionmaker() as session:
            if _targets(task_id, task_ids, every) == "one":
                assert task_id is not None
                try:
                    changed = await one(session, user_id=owner, task_id=task_id)
                except TaskNotFoundError as exc:
                    raise ToolError(str(exc)) from exc
                task = changed.task
                if done == "completed" and task.repeat_rule is not None and not task.completed:
                    return ChangeOutcome(await _moved_on(session, owner, task))
                single = {"task_id": task.number, "status": done, "title": task.title}
                return ChangeOutcome(
                    TaskChange.model_validate(
                        {**single, **_ended_json(changed), **_sharing_json(task)}
                    )
                )
            status = TaskStatus(every) if every is not None else None
            result = await many(session, user_id=owner, numbers=task_ids, status=status)
        if task_ids is not None and not result.numbers:
            if result.read_only:
                raise ToolError(_view_only(result.read_only))
            raise ToolError(_not_found(result.missing))
        return ChangeOutcome(_bulk_result(result, done))

    async def _skipped(owner: int, task_id: int) -> TaskChange:
        """ "Skip this one": the next date, and the date it had (an undo is one update)."""
        async with sessionmaker() as session:
            try:
                previous = _due_argument(
                    await tasks.get_task(session, user_id=owner, task_id=task_id)
                )
                task = await tasks.skip_occurrence(session, user_id=owner, task_id=task_id)
            except (TaskNotFoundError, NotRepeatingError, NoNextDateError) as exc:
                raise ToolError(str(exc)) from exc
            zone = await tasks.account_zone(session, owner)
        result = _changed_json(task, "updated", zone, {"repeat"})
        result["before"] = {"due": previous}
        return TaskChange.model_validate(result)

    async def _moved_on(session: AsyncSession, owner: int, task: Task) -> TaskChange:
        """A repeating task's completion: it moved to its next date, still pending. The
        result says so, and what its due date was (an undo is one update_task)."""
        zone = await tasks.account_zone(session, owner)
        result = _changed_json(task, "completed", zone, {"repeat"})
        previous = await tasks.last_completed_due(session, user_id=owner, task_id=task.number)
        if previous is not None:
            clock = f"T{task.due_time:%H:%M}" if task.due_time else ""
            result["before"] = {"due": f"{previous.isoformat()}{clock}"}
        return TaskChange.model_validate(result)

    @_tool(server)
    async def complete_task(
        ctx: Context,
        task_id: TaskId | None = None,
        user_id: UserId = None,
        task_ids: TaskIds = None,
        every: Annotated[
            Literal["pending"] | None,
            Field(description='"pending": complete every pending task (instead of task_id)'),
        ] = None,
    ) -> ChangeOutcome:
        """Mark a task as complete (or several: task_ids, or every pending task)."""
        targets = (task_id, task_ids, every)
        return await change_tasks(
            ctx, user_id, targets, _complete_one, tasks.complete_tasks, "completed"
        )

    @_tool(server)
    async def delete_task(
        ctx: Context,
        task_id: TaskId | None = None,
        user_id: UserId = None,
        task_ids: TaskIds = None,
        every: Annotated[
            Literal["all", "pending", "completed"] | None,
            Field(description="Delete every task with this status (instead of task_id)"),
        ] = None,
    ) -> ChangeOutcome:
        """Delete a task (or several: task_ids, or every task of a status)."""
        targets = (task_id, task_ids, every)
        return await change_tasks(ctx, user_id, targets, _delete_one, tasks.delete_tasks, "deleted")

    @_tool(server)
    async def update_task(
        task_id: TaskId,
        ctx: Context,
        user_id: UserId = None,
        title: str | None = None,
        description: str | None = None,
        completed: Annotated[
            StrictBool | None, Field(description="Set false to reopen a task, true to complete it")
        ] = None,
        due: Annotated[
            str | None,
            Field(
                max_length=40,
                description="A new due date (2026-11-25) or date-time (2026-11-25T09:00) in "
                'the user\'s time zone; "none" removes it',
            ),
        ] = None,
        priority: Annotated[
            PriorityName | None, Field(description='A new priority; "none" removes it')
        ] = None,
        list: Annotated[
            str | None,
            Field(max_length=LIST_NAME_MAX_LENGTH, description="Move it to this list"),
        ] = None,
        tags: Annotated[
            builtins.list[str] | None,
            Field(max_length=10, description="Its tags, all of them ([] removes every tag)"),
        ] = None,
        add_tags: Annotated[
            builtins.list[str] | None,
            Field(max_length=10, description="Tags to add to those it has"),
        ] = None,
        remove_tags: Annotated[
            builtins.list[str] | None,
            Field(max_length=10, description="Tags to take off those it has"),
        ] = None,
        repeat: Annotated[
            str | None,
            Field(
                max_length=200,
                description='A new repeat (an RRULE or a phrase); "none" stops it repeating',
            ),
        ] = None,
        skip: Annotated[
            StrictBool | None,
            Field(description="Move a repeating task to its next date without completing it"),
        ] = None,
        remind_at: RemindAt = None,
        remind_before: RemindBefore = None,
        restore_reminder: Annotated[
            StrictBool | None,
            Field(
                description="With the old reminder fields (an undo): show again the fired "
                "reminder that the task's last reminder change dismissed"
            ),
        ] = None,
    ) -> TaskChange:
        """Change a task's title, description, due date or time, priority, list, tags,
        repeat or reminder (or reopen it). A new reminder to come dismisses the task's fired
        reminder still shown (a snooze); `restore_reminder` with the old reminder fields
        puts it back."""
        owner = changing_user(await principal(ctx), user_id)
        if before_change is not None:
            await before_change(owner)
        if skip:
            return await _skipped(owner, task_id)
        plain = {"title": title, "description": description, "completed": completed}
        fields = {"priority": priority, "list": list, "tags": tags}
        changes: dict[str, object] = {
            name: value for name, value in {**plain, **fields}.items() if value is not None
        }
        if repeat is not None:  # "none" stops it repeating
            changes["repeat"] = None if repeat.strip().lower() == "none" else repeat
        reminded = remind_at is not None or remind_before is not None
        retag = add_tags is not None or remove_tags is not None
        if not changes and due is None and not retag and not reminded:
            raise ToolError(
                "Nothing to update: give a title, description, due, priority, list, tags, "
                "repeat or reminder"
            )
        given = _given(
            due=due,
            tags=True if tags is not None or retag else None,
            priority=priority,
            list=list,
            repeat=repeat,
            remind=True if reminded else None,
        )
        async with sessionmaker() as session:
            dated = due is not None or repeat is not None or reminded
            zone = await tasks.account_zone(session, owner) if dated else "UTC"
            changes.update(_due_data(due, zone))
            changes.update(_remind_data(remind_at, remind_before, zone))
            try:
                previous: UndoArguments = {}
                if given:  # what the fields were, so the change can be undone
                    # (read now: the update refreshes this same object in the session)
                    before = await tasks.get_task(session, user_id=owner, task_id=task_id)
                    previous = _arguments_of(before, given, zone)
                    if retag:
                        changes["tags"] = _retagged(
                            tags or before.tag_list, add_tags or [], remove_tags or []
                        )
                data = TaskUpdate.model_validate(changes)
                changed = await tasks.change_task(
                    session,
                    user_id=owner,
                    task_id=task_id,
                    data=data,
                    max_lists=max_lists,
                    restore_reminder=bool(restore_reminder),
                )
            except ValidationError as exc:
                raise ToolError(_validation_message(exc)) from exc
            except TaskNotFoundError as exc:
                raise ToolError(str(exc)) from exc
            except (InvalidTaskChangeError, ListExistsError, ListLimitError) as exc:
                raise ToolError(str(exc)) from exc
        result = {**_changed_json(changed.task, "updated", zone, given), **_ended_json(changed)}
        if previous:
            result["before"] = previous
        return TaskChange.model_validate(result)

    register_sharing_tools(_tool(server), sessionmaker, principal, before_change)
    return server
