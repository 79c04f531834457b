"""What a chat turn must spend before any of the product's own code: the architecture's floor.

    .venv/bin/python -m bench.floors [--runs 2000]

Times, in this process, the fixed parts every turn of this architecture goes through, with
nothing of the product's in them:
- `Runner.run` of the Agents SDK with a model that answers at once (no tools);
- the same with one MCP tool call over the in-memory transport to a tool that does nothing,
  the run ending after the tool (as the rule brain's turns do);
- one bare MCP `call_tool` through the SDK's MCP client;
- the turn's database work (open the turn: touch the conversation, read the 50-message
  window, store the user's message; read the tasks; store the reply) as raw asyncpg
  statements on PostgreSQL, without SQLAlchemy.
On uvloop, as the server's workers run. The sum is a lower bound of a turn's worker time here,
before HTTP; compare it with
`bench.turn_cost` (the real turn) and with what a throughput target allows per turn.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import uvloop
from agents import Agent, ModelResponse, RunConfig, Runner
from agents.mcp import MCPUtil
from agents.models.interface import Model
from mcp.server.mcpserver import MCPServer

from backend.agent import sdk_output
from backend.agent.mcp_bridge import InProcessTaskTools
from backend.agent.turn import TurnContext
from bench.run import ADMIN_DSN


class _ScriptedModel(Model):
    """Answers each call with the next of a fixed list of outputs (no work of its own)."""

    def __init__(self, outputs: list[Any]) -> None:
        self._outputs = outputs
        self._calls = 0

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        output = self._outputs[min(self._calls, len(self._outputs) - 1)]
        self._calls += 1
        return ModelResponse(output=[output], usage=sdk_output.no_usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the floor is measured on non-streamed runs")


async def _time(action: Callable[[], Awaitable[object]], runs: int) -> float:
    """This process's CPU ms per call of `action` (mean over `runs`, after a warm-up): the
    worker's cost, without the time spent waiting for PostgreSQL."""
    for _ in range(max(20, runs // 20)):
        await action()
    started = time.process_time()
    for _ in range(runs):
        await action()
    return (time.process_time() - started) / runs * 1000


def _noop_server() -> MCPServer:
    server = MCPServer("floor")

    @server.tool()
    def ping() -> dict[str, Any]:
        """Does nothing."""
        return {"ok": True}

    return server


async def sdk_and_mcp(runs: int) -> dict[str, float]:
    tools = InProcessTaskTools(_noop_server())
    await tools.connect()
    try:
        placeholder: Agent[TurnContext] = Agent(name="floor")
        function_tools = await MCPUtil.get_function_tools(
            tools, convert_schemas_to_strict=False, run_context=None, agent=placeholder
        )
        answer = sdk_output.assistant_message("done", "msg_1")
        plain: Agent[TurnContext] = Agent(name="floor", instructions="floor")
        with_tool: Agent[TurnContext] = Agent(
            name="floor",
            instructions="floor",
            tools=function_tools,
            tool_use_behavior="stop_on_first_tool",
        )

        async def run_plain() -> object:
            config = RunConfig(model=_ScriptedModel([answer]), tracing_disabled=True)
            return await Runner.run(
                plain, "hello", context=TurnContext(user_id=1), run_config=config
            )

        async def run_with_tool() -> object:
            call = sdk_output.function_call("ping", {}, "call_1")
            config = RunConfig(model=_ScriptedModel([call, answer]), tracing_disabled=True)
            return await Runner.run(
                with_tool, "hello", context=TurnContext(user_id=1), run_config=config
            )

        async def bare_call() -> object:
            return await tools.call_tool("ping", {})

        return {
            "runner_no_tools_ms": await _time(run_plain, runs),
            "runner_one_mcp_tool_ms": await _time(run_with_tool, runs),
            "mcp_call_tool_ms": await _time(bare_call, runs),
        }
    finally:
        await tools.cleanup()


_SCHEMA = """
CREATE TABLE conversation (id serial PRIMARY KEY, owner_id int NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE message (id serial PRIMARY KEY, conversation_id int NOT NULL, owner_id int NOT NULL,
    role varchar(16) NOT NULL, content text NOT NULL, tool_calls json, meta json,
    created_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX ON message (conversation_id, id);
CREATE TABLE task (pk serial PRIMARY KEY, owner_id int NOT NULL, id int NOT NULL,
    title varchar(200) NOT NULL, completed boolean NOT NULL DEFAULT false);
INSERT INTO conversation (owner_id) VALUES (1);
INSERT INTO task (owner_id, id, title) SELECT 1, n, 'task ' || n FROM generate_series(1, 5) n;
"""


async def raw_database_turn(runs: int) -> float:
    name = f"bench_floor_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(ADMIN_DSN)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        connection = await asyncpg.connect(f"{ADMIN_DSN.rsplit('/', 1)[0]}/{name}")
        try:
            await connection.execute(_SCHEMA)
            tool_calls = json.dumps([{"name": "list_tasks", "arguments": {}, "result": []}])

            async def turn() -> object:
                async with connection.transaction():
                    await connection.execute(
                        "UPDATE conversation SET updated_at = now() WHERE id = 1 AND owner_id = 1"
                    )
                    await connection.fetch(
                        "SELECT role, content, tool_calls FROM message WHERE conversation_id = 1"
                        " ORDER BY id DESC LIMIT 50"
                    )
                    await connection.execute(
                        "INSERT INTO message (conversation_id, owner_id, role, content)"
                        " VALUES (1, 1, 'user', $1)",
                        "show my tasks",
                    )
                await connection.fetch(
                    "SELECT id, title, completed FROM task WHERE owner_id = 1 ORDER BY id LIMIT 51"
                )
                async with connection.transaction():
                    await connection.execute(
                        "UPDATE conversation SET updated_at = now() WHERE id = 1"
                    )
                    return await connection.execute(
                        "INSERT INTO message (conversation_id, owner_id, role, content,"
                        " tool_calls) VALUES (1, 1, 'assistant', $1, $2)",
                        "Here are your tasks.",
                        tool_calls,
                    )

            return await _time(turn, runs)
        finally:
            await connection.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def measure(runs: int) -> dict[str, float]:
    figures = await sdk_and_mcp(runs)
    figures["raw_asyncpg_turn_ms"] = await raw_database_turn(runs)
    figures["floor_before_http_ms"] = round(
        figures["runner_one_mcp_tool_ms"] + figures["raw_asyncpg_turn_ms"], 3
    )
    return {key: round(value, 3) for key, value in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    for key, value in uvloop.run(measure(args.runs)).items():
        print(f"{key:<24}{value:>9.3f}")


if __name__ == "__main__":
    main()
