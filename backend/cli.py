"""`todo-chatbot serve | migrate`."""

from __future__ import annotations

import argparse
import asyncio
import logging

import uvicorn

from backend.core.config import get_settings
from backend.core.db import create_engine
from backend.core.migrate import migrate


async def _migrate() -> None:
    engine = create_engine(get_settings())
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="todo-chatbot")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the web service (migrates first)")
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--reload", action="store_true")
    commands.add_parser("migrate", help="bring the database to the newest schema")
    args = parser.parse_args(argv)

    settings = get_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    if args.command == "migrate":
        asyncio.run(_migrate())
        return
    uvicorn.run(
        "backend.main:app",
        host=settings.host,
        port=settings.port,
        workers=args.workers,
        reload=args.reload,
        log_level=settings.log_level.lower(),
    )


if __name__ == "__main__":
    main()
