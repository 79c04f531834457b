"""Running a playwright-core script (journey.mjs, pwa.mjs) in Debian's chromium against a live
server: what both browser tests share."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.live_server import ROOT

E2E = Path(__file__).resolve().parent
ARTIFACTS = ROOT / "test-artifacts" / "e2e"


def require(condition: bool, problem: str) -> None:
    """Locally a missing browser or build skips; under CI it fails (CI installs both)."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)


def run_script(script: str, base_url: str) -> str:
    """Runs `script` (in tests/e2e) against `base_url`; its output, once it has passed."""
    chromium = shutil.which("chromium")
    require(chromium is not None, "Debian's chromium is not installed: make pytest installs it")
    require(shutil.which("node") is not None, "node is required for the browser tests")
    if not (E2E / "node_modules" / "playwright-core").is_dir():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=E2E,
            check=True,
            timeout=300,
        )
    result = subprocess.run(
        ["node", script],
        cwd=E2E,
        env={
            **os.environ,
            "BASE_URL": base_url,
            "ARTIFACTS": str(ARTIFACTS),
            "CHROMIUM": str(chromium),
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    assert "not ok" not in result.stdout
    return result.stdout
