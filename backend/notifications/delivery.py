"""The dispatcher with its senders, as a process runs it (a web worker, or `todo-chatbot
reminders`): Web Push always (with the VAPID key from settings or the database), email and the
daily digests when SMTP is set up, and pruning of finished outbox rows."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.core.loops import CpuTurns
from backend.models import Channel
from backend.notifications import digest, outbox
from backend.notifications.dispatcher import ChannelSender, Dispatcher, PeriodicJob
from backend.notifications.email import EmailSender
from backend.notifications.push import PushSender
from backend.notifications.vapid import VapidKeys, load_vapid_keys

logger = logging.getLogger(__name__)

# Digests are due to the minute; finished rows are pruned hourly.
DIGEST_CHECK_SECONDS = 30.0
PRUNE_SECONDS = 3600.0
WEB_WORKER_BATCH = 32
PROCESS_BATCH = 200


async def _prune(session: AsyncSession, now: datetime) -> int:
    await outbox.prune(session, now=now)
    return 0  # pruning queues nothing to send


class Delivery:
    """Started once the database is migrated (the VAPID key may have to be made and stored);
    until then a wake is a no-op and there is nothing to run."""

    def __init__(
        self, settings: Settings, sessionmaker: SessionMaker, *, serves_chat: bool = True
    ) -> None:
        self._settings = settings
        self._serves_chat = serves_chat
        self._sessionmaker = sessionmaker
        self._closers: list[Callable[[], Awaitable[None]]] = []
        self.dispatcher: Dispatcher | None = None
        self.vapid: VapidKeys | None = None

    async def start(self) -> Dispatcher:
        settings = self._settings
        self.vapid = await load_vapid_keys(self._sessionmaker, settings)
        # The senders' CPU-heavy steps take turns, one per round of the event loop.
        turns = CpuTurns()
        push = PushSender(settings, self.vapid, turns=turns)
        self._closers.append(push.close)
        senders: dict[Channel, ChannelSender] = {Channel.PUSH: push}
        periodic: list[PeriodicJob] = [(PRUNE_SECONDS, _prune)]
        if settings.email_enabled:
            email = EmailSender(settings, self._sessionmaker, turns=turns)
            self._closers.append(email.close)
            senders[Channel.EMAIL] = email
            senders[Channel.DIGEST] = email
            periodic.append((DIGEST_CHECK_SECONDS, digest.queue_due))
        self.dispatcher = Dispatcher(
            self._sessionmaker,
            senders,
            interval_seconds=settings.reminder_check_seconds,
            lease_seconds=settings.delivery_lease_seconds,
            max_attempts=settings.delivery_max_attempts,
            concurrency=settings.delivery_concurrency,
            periodic=periodic,
            # A web worker keeps part of its loop for chat turns, and sends in smaller batches
            # so a turn never waits long; a process of its own sends flat out.
            batch=WEB_WORKER_BATCH if self._serves_chat else PROCESS_BATCH,
            loop_share=settings.delivery_loop_share if self._serves_chat else 1.0,
        )
        return self.dispatcher

    def wake(self) -> None:
        if self.dispatcher is not None:
            self.dispatcher.wake()

    async def close(self) -> None:
        for close in self._closers:
            try:
                await close()
            except Exception:  # closing is best effort; shutdown goes on
                logger.exception("closing a sender failed")
        self._closers.clear()
