"""Fixtures the scheduler's and the snooze's tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from backend.core.config import Settings
from backend.core.db import SessionMaker
from tests.reminders.due_reminders import migrated


@pytest.fixture
async def sessionmakers(settings: Settings) -> AsyncIterator[tuple[SessionMaker, SessionMaker]]:
    """Two engines on the test database, as two processes would have."""
    async with migrated(settings) as first, migrated(settings) as second:
        yield first, second
