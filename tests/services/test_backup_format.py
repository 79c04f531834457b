"""The backup document's checks: the API's own rules, each problem named with where it is."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from backend.agent.rules import replies
from backend.models.conversation import REPLY_MAX_LENGTH
from backend.services.backup_checks import META_MAX_BYTES, TOOL_CALLS_MAX_BYTES
from backend.services.backup_format import BackupInvalidError, parse_backup
from tests.services.backup_documents import as_bytes, valid_document

Change = Callable[[dict[str, Any]], object]


def problems_of(data: bytes) -> list[str]:
    with pytest.raises(BackupInvalidError) as refused:
        parse_backup(data)
    return list(refused.value.problems)


def problems_after(change: Change) -> list[str]:
    document = valid_document()
    change(document)
    return problems_of(as_bytes(document))


def test_an_exported_document_passes_as_it_is() -> None:
    backup = parse_backup(as_bytes(valid_document("Restored@Example.com")))
    assert backup.user.email == "restored@example.com"  # stored lower-cased, like a sign-up
    assert [t.number for t in backup.tasks] == [1, 3]
    assert backup.tasks[1].created_at == datetime(2026, 1, 2, 10, tzinfo=UTC)
    assert backup.conversations[0].messages[1].tool_calls == [
        {
            "name": "add_task",
            "arguments": {"title": "Buy milk"},
            "result": {"task_id": 1, "status": "created", "title": "Buy milk"},
        }
    ]


def test_times_are_read_in_utc_whatever_their_offset() -> None:
    document = valid_document()
    document["user"]["created_at"] = "2026-01-01T11:00:00+02:00"
    backup = parse_backup(as_bytes(document))
    assert backup.user.created_at == datetime(2026, 1, 1, 9, tzinfo=UTC)
    assert backup.user.created_at.tzinfo is UTC


def test_titles_are_cleaned_as_the_api_cleans_them() -> None:
    document = valid_document()
    document["tasks"][0]["title"] = "  \x1b[31mBuy milk\x07  "
    assert parse_backup(as_bytes(document)).tasks[0].title == "Buy milk"


def _set(path: str, value: object) -> Change:
    """A change that sets one value: "tasks.0.title" -> document["tasks"][0]["title"]."""

    def change(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = document
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return change


def _drop(path: str) -> Change:
    def change(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = document
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        del target[last]

    return change


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        pytest.param(
            _set("user.email", "not an email"),
            "user.email: value is not a valid email address: An email address must have an @-sign.",
            id="a bad email",
        ),
        pytest.param(
            _set("user.email", "me@localhost"),
            "user.email: value is not a valid email address: The part after the @-sign is not "
            "valid. It should have a period.",
            id="an email the register endpoint refuses",
        ),
        pytest.param(
            _set("tasks.1.title", "x" * 5000),
            "tasks[1].title: String should have at most 200 characters",
            id="an over-long title",
        ),
        pytest.param(
            _set("tasks.1.title", " \x1b[2J "),
            "tasks[1].title: String should have at least 1 character",
            id="a title blank once cleaned",
        ),
        pytest.param(
            _set("tasks.0.description", "x" * 2001),
            "tasks[0].description: String should have at most 2000 characters",
            id="an over-long description",
        ),
        pytest.param(
            _set("tasks.0.title", "milk\x00"),
            "tasks[0].title: must not contain NUL characters",
            id="a NUL in a title",
        ),
        pytest.param(
            _set("conversations.0.messages.0.content", "hi \ud800"),
            "conversations[0].messages[0].content: must not contain lone surrogates",
            id="a lone surrogate in a message",
        ),
        pytest.param(
            _set("conversations.0.messages.1.meta", {"state": ["ok", "\x00"]}),
            "conversations[0].messages[1].meta.state[1]: must not contain NUL characters",
            id="a NUL in the agent's state",
        ),
        pytest.param(
            _set("conversations.0.messages.0.content", "x" * 4001),
            "conversations[0].messages[0].content: String should have at most 4000 characters",
            id="a message longer than the chat takes",
        ),
        pytest.param(
            _set("conversations.0.messages.0.content", " \n "),
            "conversations[0].messages[0].content: message must not be empty or only whitespace",
            id="a blank message",
        ),
        pytest.param(
            _set("conversations.0.messages.1.content", "x" * (REPLY_MAX_LENGTH + 1)),
            f"conversations[0].messages[1].content: String should have at most "
            f"{REPLY_MAX_LENGTH} characters",
            id="a reply longer than the assistant writes",
        ),
        pytest.param(
            _set(
                "conversations.0.messages.1.tool_calls",
                [{"name": "x", "arguments": {"a\x00": 1}, "result": None}],
            ),
            "conversations[0].messages[1].tool_calls[0].arguments.a\x00: must not contain NUL",
            id="a NUL in a key of a tool call's arguments",
        ),
        pytest.param(
            _set("user.timezone", "Europe/Paris\x00"),
            "user.timezone: must not contain NUL characters",
            id="a NUL in the time zone",
        ),
        pytest.param(
            _set(
                "conversations.0.messages.1.tool_calls",
                [{"name": "list_tasks", "arguments": {}, "result": "x" * TOOL_CALLS_MAX_BYTES}],
            ),
            f"conversations[0].messages[1].tool_calls: at most {TOOL_CALLS_MAX_BYTES:,} "
            "bytes of JSON",
            id="tool calls larger than a turn records",
        ),
        pytest.param(
            _set("conversations.0.messages.1.meta", {"pad": "x" * TOOL_CALLS_MAX_BYTES}),
            f"conversations[0].messages[1].meta: at most {META_MAX_BYTES:,} bytes of JSON",
            id="agent state larger than a turn records",
        ),
        pytest.param(
            _set("tasks.1.list", "\u0405hopping"),
            "tasks[1].list: '\u0405hopping' looks like the list 'Shopping'",
            id="a list that looks like a starting list",
        ),
        pytest.param(
            lambda d: [d["tasks"][0].update(list="Work"), d["tasks"][1].update(list="W\u043erk")],
            "tasks[1].list: 'W\u043erk' looks like the list 'Work'",
            id="two lists that look alike",
        ),
        pytest.param(
            _set("tasks.1.list", "Inbox\u200b"),
            "tasks[1].list: list must not contain invisible characters",
            id="a list with an invisible character",
        ),
        pytest.param(
            _set("conversations.0.messages.0.role", "system"),
            "conversations[0].messages[0].role: Input should be 'user' or 'assistant'",
            id="a system message",
        ),
        pytest.param(
            _set("tasks.1.number", 2**31 - 1),
            "tasks[1].number: at most 2146483647, to leave room for 1,000,000 new tasks",
            id="a task number at the top of the range",
        ),
        pytest.param(
            _set("user.last_task_number", 2**31 - 1),
            "user.last_task_number: at most 2146483647, to leave room for 1,000,000 new tasks",
            id="a counter at the top of the range",
        ),
        pytest.param(
            _set("tasks.0.number", 0),
            "tasks[0].number: Input should be greater than or equal to 1",
            id="task number 0",
        ),
        pytest.param(
            _set("tasks.1.number", 1),
            "tasks[1].number: 1 is the number of tasks[0] too",
            id="duplicate task numbers",
        ),
        pytest.param(
            _set("user.last_task_number", 2),
            "user.last_task_number: 2 is below the largest task number, 3 (new tasks would "
            "reuse numbers)",
            id="a counter behind its tasks",
        ),
        pytest.param(
            _set("tasks.0.completed", 1),
            "tasks[0].completed: Input should be a valid boolean",
            id="a number for a boolean",
        ),
        pytest.param(
            _set("tasks.0.number", "1"),
            "tasks[0].number: Input should be a valid integer",
            id="text for a number",
        ),
        pytest.param(
            _set("tasks", {"number": 1}),
            "tasks: Input should be a valid array",
            id="an object for a list",
        ),
        pytest.param(
            _drop("conversations.0.messages.1.content"),
            "conversations[0].messages[1].content: missing",
            id="a missing key",
        ),
        pytest.param(
            _set("tasks.0.colour", "red"),
            "tasks[0].colour: not a key of this format",
            id="an unknown key",
        ),
        pytest.param(
            _set("tasks.0.created_at", "yesterday"),
            "tasks[0].created_at: Input should be a valid datetime",
            id="an unparseable time",
        ),
        pytest.param(
            _set("tasks.0.created_at", "2026-01-01T09:00:00"),
            "tasks[0].created_at: Input should have timezone info",
            id="a time without its offset",
        ),
        pytest.param(
            _set("tasks.0.created_at", 1767258000),
            "tasks[0].created_at: must be an ISO 8601 time with its UTC offset, as text",
            id="a number for a time",
        ),
        pytest.param(
            _set("user.created_at", "9999-12-31T23:00:00-05:00"),
            "user.created_at: out of range",
            id="a time past the year 9999 in UTC",
        ),
        pytest.param(
            _set("user.hashed_password", "x"),
            "user.hashed_password: not an argon2 password hash",
            id="a password hash sign-in cannot check",
        ),
        pytest.param(
            _set(
                "user.hashed_password",
                "$argon2id$v=19$m=4194304,t=3,p=4$4GtpYHuW6bduTRdHBQ1fmg$X5u3fauknlQUzU3lUoHEiYO3",
            ),
            "user.hashed_password: costs more to check than this service's own password hashes",
            id="a password hash costlier than the service's own",
        ),
        pytest.param(
            _set("conversations.0.title", "t" * 81),
            "conversations[0].title: String should have at most 80 characters",
            id="an over-long conversation title",
        ),
        pytest.param(
            _set("conversations.0.messages.1.tool_calls", [{"name": "add_task"}]),
            "conversations[0].messages[1].tool_calls[0]: a tool call needs a name (text) and "
            "arguments (an object)",
            id="a tool call without arguments",
        ),
        pytest.param(
            _set("conversations.0.messages.1.meta", [1]),
            "conversations[0].messages[1].meta: Input should be an object",
            id="a list for the agent state",
        ),
    ],
)
def test_a_document_breaking_a_rule_is_refused_naming_where_and_what(
    change: Change, problem: str
) -> None:
    (found,) = problems_after(change)
    # The library's own wording may add details after the expected start.
    assert found.startswith(problem)


def test_every_problem_is_reported_one_line_each() -> None:
    def break_three_things(document: dict[str, Any]) -> None:
        document["user"]["email"] = "nobody"
        document["tasks"][1]["title"] = "x" * 201
        del document["conversations"][0]["messages"][0]["role"]

    assert problems_after(break_three_things) == [
        "user.email: value is not a valid email address: An email address must have an @-sign.",
        "tasks[1].title: String should have at most 200 characters",
        "conversations[0].messages[0].role: missing",
    ]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        pytest.param(b"", "not JSON: EOF while parsing a value at line 1 column 0", id="empty"),
        pytest.param(b"{'user': 1}", "not JSON: key must be a string at line 1 column 2", id="py"),
        pytest.param(
            b'{"format": "todo-chatbot/user-export", "version": 1, "user": {"email": "\\ud800"}}',
            "user.email: must not contain lone surrogates",  # no text column can hold one
            id="a lone surrogate",
        ),
        pytest.param(b"\xff\xfe{}", "not UTF-8 text: byte 0xff at offset 0", id="not UTF-8"),
        pytest.param(b"[1, 2]", "not a todo-chatbot/user-export v1 document", id="a list"),
        pytest.param(
            b'{"hello": "world"}', "not a todo-chatbot/user-export v1 document", id="other JSON"
        ),
        pytest.param(
            b'{"format": "todo-chatbot/user-export", "version": 2}',
            "not a todo-chatbot/user-export v1 document",
            id="a later version",
        ),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_in_one_line(data: bytes, problem: str) -> None:
    (found,) = problems_of(data)
    assert found.startswith(problem)


def test_a_utf8_byte_order_mark_is_allowed() -> None:
    assert parse_backup(b"\xef\xbb\xbf" + as_bytes(valid_document())).user.last_task_number == 3


def test_the_longest_messages_and_replies_the_chat_makes_pass() -> None:
    document = valid_document()
    user, reply = document["conversations"][0]["messages"]
    user["content"] = "x" * 4000
    reply["content"] = "x" * REPLY_MAX_LENGTH
    backup = parse_backup(as_bytes(document))
    assert [len(m.content) for m in backup.conversations[0].messages] == [4000, REPLY_MAX_LENGTH]


def test_the_rules_longest_task_listings_are_well_within_what_an_import_keeps() -> None:
    # A reply of the most tasks a reply lists, each at its longest, keeps under a quarter of
    # the limit: several in one compound turn still fit.
    task = {
        "id": 2**31 - 1,
        "title": "W" * 200,
        "completed": True,
        "due_label": "overdue by 12345 days",
        "priority": "medium",
        "list": "L" * 60,
    }
    many = [task] * (replies.LIST_LIMIT + 1)
    filters = {"list": "L" * 60, "tag": "t" * 30, "priority": "medium", "due": "next_7_days"}
    longest = max(
        len(replies.task_list(many, "all")),
        len(replies.filtered_task_list(many, filters)),
        len(replies.lists_overview(many)),
    )
    assert longest < REPLY_MAX_LENGTH / 4


@pytest.mark.parametrize(
    ("task", "problem"),
    [
        pytest.param(
            {"due_date": "2030-01-01", "repeat": "FREQ=DAILY;INTERVAL=0"},
            "tasks[1].repeat: repeat 'FREQ=DAILY;INTERVAL=0' cannot be kept: INTERVAL must be "
            "from 1 to 3650 for a daily repeat (every 1 to 3650 days)",
            id="a repeat stepping by nothing",
        ),
        pytest.param(
            {"due_date": "2030-01-01", "repeat": "FREQ=YEARLY;BYSETPOS=366"},
            "tasks[1].repeat: repeat 'FREQ=YEARLY;BYSETPOS=366' never comes round: no day after "
            "2030-01-01 up to 2060-12-31 matches it",
            id="a repeat no day matches",
        ),
        pytest.param(
            {"due_date": "9999-12-31", "due_time": "23:59"},
            "tasks[1].due_date: due_date must be from 1900-01-01 to 2999-12-31",
            id="a due date past the calendar's end",
        ),
        pytest.param(
            {"due_date": "0001-01-01"},
            "tasks[1].due_date: due_date must be from 1900-01-01 to 2999-12-31",
            id="a due date before the calendar's start",
        ),
        pytest.param(
            {"remind_at": "0001-01-01T00:00:00+14:00"},
            "tasks[1].remind_at: remind_at must be from 1900-01-01 to 2999-12-31",
            id="a reminder before the calendar's start",
        ),
    ],
)
def test_a_task_the_service_cannot_compute_with_is_refused_naming_where_and_why(
    task: dict[str, Any], problem: str
) -> None:
    def change(document: dict[str, Any]) -> None:
        document["user"]["timezone"] = "Etc/GMT+12"
        document["tasks"][1].update(task)

    assert problems_after(change) == [problem]
