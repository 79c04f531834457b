"""The backup document of `todo-chatbot export` / `import`, stated once, and its reading.

Its values follow the API's own rules: task titles and descriptions through `TaskCreate`, the
message roles the chat writes, the rest in `backup_checks`. On top, what only a whole document
can get wrong: a task number used twice, a task counter behind its tasks. Every problem is
reported, each with where it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    JsonValue,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from backend.models import MessageRole, TaskCreate
from backend.services.backup_checks import (
    ConversationTitle,
    Email,
    PasswordHash,
    TaskCounter,
    TaskNumber,
    Text,
    Timestamp,
    ToolCall,
)
from backend.services.due import DEFAULT_ZONE, is_known_zone, today_in
from backend.services.errors import ServiceError
from backend.services.repeats import read_repeat, repeat_problem

FORMAT = "todo-chatbot/user-export"
VERSION = 1


class BackupInvalidError(ServiceError):
    """The document cannot be imported; `problems` says what is wrong, one line each."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = tuple(problems)


class _Strict(BaseModel):
    # A misspelt key is an error, not a silently dropped value.
    model_config = ConfigDict(extra="forbid")


class BackupUser(_Strict):
    email: Email
    hashed_password: PasswordHash
    last_task_number: TaskCounter
    created_at: Timestamp
    # Absent from documents written before time zones existed: those accounts were UTC.
    timezone: str = DEFAULT_ZONE

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if not is_known_zone(value):
            raise ValueError(f"unknown time zone {value[:64]!r}")
        return value


class BackupTask(TaskCreate):
    """A task: its title and description pass the API's own rules (`TaskCreate`)."""

    model_config = {**TaskCreate.model_config, "extra": "forbid"}

    number: TaskNumber
    completed: StrictBool
    created_at: Timestamp
    updated_at: Timestamp


class BackupMessage(_Strict):
    role: MessageRole
    content: Text
    tool_calls: list[ToolCall] | None = None
    # Agent state derived from the turn (see Message.meta); kept as it is.
    meta: dict[str, JsonValue] | None = None
    created_at: Timestamp


class BackupConversation(_Strict):
    title: ConversationTitle
    created_at: Timestamp
    updated_at: Timestamp
    messages: list[BackupMessage]


class UserBackup(_Strict):
    """One account with its tasks (numbers kept) and its conversations with their messages."""

    # Checked first, by `_is_an_export`.
    format: str = FORMAT
    version: int = VERSION
    user: BackupUser
    tasks: list[BackupTask]
    conversations: list[BackupConversation]

    @model_validator(mode="before")
    @classmethod
    def _is_an_export(cls, data: Any) -> Any:
        # One clear line for another file, rather than every key it lacks.
        if not isinstance(data, dict) or (data.get("format"), data.get("version")) != (
            FORMAT,
            VERSION,
        ):
            raise ValueError(f"not a {FORMAT} v{VERSION} document")
        return data


def _where(location: tuple[int | str, ...]) -> str:
    """("tasks", 3, "title") -> "tasks[3].title"."""
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


_PLAINER = {"missing": "missing", "extra_forbidden": "not a key of this format"}


def _problem(error: ErrorDetails) -> str:
    message = _PLAINER.get(error["type"], error["msg"].removeprefix("Value error, "))
    if error["type"] == "json_invalid":
        message = "not JSON: " + message.removeprefix("Invalid JSON: ")
    where = _where(error["loc"])
    return f"{where}: {message}" if where else message


def _consistency_problems(backup: UserBackup) -> list[str]:
    problems = []
    first_with: dict[int, int] = {}
    for index, task in enumerate(backup.tasks):
        if task.number in first_with:
            problems.append(
                f"tasks[{index}].number: {task.number} is the number of "
                f"tasks[{first_with[task.number]}] too"
            )
        first_with.setdefault(task.number, index)
    today = today_in(backup.user.timezone)
    for index, task in enumerate(backup.tasks):
        # Its rule is well formed (TaskCreate checked it): it must come round from its date,
        # as a task created with it must (a bounded search).
        if task.repeat is not None:
            anchor = None if task.repeat_from is None else task.repeat_from == "completion"
            repeat = read_repeat(task.repeat, from_completion=anchor)
            problem = repeat_problem(repeat, task.due_date, task.due_time, today=today)
            if problem is not None:
                problems.append(f"tasks[{index}].repeat: {problem}")
    largest = max(first_with, default=0)
    if backup.user.last_task_number < largest:
        problems.append(
            f"user.last_task_number: {backup.user.last_task_number} is below the largest task "
            f"number, {largest} (new tasks would reuse numbers)"
        )
    return problems


def parse_backup(data: bytes) -> UserBackup:
    """The document in `data` (UTF-8 JSON), checked whole; raises `BackupInvalidError`
    listing every problem."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BackupInvalidError(
            [f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start}"]
        ) from exc
    try:
        backup = UserBackup.model_validate_json(text)
    except ValidationError as exc:
        raise BackupInvalidError([_problem(error) for error in exc.errors()]) from exc
    problems = _consistency_problems(backup)
    if problems:
        raise BackupInvalidError(problems)
    return backup
