"""Each fired reminder reaches each channel once across processes, on both databases: two
`todo-chatbot reminders` processes fire and deliver the same due reminders by Web Push (to
the local push service, which checks VAPID and decrypts each push) and email (to a local SMTP
server), and one is killed with SIGKILL while its pushes are in flight
(backend/notifications/outbox.py).

What a killed sender had sent but not yet marked is sent again once its lease ends: the
count of distinct notification tags and Message-IDs is exact, and a repeat only ever carries
a tag or Message-ID already received (which the browser and the mail client collapse)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator

import pytest
from sqlmodel import col, select

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.models import Delivery, NotificationSettings, PushSubscription, User
from backend.notifications.vapid import load_vapid_keys
from bench.peers.push_service import LocalPushService, local_push_service
from bench.peers.smtp_server import SmtpServer, smtp_server
from tests.conftest import TEST_SECRET
from tests.reminders.due_reminders import account_with_due_reminders, migrated

REMINDERS = 40
CONCURRENCY = 4
LEASE_SECONDS = 2


@pytest.fixture
async def sessionmaker(settings: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings) as maker:
        yield maker


def _worker(settings: Settings, push: LocalPushService, smtp: SmtpServer) -> subprocess.Popen[str]:
    environment = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "SECRET_KEY": TEST_SECRET,
        "LOG_LEVEL": "WARNING",
        "REMINDER_CHECK_SECONDS": "0.05",
        "PUSH_ENDPOINT_ALLOW": push.origin,
        "SMTP_HOST": smtp.host,
        "SMTP_PORT": str(smtp.port),
        "SMTP_TLS": "none",
        "DELIVERY_LEASE_SECONDS": str(LEASE_SECONDS),
        "DELIVERY_CONCURRENCY": str(CONCURRENCY),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "reminders", "--batch", "5"],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def _subscribed_account(
    sessionmaker: SessionMaker, push: LocalPushService
) -> tuple[int, str, str]:
    """An account with due reminders, one browser subscribed and email reminders on: its
    id, its address and its browser's endpoint."""
    owner = await account_with_due_reminders(sessionmaker, REMINDERS)
    browser = push.subscribe()
    async with sessionmaker() as session:
        user = await session.get(User, owner)
        assert user is not None
        session.add(
            PushSubscription(
                owner_id=owner,
                endpoint=browser["endpoint"],
                p256dh=browser["keys"]["p256dh"],
                auth=browser["keys"]["auth"],
            )
        )
        session.add(NotificationSettings(user_id=owner, email_reminders=True))
        await session.commit()
        return owner, user.email, browser["endpoint"]


async def _until(condition: object, *, seconds: float = 240) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


def _stop(process: subprocess.Popen[str], how: signal.Signals) -> None:
    if process.poll() is None:
        process.send_signal(how)
    process.communicate(timeout=60)  # reaps it and closes its pipes


async def test_a_sender_killed_mid_send_loses_nothing_and_repeats_only_what_it_had_in_flight(
    settings: Settings, sessionmaker: SessionMaker
) -> None:
    async with local_push_service() as push:
        push.server_key = (await load_vapid_keys(sessionmaker, settings)).public_key
        # Each push takes a while to be answered: the kill lands with pushes sent, unmarked.
        push.answer_delay_seconds = 0.2
        with smtp_server() as smtp:
            owner, address, endpoint = await _subscribed_account(sessionmaker, push)
            first = _worker(settings, push, smtp)
            second = _worker(settings, push, smtp)
            try:
                await _until(lambda: len(push.messages(endpoint)) >= CONCURRENCY)
                first.send_signal(signal.SIGKILL)
                tags = lambda: {m["tag"] for m in push.messages(endpoint)}  # noqa: E731
                ids = lambda: {str(m.message["Message-ID"]) for m in smtp.to(address)}  # noqa: E731
                await _until(lambda: len(tags()) == REMINDERS and len(ids()) == REMINDERS)
                # The rest of the killed one's leases end, and any repeat goes out now.
                await asyncio.sleep(LEASE_SECONDS * 2)
            finally:
                _stop(first, signal.SIGKILL)
                _stop(second, signal.SIGTERM)

            pushes = Counter(m["tag"] for m in push.messages(endpoint))
            mails = Counter(str(m.message["Message-ID"]) for m in smtp.to(address))
            assert push.refused == []
    assert len(pushes) == len(mails) == REMINDERS
    # Repeats: at most what the killed process had in flight on each channel.
    assert sum(pushes.values()) - REMINDERS <= CONCURRENCY
    assert sum(mails.values()) - REMINDERS <= CONCURRENCY
    async with sessionmaker() as session:
        rows = (await session.exec(select(Delivery).where(col(Delivery.owner_id) == owner))).all()
    assert Counter(row.channel for row in rows) == {"push": REMINDERS, "email": REMINDERS}
    assert all(row.sent_at is not None and row.failed_at is None for row in rows)
