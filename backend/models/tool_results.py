"""What the five MCP task tools return, as pydantic models: the server builds its results
with them (and publishes their JSON Schemas as each tool's `outputSchema`), the rule engine
reads tool outputs through them, and the corpus's in-memory tools build theirs with them.

Here rather than in `mcp_tools/` so the rule engine can read them without importing the
server (the engine sits above it, but imports nothing with I/O).

The JSON is the tools' contract of before these models (specs/tools.md): a change result
carries only the keys its call asked about (absent, not null, otherwise), in the order the
tool gave them, so `OptionalKeys` models serialise the keys they were given and no others.
"""

from __future__ import annotations

import builtins
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    PrivateAttr,
    RootModel,
    SerializerFunctionWrapHandler,
    ValidatorFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from typing_extensions import TypedDict

PriorityName = Literal["none", "low", "medium", "high"]
ChangeStatus = Literal["created", "updated", "completed", "deleted"]


def _absent_not_null(schema: dict[str, Any]) -> None:
    """An optional key not given is absent, not null: its schema names no default."""
    for field in schema.get("properties", {}).values():
        field.pop("default", None)


class OptionalKeys(BaseModel):
    """A result whose optional keys are there only when given: dumps exactly the keys it was
    built with (a None given stays a null; one never given stays absent), in their order."""

    model_config = ConfigDict(json_schema_extra=_absent_not_null)
    _keys: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_keys(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        result = handler(data)
        if isinstance(data, dict) and isinstance(result, OptionalKeys):
            result._keys = tuple(key for key in data if key in cls.model_fields)
        return result

    @model_serializer(mode="wrap")
    def _given_keys_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped: dict[str, Any] = handler(self)
        keys = self._keys or tuple(name for name in dumped if name in self.model_fields_set)
        return {key: dumped[key] for key in keys if key in dumped}


class ListedTask(BaseModel):
    """One task of `list_tasks`: every key always there (null when unset)."""

    id: int
    title: str
    description: str | None
    completed: bool
    created_at: str
    updated_at: str
    due_date: str | None
    due_time: str | None
    due_label: str | None
    priority: PriorityName
    list: str
    tags: builtins.list[str]
    repeat: str | None
    repeat_text: str | None
    due_at: str | None


class SharedListedTask(ListedTask):
    """A listed task on a shared list: the same keys, and who added and completed it (emails;
    `completed_by` null while pending). Only such tasks carry them, so a list of one's own
    tasks costs no more."""

    shared: Literal[True] = True
    added_by: str | None = None
    completed_by: str | None = None


class ListedTasks(RootModel[builtins.list[ListedTask]]):
    """`list_tasks`'s answer: the tasks, in the asked order, at most the asked `limit` (and
    never more than 1,000). On the wire it is `{"result": [...]}` (MCP wraps an array)."""


class UndoArguments(TypedDict, total=False):
    """The `update_task` arguments that put a change's fields back (`before`)."""

    due: str
    priority: str
    list: str
    tags: builtins.list[str]
    repeat: str
    remind_at: str
    remind_before: int


class TaskChange(OptionalKeys):
    """A change to one task (`add_task`, `update_task`, `complete_task` or `delete_task` by
    `task_id`): its number, what happened and its title, then the fields the call gave, as
    stored (`due` as due_date, due_time, due_label...), and `before` for an undo."""

    task_id: int
    status: ChangeStatus
    title: str
    due_date: str | None = None
    due_time: str | None = None
    due_label: str | None = None
    priority: PriorityName | None = None
    list: str | None = None
    tags: builtins.list[str] | None = None
    repeat: str | None = None
    repeat_text: str | None = None
    remind_at: str | None = None
    remind_before: int | None = None
    remind_label: str | None = None
    # Why a completed repeating task stopped repeating (its rule never comes round again).
    repeat_ended: str | None = None
    # On a shared list (specs/sharing.md): the list as the user calls it, and who added and
    # completed the task.
    shared: bool | None = None
    added_by: str | None = None
    completed_by: str | None = None
    before: UndoArguments | None = None


class BulkChange(OptionalKeys):
    """One statement over several tasks (`task_ids` or `every`): their numbers, the titles
    of the first 20, the asked numbers that are none of the user's (`not_found`) and the
    repeating tasks completed on their last date (`repeat_ended`)."""

    task_ids: builtins.list[int]
    status: Literal["completed", "deleted"]
    count: int
    titles: builtins.list[str]
    not_found: builtins.list[int] | None = None
    repeat_ended: builtins.list[int] | None = None
    # Asked-for tasks of a list shared with the user as a viewer: left as they were.
    read_only: builtins.list[int] | None = None


class ChangeOutcome(RootModel[TaskChange | BulkChange]):
    """`complete_task`'s and `delete_task`'s answer: one task's change, or a bulk one."""

    # MCP wants an object at an outputSchema's root; each branch of the union is one.
    model_config = ConfigDict(json_schema_extra={"type": "object"})


Role = Literal["owner", "editor", "viewer"]
MemberRoleName = Literal["editor", "viewer"]


class ListInfo(BaseModel):
    """One list as the user sees it (`list_lists`): its name as they call it, counts, and
    whether it is shared, with the user's role and the owner's email."""

    name: str
    pending: int
    total: int
    shared: bool
    role: Role
    owner: str
    members: int


class Lists(BaseModel):
    lists: builtins.list[ListInfo]


class MemberInfo(BaseModel):
    """A member of a list or an invitation to it (the same id)."""

    id: int
    list: str
    email: str
    role: MemberRoleName
    status: Literal["pending", "accepted"]
    owner: str


class Members(BaseModel):
    """Who a list is shared with (`list_members`): its owner sees pending invitations too."""

    list: str
    owner: str
    members: builtins.list[MemberInfo]


class Invitations(BaseModel):
    """The invitations waiting for the user's email (`list_invitations`)."""

    invitations: builtins.list[MemberInfo]


SharingStatus = Literal[
    "invited", "role_changed", "removed", "left", "stopped", "accepted", "declined"
]


class SharingChange(BaseModel):
    """A change to who shares a list: what happened, to which list (as the user calls it),
    and the memberships it concerned."""

    status: SharingStatus
    list: str
    members: builtins.list[MemberInfo]


class ToolFailure(BaseModel):
    """A refused or failed call, as the chat's tool calls (and the rule engine) see it: the
    MCP error's message (`isError: true` on the wire)."""

    error: str


# Each tool's result model, by tool name.
TOOL_RESULTS: dict[str, type[BaseModel]] = {
    "add_task": TaskChange,
    "update_task": TaskChange,
    "complete_task": ChangeOutcome,
    "delete_task": ChangeOutcome,
    "list_tasks": ListedTasks,
    "list_lists": Lists,
    "list_members": Members,
    "list_invitations": Invitations,
    "share_list": SharingChange,
    "change_member_role": SharingChange,
    "remove_member": SharingChange,
    "stop_sharing": SharingChange,
    "leave_list": SharingChange,
    "answer_invitation": SharingChange,
}

ToolResult = TaskChange | BulkChange | ListedTasks | Lists | Members | Invitations | SharingChange


def read_result(tool: str, data: Any) -> ToolResult:
    """A successful tool output's JSON (a list's bare array) as its model; raises pydantic's
    ValidationError when it is not that tool's shape."""
    model = TOOL_RESULTS[tool]
    parsed = model.model_validate(data)
    if isinstance(parsed, ChangeOutcome):
        return parsed.root
    assert isinstance(
        parsed, TaskChange | ListedTasks | Lists | Members | Invitations | SharingChange
    )
    return parsed
