"""Due dates, priorities, lists and tags through the MCP tools (issue 14), on both databases.

Older calls keep their exact results (tests/mcp_tools/test_server.py); these are the new
arguments, what the results echo, and the list filters.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from mcp import Client
from mcp.server.mcpserver import MCPServer

from backend.domain.due import today_in
from tests.conftest import UserSession, register
from tests.mcp_tools.test_server import call, error_text, server, tasks_of

__all__ = ["server"]  # the fixture, shared

ZONE = "Pacific/Kiritimati"  # UTC+14: its today is often the server's tomorrow


async def _user_in(client: httpx.AsyncClient, zone: str = ZONE) -> UserSession:
    user = await register(client)
    response = await client.patch("/api/auth/me", json={"timezone": zone}, headers=user.headers)
    assert response.status_code == 200, response.text
    return user


def _day(offset: int, zone: str = ZONE) -> str:
    return (today_in(zone) + timedelta(days=offset)).isoformat()


async def _result(mcp: Client, user: UserSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await call(mcp, user, tool, **arguments)
    assert result.is_error is False, result.content
    assert result.structured_content is not None
    return result.structured_content


async def test_add_task_keeps_a_due_time_priority_list_and_tags_and_echoes_them(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        added = await _result(
            mcp,
            user,
            "add_task",
            title="Pay rent",
            due=f"{_day(1)}T09:00",
            priority="high",
            list="bills",
            tags=["#Home", "money"],
        )
        assert added == {
            "task_id": 1,
            "status": "created",
            "title": "Pay rent",
            "due_date": _day(1),
            "due_time": "09:00",
            "due_label": "tomorrow 09:00",
            "priority": "high",
            "list": "bills",
            "tags": ["home", "money"],
        }
        [rent] = await tasks_of(mcp, user)
        assert (rent["due_date"], rent["due_time"], rent["priority"]) == (_day(1), "09:00", "high")
        assert (rent["list"], rent["tags"], rent["due_label"]) == (
            "bills",
            ["home", "money"],
            "tomorrow 09:00",
        )
        # 09:00 at UTC+14 is 19:00 UTC the day before
        instant = datetime.fromisoformat(rent["due_at"])
        assert instant.replace(tzinfo=instant.tzinfo or UTC).astimezone(UTC).hour == 19
        lists = (await client.get("/api/lists", headers=user.headers)).json()
        assert "bills" in [entry["name"] for entry in lists]


async def test_an_add_without_the_new_arguments_gets_the_result_it_always_got(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        added = await _result(mcp, user, "add_task", title="Buy milk")
        assert added == {"task_id": 1, "status": "created", "title": "Buy milk"}
        [milk] = await tasks_of(mcp, user)
        assert milk["list"] == "Inbox" and milk["priority"] == "none" and milk["tags"] == []
        assert milk["due_date"] is milk["due_label"] is milk["due_at"] is None


async def test_a_due_with_an_offset_is_moved_into_the_users_zone(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "America/New_York")
        added = await _result(mcp, user, "add_task", title="Call", due="2030-01-15T15:30:00Z")
        assert (added["due_date"], added["due_time"]) == ("2030-01-15", "10:30")


async def test_a_due_that_is_not_an_iso_date_is_refused_with_what_is_expected(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        for bad in ("next friday", "2026-02-30", "25/11/2026"):
            message = error_text(await call(mcp, user, "add_task", title="x", due=bad))
            assert "Invalid due: due must be an ISO date" in message, message
        assert await tasks_of(mcp, user) == []
        message = error_text(await call(mcp, user, "add_task", title="x", priority="urgent"))
        assert "Invalid priority" in message, message


async def test_update_task_changes_and_clears_each_field(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        await _result(mcp, user, "add_task", title="Dentist", due=_day(2), tags=["health"])
        moved = await _result(mcp, user, "update_task", task_id=1, due=f"{_day(3)}T14:15")
        assert (moved["due_date"], moved["due_time"]) == (_day(3), "14:15")
        assert moved["title"] == "Dentist" and "priority" not in moved
        # what the changed fields were, as update_task arguments (an undo is one call)
        assert moved["before"] == {"due": _day(2)}
        tagged = await _result(mcp, user, "update_task", task_id=1, add_tags=["#work", "health"])
        assert tagged["tags"] == ["health", "work"]
        assert tagged["before"] == {"tags": ["health"]}
        cleared = await _result(
            mcp, user, "update_task", task_id=1, due="none", priority="none", tags=[]
        )
        assert (cleared["due_date"], cleared["due_time"], cleared["due_label"]) == (None,) * 3
        assert (cleared["priority"], cleared["tags"]) == ("none", [])
        assert cleared["before"] == {
            "due": f"{_day(3)}T14:15",
            "priority": "none",
            "tags": ["health", "work"],
        }
        listed = await _result(mcp, user, "update_task", task_id=1, list="Errands")
        assert listed["list"] == "Errands"
        [task] = await tasks_of(mcp, user)
        assert (task["due_date"], task["list"], task["tags"]) == (None, "Errands", [])
        message = error_text(await call(mcp, user, "update_task", task_id=9, due=_day(1)))
        assert message.endswith("Task 9 not found")


async def test_list_tasks_filters_and_sorts_like_the_rest_api(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        adds: list[dict[str, Any]] = [
            {"title": "Old bill", "due": _day(-2), "priority": "high", "list": "bills"},
            {"title": "Milk", "list": "Shopping", "tags": ["food"]},
            {"title": "Report", "due": _day(0), "priority": "low", "tags": ["work"]},
            {"title": "Call bank", "due": _day(1), "priority": "medium"},
        ]
        for arguments in adds:
            await _result(mcp, user, "add_task", **arguments)

        async def titles(**filters: Any) -> list[str]:
            result = await _result(mcp, user, "list_tasks", **filters)
            return [task["title"] for task in result["result"]]

        assert await titles(due="overdue") == ["Old bill"]
        assert await titles(due="today") == ["Report"]
        assert await titles(due="tomorrow") == ["Call bank"]
        assert await titles(due="no_date") == ["Milk"]
        assert await titles(list="shopping") == ["Milk"]
        assert await titles(tag="#work") == ["Report"]
        assert await titles(priority="high") == ["Old bill"]
        assert await titles(q="BANK") == ["Call bank"]
        assert await titles(sort="priority") == ["Old bill", "Call bank", "Report", "Milk"]
        assert await titles(sort="due") == ["Old bill", "Report", "Call bank", "Milk"]
        assert await titles(sort="due", limit=2) == ["Old bill", "Report"]
        labels = {
            task["title"]: task["due_label"]
            for task in (await _result(mcp, user, "list_tasks"))["result"]
        }
        assert labels == {
            "Old bill": "overdue by 2 days",
            "Milk": None,
            "Report": "today",
            "Call bank": "tomorrow",
        }
        assert (await call(mcp, user, "list_tasks", due="someday")).is_error is True


async def test_the_new_filters_never_show_another_users_tasks(
    server: MCPServer, client: httpx.AsyncClient, app: FastAPI
) -> None:
    async with Client(server) as mcp:
        owner, stranger = await _user_in(client), await _user_in(client)
        await _result(mcp, owner, "add_task", title="Secret", due=_day(0), list="private")
        for filters in ({"due": "today"}, {"list": "private"}, {"q": "Secret"}, {"sort": "due"}):
            result = await _result(mcp, stranger, "list_tasks", **filters)
            assert result["result"] == [], filters
        message = error_text(await call(mcp, stranger, "update_task", task_id=1, due="none"))
        assert message.endswith("Task 1 not found")


async def test_a_repeating_task_added_completed_and_stopped_through_the_tools(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        added = await _result(
            mcp, user, "add_task", title="Pay rent", due="2030-01-31T09:00", repeat="every 31st"
        )
        assert added["repeat_text"] == "every month on the 31st"
        assert added["repeat"] == "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"
        done = await _result(mcp, user, "complete_task", task_id=1)
        # the same task, still pending, moved to February's last day; its old date given back
        assert (done["status"], done["due_date"], done["due_time"]) == (
            "completed",
            "2030-02-28",
            "09:00",
        )
        assert done["before"] == {"due": "2030-01-31T09:00"}
        [task] = await tasks_of(mcp, user)
        assert (task["completed"], task["repeat_text"]) == (False, "every month on the 31st")
        undone = await _result(mcp, user, "update_task", task_id=1, due=done["before"]["due"])
        assert undone["due_date"] == "2030-01-31"
        stopped = await _result(mcp, user, "update_task", task_id=1, repeat="none")
        assert (stopped["repeat"], stopped["repeat_text"]) == (None, None)
        assert stopped["before"]["repeat"] == "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"
        closed = await _result(mcp, user, "complete_task", task_id=1)
        assert closed == {"task_id": 1, "status": "completed", "title": "Pay rent"}


async def test_completing_every_pending_task_moves_the_repeating_ones_on(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        await _result(mcp, user, "add_task", title="Once")
        await _result(mcp, user, "add_task", title="Weekly", due="2030-01-07", repeat="weekly")
        bulk = await _result(mcp, user, "complete_task", every="pending")
        assert (bulk["task_ids"], bulk["count"]) == ([1, 2], 2)
        once, weekly = await tasks_of(mcp, user)
        assert (once["completed"], weekly["completed"], weekly["due_date"]) == (
            True,
            False,
            "2030-01-14",
        )
        message = error_text(await call(mcp, user, "add_task", title="x", repeat="whenever"))
        assert "repeat" in message


async def test_skip_moves_a_repeating_task_on_without_completing_it(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        await _result(mcp, user, "add_task", title="Bins", due="2030-01-07", repeat="every monday")
        skipped = await _result(mcp, user, "update_task", task_id=1, skip=True)
        assert (skipped["due_date"], skipped["before"]) == ("2030-01-14", {"due": "2030-01-07"})
        [bins] = await tasks_of(mcp, user)
        assert (bins["completed"], bins["due_date"]) == (False, "2030-01-14")
        await _result(mcp, user, "add_task", title="Once")
        message = error_text(await call(mcp, user, "update_task", task_id=2, skip=True))
        assert message.endswith("Task 2 does not repeat")


async def test_reminders_through_the_tools_echo_when_on_the_users_clock_and_undo(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "Europe/London")
        added = await _result(
            mcp, user, "add_task", title="Dentist", due="2030-07-01T10:00", remind_before=30
        )
        assert (added["remind_at"], added["remind_before"]) == ("2030-07-01T09:30", 30)
        assert added["remind_label"] == "Mon 1 Jul 2030 09:30, 30 minutes before"
        fixed = await _result(
            mcp, user, "update_task", task_id=1, remind_at="2030-07-01T18:00"
        )  # after the due: a fixed time
        assert (fixed["remind_at"], fixed["remind_before"]) == ("2030-07-01T18:00", None)
        assert fixed["before"] == {"remind_before": 30}
        undone = await _result(mcp, user, "update_task", task_id=1, **fixed["before"])
        assert undone["remind_at"] == "2030-07-01T09:30"
        off = await _result(mcp, user, "update_task", task_id=1, remind_at="none")
        assert (off["remind_at"], off["remind_label"], off["before"]) == (
            None,
            None,
            {"remind_before": 30},
        )
        task = (await client.get("/api/tasks/1", headers=user.headers)).json()
        assert (task["remind_at"], task["remind_before"]) == (None, None)


async def test_a_timed_task_added_through_the_tools_reminds_at_its_time_unasked(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "UTC")
        added = await _result(mcp, user, "add_task", title="Call", due="2030-07-01T10:00")
        assert "remind_at" not in added  # an older client's result, as it always was
        task = (await client.get("/api/tasks/1", headers=user.headers)).json()
        assert (task["remind_at"], task["remind_before"]) == ("2030-07-01T10:00:00Z", 0)
        await _result(mcp, user, "complete_task", every="pending")
        task = (await client.get("/api/tasks/1", headers=user.headers)).json()
        assert (task["completed"], task["remind_at"]) == (True, None)


async def test_reminders_the_tools_cannot_keep_are_refused_with_a_reason(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client, "UTC")
        past = error_text(
            await call(mcp, user, "add_task", title="x", remind_at="2020-01-01T09:00")
        )
        assert past.endswith("remind_at must be in the future")
        undated = error_text(await call(mcp, user, "add_task", title="x", remind_before=10))
        assert undated.endswith("remind_before needs a due_date (the task has none)")
        garbled = error_text(await call(mcp, user, "add_task", title="x", remind_at="soonish"))
        assert "Invalid remind_at" in garbled
        assert (await client.get("/api/tasks", headers=user.headers)).json() == []


async def test_list_tasks_keeps_the_tasks_due_in_a_range_of_days(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        adds: list[dict[str, Any]] = [
            {"title": "Yesterday", "due": _day(-1)},
            {"title": "Today", "due": f"{_day(0)}T23:30"},
            {"title": "Tomorrow", "due": _day(1)},
            {"title": "In five days", "due": _day(5)},
            {"title": "In ten days", "due": _day(10)},
            {"title": "Undated"},
        ]
        for arguments in adds:
            await _result(mcp, user, "add_task", **arguments)
        await _result(mcp, user, "complete_task", task_id=3)  # Tomorrow

        async def listed(**filters: Any) -> tuple[list[str], int]:
            result = await call(mcp, user, "list_tasks", **filters)
            assert result.is_error is False, result.content
            assert result.structured_content is not None and result.meta is not None
            titles = [task["title"] for task in result.structured_content["result"]]
            return titles, result.meta["total"]

        assert await listed(due_from=_day(0), due_to=_day(0)) == (["Today"], 1)
        assert await listed(due_from=_day(5)) == (["In five days", "In ten days"], 2)
        assert await listed(due_to=_day(0)) == (["Yesterday", "Today"], 2)
        wide = {"due_from": _day(-1), "due_to": _day(9)}
        assert await listed(**wide, limit=2) == (["Yesterday", "Today"], 4)
        assert await listed(**wide, due="next_7_days") == (
            ["Today", "Tomorrow", "In five days"],
            3,
        )
        assert await listed(**wide, due="next_7_days", status="pending") == (
            ["Today", "In five days"],
            2,
        )
        assert await listed(**wide, due="no_date") == ([], 0)  # undated: in no range
        assert await listed(due_from="1900-01-01") == (
            ["Yesterday", "Today", "Tomorrow", "In five days", "In ten days"],
            5,
        )


async def test_list_tasks_refuses_a_range_that_is_not_iso_days_or_ends_before_it_starts(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        await _result(mcp, user, "add_task", title="Dentist", due=_day(1))
        for bad in ("next friday", "2026-02-30", "26/11/2026", "20261126", "2026-11-26T09:00"):
            message = error_text(await call(mcp, user, "list_tasks", due_from=bad))
            assert message.endswith(
                "Invalid due_from: give an ISO date (2026-11-26), a day on the user's clock, "
                f"not {bad!r}"
            ), message
        message = error_text(await call(mcp, user, "list_tasks", due_to="soon"))
        assert "Invalid due_to: give an ISO date (2026-11-26)" in message, message
        backwards = error_text(
            await call(mcp, user, "list_tasks", due_from="2030-11-27", due_to="2030-11-26")
        )
        assert backwards.endswith(
            "due_from (2030-11-27) is after due_to (2030-11-26): a range runs from its first "
            "day to its last"
        ), backwards
        # the tools still answer afterwards
        assert [task["title"] for task in await tasks_of(mcp, user)] == ["Dentist"]


async def test_remove_tags_takes_off_only_the_named_tags_and_undoes_to_the_old_ones(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        await _result(mcp, user, "add_task", title="Report", tags=["work", "urgent", "q4"])
        removed = await _result(
            mcp, user, "update_task", task_id=1, remove_tags=["#Urgent", "home", "q4"]
        )
        # "home" is not one of its tags: simply not there
        assert removed["tags"] == ["work"]
        assert removed["before"] == {"tags": ["work", "urgent", "q4"]}
        [task] = await tasks_of(mcp, user)
        assert task["tags"] == ["work"]
        undone = await _result(mcp, user, "update_task", task_id=1, **removed["before"])
        assert undone["tags"] == ["work", "urgent", "q4"]
        assert undone["before"] == {"tags": ["work"]}


async def test_remove_tags_of_tags_it_does_not_have_changes_nothing_and_may_empty_them(
    server: MCPServer, client: httpx.AsyncClient
) -> None:
    async with Client(server) as mcp:
        user = await _user_in(client)
        await _result(mcp, user, "add_task", title="Gym", tags=["health"])
        await _result(mcp, user, "add_task", title="Milk")
        absent = await _result(mcp, user, "update_task", task_id=1, remove_tags=["work"])
        assert (absent["tags"], absent["before"]) == (["health"], {"tags": ["health"]})
        untagged = await _result(mcp, user, "update_task", task_id=2, remove_tags=["x"])
        assert (untagged["tags"], untagged["before"]) == ([], {"tags": []})
        emptied = await _result(mcp, user, "update_task", task_id=1, remove_tags=["health"])
        assert (emptied["tags"], emptied["before"]) == ([], {"tags": ["health"]})
        # with add_tags in the same call: taken off first, then added
        both = await _result(
            mcp, user, "update_task", task_id=1, add_tags=["home"], remove_tags=["health"]
        )
        assert both["tags"] == ["home"]
        message = error_text(await call(mcp, user, "update_task", task_id=9, remove_tags=["x"]))
        assert message.endswith("Task 9 not found")
