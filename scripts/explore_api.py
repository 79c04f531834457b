"""Explores the API at random with Schemathesis: every check, a fresh seed each run.

    .venv/bin/python -m scripts.explore_api [--database sqlite|postgresql|URL]
        [--seed N] [--max-examples N]
    make explore ARGS="--database postgresql --max-examples 500"    # the same

Starts the service (uvicorn, one worker) on a fresh database: a SQLite file in a temporary
directory, or a PostgreSQL database made for the run and dropped after it, on the server
TEST_POSTGRES_ADMIN_DSN names (default postgresql://postgres@127.0.0.1:5432/test, as the
test suite's). It signs up an account, adds a task, then runs `schemathesis run` over
/openapi.json with `schemathesis.toml` (what the schema cannot say, written down) and the
seed it prints first. Nothing is remembered between runs: no example database, so a run never
replays an old failure. The exit status is Schemathesis's: 0 when nothing was found.

The test suite runs the same command with a fixed seed, derandomised
(tests/api/test_fuzz.py), so it cannot go red by luck. What a random run finds becomes a
fixed example: reproduce it with the `curl` line Schemathesis prints, fix it, and add the
request, with the answer it must now get, to tests/api/test_fuzz_findings.py.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx

from bench.server import ROOT, server

CONFIG = ROOT / "schemathesis.toml"
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
ADMIN_POSTGRES_DSN = os.environ.get(
    "TEST_POSTGRES_ADMIN_DSN", "postgresql://postgres@127.0.0.1:5432/test"
)
# A test server's key: tokens it signs mean nothing anywhere else.
SECRET = "explore-api-secret-key-0123456789abcdef0123"


def schemathesis_command(
    url: str, token: str, *, seed: int, max_examples: int, deterministic: bool = False
) -> list[str]:
    """`schemathesis run` over the service at `url` as the account `token` is for: all
    checks, all phases, one worker (several trip a CPython 3.11 ast bug in Hypothesis,
    gh-106905)."""
    command = [
        str(SCHEMATHESIS),
        "--config-file",
        str(CONFIG),
        "run",
        f"{url}/openapi.json",
        "-H",
        f"Authorization: Bearer {token}",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(max_examples),
        "--workers",
        "1",
        "--seed",
        str(seed),
    ]
    return [*command, "--generation-deterministic"] if deterministic else command


def signed_up(url: str) -> str:
    """A new account's token; the account holds one task, so there is something to find."""
    with httpx.Client(base_url=url, timeout=60) as http:
        response = http.post(
            "/api/auth/register",
            json={
                "email": f"explore-{uuid.uuid4().hex[:10]}@example.com",
                "password": "a long password",
            },
        )
        response.raise_for_status()
        token: str = response.json()["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        http.post("/api/tasks", json={"title": "seed"}, headers=headers).raise_for_status()
    return token


async def _postgres_admin(sql: str) -> None:
    connection = await asyncpg.connect(ADMIN_POSTGRES_DSN)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@contextmanager
def fresh_database(kind: str, workdir: Path) -> Iterator[str]:
    """A database URL: `sqlite`, `postgresql` (made now, dropped after) or a URL as given."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / 'explore.db'}"
        return
    if kind != "postgresql":
        yield kind
        return
    name = f"todo_explore_{uuid.uuid4().hex[:10]}"
    asyncio.run(_postgres_admin(f'CREATE DATABASE "{name}"'))
    base = ADMIN_POSTGRES_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(_postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="sqlite", help="sqlite, postgresql or a URL")
    parser.add_argument("--seed", type=int, default=None, help="default: a random one")
    parser.add_argument("--max-examples", type=int, default=200, help="per operation")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    _say(f"seed {seed} (run again with --seed {seed})")
    with tempfile.TemporaryDirectory(prefix="explore-api-") as tmp:
        workdir = Path(tmp)
        with (
            fresh_database(args.database, workdir) as database_url,
            server(database_url, 1, workdir / "server.log", secret=SECRET) as (url, _),
        ):
            command = schemathesis_command(
                url, signed_up(url), seed=seed, max_examples=args.max_examples
            )
            # From the temporary directory: Schemathesis's own files stay out of the tree.
            status = subprocess.run(command, cwd=workdir, check=False).returncode
        log = (workdir / "server.log").read_text()
        if "Traceback" in log:
            _say(f"\nThe server logged errors:\n{log[-6000:]}")
            status = status or 1
    _say(f"seed {seed}: {'nothing found' if status == 0 else 'see above'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
