from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from backend.core.config import (
    DEV_SECRET_KEY,
    Settings,
    default_database_url,
    project_root,
    settings_problems,
)


def test_development_defaults_to_embedded_sqlite() -> None:
    settings = Settings(_env_file=None)
    assert settings.environment == "development"
    assert settings.database_url.startswith("sqlite+aiosqlite:///")
    assert settings.is_sqlite


@pytest.mark.parametrize("secret", [DEV_SECRET_KEY, "short"])
def test_production_refuses_a_default_or_short_secret(secret: str) -> None:
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(_env_file=None, environment="production", secret_key=secret)


def test_production_accepts_a_long_random_secret() -> None:
    settings = Settings(_env_file=None, environment="production", secret_key="r" * 48)
    assert settings.environment == "production"


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@h/db")
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", "e" * 40)
    settings = Settings(_env_file=None)
    assert settings.database_url == "postgresql+asyncpg://u@h/db"
    assert not settings.is_sqlite


def test_a_configuration_mistake_is_one_sentence_a_setting() -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(
            _env_file=None,
            agent_brain="openai",
            openai_api_key=None,
            chat_requests_per_minute="abc",
        )
    assert settings_problems(refused.value) == [
        "CHAT_REQUESTS_PER_MINUTE: Input should be a valid integer, unable to parse string as "
        "an integer"
    ]
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None, agent_brain="openai", openai_api_key=None)
    assert settings_problems(refused.value) == ["AGENT_BRAIN=openai needs OPENAI_API_KEY"]


def test_the_command_line_says_a_configuration_mistake_and_exits_without_a_traceback(
    tmp_path: Path,
) -> None:
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith("OPENAI_")
    }
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-m", "backend.cli", "serve"],
        cwd=tmp_path,  # no .env of the checkout's is read
        env={
            **environment,
            "AGENT_BRAIN": "openai",
            "ENVIRONMENT": "development",
            "PYTHONPATH": str(root),
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == "todo-chatbot: AGENT_BRAIN=openai needs OPENAI_API_KEY\n"
    assert result.stdout == ""


def test_the_default_database_is_the_checkouts_whatever_the_current_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Desktop MCP clients start the stdio server outside the checkout (issue 33, item 17).
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings = Settings(_env_file=None)
    assert settings.database_url == f"sqlite+aiosqlite:///{root / 'data' / 'todo.db'}"


def test_an_installed_copy_keeps_the_default_database_under_the_current_directory(
    tmp_path: Path,
) -> None:
    # Installed into site-packages, the code belongs to no checkout: no data/ is made there.
    module = tmp_path / "site-packages" / "backend" / "core" / "config.py"
    module.parent.mkdir(parents=True)
    module.touch()
    assert project_root(module) is None
    assert default_database_url(None) == "sqlite+aiosqlite:///./data/todo.db"


def test_an_explicit_relative_database_url_is_kept_as_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The person who set it chose the current directory; the stdio server refuses it when
    # the file is missing (tests/mcp_tools/test_stdio_database.py).
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///./mine.db")
    assert Settings(_env_file=None).database_url == "sqlite+aiosqlite:///./mine.db"
