"""A real uvicorn server in a subprocess (for the benchmark and the over-HTTP tests), and the
accounts and process facts the benchmark needs."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from starlette.types import ASGIApp

from bench import procstat

ROOT = Path(__file__).resolve().parent.parent
SECRET = "benchmark-secret-key-0123456789abcdef0123"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve_in_thread(app: ASGIApp) -> tuple[str, uvicorn.Server, threading.Thread]:
    """Serves `app` (a stand-in for another service, such as a model API) from a thread of
    this process, on a free loopback port: its base URL once it accepts connections."""
    port = _free_port()
    served = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not served.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server in a thread did not start")
        time.sleep(0.01)
    return f"http://127.0.0.1:{port}", served, thread


@contextmanager
def server(
    database_url: str,
    workers: int,
    log: Path,
    *,
    secret: str = SECRET,
    unlimited: bool = True,
    **settings: str,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Starts `uvicorn backend.main:app` on a free loopback port and waits for /healthz.

    `settings` become environment variables (upper-cased); `unlimited` lifts the abuse limits.
    """
    port = _free_port()
    unlimited_env = {
        "CHAT_REQUESTS_PER_MINUTE": "100000000",
        "LOGIN_ATTEMPTS_PER_WINDOW": "100000000",
        "WRITES_PER_MINUTE": "100000000",
        "TASK_READS_PER_MINUTE": "100000000",
    }
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": secret,
        "LOG_LEVEL": "WARNING",
        **(unlimited_env if unlimited else {}),
        **{name.upper(): value for name, value in settings.items()},
    }
    with log.open("w") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "backend.main:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--log-level",
                "warning",
                "--no-access-log",
            ],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"server exited: {log.read_text()}")
                try:
                    if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("server did not start")
                time.sleep(0.1)
            yield url, process
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


def register_accounts(url: str, count: int, prefix: str) -> list[dict[str, object]]:
    """`count` accounts, each with a conversation started, for the load generator."""
    accounts = []
    run = uuid.uuid4().hex[:8]
    with httpx.Client(base_url=url, timeout=60) as http:
        for i in range(count):
            token = http.post(
                "/api/auth/register",
                json={"email": f"{prefix}-{run}-{i}@bench.example", "password": "bench password"},
            ).json()["access_token"]
            headers = {"Authorization": f"Bearer {token}"}
            first = http.post("/api/chat", json={"message": "hello"}, headers=headers)
            accounts.append({"token": token, "conversation_id": first.json()["conversation_id"]})
    return accounts


def worker_pids(process: subprocess.Popen[bytes]) -> list[int]:
    """The uvicorn process, or its worker children when there are several (not the
    multiprocessing resource tracker that starts beside them)."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    pids = [int(p) for p in children.read_text().split()] if children.exists() else []
    return [pid for pid in pids if _is_worker(pid)] or [process.pid]


def started_workers(process: subprocess.Popen[bytes], count: int) -> list[int]:
    """The worker pids, once all `count` have started and gone quiet (the first answers
    /healthz while the others may still be loading the app)."""
    deadline = time.monotonic() + 30
    pids = worker_pids(process)
    while len(pids) < count and time.monotonic() < deadline:
        time.sleep(0.1)
        pids = worker_pids(process)
    procstat.wait_until_quiet(pids)
    return pids


def _is_worker(pid: int) -> bool:
    try:
        return b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False  # it has exited


def rss_kib(pid: int) -> tuple[int, int]:
    """(current RSS, peak RSS) of a process, in KiB."""
    fields = dict(
        line.split(":", 1)
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if ":" in line
    )
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
