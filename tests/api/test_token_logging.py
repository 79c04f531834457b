"""Personal access tokens never reach the logs: `todo-chatbot serve` at DEBUG, with its access
log, is sent right, wrong, revoked and read-only tokens on REST, chat and /mcp, and the whole
log is searched for any of them."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.conftest import register
from tests.live_server import cli_server

MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


async def test_no_token_is_ever_written_to_the_log(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    database = f"sqlite+aiosqlite:///{tmp_path / 'todo.db'}"
    with cli_server(database, log, LOG_LEVEL="DEBUG") as (url, _process):
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            user = await register(http)
            secrets = []
            for scope in ("write", "read"):
                made = await http.post(
                    "/api/tokens", json={"name": scope, "scope": scope}, headers=user.headers
                )
                secrets.append(made.json()["token"])
            write, read = secrets
            wrong = "tdc_" + "W" * 43
            for token in (write, read, wrong):
                bearer = {"Authorization": f"Bearer {token}"}
                await http.get("/api/tasks", headers=bearer)
                await http.post("/api/tasks", json={"title": "milk"}, headers=bearer)
                await http.post("/api/chat", json={"message": "add buy eggs"}, headers=bearer)
                await http.post("/mcp/", json=LIST_TOOLS, headers=bearer | MCP_HEADERS)
            listed = (await http.get("/api/tokens", headers=user.headers)).json()
            await http.delete(f"/api/tokens/{listed[0]['id']}", headers=user.headers)
            await http.get("/api/tasks", headers={"Authorization": f"Bearer {write}"})
    written = log.read_text()
    assert "GET /api/tasks" in written  # the log was written, at the level asked for
    for token in (write, read, wrong):
        assert token not in written
        assert token[4:] not in written  # nor its secret part without the prefix
