"""The five task tools through a real MCP client session (in-memory transport), on both databases.

The server is built like the chat endpoint builds it: identity comes only from the `_meta` the
backend attaches to each call (`principal_from_meta`), never from a `user_id` argument.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from sqlmodel import col, update

from backend.models import Task, TaskCreate, User
from backend.services import tasks
from mcp_tools.principal import fixed_principal, principal_from_meta, principal_meta
from mcp_tools.server import BULK_TITLES, build_task_server
from tests.conftest import UserSession, register

TASK_KEYS = {"id", "title", "description", "completed", "created_at", "updated_at"} | {
    "due_date",
    "due_time",
    "due_at",
    "due_label",
    "priority",
    "list",
    "tags",
    "repeat",
    "repeat_text",
}


@pytest.fixture
def server(app: FastAPI) -> MCPServer:
    # The client is opened inside each test: its task groups must exit in the task that
    # entered them, and async fixture setup and teardown may run in different tasks.
    return build_task_server(app.state.sessionmaker, principal_from_meta)


async def call(
    mcp: Client, user: UserSession | None, tool: str, **arguments: Any
) -> CallToolResult:
    meta = principal_meta(user.id) if user is not None else None
    return await mcp.call_tool(tool, arguments, meta=meta)


def error_text(result: CallToolResult) -> str:
    assert result.is_error is True
    assert result.structured_content is None
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


async def tasks_of(mcp: Client, user: UserSession, status: str = "all") -> list[dict[str, Any]]:
    result = await call(mcp, user, "list_tasks", status=status)
    assert result.is_error is False, result.content
    assert result.structured_content is not None
    found: list[dict[str, Any]] = result.structured_content["result"]
    return found


async def test_every_tool_is_listed_with_its_documented_parameters(
    server: MCPServer,
) -> None:
    async with Client(server) as mcp:
        tools = {tool.name: tool for tool in (await mcp.list_tools()).tools}
        expected = {
            "add_task": (
                {
                    "title",
                    "user_id",
                    "description",
                    "due",
                    "priority",
                    "list",
                    "tags",
                    "repeat",
                    "remind_at",
                    "remind_before",
                    "number",
                },
                ["title"],
            ),
            "list_tasks": (
                {"user_id", "status", "query", "limit"}
                | {"list", "tag", "priority", "due", "due_from", "due_to", "q", "sort", "offset"}
                # issue 34: the tasks whose reminder fired and is still shown
                | {"reminder"},
                [],
            ),
            # One task by task_id, or several in one statement (task_ids, or every).
            "complete_task": ({"task_id", "user_id", "task_ids", "every"}, []),
            "delete_task": ({"task_id", "user_id", "task_ids", "every"}, []),
            "update_task": (
                {"task_id", "user_id", "title", "description", "completed"}
                | {
                    "due",
                    "priority",
                    "list",
                    "tags",
                    "add_tags",
                    "remove_tags",
                    "repeat",
                    "skip",
                    "remind_at",
                    "remind_before",
                    # issue 34: an undo of a snooze shows the superseded reminder again
                    "restore_reminder",
                },
                ["task_id"],
            ),
            # issue 36: lists and who shares them
            "list_lists": ({"user_id"}, []),
            "list_members": ({"list", "user_id"}, ["list"]),
            "share_list": ({"list", "email", "role", "user_id"}, ["list", "email"]),
            "change_member_role": (
                {"list", "email", "role", "user_id"},
                ["list", "email", "role"],
            ),
            "remove_member": ({"list", "email", "user_id"}, ["list", "email"]),
            "stop_sharing": ({"list", "user_id"}, ["list"]),
            "leave_list": ({"list", "user_id"}, ["list"]),
            "list_invitations": ({"user_id"}, []),
            "answer_invitation": (
                {"invitation_id", "accept", "user_id"},
                ["invitation_id", "accept"],
            ),
        }
        assert set(tools) == set(expected)
        for name, (properties, required) in expected.items():
            schema = tools[name].input_schema
            assert set(schema["properties"]) == properties, name
            assert schema.get("required", []) == required, name
            assert tools[name].description
            # as a client shows it: the docstring without its source indentation
            assert "\n " not in str(tools[name].description), name
        status = tools["list_tasks"].input_schema["properties"]["status"]
        assert status["enum"] == ["all", "pending", "completed"]


async def test_add_task_numbers_a_new_users_tasks_from_one(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        first = await call(mcp, user, "add_task", title="  Buy milk  ", description="2 litres")
        second = await call(mcp, user, "add_task", title="Call mum")
        assert first.structured_content == {"task_id": 1, "status": "created", "title": "Buy milk"}
        assert second.structured_content == {"task_id": 2, "status": "created", "title": "Call mum"}
        [milk, mum] = await tasks_of(mcp, user)
        assert set(milk) == TASK_KEYS
        assert (milk["id"], milk["description"], milk["completed"]) == (1, "2 litres", False)
        assert (mum["id"], mum["title"], mum["description"]) == (2, "Call mum", None)


async def test_list_tasks_filters_by_status(server: MCPServer, client: httpx.AsyncClient) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        for title in ("one", "two", "three"):
            await call(mcp, user, "add_task", title=title)
        await call(mcp, user, "complete_task", task_id=2)
        assert [t["id"] for t in await tasks_of(mcp, user, "all")] == [1, 2, 3]
        assert [t["title"] for t in await tasks_of(mcp, user, "pending")] == ["one", "three"]
        [done] = await tasks_of(mcp, user, "completed")
        assert (done["id"], done["completed"]) == (2, True)
        default = await call(mcp, user, "list_tasks")
        assert default.structured_content == {"result": await tasks_of(mcp, user)}
        assert (await call(mcp, user, "list_tasks", status="done")).is_error is True


async def test_complete_update_and_delete_report_what_they_did(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="Draft")
        done = await call(mcp, user, "complete_task", task_id=1)
        assert done.structured_content == {"task_id": 1, "status": "completed", "title": "Draft"}
        renamed = await call(mcp, user, "update_task", task_id=1, title="Final")
        assert renamed.structured_content == {"task_id": 1, "status": "updated", "title": "Final"}
        described = await call(mcp, user, "update_task", task_id=1, description="notes")
        assert described.structured_content == {"task_id": 1, "status": "updated", "title": "Final"}
        [task] = await tasks_of(mcp, user)
        assert (task["title"], task["description"], task["completed"]) == ("Final", "notes", True)
        deleted = await call(mcp, user, "delete_task", task_id=1)
        assert deleted.structured_content == {"task_id": 1, "status": "deleted", "title": "Final"}
        assert await tasks_of(mcp, user) == []


@pytest.mark.parametrize(
    ("tool", "extra"),
    [("complete_task", {}), ("delete_task", {}), ("update_task", {"title": "x"})],
)
async def test_a_missing_task_is_an_error_never_a_fake_success(
    server: MCPServer, client: httpx.AsyncClient, tool: str, extra: dict[str, Any]
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="Only one")
        assert "Task 99 not found" in error_text(await call(mcp, user, tool, task_id=99, **extra))
        [task] = await tasks_of(mcp, user)
        assert (task["title"], task["completed"]) == ("Only one", False)


async def test_update_without_any_field_is_an_error(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="Keep me")
        assert "Nothing to update" in error_text(await call(mcp, user, "update_task", task_id=1))
        assert [t["title"] for t in await tasks_of(mcp, user)] == ["Keep me"]


@pytest.mark.parametrize("title", ["", "   ", "x" * 201])
async def test_a_blank_or_overlong_title_is_an_error(
    server: MCPServer, client: httpx.AsyncClient, title: str
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        assert "Invalid title" in error_text(await call(mcp, user, "add_task", title=title))
        await call(mcp, user, "add_task", title="x" * 200)
        assert "Invalid title" in error_text(
            await call(mcp, user, "update_task", task_id=1, title=title)
        )
        assert [t["title"] for t in await tasks_of(mcp, user)] == ["x" * 200]


async def test_user_id_naming_another_user_is_refused_and_changes_nothing(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        alice, bob = await register(client), await register(client)
        await call(mcp, alice, "add_task", title="Alice's")
        attempts: list[tuple[str, dict[str, Any]]] = [
            ("add_task", {"title": "planted"}),
            ("list_tasks", {}),
            ("complete_task", {"task_id": 1}),
            ("update_task", {"task_id": 1, "title": "hijacked"}),
            ("delete_task", {"task_id": 1}),
        ]
        for tool, arguments in attempts:
            for claimed in (alice.id, str(alice.id)):
                result = await call(mcp, bob, tool, user_id=claimed, **arguments)
                assert "user_id does not match" in error_text(result), tool
        [task] = await tasks_of(mcp, alice)
        assert (task["title"], task["completed"]) == ("Alice's", False)
        assert await tasks_of(mcp, bob) == []


@pytest.mark.parametrize("as_str", [True, False], ids=["str", "int"])
async def test_the_principals_own_user_id_is_accepted(
    server: MCPServer, client: httpx.AsyncClient, as_str: bool
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        own: str | int = str(user.id) if as_str else user.id
        added = await call(mcp, user, "add_task", title="Mine", user_id=own)
        assert added.structured_content == {"task_id": 1, "status": "created", "title": "Mine"}
        listed = await call(mcp, user, "list_tasks", user_id=own)
        assert listed.structured_content is not None
        assert [t["title"] for t in listed.structured_content["result"]] == ["Mine"]
        done = await call(mcp, user, "complete_task", task_id=1, user_id=own)
        assert done.structured_content == {"task_id": 1, "status": "completed", "title": "Mine"}


async def test_a_call_without_principal_meta_is_refused(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        refused = await call(mcp, None, "add_task", title="anonymous", user_id=user.id)
        assert "No authenticated user" in error_text(refused)
        for bogus in (str(user.id), True, None):
            result = await mcp.call_tool(
                "add_task", {"title": "forged"}, meta=principal_meta(bogus)
            )
            assert "No authenticated user" in error_text(result)
        assert await tasks_of(mcp, user) == []


async def test_another_users_task_numbers_resolve_to_their_own_tasks(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        alice, bob = await register(client), await register(client)
        await call(mcp, alice, "add_task", title="A1")
        await call(mcp, alice, "add_task", title="A2")
        await call(mcp, bob, "add_task", title="B1")
        done = await call(mcp, bob, "complete_task", task_id=1)
        assert done.structured_content == {"task_id": 1, "status": "completed", "title": "B1"}
        assert "Task 2 not found" in error_text(await call(mcp, bob, "complete_task", task_id=2))
        assert "Task 2 not found" in error_text(
            await call(mcp, bob, "update_task", task_id=2, title="mine now")
        )
        assert "Task 2 not found" in error_text(await call(mcp, bob, "delete_task", task_id=2))
        assert [t["title"] for t in await tasks_of(mcp, bob)] == ["B1"]
        alices = await tasks_of(mcp, alice)
        assert [(t["title"], t["completed"]) for t in alices] == [("A1", False), ("A2", False)]


async def test_a_fixed_principal_server_ignores_meta(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    alice, bob = await register(client), await register(client)
    server = build_task_server(app.state.sessionmaker, fixed_principal(alice.id))
    async with Client(server) as session:
        added = await session.call_tool("add_task", {"title": "A"}, meta=principal_meta(bob.id))
        assert added.structured_content == {"task_id": 1, "status": "created", "title": "A"}
        refused = await session.call_tool("list_tasks", {"user_id": bob.id})
        assert "user_id does not match" in error_text(refused)
    async with Client(build_task_server(app.state.sessionmaker, principal_from_meta)) as mcp:
        assert [t["title"] for t in await tasks_of(mcp, alice)] == ["A"]
        assert await tasks_of(mcp, bob) == []


async def test_list_tasks_title_search_narrows_on_word_stems_and_limit_caps(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    user = await register(client)
    async with Client(server) as mcp:
        for title in ["buy groceries", "Return GROCERIES bag", "call mom", "100% done_ok"]:
            await call(mcp, user, "add_task", title=title)
        found = await call(mcp, user, "list_tasks", query="the grocries")  # typo after 4 letters
        assert [t["title"] for t in found.structured_content["result"]] == [
            "buy groceries",
            "Return GROCERIES bag",
        ]
        exact = await call(mcp, user, "list_tasks", query="Call Mom")
        assert [t["id"] for t in exact.structured_content["result"]] == [3]
        # LIKE wildcards in a query are literal characters, not patterns.
        literal = await call(mcp, user, "list_tasks", query="100%")
        assert [t["id"] for t in literal.structured_content["result"]] == [4]
        capped = await call(mcp, user, "list_tasks", limit=2)
        assert [t["id"] for t in capped.structured_content["result"]] == [1, 2]


async def test_update_task_can_reopen_a_completed_task(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    user = await register(client)
    async with Client(server) as mcp:
        await call(mcp, user, "add_task", title="walk the dog")
        await call(mcp, user, "complete_task", task_id=1)
        reopened = await call(mcp, user, "update_task", task_id=1, completed=False)
        assert reopened.structured_content == {
            "task_id": 1,
            "status": "updated",
            "title": "walk the dog",
        }
        assert (await tasks_of(mcp, user, "pending"))[0]["title"] == "walk the dog"


async def test_complete_task_with_task_ids_changes_them_in_one_call_and_names_the_missing(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        for title in ("a", "b", "c"):
            await call(mcp, user, "add_task", title=title)
        done = await call(mcp, user, "complete_task", task_ids=[3, 1, 9])
        assert done.structured_content == {
            "task_ids": [1, 3],
            "status": "completed",
            "count": 2,
            "titles": ["a", "c"],
            "not_found": [9],
        }
        states = [(t["id"], t["completed"]) for t in await tasks_of(mcp, user)]
        assert states == [(1, True), (2, False), (3, True)]
        assert "Tasks 7, 8 not found" in error_text(
            await call(mcp, user, "complete_task", task_ids=[8, 7])
        )


async def test_every_pending_task_is_completed_and_every_completed_one_deleted_in_one_call(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user, other = await register(client), await register(client)
        await call(mcp, other, "add_task", title="not yours")
        for title in ("a", "b", "c"):
            await call(mcp, user, "add_task", title=title)
        await call(mcp, user, "complete_task", task_id=2)
        done = await call(mcp, user, "complete_task", every="pending")
        assert done.structured_content is not None
        assert (done.structured_content["task_ids"], done.structured_content["count"]) == (
            [1, 3],
            2,
        )
        await call(mcp, user, "add_task", title="d")
        gone = await call(mcp, user, "delete_task", every="completed")
        assert gone.structured_content is not None
        assert gone.structured_content["task_ids"] == [1, 2, 3]
        assert [t["title"] for t in await tasks_of(mcp, user)] == ["d"]
        assert [t["title"] for t in await tasks_of(mcp, other)] == ["not yours"]


async def test_a_bulk_result_names_every_task_but_titles_only_the_first_few(
    server: MCPServer, client: httpx.AsyncClient, app: FastAPI
) -> None:
    user = await register(client)
    async with app.state.sessionmaker() as session:
        for n in range(BULK_TITLES + 5):
            await tasks.create_task(session, user_id=user.id, data=TaskCreate(title=f"t{n}"))
    async with Client(server) as mcp:
        gone = await call(mcp, user, "delete_task", every="all")
    assert gone.structured_content is not None
    assert gone.structured_content["task_ids"] == list(range(1, BULK_TITLES + 6))
    assert gone.structured_content["titles"] == [f"t{n}" for n in range(BULK_TITLES)]


@pytest.mark.parametrize(
    "arguments",
    [{}, {"task_id": 1, "task_ids": [1]}, {"task_id": 1, "every": "pending"}],
    ids=["none", "id-and-ids", "id-and-every"],
)
async def test_a_bulk_tool_needs_exactly_one_way_of_naming_tasks(
    server: MCPServer, client: httpx.AsyncClient, arguments: dict[str, Any]
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="kept")
        for tool in ("complete_task", "delete_task"):
            refused = error_text(await call(mcp, user, tool, **arguments))
            assert "exactly one of task_id, task_ids or every" in refused
        assert [(t["title"], t["completed"]) for t in await tasks_of(mcp, user)] == [
            ("kept", False)
        ]


async def test_add_task_refuses_past_the_per_user_cap_until_tasks_are_removed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    server = build_task_server(app.state.sessionmaker, principal_from_meta, max_tasks=2)
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="one")
        await call(mcp, user, "add_task", title="two")
        assert "limit of 2 tasks" in error_text(await call(mcp, user, "add_task", title="three"))
        await call(mcp, user, "delete_task", task_id=1)
        added = await call(mcp, user, "add_task", title="three")
        # The refused add used up no number.
        assert added.structured_content == {"task_id": 3, "status": "created", "title": "three"}


async def test_a_deleted_task_comes_back_under_its_own_number_and_no_other(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        for title in ("one", "two", "three"):
            await call(mcp, user, "add_task", title=title)
        await call(mcp, user, "delete_task", task_id=2)
        back = await call(mcp, user, "add_task", title="two", number=2)
        assert back.structured_content == {"task_id": 2, "status": "created", "title": "two"}
        # in use, never handed out, or not a number at all: refused, and nothing is added
        assert "not free" in error_text(await call(mcp, user, "add_task", title="x", number=3))
        assert "not free" in error_text(await call(mcp, user, "add_task", title="x", number=4))
        assert error_text(await call(mcp, user, "add_task", title="x", number=0))
        assert [task["id"] for task in await tasks_of(mcp, user)] == [1, 2, 3]
        # the counter went on from where it was: the next new task is 4
        added = await call(mcp, user, "add_task", title="four")
        assert added.structured_content == {"task_id": 4, "status": "created", "title": "four"}


async def test_bringing_a_task_back_counts_against_the_per_user_cap(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    server = build_task_server(app.state.sessionmaker, principal_from_meta, max_tasks=2)
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="one")
        await call(mcp, user, "delete_task", task_id=1)
        await call(mcp, user, "add_task", title="two")
        await call(mcp, user, "add_task", title="three")
        refused = await call(mcp, user, "add_task", title="one", number=1)
        assert "limit of 2 tasks" in error_text(refused)


@pytest.mark.parametrize("task_id", ["1", True, 1.0, "[1]"])
@pytest.mark.parametrize(
    ("tool", "extra"),
    [("complete_task", {}), ("delete_task", {}), ("update_task", {"title": "Renamed"})],
)
async def test_a_task_id_that_is_not_a_json_integer_is_refused_in_brief(
    server: MCPServer,
    client: httpx.AsyncClient,
    tool: str,
    extra: dict[str, Any],
    task_id: object,
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="Task one")
        message = error_text(await call(mcp, user, tool, task_id=task_id, **extra))
        assert message.startswith("Invalid task_id: ")
        assert len(message) < 120
        [task] = await tasks_of(mcp, user)
        assert (task["title"], task["completed"]) == ("Task one", False)


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("complete_task", {"task_ids": ["1"]}, "task_ids"),
        ("delete_task", {"task_ids": [True]}, "task_ids"),
        ("update_task", {"task_id": 1, "completed": "true"}, "completed"),
        ("update_task", {"task_id": 1, "completed": 1}, "completed"),
        ("update_task", {"task_id": 1, "remind_before": "30"}, "remind_before"),
        ("add_task", {"title": "Other", "remind_before": True}, "remind_before"),
        ("list_tasks", {"limit": "5"}, "limit"),
    ],
)
async def test_numbers_and_flags_in_tool_arguments_are_taken_only_as_their_json_type(
    server: MCPServer,
    client: httpx.AsyncClient,
    tool: str,
    arguments: dict[str, Any],
    field: str,
) -> None:
    async with Client(server) as mcp:
        user = await register(client)
        await call(mcp, user, "add_task", title="Task one")
        message = error_text(await call(mcp, user, tool, **arguments))
        assert message.startswith(f"Invalid {field}")
        [task] = await tasks_of(mcp, user)
        assert (task["title"], task["completed"], task["due_date"]) == ("Task one", False, None)


async def test_list_tasks_answers_at_most_a_bounded_page_when_given_no_limit(
    server: MCPServer, app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await register(client)
    count = tasks.TASK_PAGE_MAX + 5
    async with app.state.sessionmaker() as session:
        session.add_all(
            Task(owner_id=user.id, number=n, title=f"water plant {n}") for n in range(1, count + 1)
        )
        await session.exec(
            update(User).where(col(User.id) == user.id).values(last_task_number=count)
        )
        await session.commit()
    async with Client(server) as mcp:
        listed = await tasks_of(mcp, user)
        assert [t["id"] for t in listed] == list(range(1, tasks.TASK_PAGE_MAX + 1))
        searched = await call(mcp, user, "list_tasks", query="plant")
        assert len(searched.structured_content["result"]) == tasks.TASK_PAGE_MAX
        filtered = await call(mcp, user, "list_tasks", q="water")  # the other query path
        assert len(filtered.structured_content["result"]) == tasks.TASK_PAGE_MAX
