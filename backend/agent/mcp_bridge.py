"""The agent's side of the in-process MCP connection to the task tools.

Real MCP protocol over in-memory streams: one connection per app, opened by the lifespan,
with the tool list cached. Each call carries the acting user in `_meta` (taken from the run
context, never from the model), the model-facing schemas omit `user_id`, and tool errors
reach the model as `{"error": "..."}` JSON instead of free text.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from agents import Agent, ModelBehaviorError, RunContextWrapper
from agents.agent import AgentBase
from agents.mcp import MCPToolMetaContext
from agents.mcp.server import _MCPServerWithClientSession
from mcp.client._memory import InMemoryTransport
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, Tool

from backend.agent.turn import TurnContext
from backend.models.tool_results import ToolFailure
from mcp_tools.principal import principal_meta

logger = logging.getLogger(__name__)

_ERROR_PREFIX = "Error executing tool "
TOOL_FAILURE = "The tool failed unexpectedly"


async def _validated_by_the_server(name: str, result: CallToolResult) -> None:
    """In-process, a tool's structured result was validated by the server that built it."""


def _trust_results(session: object) -> None:
    """The server built each result as its pydantic model (backend/models/tool_results.py)
    and MCP validated it there; the client would check it again against the same schema in
    pure-Python jsonschema, about 5 µs a field (a list of 51 tasks: ~15% of a turn's
    instructions). Server and client are one program, so the in-process client trusts it
    (the option specs/upstream-drafts.md, 2, proposes upstream)."""
    setattr(session, "validate_tool_result", _validated_by_the_server)  # noqa: B010


def failure_json(message: str) -> str:
    """A refused or failed call as its tool output: the ToolFailure model's JSON, spaced as
    `json.dumps` always spaced it (what an LLM reads stays the same)."""
    return json.dumps(ToolFailure(error=message).model_dump())


def _principal_meta(context: MCPToolMetaContext) -> dict[str, Any]:
    turn = context.run_context.context
    if not isinstance(turn, TurnContext):
        raise TypeError("task tools need a TurnContext run context")
    return principal_meta(turn.user_id, may_change=turn.limits.may_change)


def _tool_failure(_context: RunContextWrapper[Any], error: Exception) -> str:
    if isinstance(error, ModelBehaviorError):
        # Malformed arguments from a model: end the turn (friendly reply), do not improvise.
        raise error
    logger.error("task tool call failed", exc_info=error)
    return failure_json(TOOL_FAILURE)


def _without_user_id(tool: Tool) -> Tool:
    schema = dict(tool.input_schema)
    properties = dict(schema.get("properties") or {})
    properties.pop("user_id", None)
    schema["properties"] = properties
    if "required" in schema:
        schema["required"] = [name for name in schema["required"] if name != "user_id"]
    return tool.model_copy(update={"input_schema": schema})


# pydantic's report on a tool's arguments: "1 validation error for delete_taskArguments\n
# task_id\n  Input should be ... [type=..., input_value=...]\n    For further information ..."
_ARGUMENT_ERROR = re.compile(
    r"^\d+ validation errors? for \w+Arguments\n(?P<field>[^\n]+)\n\s+(?P<problem>[^\n\[]+)"
)


def _error_message(result: CallToolResult) -> str:
    text = " ".join(getattr(block, "text", "") for block in result.content).strip()
    if text.startswith(_ERROR_PREFIX):
        _, _, detail = text[len(_ERROR_PREFIX) :].partition(":")
        text = detail.strip()
    invalid = _ARGUMENT_ERROR.match(text)
    if invalid:
        # Users (and models) get the gist, not pydantic's internals and links.
        return f"Invalid {invalid['field'].strip()}: {invalid['problem'].strip()}"
    return text or TOOL_FAILURE


class InProcessTaskTools(_MCPServerWithClientSession):
    def __init__(self, server: MCPServer) -> None:
        super().__init__(
            cache_tools_list=True,
            client_session_timeout_seconds=30,
            use_structured_content=True,
            tool_meta_resolver=_principal_meta,
            failure_error_function=_tool_failure,
        )
        self._server = server
        self._model_tools: list[Tool] | None = None
        self._trusted: object = None  # the session told to trust the server's results

    @property
    def name(self) -> str:
        return self._server.name

    def create_streams(self) -> InMemoryTransport:
        return InMemoryTransport(self._server)

    async def list_tools(
        self,
        run_context: RunContextWrapper[Any] | None = None,
        agent: AgentBase | Agent[Any] | None = None,
    ) -> list[Tool]:
        # The server's tools never change while it runs: fetch and strip them once, instead
        # of the SDK's defensive deep copy on every turn.
        if self._model_tools is None:
            tools = await super().list_tools(run_context, agent)
            self._model_tools = [_without_user_id(tool) for tool in tools]
        return list(self._model_tools)

    async def call_tool(
        self, tool_name: str, arguments: dict[str, Any] | None, meta: dict[str, Any] | None = None
    ) -> CallToolResult:
        if self.session is not None and self._trusted is not self.session:
            _trust_results(self.session)
            self._trusted = self.session
        result = await super().call_tool(tool_name, arguments, meta)
        if not result.is_error:
            return result
        message = _error_message(result)
        if message == TOOL_FAILURE or message == "":
            logger.error("task tool %s failed inside the server", tool_name)
        return CallToolResult(
            content=[TextContent(type="text", text=failure_json(message))],
            is_error=True,
        )
