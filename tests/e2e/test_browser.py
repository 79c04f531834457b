"""The web UI in a real browser: Debian's chromium driven by playwright-core (journey.mjs)
against the real backend (uvicorn, a temporary SQLite database, the built UI).

Screenshots of the main states, desktop and mobile, go to test-artifacts/e2e/.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ROOT, live_server

E2E = Path(__file__).resolve().parent
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
SCREENSHOTS = (
    "desktop-empty-chat",
    "desktop-chat-with-tasks",
    "desktop-chat-choices",
    "desktop-chat-undo",
    "desktop-login",
    "mobile-chat",
    "mobile-tasks",
    "mobile-task-details",
    "desktop-dates-lists",
    "desktop-chat-date",
    "desktop-reminder",
)


def _require(condition: bool, problem: str) -> None:
    """Locally a missing browser or build skips; under CI it fails (CI installs both)."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _require((ROOT / "frontend" / "dist" / "index.html").is_file(), "UI not built: make frontend")
    directory = tmp_path_factory.mktemp("e2e")
    # Reminders are swept for every second, so the journey's fire within moments.
    with live_server(
        f"sqlite+aiosqlite:///{directory / 'todo.db'}",
        directory / "server.log",
        reminder_check_seconds="1",
    ) as url:
        yield url


def test_a_persons_journey_through_the_web_ui(base_url: str) -> None:
    chromium = shutil.which("chromium")
    _require(chromium is not None, "Debian's chromium is not installed: make pytest installs it")
    _require(shutil.which("node") is not None, "node is required for the browser tests")
    if not (E2E / "node_modules" / "playwright-core").is_dir():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=E2E,
            check=True,
            timeout=300,
        )
    result = subprocess.run(
        ["node", "journey.mjs"],
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
    for name in SCREENSHOTS:
        assert (ARTIFACTS / f"{name}.png").is_file(), name
