"""Alembic environment: runs on a connection handed over by backend.core.migrate."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import backend.models  # noqa: F401  (registers every table on SQLModel.metadata)

target_metadata = SQLModel.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `todo-chatbot migrate`, not bare alembic")
_run(connection)
