"""Schemathesis fuzzes the whole OpenAPI schema against a live server, every check: no 5xx,
responses match the schema, no undocumented status, schema-valid requests accepted and
invalid ones refused, 405s naming the allowed methods.

A fixed seed, derandomised, with no example database (schemathesis.toml): the same requests
every run, so it cannot go red by luck, nor replay what an earlier run found. Random
exploration is `python -m scripts.explore_api`; what it finds becomes a fixed example in
tests/api/test_fuzz_findings.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from scripts.explore_api import schemathesis_command, signed_up
from tests.live_server import live_server

SEED = 20261122
MAX_EXAMPLES = 25


def test_fuzzing_the_api_finds_no_server_errors_or_schema_violations(
    database_url: str, tmp_path: Path
) -> None:
    with live_server(
        database_url,
        tmp_path / "server.log",
        chat_requests_per_minute="100000",
        login_attempts_per_window="100000",
    ) as url:
        command = schemathesis_command(
            url, signed_up(url), seed=SEED, max_examples=MAX_EXAMPLES, deterministic=True
        )
        # In a directory of its own: Schemathesis's files stay out of the working tree.
        result = subprocess.run(
            command, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
        )
        server_log = (tmp_path / "server.log").read_text()
    assert result.returncode == 0, result.stdout[-6000:]
    assert "Traceback" not in server_log, server_log[-3000:]
    if "no tests were" in result.stdout.lower():
        pytest.fail("schemathesis ran no tests")
