"""Reminders fire exactly once across processes, on both databases: scheduler processes
sweeping the same due reminders at once, and one killed mid-sweep then restarted
(`todo-chatbot reminders`, backend/reminders/store.py)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest

from backend.core.config import Settings
from backend.core.db import SessionMaker
from tests.conftest import TEST_SECRET
from tests.reminders.due_reminders import (
    account_with_due_reminders,
    fired_per_task,
    migrated,
    still_to_fire,
)

REMINDERS = 300


@pytest.fixture
async def sessionmaker(settings: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings) as maker:
        yield maker


def _scheduler(settings: Settings, *arguments: str) -> subprocess.Popen[str]:
    environment = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "SECRET_KEY": TEST_SECRET,
        "LOG_LEVEL": "WARNING",
        "REMINDER_CHECK_SECONDS": "0.05",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "reminders", *arguments],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finished(process: subprocess.Popen[str]) -> int:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    fired: int = json.loads(out)["fired"]
    return fired


async def test_two_scheduler_processes_fire_each_reminder_exactly_once(
    settings: Settings, sessionmaker: SessionMaker
) -> None:
    owner = await account_with_due_reminders(sessionmaker, REMINDERS)
    # Three reminders a transaction: the two processes take turns over a hundred times.
    workers = [_scheduler(settings, "--once", "--batch", "3") for _ in range(2)]
    fired = [_finished(worker) for worker in workers]
    assert await fired_per_task(sessionmaker, owner) == dict.fromkeys(range(1, REMINDERS + 1), 1)
    assert await still_to_fire(sessionmaker, owner) == []
    assert sum(fired) >= REMINDERS  # other tests' due reminders may be swept too


async def test_a_scheduler_killed_mid_sweep_loses_nothing_and_doubles_nothing(
    settings: Settings, sessionmaker: SessionMaker
) -> None:
    owner = await account_with_due_reminders(sessionmaker, REMINDERS)
    running = _scheduler(settings, "--batch", "1")
    # Killed once it has fired some (or all: the claim holds wherever the kill lands).
    for _ in range(6000):
        if await fired_per_task(sessionmaker, owner) or running.poll() is not None:
            break
        await asyncio.sleep(0.05)
    running.send_signal(signal.SIGKILL)
    running.communicate(timeout=60)  # reaps it and closes its pipes
    restarted = _scheduler(settings, "--once")
    _finished(restarted)
    assert await fired_per_task(sessionmaker, owner) == dict.fromkeys(range(1, REMINDERS + 1), 1)
