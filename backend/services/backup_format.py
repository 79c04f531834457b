"""The backup document of `todo-chatbot export` / `import`, stated once, and its reading.

Its values follow the API's own rules: task titles and descriptions through `TaskCreate`, the
message roles the chat writes, the rest in `backup_checks`. On top, what only a whole document
can get wrong: a task number used twice, a task counter behind its tasks. Every problem is
reported, each with where it is.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from backend.core.text_rule import text_faults
from backend.domain.due import DEFAULT_ZONE, is_known_zone, today_in
from backend.domain.errors import ServiceError
from backend.domain.list_names import looks_like
from backend.domain.repeat_phrases import read_repeat
from backend.domain.repeats import repeat_problem
from backend.models import STARTING_LISTS, MessageRole, TaskCreate
from backend.models.conversation import MESSAGE_MAX_LENGTH, REPLY_MAX_LENGTH, meaningful_message
from backend.models.task import DEFAULT_LIST
from backend.services.backup_checks import (
    AgentState,
    ConversationTitle,
    Email,
    PasswordHash,
    TaskCounter,
    TaskNumber,
    Timestamp,
    ToolCalls,
)

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
    """A message as the chat stores it: the user's as /api/chat takes them, the assistant's
    no longer than its replies run (`REPLY_MAX_LENGTH`)."""

    role: MessageRole
    content: str
    tool_calls: ToolCalls | None = None
    # Agent state derived from the turn (see Message.meta); kept as it is.
    meta: AgentState | None = None
    created_at: Timestamp

    @field_validator("content")
    @classmethod
    def _as_long_as_the_chat_allows(cls, value: str, info: ValidationInfo) -> str:
        # `role` is read first; a wrong one is reported on its own and held to the longer limit.
        user = info.data.get("role") == MessageRole.USER
        limit = MESSAGE_MAX_LENGTH if user else REPLY_MAX_LENGTH
        if len(value) > limit:
            raise PydanticCustomError(
                "string_too_long",
                "String should have at most {max_length} characters",
                {"max_length": limit},
            )
        if user:
            meaningful_message(value)  # not blank, as the chat takes it
        return value


class BackupConversation(_Strict):
    title: ConversationTitle
    created_at: Timestamp
    updated_at: Timestamp
    messages: list[BackupMessage]


class LeftOutList(_Strict):
    """A list shared with the account by someone else: its tasks are the owner's, so an
    export names the list and leaves them out (specs/sharing.md)."""

    list: str
    owner: str
    role: str


class UserBackup(_Strict):
    """One account with its tasks (numbers kept) and its conversations with their messages.
    Its own lists only, shared or not; the lists others share with it are named in
    `shared_with_you_left_out` (an import takes nothing from them)."""

    # Checked first, by `_is_an_export`.
    format: str = FORMAT
    version: int = VERSION
    user: BackupUser
    tasks: list[BackupTask]
    conversations: list[BackupConversation]
    shared_with_you_left_out: list[LeftOutList] = Field(default_factory=list)

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
    problems.extend(_look_alike_lists(backup))
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


def _text_faults(text: str) -> list[str]:
    """The API's text rule (backend/core/text_rule.py) over the whole document, keys and the
    agent's state included. Python's JSON reader keeps a lone surrogate where pydantic's
    would only say "not JSON", so each is named where it is."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return []  # pydantic's reading says what is wrong with it
    return [f"{_where(fault.loc)}: {fault.problem}" for fault in text_faults(document)]


def import_lists(backup: UserBackup) -> dict[str, str]:
    """The lists an import makes, by lower-cased name: the starting lists, then each list the
    tasks name (its first spelling wins)."""
    lists: dict[str, str] = {name.lower(): name for name in STARTING_LISTS}
    for task in backup.tasks:
        lists.setdefault((task.list or DEFAULT_LIST).lower(), task.list or DEFAULT_LIST)
    return lists


def _look_alike_lists(backup: UserBackup) -> list[str]:
    """A task's list that looks like another the import makes, as a live account refuses it."""
    problems = []
    made: list[str] = list(STARTING_LISTS)
    for index, task in enumerate(backup.tasks):
        name = task.list or DEFAULT_LIST
        if name.lower() in {n.lower() for n in made}:
            continue
        similar = looks_like(name, made)
        if similar is not None:
            problems.append(f"tasks[{index}].list: {name!r} looks like the list {similar!r}")
        else:
            made.append(name)
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
    faults = _text_faults(text)
    if faults:
        raise BackupInvalidError(faults)
    try:
        backup = UserBackup.model_validate_json(text)
    except ValidationError as exc:
        raise BackupInvalidError([_problem(error) for error in exc.errors()]) from exc
    problems = _consistency_problems(backup)
    if problems:
        raise BackupInvalidError(problems)
    return backup
