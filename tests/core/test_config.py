from __future__ import annotations

import pytest
from pydantic import ValidationError

from backend.core.config import DEV_SECRET_KEY, Settings


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
