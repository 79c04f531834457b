"""A real uvicorn server in a subprocess on a free loopback port, for tests over real HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from bench.server import ROOT, server
from tests.conftest import TEST_SECRET

__all__ = ["ROOT", "cli_server", "live_server", "served_on_each_database"]


@contextmanager
def live_server(
    database_url: str, log_path: Path, *, workers: int = 1, **settings: str
) -> Iterator[str]:
    """The server's base URL; abuse limits stay as configured unless `settings` lift them."""
    with server(
        database_url, workers, log_path, secret=TEST_SECRET, unlimited=False, **settings
    ) as (url, _process):
        yield url


def served_on_each_database(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    **settings: str,
) -> Iterator[tuple[str, str]]:
    """For a module fixture parametrized ["sqlite", "postgresql"]: a live server on a fresh
    SQLite file or the session's PostgreSQL database (skipped if unreachable); its base URL
    and database URL."""
    workdir = tmp_path_factory.mktemp(name)
    if request.param == "sqlite":
        database_url = f"sqlite+aiosqlite:///{workdir / 'todo.db'}"
    else:
        database_url = request.getfixturevalue("postgresql_url")
    with live_server(database_url, workdir / "uvicorn.log", **settings) as url:
        yield url, database_url


@contextmanager
def cli_server(
    database_url: str, log_path: Path, **settings: str
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`todo-chatbot serve` in a subprocess, one worker, as an operator runs it (uvicorn's
    graceful-shutdown timeout included): its base URL and process. Abuse limits are lifted
    unless `settings` set them."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": TEST_SECRET,
        "PORT": str(port),
        "LOG_LEVEL": "WARNING",
        "CHAT_REQUESTS_PER_MINUTE": "100000000",
        "LOGIN_ATTEMPTS_PER_WINDOW": "100000000",
        "WRITES_PER_MINUTE": "100000000",
        **{name.upper(): value for name, value in settings.items()},
    }
    url = f"http://127.0.0.1:{port}"
    with log_path.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "backend.cli", "serve"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while not _healthy(url):
                if process.poll() is not None:
                    raise RuntimeError(f"server exited: {log_path.read_text()}")
                if time.monotonic() > deadline:
                    raise RuntimeError("server did not start")
                time.sleep(0.1)
            yield url, process
        finally:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx.TransportError:
        return False
