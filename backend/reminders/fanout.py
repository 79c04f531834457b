"""Streams fired reminders to the users who have the web UI open on this process.

One query per interval serves every open stream of the process, whichever process (or
machine) fired the reminder: it reads the reminders fired since it last looked for the
users connected here. A reminder fired by this process's own scheduler wakes it at once.

Ids come from a sequence before commit, so a reminder with a lower id can become visible
after a higher one (two schedulers committing out of order). The query therefore looks back
over the ids seen in the last `look_back_seconds`, and each reminder is handed on once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress

from sqlalchemy.exc import DBAPIError

from backend.core.db import SessionMaker, is_unavailable
from backend.models import Reminder
from backend.services import reminders

logger = logging.getLogger(__name__)


class ReminderFanout:
    def __init__(
        self,
        sessionmaker: SessionMaker,
        *,
        interval_seconds: float,
        look_back_seconds: float = 30.0,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._interval = interval_seconds
        self._look_back = look_back_seconds
        self._queues: defaultdict[int, set[asyncio.Queue[Reminder]]] = defaultdict(set)
        self._wake = asyncio.Event()
        self._handed_on: set[int] = set()
        # (when, newest id seen then): the floor is the newest one older than the look-back.
        self._seen: deque[tuple[float, int]] = deque()
        self._floor: int | None = None

    @asynccontextmanager
    async def subscribe(self, owner_id: int) -> AsyncIterator[asyncio.Queue[Reminder]]:
        """A queue of `owner_id`'s reminders as they fire, while the context is open."""
        queue: asyncio.Queue[Reminder] = asyncio.Queue()
        self._queues[owner_id].add(queue)
        try:
            yield queue
        finally:
            self._queues[owner_id].discard(queue)
            if not self._queues[owner_id]:
                del self._queues[owner_id]

    def fired(self, fired: Sequence[Reminder]) -> None:
        """This process fired some: look now rather than at the next interval."""
        if any(reminder.owner_id in self._queues for reminder in fired):
            self._wake.set()

    async def poll(self) -> int:
        """One look for the connected users' new reminders; how many were handed on."""
        if self._floor is None:
            async with self._sessionmaker() as session:
                self._floor = await reminders.newest_id(session)
        if not self._queues:
            return 0
        async with self._sessionmaker() as session:
            found = await reminders.fired_since(
                session, after=self._floor, owners=list(self._queues)
            )
        handed = 0
        for reminder in found:
            assert reminder.id is not None
            if reminder.id in self._handed_on:
                continue
            self._handed_on.add(reminder.id)
            for queue in self._queues.get(reminder.owner_id, ()):
                queue.put_nowait(reminder)
            handed += 1
        self._advance(max((r.id or 0 for r in found), default=0))
        return handed

    def _advance(self, newest: int) -> None:
        now = time.monotonic()
        if newest:
            self._seen.append((now, newest))
        while self._seen and now - self._seen[0][0] >= self._look_back:
            _, settled = self._seen.popleft()
            if self._floor is None or settled > self._floor:
                self._floor = settled
        floor = self._floor or 0
        self._handed_on = {id_ for id_ in self._handed_on if id_ > floor}

    async def run(self) -> None:
        while True:
            with suppress(TimeoutError):
                async with asyncio.timeout(self._interval):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self.poll()
            except (DBAPIError, OSError, TimeoutError) as exc:
                if isinstance(exc, DBAPIError) and not is_unavailable(exc):
                    raise
                logger.warning("reminder streams not served: database unavailable (%s)", exc)
