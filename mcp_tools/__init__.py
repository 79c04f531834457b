"""The MCP server: the five task tools, over the task service, served in-process, over
streamable HTTP at /mcp and over stdio (`python -m mcp_tools`)."""

from mcp_tools.server import build_task_server

__all__ = ["build_task_server"]
