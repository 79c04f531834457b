"""The value rules of a backup document (`backup_format`), as annotated types.

Each is the API's own rule where it has one (the register endpoint's email, the columns'
lengths), plus what a restored account needs to stay usable: room left for new task numbers,
a password hash that sign-in can check at the service's own cost. NUL and lone surrogates
are refused before these, over the whole document (`backup_format._text_faults`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any

import orjson
from pwdlib.hashers.argon2 import ARGON2_ENCODED_HASH_REGEX
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BeforeValidator,
    EmailStr,
    Field,
    JsonValue,
    StrictInt,
)
from sqlalchemy import inspect
from sqlmodel import SQLModel

from backend.core.security import hash_password
from backend.models import Conversation, User
from backend.services.users import normalize_email

# Task numbers are 32-bit integers (the column, the API's task ids). A restored account keeps
# room for this many new tasks (the most MAX_TASKS_PER_USER allows), so its counter cannot
# overflow and leave the account unable to add anything.
LARGEST_TASK_NUMBER = 2**31 - 1
ROOM_FOR_NEW_TASKS = 1_000_000
HIGHEST_IMPORTED_TASK_NUMBER = LARGEST_TASK_NUMBER - ROOM_FOR_NEW_TASKS
# A message's tool calls and agent state, as JSON. A turn records whole tool results, and the
# largest a tool returns is list_tasks' 1,000 tasks at their longest fields (about 3 MB):
# room for several, while a 100 MB one is refused. The agent state is a pending question and
# the task in focus, a few kilobytes even when a question names thousands of tasks.
TOOL_CALLS_MAX_BYTES = 16_000_000
META_MAX_BYTES = 1_000_000


def _column_length(model: type[SQLModel], name: str) -> int:
    length = getattr(inspect(model).columns[name].type, "length", None)  # String, AutoString
    assert isinstance(length, int), f"{model.__name__}.{name} has no length"
    return length


def _iso_text(value: object) -> object:
    # Lax parsing would read a bare number as seconds since 1970.
    if not isinstance(value, str):
        raise ValueError("must be an ISO 8601 time with its UTC offset, as text")
    return value


def _in_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError as exc:  # "9999-12-31T23:00:00-05:00" is past the year 9999 in UTC
        raise ValueError("out of range") from exc


def _leaves_room(value: int) -> int:
    if value > HIGHEST_IMPORTED_TASK_NUMBER:
        raise ValueError(
            f"at most {HIGHEST_IMPORTED_TASK_NUMBER}, to leave room for "
            f"{ROOM_FOR_NEW_TASKS:,} new tasks"
        )
    return value


def _hash_costs(hashed: str) -> tuple[int, int, int] | None:
    """Time, memory and parallelism of an argon2 hash (the only kind the service makes)."""
    found = ARGON2_ENCODED_HASH_REGEX.fullmatch(hashed)
    if found is None:
        return None
    return int(found["time_cost"]), int(found["memory_cost"]), int(found["parallelism"])


@cache
def _service_hash_costs() -> tuple[int, int, int]:
    costs = _hash_costs(hash_password("what this service's hashes cost"))
    assert costs is not None
    return costs


def _checkable_hash(value: str) -> str:
    """A hash sign-in can check: any other fails every sign-in with a server error, and one
    costlier than the service's own makes each attempt as slow and as big as it says."""
    costs = _hash_costs(value)
    if costs is None:
        raise ValueError("not an argon2 password hash")
    if any(cost > own for cost, own in zip(costs, _service_hash_costs(), strict=True)):
        raise ValueError("costs more to check than this service's own password hashes")
    return value


def _is_a_tool_call(value: dict[str, JsonValue]) -> dict[str, JsonValue]:
    # The shape the chat records and the API returns (name, arguments, result).
    if not isinstance(value.get("name"), str) or not isinstance(value.get("arguments"), dict):
        raise ValueError("a tool call needs a name (text) and arguments (an object)")
    if "result" not in value:
        raise ValueError("a tool call needs a result")
    return value


def _json_at_most(limit: int) -> AfterValidator:
    def check(value: Any) -> Any:
        if len(orjson.dumps(value)) > limit:
            raise ValueError(f"at most {limit:,} bytes of JSON")
        return value

    return AfterValidator(check)


# ISO 8601 with a UTC offset, as export writes it.
Timestamp = Annotated[AwareDatetime, BeforeValidator(_iso_text), AfterValidator(_in_utc)]
TaskNumber = Annotated[StrictInt, Field(ge=1), AfterValidator(_leaves_room)]
TaskCounter = Annotated[StrictInt, Field(ge=0), AfterValidator(_leaves_room)]
ConversationTitle = Annotated[
    str,
    Field(min_length=1, max_length=_column_length(Conversation, "title")),
]
# The register endpoint's rule (backend/api/routes/auth.py), stored lower-cased like a sign-up.
Email = Annotated[
    EmailStr, Field(max_length=_column_length(User, "email")), AfterValidator(normalize_email)
]
PasswordHash = Annotated[
    str, Field(max_length=_column_length(User, "hashed_password")), AfterValidator(_checkable_hash)
]
ToolCall = Annotated[dict[str, JsonValue], AfterValidator(_is_a_tool_call)]
ToolCalls = Annotated[list[ToolCall], _json_at_most(TOOL_CALLS_MAX_BYTES)]
AgentState = Annotated[dict[str, JsonValue], _json_at_most(META_MAX_BYTES)]
