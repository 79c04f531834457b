"""Rules and dates the service can compute with (issue 30), through the MCP tools on both
databases: a brief tool error says why a repeat or a date cannot be kept, and a completion
that ends a stored repeat says so in its result."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.server.mcpserver import MCPServer
from sqlmodel import col, update

from backend.models import Task
from tests.mcp_tools.test_server import call, error_text, server, tasks_of
from tests.mcp_tools.test_task_fields import _result, _user_in

__all__ = ["server"]  # the fixture, shared

INTERVAL_ZERO = (
    "its rule 'FREQ=DAILY;INTERVAL=0' can no longer be kept: INTERVAL must be from 1 to 3650 "
    "for a daily repeat (every 1 to 3650 days)"
)


async def _store(app: FastAPI, owner_id: int, task_id: int, **columns: Any) -> None:
    """Columns written as data stored before the bounds were: past every check."""
    async with app.state.sessionmaker() as session:
        await session.exec(
            update(Task)
            .where(col(Task.owner_id) == owner_id, col(Task.number) == task_id)
            .values(**columns)
        )
        await session.commit()


@pytest.mark.parametrize(
    ("repeat", "problem"),
    [
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("0 days after I finish it", "INTERVAL must be from 1 to 3650 for a daily repeat"),
        ("FREQ=WEEKLY;INTERVAL=-1", "INTERVAL must be from 1 to 520 for a weekly repeat"),
        ("FREQ=YEARLY;BYSETPOS=366", "'FREQ=YEARLY;BYSETPOS=366' never comes round: no day"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "never comes round: no day after"),
    ],
)
async def test_a_repeat_that_cannot_be_kept_is_a_brief_tool_error_saying_why(
    server: MCPServer, client: httpx.AsyncClient, repeat: str, problem: str
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "UTC")
        for due in ({}, {"due": "2030-01-01T09:00"}):
            message = error_text(await call(mcp, user, "add_task", title="x", repeat=repeat, **due))
            assert problem in message and "Traceback" not in message, message
        await _result(mcp, user, "add_task", title="Plain", due="2030-01-01")
        message = error_text(await call(mcp, user, "update_task", task_id=1, repeat=repeat))
        assert problem in message, message
        [plain] = await tasks_of(mcp, user)
        assert (plain["title"], plain["repeat"]) == ("Plain", None)


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"due": "9999-12-31T23:59"}, "Invalid due: due must be from 1900-01-01 to 2999-12-31"),
        ({"due": "9999-12-31T23:59-12:00"}, "Invalid due: due must be from 1900-01-01"),
        ({"due": "0001-01-01"}, "Invalid due: due must be from 1900-01-01 to 2999-12-31"),
        (
            {"remind_at": "0001-01-01T00:00"},
            "Invalid remind_at: remind_at must be from 1900-01-01 to 2999-12-31",
        ),
        (
            {"remind_at": "9999-12-31T23:59+14:00"},
            "Invalid remind_at: remind_at must be from 1900-01-01 to 2999-12-31",
        ),
    ],
)
async def test_a_date_outside_the_supported_years_is_a_brief_tool_error_naming_it(
    server: MCPServer, client: httpx.AsyncClient, arguments: dict[str, Any], problem: str
) -> None:
    async with Client(server) as mcp:
        for zone in ("Etc/GMT+12", "Etc/GMT-14"):
            user = await _user_in(client, zone)
            message = error_text(await call(mcp, user, "add_task", title="x", **arguments))
            assert f": {problem}" in message, message
            await _result(mcp, user, "add_task", title="Plain")
            message = error_text(await call(mcp, user, "update_task", task_id=1, **arguments))
            assert f": {problem}" in message, message


async def test_completing_a_stored_rule_that_cannot_repeat_says_it_stopped_repeating(
    server: MCPServer, client: httpx.AsyncClient, app: FastAPI
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "UTC")
        for title in ("One", "Two", "Three"):
            await _result(mcp, user, "add_task", title=title, due="2030-01-01", repeat="daily")
        for number in (1, 2, 3):
            await _store(app, user.id, number, repeat_rule="FREQ=DAILY;INTERVAL=0")
        skipped = error_text(await call(mcp, user, "update_task", task_id=1, skip=True))
        assert skipped.endswith(f"Task 1 has no next date to skip to: {INTERVAL_ZERO}")
        done = await _result(mcp, user, "complete_task", task_id=1)
        assert done == {
            "task_id": 1,
            "status": "completed",
            "title": "One",
            "repeat": None,
            "repeat_text": None,
            "repeat_ended": INTERVAL_ZERO,
        }
        updated = await _result(mcp, user, "update_task", task_id=2, completed=True)
        assert (updated["status"], updated["repeat_ended"]) == ("updated", INTERVAL_ZERO)
        bulk = await _result(mcp, user, "complete_task", every="pending")
        assert (bulk["task_ids"], bulk["repeat_ended"]) == ([3], [3])
        listed = await tasks_of(mcp, user)
        assert [(t["completed"], t["repeat"]) for t in listed] == [(True, None)] * 3


async def test_tasks_stored_at_the_ends_of_the_calendar_are_listed_changed_and_completed(
    server: MCPServer, client: httpx.AsyncClient, app: FastAPI
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "Etc/GMT-14")  # UTC+14: 9999-12-31T23:59Z is past 9999
        ends = [
            (date(9999, 12, 31), time(23, 59), datetime(9999, 12, 31, 23, 59, tzinfo=UTC)),
            (date(1, 1, 1), time(0, 0), datetime(1, 1, 1, 0, 0, tzinfo=UTC)),
        ]
        for number, (day, clock, remind_at) in enumerate(ends, start=1):
            await _result(mcp, user, "add_task", title=f"End {number}", due="2030-01-01T09:00")
            await _store(
                app,
                user.id,
                number,
                due_date=day,
                due_time=clock,
                remind_at=remind_at,
                remind_before=None,
            )
        listed = await tasks_of(mcp, user)
        assert [t["due_date"] for t in listed] == ["9999-12-31", "0001-01-01"]
        reminded = await _result(mcp, user, "update_task", task_id=1, remind_before=10)
        assert reminded["before"] == {"remind_at": "9999-12-31T23:59"}  # shown on UTC's clock
        moved = await _result(mcp, user, "update_task", task_id=2, due="2030-01-01")
        assert moved["due_date"] == "2030-01-01"
        done = await _result(mcp, user, "complete_task", every="pending")
        assert done["task_ids"] == [1, 2]
