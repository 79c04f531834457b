"""`todo-chatbot serve | migrate`."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

import uvicorn

from backend.core.config import get_settings
from backend.core.db import create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.services import backup


async def _migrate() -> None:
    engine = create_engine(get_settings())
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


async def _export(email: str) -> dict[str, Any]:
    engine = create_engine(get_settings())
    try:
        await migrate(engine)
        async with create_sessionmaker(engine)() as session:
            return await backup.export_user(session, email=email)
    finally:
        await engine.dispose()


async def _import(document: dict[str, Any]) -> str:
    engine = create_engine(get_settings())
    try:
        await migrate(engine)
        async with create_sessionmaker(engine)() as session:
            user = await backup.import_user(session, document)
            return user.email
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="todo-chatbot")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the web service (migrates first)")
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--reload", action="store_true")
    commands.add_parser("migrate", help="bring the database to the newest schema")
    exporter = commands.add_parser("export", help="write a user's data as JSON (a backup)")
    exporter.add_argument("--email", required=True)
    exporter.add_argument("--out", type=Path, help="file to write (default: standard output)")
    importer = commands.add_parser("import", help="restore a user exported with `export`")
    importer.add_argument("file", type=Path)
    args = parser.parse_args(argv)

    settings = get_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    if args.command == "migrate":
        asyncio.run(_migrate())
        return
    if args.command == "export":
        try:
            document = asyncio.run(_export(args.email))
        except LookupError as exc:
            parser.exit(1, f"todo-chatbot: {exc}\n")
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        if args.out:
            args.out.write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return
    if args.command == "import":
        try:
            email = asyncio.run(_import(json.loads(args.file.read_text(encoding="utf-8"))))
        except (backup.ImportConflictError, ValueError, KeyError) as exc:
            parser.exit(1, f"todo-chatbot: cannot import: {exc}\n")
        sys.stdout.write(f"imported {email}\n")
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
