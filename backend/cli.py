"""`todo-chatbot serve | migrate | export | import | reminders | mcp-config`."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import uvicorn
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from backend.chat.turns import shutdown_seconds
from backend.core.config import get_settings, settings_problems
from backend.core.db import create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.models import TokenScope
from backend.models.access_token import EXPIRES_IN_DAYS_MAX
from backend.notifications.delivery import Delivery
from backend.reminders.scheduler import PROCESS_BATCH, ReminderScheduler
from backend.services import access_tokens, backup, connections, users
from backend.services.backup_format import BackupInvalidError, UserBackup, parse_backup

# Problems listed for a refused import; a file wrong throughout would otherwise print thousands.
_MAX_PROBLEMS_SHOWN = 50


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


async def _new_token(email: str, name: str, scope: TokenScope, days: int | None) -> str:
    """A new personal access token for the account `email` (LookupError: no such account)."""
    engine = create_engine(get_settings())
    try:
        await migrate(engine)
        async with create_sessionmaker(engine)() as session:
            user = await users.get_user_by_email(session, email=email)
            if user is None or user.id is None:
                raise LookupError(f"no account with the email {email}")
            _row, secret = await access_tokens.create_token(
                session, owner_id=user.id, name=name, scope=scope, expires_in_days=days
            )
            return secret
    finally:
        await engine.dispose()


def _days(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= EXPIRES_IN_DAYS_MAX:
        raise argparse.ArgumentTypeError(f"a whole number of days, 1 to {EXPIRES_IN_DAYS_MAX}")
    return int(text)


def _mcp_config_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    token: str | None = args.token
    if token is None and args.email is None:
        parser.exit(2, "todo-chatbot: mcp-config needs --email (to make a token) or --token\n")
    if token is not None and not access_tokens.looks_like_token(token):
        parser.exit(2, "todo-chatbot: --token takes a personal access token (tdc_...)\n")
    if token is None:
        try:
            token = asyncio.run(
                _new_token(args.email, args.name, TokenScope(args.scope), args.expires_in_days)
            )
        except LookupError as exc:
            parser.exit(2, f"todo-chatbot: {exc.args[0]}\n")
    configs = connections.client_configs(
        get_settings(), token, reveal_password=args.show_database_password
    )
    shown = configs if args.format == "all" else configs[args.format]
    sys.stdout.write(json.dumps(shown, indent=2) + "\n")


async def _import(document: UserBackup) -> str:
    settings = get_settings()
    engine = create_engine(settings)
    try:
        await migrate(engine)
        async with create_sessionmaker(engine)() as session:
            user = await backup.import_user(
                session,
                document,
                max_tasks=settings.max_tasks_per_user,
                max_lists=settings.max_lists_per_user,
            )
            return user.email
    finally:
        await engine.dispose()


async def _reminders(*, once: bool, batch: int) -> tuple[int, int]:
    """Fires due reminders and delivers them (push, email, digests): once (until none is due
    and the outbox is empty of due rows), or every interval until stopped. Web workers do
    both too unless REMINDER_SCHEDULER=false; any number may run at once. How many reminders
    this process fired and notifications it delivered."""
    settings = get_settings()
    engine = create_engine(settings)
    delivery: Delivery | None = None
    try:
        await migrate(engine)
        sessionmaker = create_sessionmaker(engine)
        delivery = Delivery(settings, sessionmaker, serves_chat=False)
        dispatcher = await delivery.start()
        scheduler = ReminderScheduler(
            sessionmaker,
            interval_seconds=settings.reminder_check_seconds,
            batch=batch,
            on_fired=lambda _fired: dispatcher.wake(),
        )
        if once:
            fired = await scheduler.sweep()
            await dispatcher.run_periodic(force=True)
            return fired, await dispatcher.sweep()
        async with asyncio.TaskGroup() as group:
            group.create_task(scheduler.run())
            group.create_task(dispatcher.run())
        return 0, 0
    finally:
        if delivery is not None:
            await delivery.close()
        await engine.dispose()


def _refusal(path: Path, problems: Sequence[str]) -> str:
    """One line per problem, under a line that says nothing was imported."""
    shown = [f"  {problem}" for problem in problems[:_MAX_PROBLEMS_SHOWN]]
    if len(problems) > _MAX_PROBLEMS_SHOWN:
        shown.append(f"  ... and {len(problems) - _MAX_PROBLEMS_SHOWN:,} more")
    return "\n".join([f"todo-chatbot: cannot import {path}; nothing was imported:", *shown]) + "\n"


def _import_command(parser: argparse.ArgumentParser, path: Path) -> None:
    try:
        document = parse_backup(path.read_bytes())
        email = asyncio.run(_import(document))
    except OSError as exc:  # the file, or the database's connection
        parser.exit(1, _refusal(path, [exc.strerror or str(exc)]))
    except BackupInvalidError as exc:
        parser.exit(1, _refusal(path, exc.problems))
    except backup.ImportConflictError as exc:
        parser.exit(1, _refusal(path, [str(exc)]))
    except SQLAlchemyError as exc:
        parser.exit(1, _refusal(path, [f"database error: {str(exc).splitlines()[0]}"]))
    sys.stdout.write(f"imported {email}\n")


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
    sweeper = commands.add_parser(
        "reminders", help="fire due reminders (a scheduler process of its own)"
    )
    sweeper.add_argument("--once", action="store_true", help="sweep until none is due, then stop")
    sweeper.add_argument(
        "--batch", type=int, default=PROCESS_BATCH, help="reminders per transaction"
    )
    configurer = commands.add_parser(
        "mcp-config",
        help="print MCP and OpenAI-client settings filled in with a new personal access token",
    )
    configurer.add_argument("--email", help="the account to make a token for")
    configurer.add_argument("--token", help="fill in this personal access token instead")
    configurer.add_argument("--name", default="MCP client", help="the new token's name")
    configurer.add_argument("--scope", choices=["read", "write"], default="write")
    configurer.add_argument("--expires-in-days", type=_days, metavar="DAYS")
    configurer.add_argument("--format", choices=["all", "claude", "http", "openai"], default="all")
    configurer.add_argument(
        "--show-database-password",
        action="store_true",
        help="print DATABASE_URL's password into the stdio settings (else PASSWORD stands in)",
    )
    args = parser.parse_args(argv)

    try:
        settings = get_settings()
    except ValidationError as exc:
        # a configuration mistake is a sentence and a non-zero exit, never a traceback
        lines = [f"todo-chatbot: {problem}" for problem in settings_problems(exc)]
        parser.exit(2, "\n".join(lines) + "\n")
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
            try:
                args.out.write_text(text, encoding="utf-8")
            except OSError as exc:
                parser.exit(1, f"todo-chatbot: cannot write {args.out}: {exc.strerror or exc}\n")
        else:
            sys.stdout.write(text)
        return
    if args.command == "import":
        _import_command(parser, args.file)
        return
    if args.command == "mcp-config":
        _mcp_config_command(parser, args)
        return
    if args.command == "reminders":
        fired, delivered = asyncio.run(_reminders(once=args.once, batch=max(1, args.batch)))
        sys.stdout.write(json.dumps({"fired": fired, "delivered": delivered}) + "\n")
        return
    uvicorn.run(
        "backend.main:app",
        host=settings.host,
        port=settings.port,
        workers=args.workers,
        reload=args.reload,
        log_level=settings.log_level.lower(),
        # uvicorn would trust X-Forwarded-For from loopback; only the configured proxies may.
        forwarded_allow_ips=settings.forwarded_allow_ips,
        # Bounded, and longer than the app's own drain: its turns get the grace period from
        # the signal, then those it cuts store their replies and answer their clients, which
        # a connection closed at the grace period's end would never hear.
        timeout_graceful_shutdown=math.ceil(shutdown_seconds(settings.shutdown_grace_seconds)),
    )


if __name__ == "__main__":
    main()
