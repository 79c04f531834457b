"""Ready-to-paste settings for the clients that connect to the service (specs/connections.md),
filled in with a personal access token: one builder, so `todo-chatbot mcp-config` and the
web UI print the same thing.

- **Claude Desktop and other stdio MCP clients** (`claude_desktop_config.json`'s
  `mcpServers`): this checkout's Python running `-m mcp_tools`, with `MCP_USER_TOKEN` and the
  database it opens. A personal access token needs no `SECRET_KEY`. The database URL is given
  as the service has it, but a password in it is printed only when the operator asks
  (`reveal_password`, the CLI's `--show-database-password`): `PASSWORD` stands in.
- **Streamable-HTTP MCP clients** (Claude Code's `.mcp.json` and Cursor's `mcp.json` under
  `mcpServers`; VS Code's `mcp.json` takes the same entry under `servers`): the service's
  `/mcp/` with the token as the bearer.
- **OpenAI-compatible clients**: the base URL `/v1`, the token as the API key, the model.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from backend.core.config import Settings

MODEL_ID = "todo-assistant"
SERVER_NAME = "todo"
PASSWORD_PLACEHOLDER = "PASSWORD"
# What the web UI's copy of the settings holds where its new token goes.
TOKEN_PLACEHOLDER = "<token>"


def database_url_for_clients(database_url: str, *, reveal_password: bool = False) -> str:
    """The database URL a stdio client's server should open: a SQLite file as an absolute
    path (a desktop client starts it in a directory of its own), a password hidden unless
    `reveal_password` (the config file would then open every account's data)."""
    url = make_url(database_url)
    if url.drivername.startswith("sqlite") and url.database and url.database != ":memory:":
        if not url.database.startswith("file:"):
            url = url.set(database=str(Path(url.database).resolve()))
    if url.password and not reveal_password:
        url = url.set(password=PASSWORD_PLACEHOLDER)
    return url.render_as_string(hide_password=False)


def stdio_config(
    settings: Settings, token: str, *, reveal_password: bool = False
) -> dict[str, Any]:
    database_url = database_url_for_clients(settings.database_url, reveal_password=reveal_password)
    return {
        "mcpServers": {
            SERVER_NAME: {
                "command": sys.executable,
                "args": ["-m", "mcp_tools"],
                "env": {"DATABASE_URL": database_url, "MCP_USER_TOKEN": token},
            }
        }
    }


def http_config(base_url: str, token: str) -> dict[str, Any]:
    return {
        "mcpServers": {
            SERVER_NAME: {
                "type": "http",
                "url": f"{base_url}/mcp/",
                "headers": {"Authorization": f"Bearer {token}"},
            }
        }
    }


def openai_config(base_url: str, token: str) -> dict[str, Any]:
    return {"base_url": f"{base_url}/v1", "api_key": token, "model": MODEL_ID}


def client_configs(
    settings: Settings,
    token: str,
    *,
    base_url: str | None = None,
    reveal_password: bool = False,
) -> dict[str, dict[str, Any]]:
    """Every client's settings, by kind: `claude` (stdio), `http`, `openai`. The service's
    address is `base_url` if given (where a browser reached it), else the settings'
    (`PUBLIC_URL`, or `HOST` and `PORT`). The database's password only with
    `reveal_password`, which only the operator's CLI passes."""
    address = (base_url or settings.base_url).rstrip("/")
    return {
        "claude": stdio_config(settings, token, reveal_password=reveal_password),
        "http": http_config(address, token),
        "openai": openai_config(address, token),
    }
