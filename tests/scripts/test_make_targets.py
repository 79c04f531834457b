"""The README's two commands: `make run` installs only what running needs, `make test` all."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.live_server import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _planned(target: str) -> str:
    """What `make` would run for `target`, without running it."""
    result = subprocess.run(
        ["make", "-n", "--always-make", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout


def test_make_run_installs_only_what_running_needs() -> None:
    plan = _planned("run")
    assert "./scripts/bootstrap.sh runtime" in plan
    assert "./scripts/build_frontend.sh" in plan
    assert "bootstrap.sh dev" not in plan
    assert "ensure_chromium" not in plan


def test_make_test_installs_the_development_tools_and_the_browser() -> None:
    plan = _planned("test")
    assert "./scripts/bootstrap.sh dev" in plan
    assert "./scripts/ensure_chromium.sh" in plan
