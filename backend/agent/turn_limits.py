"""What one chat turn may do, whatever its brain: run until a deadline, add at most so many
tasks, and change things only while the user's write budget (the one REST and /mcp spend)
lasts. Checked before every model call and every tool call, so a turn that reaches a limit
stops between steps (inside a long multi-add too): the next call is refused, the run ends, and
its reply says why. A tool call already started is never cut short: its effect happens and is
recorded. Stopping from outside (the time budget, a shutdown) also cancels a model call under
way, which has no effects.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")

TOO_SLOW = (
    "Sorry, that took me too long, so I stopped. Please check your list, then try again "
    "(perhaps in smaller steps) if something is missing."
)
INTERRUPTED = (
    "Sorry, I was interrupted before I could finish (the service is restarting). "
    "Please check your list, then try again if something is missing."
)

# The tools that change tasks (and lists, which a task's new list name makes); each call is
# one write against the user's budget, as one REST request is: "complete all" is one bulk
# call, one write; adding 30 tasks is 30 calls, 30 writes.
# The tools that change something: each call spends the user's write budget.
CHANGING_TOOLS = frozenset(
    {
        "add_task",
        "complete_task",
        "delete_task",
        "update_task",
        "share_list",
        "change_member_role",
        "remove_member",
        "stop_sharing",
        "leave_list",
        "answer_invitation",
    }
)


class StopReason(StrEnum):
    TIME_BUDGET = "time_budget"
    TASK_CAP = "task_cap"
    WRITE_LIMIT = "write_limit"
    INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class Stop:
    reason: StopReason
    # WRITE_LIMIT: the seconds until the user's write budget has room again.
    retry_after: int | None = None


class TurnStoppedError(Exception):
    """Raised into the run when the turn stopped at (or during) a model call."""


# Spends one write of the acting user's budget: None within it, else the seconds to wait.
WriteBudget = Callable[[], Awaitable[int | None]]


@dataclass(frozen=True)
class InFlightCall:
    name: str
    arguments: dict[str, Any]


@dataclass(eq=False)  # compared (and hashed) by identity: a runner keeps a set of them
class TurnLimits:
    """One turn's limits and what it has done against them. Unlimited by default."""

    # Event-loop time after which no model or tool call starts.
    deadline: float | None = None
    max_new_tasks: int | None = None
    writes: WriteBudget | None = None
    # False for a read-only credential: the MCP tools refuse changes (mcp_tools/principal.py).
    may_change: bool = True
    stopped: Stop | None = None
    added: int = 0
    changes: int = 0
    # Tool calls started and not finished: a turn's reply waits for them.
    in_flight: dict[asyncio.Future[Any], InFlightCall] = field(default_factory=dict)
    _model_calls: set[asyncio.Timeout] = field(default_factory=set)
    _halt: asyncio.Event = field(default_factory=asyncio.Event)

    def stop(self, reason: StopReason, retry_after: int | None = None) -> None:
        """Ends the turn at its next step, and now if it is waiting for a model."""
        if self.stopped is not None:
            return
        self.stopped = Stop(reason, retry_after)
        self._halt.set()
        now = asyncio.get_running_loop().time()
        for model_call in self._model_calls:
            model_call.reschedule(now)

    async def halted(self) -> None:
        """Returns once the turn is stopped."""
        await self._halt.wait()

    def _check_deadline(self) -> None:
        if (
            self.stopped is None
            and self.deadline is not None
            and asyncio.get_running_loop().time() >= self.deadline
        ):
            self.stop(StopReason.TIME_BUDGET)

    async def admit(self, tool: str) -> Stop | None:
        """None if a call of `tool` may start now; else the stop that refuses it (the turn is
        stopped from then on)."""
        self._check_deadline()
        if self.stopped is None and tool in CHANGING_TOOLS:
            if tool == "add_task" and self.max_new_tasks is not None:
                if self.added >= self.max_new_tasks:
                    self.stop(StopReason.TASK_CAP)
            if self.stopped is None and self.writes is not None:
                wait = await self.writes()
                if wait is not None:
                    self.stop(StopReason.WRITE_LIMIT, wait)
        return self.stopped

    async def model_call(self, work: Awaitable[T]) -> T:
        """`work` (a model call), unless the turn stops first: then it is cancelled and
        TurnStoppedError raised."""
        self._check_deadline()
        if self.stopped is not None:
            if inspect.iscoroutine(work):
                work.close()
            raise TurnStoppedError(self.stopped.reason)
        try:
            async with asyncio.timeout(None) as scope:
                self._model_calls.add(scope)
                try:
                    return await work
                finally:
                    self._model_calls.discard(scope)
        except TimeoutError as exc:
            if self.stopped is None:
                raise
            raise TurnStoppedError(self.stopped.reason) from exc

    def started(self, call: asyncio.Future[Any], name: str, arguments: dict[str, Any]) -> None:
        self.in_flight[call] = InFlightCall(name, arguments)
        call.add_done_callback(self._finished)

    def _finished(self, call: asyncio.Future[Any]) -> None:
        self.in_flight.pop(call, None)

    def record(self, name: str, result: Any) -> None:
        """Counts a finished call against the limits."""
        if name in CHANGING_TOOLS and not (isinstance(result, dict) and "error" in result):
            self.changes += 1
        if name == "add_task" and isinstance(result, dict) and result.get("status") == "created":
            self.added += 1


def notice(stop: Stop, limits: TurnLimits, tool_calls: list[dict[str, Any]]) -> str:
    """The reply of a turn a limit stopped: what it did, and why it stopped there."""
    if stop.reason is StopReason.TASK_CAP:
        cap = limits.max_new_tasks or 0
        added = [
            str(call["result"].get("title"))
            for call in tool_calls
            if call["name"] == "add_task"
            and isinstance(call["result"], dict)
            and call["result"].get("status") == "created"
        ]
        last = f", up to '{added[-1]}'" if added else ""
        return (
            f"I added the first {cap} tasks{last}: one message can add at most {cap}. "
            "Please send the rest in another message."
        )
    if stop.reason is StopReason.WRITE_LIMIT:
        done = ""
        if limits.changes:
            done = f" after {limits.changes} change{'s' if limits.changes != 1 else ''}"
        wait = stop.retry_after or 60
        return (
            f"You've made too many changes in the last minute, so I stopped here{done}. "
            f"Please wait {wait} seconds, then ask me again for the rest."
        )
    if stop.reason is StopReason.INTERRUPTED:
        return INTERRUPTED
    return TOO_SLOW


def refusal(stop: Stop) -> str:
    """What a refused tool call returns to the model (its run ends right after)."""
    return {
        StopReason.TIME_BUDGET: "Stopped: the turn's time is up",
        StopReason.TASK_CAP: "Stopped: one message can add no more tasks",
        StopReason.WRITE_LIMIT: "Stopped: too many changes in the last minute",
        StopReason.INTERRUPTED: "Stopped: the service is restarting",
    }[stop.reason]
