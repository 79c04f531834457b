"""Brings a database to the newest Alembic revision; safe when several workers start at once."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
# Any constant works; it only has to be the same for every worker of this app.
_PG_MIGRATION_LOCK_ID = 7_240_311


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Serialises concurrent start-ups; released when the transaction ends.
        connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _PG_MIGRATION_LOCK_ID})
    command.upgrade(alembic_config(connection), "head")


async def migrate(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)
