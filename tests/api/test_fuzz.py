"""Schemathesis fuzzes the whole OpenAPI schema against a live server: no 5xx, responses
match the schema, undocumented status codes are bugs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.live_server import live_server

# One worker: hypothesis in several threads trips a CPython 3.11 ast bug (gh-106905, "AST
# constructor recursion depth mismatch"), a fault of the fuzzer, not of the API; with two
# workers it failed about one run in ten.
# Starlette answers OPTIONS on a multi-route path with only the first route's methods in
# `Allow`; that is the framework's routing, not this API's contract.
EXCLUDED = "ignored_auth,positive_data_acceptance,allow_header_conformance"


def test_fuzzing_the_api_finds_no_server_errors_or_schema_violations(
    database_url: str, tmp_path: Path
) -> None:
    schemathesis = shutil.which("schemathesis") or str(Path(sys.executable).parent / "schemathesis")
    with live_server(
        database_url,
        tmp_path / "server.log",
        chat_requests_per_minute="100000",
        login_attempts_per_window="100000",
    ) as url:
        token = httpx.post(
            f"{url}/api/auth/register",
            json={"email": f"fuzz-{tmp_path.name}@example.com", "password": "a long password"},
        ).json()["access_token"]
        httpx.post(
            f"{url}/api/tasks", json={"title": "seed"}, headers={"Authorization": f"Bearer {token}"}
        )
        result = subprocess.run(
            [
                schemathesis,
                "run",
                f"{url}/openapi.json",
                "-H",
                f"Authorization: Bearer {token}",
                "--checks",
                "all",
                "--exclude-checks",
                EXCLUDED,
                "--phases",
                "examples,coverage,fuzzing,stateful",
                "--max-examples",
                "25",
                "--workers",
                "1",
                "--seed",
                "20261122",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        server_log = (tmp_path / "server.log").read_text()
    assert result.returncode == 0, result.stdout[-6000:]
    assert "Traceback" not in server_log, server_log[-3000:]
    if "no tests were" in result.stdout.lower():
        pytest.fail("schemathesis ran no tests")
