"""Streams fired reminders to the users who have the web UI open on this process.

One query per interval serves every open stream of the process, whichever process (or
machine) fired the reminder: it reads the reminders fired since it last looked for the
users connected here. A reminder fired by this process's own scheduler wakes it at once.

Ids come from a sequence before commit, so a reminder with a lower id can become visible
after a higher one (two schedulers committing out of order). The query therefore looks back
over the ids seen in the last `look_back_seconds`, and each reminder is handed on once.

The same streams carry the live updates of shared lists (specs/sharing.md, "Live"): a
second loop reads, every `live_seconds`, the change notes written since it last looked
(backend/services/change_notes.py) for the users connected here, and hands each stream a
`Changed` (what its web UI should read again). Whom a list's note reaches is read then, so a
member removed meanwhile is told nothing of the list. The notes are read summed up per user
and kind (newest id, count) above a floor that keeps rising while nobody listens, so a look
costs the same however busy the lists were, and a note committed late under a lower id still
counts.

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
from dataclasses import dataclass
from datetime import timedelta

from backend.core.db import SessionMaker, read_only
from backend.core.loops import through_outages, woken_or_waited
from backend.core.security import AccessClaims
from backend.core.timeutil import utcnow
from backend.models import Reminder
from backend.reminders import store as reminders
from backend.services import change_notes, users

logger = logging.getLogger(__name__)


class TooManyStreamsError(Exception):
    def __init__(self, allowed: int) -> None:
        super().__init__(f"At most {allowed} reminder streams per account are open at once")
        self.allowed = allowed


@dataclass(frozen=True)
class Changed:
    """Something the account sees changed elsewhere: what to read again ("tasks", "lists",
    "invitations")."""

    kinds: frozenset[str]


class Subscription:
    """One open stream: its account's reminders as they fire and its lists' changes, then
    None once it is ended."""

    def __init__(self, claims: AccessClaims) -> None:
        self.claims = claims
        self._queue: asyncio.Queue[Reminder | Changed | None] = asyncio.Queue()
        self.ended = False

    def deliver(self, item: Reminder | Changed) -> None:
        if not self.ended:
            self._queue.put_nowait(item)

    def end(self) -> None:
        if not self.ended:
            self.ended = True
            self._queue.put_nowait(None)

    async def next(self) -> Reminder | Changed | None:
        """The next reminder or change; None once the stream is ended (what was queued
        before comes first)."""
        return await self._queue.get()


class SettlingIds:
    """Ids handed on once each, though a lower id may become visible after a higher one
    (two writers committing out of order): ids newer than the floor are remembered, and the
    floor rises to the newest id seen longer than `look_back` seconds ago."""

    def __init__(self, look_back: float) -> None:
        self.look_back = look_back
        self.handed_on: set[int] = set()
        # (when, newest id seen then): the floor is the newest one older than the look-back.
        self._seen: deque[tuple[float, int]] = deque()
        self.floor: int | None = None

    def advance(self, newest: int) -> None:
        now = time.monotonic()
        if newest:
            self._seen.append((now, newest))
        while self._seen and now - self._seen[0][0] >= self.look_back:
            _, settled = self._seen.popleft()
            if self.floor is None or settled > self.floor:
                self.floor = settled
        floor = self.floor or 0
        self.handed_on = {id_ for id_ in self.handed_on if id_ > floor}


class ReminderFanout:
    def __init__(
        self,
        sessionmaker: SessionMaker,
        *,
        interval_seconds: float,
        look_back_seconds: float = 30.0,
        streams_per_account: int = 10,
        live_seconds: float = 0.5,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._interval = interval_seconds
        self._live_interval = live_seconds
        self._per_account = streams_per_account
        self._streams: defaultdict[int, set[Subscription]] = defaultdict(set)
        self._wake = asyncio.Event()
        self._reminders = SettlingIds(look_back_seconds)
        self._notes = SettlingIds(look_back_seconds)
        # The last look's sums per (user, kinds): (newest id, how many), and its floor.
        self._heard: dict[tuple[int, str], tuple[int, int]] = {}
        self._heard_floor = -1

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
        if self._reminders.floor is None:
            async with self._sessionmaker() as session:
                await read_only(session)
                self._reminders.floor = await reminders.newest_id(session)
        if not self._streams:
            return 0
        # Reads only: on SQLite no write lock is taken, so the look never queues a writer.
        async with self._sessionmaker() as session:
            await read_only(session)
            self._end_gone(await users.account_keys(session, list(self._streams)))
            if not self._streams:
                return 0
            found = await reminders.fired_since(
                session, after=self._reminders.floor, owners=list(self._streams)
            )
        handed = 0
        for reminder, account_key in found:
            assert reminder.id is not None
            if reminder.id in self._reminders.handed_on:
                continue
            self._reminders.handed_on.add(reminder.id)
            # Read with the reminder: an account given a removed one's id since the check
            # above still gets nothing of the other's, nor the other of its.
            for subscription in list(self._streams.get(reminder.owner_id, ())):
                if subscription.claims.issued_to(account_key):
                    subscription.deliver(reminder)
            handed += 1
        self._reminders.advance(max((r.id or 0 for r, _ in found), default=0))
        return handed

    async def poll_changes(self) -> int:
        """One look for change notes concerning the connected users; how many streams were
        told. Notes are read summed up per user and kind, so a look costs the same however
        busy the lists were; a user is told once a look, of every kind that has news."""
        async with self._sessionmaker() as session:
            await read_only(session)
            if self._notes.floor is None:
                # The first look starts a look-back behind: a stream opened as the process
                # started still hears of what changed since.
                settled = utcnow() - timedelta(seconds=self._notes.look_back)
                self._notes.floor = await change_notes.newest_id(session, before=settled)
            if not self._streams:
                # Nobody to tell: the floor keeps up, so whoever connects next reads little.
                self._notes.advance(await change_notes.newest_id(session))
                return 0
            floor = self._notes.floor or 0
            found = await change_notes.since(session, after=floor, users=list(self._streams))
        # Against the last look's sums: a newer note, or one more under a lower id (committed
        # late). When the floor rose, the sums shrank: only a newer note is news then.
        same_floor = floor == self._heard_floor
        kinds: defaultdict[int, set[str]] = defaultdict(set)
        for heard in found:
            before = self._heard.get((heard.user_id, heard.kinds))
            news = (
                before is None
                or heard.newest > before[0]
                or (same_floor and heard.count > before[1])
            )
            if news:
                kinds[heard.user_id].update(heard.kinds.split(","))
        self._heard = {(h.user_id, h.kinds): (h.newest, h.count) for h in found}
        self._heard_floor = floor
        told = 0
        for user, wanted in kinds.items():
            for subscription in list(self._streams.get(user, ())):
                subscription.deliver(Changed(frozenset(wanted)))
                told += 1
        self._notes.advance(max((h.newest for h in found), default=0))
        return told

    async def run(self) -> None:
        while True:
            await woken_or_waited(self._wake, self._interval)
            await through_outages(self.poll, logger, "reminder streams not served")

    async def run_changes(self) -> None:
        while True:
            await asyncio.sleep(self._live_interval)
            await through_outages(self.poll_changes, logger, "live updates not served")
