"""The five task tools. Type hints are the contract; a missing task raises (`isError`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field, ValidationError

from backend.core.db import SessionMaker
from backend.models import Task, TaskCreate, TaskStatus, TaskUpdate
from backend.services import tasks
from backend.services.errors import TaskNotFoundError
from mcp_tools.principal import PrincipalSource, acting_user

SERVER_NAME = "todo-tasks"
INSTRUCTIONS = (
    "Task tools for one user's todo list. Tasks are addressed by their task_id, the per-user "
    "task number shown to the user. Every call acts for the authenticated user."
)

UserId = Annotated[
    str | int | None,
    Field(description="Optional; must be the authenticated user's id if given"),
]
TaskId = Annotated[int, Field(ge=1, le=2**31 - 1, description="The task number")]
Title = Annotated[str, Field(description="The task title")]


def _task_json(task: Task) -> dict[str, Any]:
    return {
        "id": task.number,
        "title": task.title,
        "description": task.description,
        "completed": task.completed,
        "created_at": task.created_at.isoformat(),
        "updated_at": task.updated_at.isoformat(),
    }


def _validation_message(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "input"
    return f"Invalid {field}: {first['msg']}"


def build_task_server(
    sessionmaker: SessionMaker,
    principal: PrincipalSource,
    *,
    auth: AuthSettings | None = None,
    token_verifier: TokenVerifier | None = None,
) -> MCPServer:
    """A server whose tools act for whoever `principal` says the caller is."""
    server: MCPServer = MCPServer(
        SERVER_NAME,
        instructions=INSTRUCTIONS,
        auth=auth,
        token_verifier=token_verifier,
        # The SDK configures root logging only if nothing has yet; keep it quiet by default.
        log_level="WARNING",
    )

    @server.tool()
    async def add_task(
        title: Title, ctx: Context, user_id: UserId = None, description: str | None = None
    ) -> dict[str, Any]:
        """Create a new task for the user."""
        owner = acting_user(await principal(ctx), user_id)
        try:
            data = TaskCreate(title=title, description=description)
        except ValidationError as exc:
            raise ToolError(_validation_message(exc)) from exc
        async with sessionmaker() as session:
            task = await tasks.create_task(session, owner_id=owner, data=data)
        return {"task_id": task.number, "status": "created", "title": task.title}

    @server.tool()
    async def list_tasks(
        ctx: Context,
        user_id: UserId = None,
        status: Literal["all", "pending", "completed"] = "all",
        query: Annotated[
            str | None,
            Field(max_length=200, description="Only tasks whose title shares a word with this"),
        ] = None,
        limit: Annotated[int | None, Field(ge=1, le=1000, description="At most this many")] = None,
    ) -> list[dict[str, Any]]:
        """List the user's tasks, optionally only pending or completed ones, or a title search."""
        owner = acting_user(await principal(ctx), user_id)
        async with sessionmaker() as session:
            found = await tasks.list_tasks(
                session,
                owner_id=owner,
                status=TaskStatus(status),
                limit=limit,
                title_search=query,
            )
        return [_task_json(task) for task in found]

    @server.tool()
    async def complete_task(
        task_id: TaskId, ctx: Context, user_id: UserId = None
    ) -> dict[str, Any]:
        """Mark a task as complete."""
        owner = acting_user(await principal(ctx), user_id)
        async with sessionmaker() as session:
            try:
                task = await tasks.complete_task(session, owner_id=owner, task_id=task_id)
            except TaskNotFoundError as exc:
                raise ToolError(str(exc)) from exc
        return {"task_id": task.number, "status": "completed", "title": task.title}

    @server.tool()
    async def delete_task(task_id: TaskId, ctx: Context, user_id: UserId = None) -> dict[str, Any]:
        """Delete a task."""
        owner = acting_user(await principal(ctx), user_id)
        async with sessionmaker() as session:
            try:
                task = await tasks.delete_task(session, owner_id=owner, task_id=task_id)
            except TaskNotFoundError as exc:
                raise ToolError(str(exc)) from exc
        return {"task_id": task.number, "status": "deleted", "title": task.title}

    @server.tool()
    async def update_task(
        task_id: TaskId,
        ctx: Context,
        user_id: UserId = None,
        title: str | None = None,
        description: str | None = None,
        completed: Annotated[
            bool | None, Field(description="Set false to reopen a task, true to complete it")
        ] = None,
    ) -> dict[str, Any]:
        """Change a task's title and/or description (or reopen it)."""
        owner = acting_user(await principal(ctx), user_id)
        changes = {"title": title, "description": description, "completed": completed}
        changes = {name: value for name, value in changes.items() if value is not None}
        if not changes:
            raise ToolError("Nothing to update: give a title and/or a description")
        try:
            data = TaskUpdate.model_validate(changes)
        except ValidationError as exc:
            raise ToolError(_validation_message(exc)) from exc
        async with sessionmaker() as session:
            try:
                task = await tasks.update_task(session, owner_id=owner, task_id=task_id, data=data)
            except TaskNotFoundError as exc:
                raise ToolError(str(exc)) from exc
        return {"task_id": task.number, "status": "updated", "title": task.title}

    return server
