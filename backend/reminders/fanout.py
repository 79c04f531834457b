"""Streams fired reminders to the users who have the web UI open on this process.

One query per interval serves every open stream of the process, whichever process (or
machine) fired the reminder: it reads the reminders fired since it last looked for the
users connected here. A reminder fired by this process's own scheduler wakes it at once.

Ids come from a sequence before commit, so a reminder with a lower id can become visible
after a higher one (two schedulers committing out of order). The query therefore looks back
over the ids seen in the last `look_back_seconds`, and each reminder is handed on once.

A stream lives no longer than what opened it: each look first ends the streams whose token
has expired, then those whose account is gone or is another account now (an id that came
back: each stream holds the account key its token carries), and a reminder is handed only
to streams of the account it was fired for. An account holds at most `streams_per_account`
streams on this process, so no one token can pile up streams (and memory) without end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from backend.core.db import SessionMaker, read_only
from backend.core.loops import through_outages, woken_or_waited
from backend.core.security import AccessClaims
from backend.core.timeutil import utcnow
from backend.models import Reminder
from backend.reminders import store as reminders
from backend.services import users

logger = logging.getLogger(__name__)


class TooManyStreamsError(Exception):
    def __init__(self, allowed: int) -> None:
        super().__init__(f"At most {allowed} reminder streams per account are open at once")
        self.allowed = allowed


class Subscription:
    """One open stream: its account's reminders as they fire, then None once it is ended."""

    def __init__(self, claims: AccessClaims) -> None:
        self.claims = claims
        self._queue: asyncio.Queue[Reminder | None] = asyncio.Queue()
        self.ended = False

    def deliver(self, reminder: Reminder) -> None:
        if not self.ended:
            self._queue.put_nowait(reminder)

    def end(self) -> None:
        if not self.ended:
            self.ended = True
            self._queue.put_nowait(None)

    async def next(self) -> Reminder | None:
        """The next reminder; None once the stream is ended (what was queued before comes
        first)."""
        return await self._queue.get()


class ReminderFanout:
    def __init__(
        self,
        sessionmaker: SessionMaker,
        *,
        interval_seconds: float,
        look_back_seconds: float = 30.0,
        streams_per_account: int = 10,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._interval = interval_seconds
        self._look_back = look_back_seconds
        self._per_account = streams_per_account
        self._streams: defaultdict[int, set[Subscription]] = defaultdict(set)
        self._wake = asyncio.Event()
        self._handed_on: set[int] = set()
        # (when, newest id seen then): the floor is the newest one older than the look-back.
        self._seen: deque[tuple[float, int]] = deque()
        self._floor: int | None = None

    def subscribe(self, claims: AccessClaims) -> Subscription:
        """A stream of the account's reminders as they fire, until `unsubscribe` (or until the
        token expires or the account goes). TooManyStreamsError past the account's share."""
        held = self._streams.get(claims.user_id, ())
        if len(held) >= self._per_account:
            raise TooManyStreamsError(self._per_account)
        subscription = Subscription(claims)
        self._streams[claims.user_id].add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Ends the stream and frees its place (again is harmless)."""
        subscription.end()
        owner = subscription.claims.user_id
        held = self._streams.get(owner)
        if held is not None:
            held.discard(subscription)
            if not held:
                del self._streams[owner]

    @asynccontextmanager
    async def subscribed(self, claims: AccessClaims) -> AsyncIterator[Subscription]:
        subscription = self.subscribe(claims)
        try:
            yield subscription
        finally:
            self.unsubscribe(subscription)

    def streams_of(self, owner_id: int) -> int:
        return len(self._streams.get(owner_id, ()))

    def fired(self, fired: Sequence[Reminder]) -> None:
        """This process fired some: look now rather than at the next interval."""
        if any(reminder.owner_id in self._streams for reminder in fired):
            self._wake.set()

    def _all(self) -> list[Subscription]:
        return [subscription for held in self._streams.values() for subscription in held]

    def _end_expired(self) -> None:
        """Needs no database: an outage does not keep an expired token's stream open."""
        now = utcnow()
        for subscription in self._all():
            expires = subscription.claims.expires_at
            if expires is not None and expires <= now:
                self.unsubscribe(subscription)

    def _end_gone(self, keys: dict[int, str]) -> None:
        for subscription in self._all():
            key = keys.get(subscription.claims.user_id)
            if key is None or not subscription.claims.issued_to(key):
                self.unsubscribe(subscription)

    async def poll(self) -> int:
        """One look for the connected users' new reminders; how many were handed on."""
        self._end_expired()
        if self._floor is None:
            async with self._sessionmaker() as session:
                await read_only(session)
                self._floor = await reminders.newest_id(session)
        if not self._streams:
            return 0
        # Reads only: on SQLite no write lock is taken, so the look never queues a writer.
        async with self._sessionmaker() as session:
            await read_only(session)
            self._end_gone(await users.account_keys(session, list(self._streams)))
            if not self._streams:
                return 0
            found = await reminders.fired_since(
                session, after=self._floor, owners=list(self._streams)
            )
        handed = 0
        for reminder, account_key in found:
            assert reminder.id is not None
            if reminder.id in self._handed_on:
                continue
            self._handed_on.add(reminder.id)
            # Read with the reminder: an account given a removed one's id since the check
            # above still gets nothing of the other's, nor the other of its.
            for subscription in list(self._streams.get(reminder.owner_id, ())):
                if subscription.claims.issued_to(account_key):
                    subscription.deliver(reminder)
            handed += 1
        self._advance(max((r.id or 0 for r, _ in found), default=0))
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
            await woken_or_waited(self._wake, self._interval)
            await through_outages(self.poll, logger, "reminder streams not served")
