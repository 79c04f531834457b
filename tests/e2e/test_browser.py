"""The web UI in a real browser: Debian's chromium driven by playwright-core (journey.mjs)
against the real backend (uvicorn, a temporary SQLite database, the built UI).

Screenshots of the main states, desktop and mobile, go to test-artifacts/e2e/.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.chromium import ARTIFACTS, require, run_script
from tests.live_server import ROOT, live_server

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


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require((ROOT / "frontend" / "dist" / "index.html").is_file(), "UI not built: make frontend")
    directory = tmp_path_factory.mktemp("e2e")
    # Reminders are swept for every second, so the journey's fire within moments.
    with live_server(
        f"sqlite+aiosqlite:///{directory / 'todo.db'}",
        directory / "server.log",
        reminder_check_seconds="1",
    ) as url:
        yield url


def test_a_persons_journey_through_the_web_ui(base_url: str) -> None:
    run_script("journey.mjs", base_url)
    for name in SCREENSHOTS:
        assert (ARTIFACTS / f"{name}.png").is_file(), name
