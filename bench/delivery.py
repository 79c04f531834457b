"""Delivering fired reminders (issue 34), the part of `bench.reminders` that sends them:
`.venv/bin/python -m bench.reminders` prints these rows with the scheduler's.

On a fresh database of each kind, `accounts` users (10,000; 200 with `--quick`) each have one
browser subscribed to the local push service, email reminders on, and one task whose reminder
falls due. Two things are measured, each in this one process:

- **Sending.** Every reminder is fired (untimed), which queues one push and one email each in
  the outbox. Then the dispatcher (backend/notifications/dispatcher.py, `Dispatcher.sweep`,
  DELIVERY_CONCURRENCY sends in flight) sends the pushes alone, with only the push sender
  (`PushSender`: payload encryption per browser, a VAPID token, a POST), and then the emails
  alone (`EmailSender`: over SMTP connections kept open, 8 per process): deliveries a second,
  and this process's CPU (`time.process_time`) per delivery, which holds the database's work
  too on SQLite but not PostgreSQL's server processes. While the pushes are timed the emails'
  outbox rows are held back (their `next_attempt_at` pushed a day ahead, then put back), since
  a dispatcher without the email sender would give them up.
- **A quiet user's chat during a due minute.** An app from `backend.main.create_app`, its
  scheduler and dispatcher running in the background as a web worker runs them (with the
  worker's GC settings, `TUNE_GC`: without them, full collections of the unfrozen start-up
  heap paused the loop ~280 ms and were most of the tail), is driven
  in-process through `httpx.ASGITransport` by one registered user who chats one turn after
  another ("add buy milk", "what's on my list", "delete the milk task": the list stays the
  same size). Turn latency is taken first with nothing due (the baseline), then from the
  moment every account's reminder is made due and the scheduler woken (a sweep started at
  once, as its next tick would) until the outbox has nothing left to send: `accounts`
  reminders fired and 2 x `accounts` deliveries sent in the same event loop as the turns.

The peers run in a child process (multiprocessing, spawn), so that their CPU is not counted
here: the push service of `bench.peers.push_service` and the SMTP server of
`bench.peers.smtp_server`. The child makes the browsers' subscriptions (their P-256 keys and
auth secrets stay with it) and hands back their `PushSubscription.toJSON()`. Its push service
checks every push as the tests' does (the VAPID JWT: scheme, `k` the server's key, ES256
signature, `aud`, `exp`, `sub`; a TTL; `aes128gcm`; at most 4,096 bytes) except that a JWT's
signature is verified once per distinct token (the sender reuses its token for hours, and the
same bytes verify the same way), and it decrypts a sample, every 50th push (the first
included), checking the decrypted tag against the push's Topic, so that its CPU stays
bounded on a 2-core machine. It counts each push by its Topic (the reminder's tag); the SMTP
server counts each email by the reminder named in its Message-ID. At the end of each part the
benchmark asserts that every fired reminder arrived exactly once on each channel and that
nothing was refused.

Targets: 10,000 reminders due in one minute are sent within that minute (>= 167 pushes and
>= 167 emails a second, and the whole due minute delivered under chat in <= 60 s); a delivery
costs <= 1.5 ms of the worker's CPU (the minute's 20,000 deliveries take at most half a core);
and the quiet user's chat p99 during delivery stays within 2 x its baseline p99 + 50 ms
(a tail that may double, but stays under the ~100 ms at which a reply starts to feel slow).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from typing import Any

import httpx
from aiohttp import web
from aiosmtpd.controller import Controller
from fastapi import FastAPI
from sqlalchemy import func, text, update
from sqlmodel import col, select

from backend.core.config import Settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.main import create_app
from backend.models import (
    Channel,
    Delivery,
    NotificationSettings,
    PushSubscription,
    Reminder,
    Task,
    User,
)
from backend.notifications.dispatcher import Dispatcher
from backend.notifications.email import EmailSender
from backend.notifications.push import PushSender
from backend.notifications.vapid import load_vapid_keys
from backend.reminders.scheduler import ReminderScheduler
from bench import stats
from bench.peers.push_service import Browser, LocalPushService, Refused
from bench.peers.smtp_server import Collector, free_port
from bench.server import SECRET

COLUMN_TITLES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
# The push service decrypts one push in this many (the first included).
SAMPLE_EVERY = 50
CHAT = ("add buy milk", "what's on my list", "delete the milk task")
DUE_MINUTE_SECONDS = 60.0
TARGET_PER_SECOND = 10_000 / DUE_MINUTE_SECONDS
TARGET_CPU_MS = 1.5
TARGET_P99_FACTOR = 2.0
TARGET_P99_SLACK_MS = 50.0
# How long the due minute may take to drain before the run gives up (not a target).
DRAIN_LIMIT_SECONDS = 900.0
MESSAGE_ID = re.compile(rb"^Message-ID:\s*<(reminder-\d+)\.", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Sending:
    per_second: float
    cpu_ms: float  # this process's CPU per delivery


@dataclass(frozen=True)
class Figures:
    accounts: int
    push: Sending
    email: Sending
    baseline_p50_ms: float
    baseline_p99_ms: float
    baseline_turns: int
    during_p50_ms: float
    during_p99_ms: float
    during_turns: int
    drained_seconds: float  # made due -> every delivery sent
    peer_decrypted: int  # pushes the push service decrypted (a sample)
    peer_pushes: int  # pushes it received

    @property
    def p99_target_ms(self) -> float:
        return TARGET_P99_FACTOR * self.baseline_p99_ms + TARGET_P99_SLACK_MS


# The peers, in a child process of their own.


class CountingPushService(LocalPushService):
    """The tests' push service, counting pushes by their Topic: every push's headers and
    VAPID token checked (a token's signature verified once), one in SAMPLE_EVERY decrypted."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()
        self.pushes = 0
        self.decrypted = 0
        self._verified: dict[str, dict[str, Any]] = {}

    def reset(self) -> None:
        self.tags.clear()
        self.refused.clear()
        self.pushes = self.decrypted = 0

    def _check_token(self, authorization: str) -> None:
        claims = self._verified.get(authorization)
        if claims is None:
            self._verified[authorization] = self._check_vapid(authorization)
        elif not time.time() < claims["exp"]:
            raise Refused(403, "the JWT has expired")

    def _check_form(self, request: web.Request, body: bytes) -> None:
        if request.headers.get("Content-Encoding") != "aes128gcm":
            raise Refused(415, "Content-Encoding is not aes128gcm")
        if not request.headers.get("TTL", "").isdigit():
            raise Refused(400, "no TTL header")
        if len(body) > 4096:
            raise Refused(413, "payload larger than 4096 bytes")

    async def _push(self, request: web.Request) -> web.Response:
        browser: Browser | None = self.browsers.get(request.match_info["id"])
        if browser is None:
            return web.Response(status=404, text="no such subscription")
        body = await request.read()
        self.pushes += 1
        topic = request.headers.get("Topic", "")
        try:
            self._check_token(request.headers.get("Authorization", ""))
            self._check_form(request, body)
            if not topic:
                raise Refused(400, "no Topic")
            if self.pushes % SAMPLE_EVERY == 1:
                message = self._decrypt(request, browser, body)
                if message.get("tag") != topic:
                    raise Refused(400, f"tag {message.get('tag')!r} is not Topic {topic!r}")
                self.decrypted += 1
        except Refused as refused:
            self.refused.append(str(refused))
            return web.Response(status=refused.status, text=str(refused))
        self.tags[topic] += 1
        return web.Response(
            status=201, headers={"Location": f"{self.origin}/message/{uuid.uuid4().hex}"}
        )


class CountingCollector(Collector):
    """The tests' SMTP handler, counting each email by the reminder its Message-ID names
    rather than keeping it parsed."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        raw: bytes = envelope.original_content or envelope.content
        found = MESSAGE_ID.search(raw)
        with self._lock:
            self.tags[found.group(1).decode() if found else "no reminder Message-ID"] += 1
        return "250 Message accepted for delivery"


def serve_peers(connection: Connection) -> None:
    """The child process: serves both peers and answers the parent's commands."""
    asyncio.run(_serve_peers(connection))


async def _serve_peers(connection: Connection) -> None:
    service = CountingPushService()
    application = web.Application()
    application.router.add_post("/push/{id}", service._push)
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
    await site.start()
    service.origin = f"http://127.0.0.1:{runner.addresses[0][1]}"
    collector = CountingCollector()
    smtp = Controller(collector, hostname="127.0.0.1", port=free_port())
    smtp.start()
    loop = asyncio.get_running_loop()
    try:
        connection.send((service.origin, smtp.port))
        while True:
            command, argument = await loop.run_in_executor(None, connection.recv)
            reply: object = None
            if command == "subscribe":
                reply = [service.subscribe() for _ in range(argument)]
            elif command == "key":
                service.server_key = argument
            elif command == "counts":
                with collector._lock:
                    emails = dict(collector.tags)
                reply = {
                    "pushes": dict(service.tags),
                    "emails": emails,
                    "refused": list(service.refused[:5]),
                    "refused_count": len(service.refused),
                    "received": service.pushes,
                    "decrypted": service.decrypted,
                }
            elif command == "reset":
                service.reset()
                with collector._lock:
                    collector.tags.clear()
            elif command == "stop":
                connection.send(None)
                return
            connection.send(reply)
    finally:
        smtp.stop()
        await runner.cleanup()


class Peers:
    """The parent's handle on the child: its addresses, and its commands (blocking: only
    called between the timed parts)."""

    def __init__(self, connection: Connection, push_origin: str, smtp_port: int) -> None:
        self._connection = connection
        self._lock = threading.Lock()
        self.push_origin = push_origin
        self.smtp_port = smtp_port

    def call(self, command: str, argument: object = None) -> Any:
        with self._lock:
            self._connection.send((command, argument))
            return self._connection.recv()

    def expect_each_once(self, reminder_ids: Sequence[int]) -> dict[str, Any]:
        """Asserts every reminder reached both peers exactly once and nothing was refused;
        the counts, reset."""
        counts = self.call("counts")
        wanted = {f"reminder-{reminder}": 1 for reminder in reminder_ids}
        assert counts["refused_count"] == 0, f"pushes refused: {counts['refused']}"
        assert counts["pushes"] == wanted, _difference("pushes", counts["pushes"], wanted)
        assert counts["emails"] == wanted, _difference("emails", counts["emails"], wanted)
        self.call("reset")
        return counts


def _difference(what: str, got: dict[str, int], wanted: dict[str, int]) -> str:
    missing = sorted(set(wanted) - set(got))[:5]
    unexpected = sorted(set(got) - set(wanted))[:5]
    repeated = sorted(tag for tag, times in got.items() if times > 1)[:5]
    return (
        f"{what}: {sum(got.values())} received for {len(wanted)} reminders; missing {missing}, "
        f"unexpected {unexpected}, more than once {repeated}"
    )


@contextmanager
def peers() -> Iterator[Peers]:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=serve_peers, args=(child,), name="bench-peers", daemon=True)
    process.start()
    try:
        if not parent.poll(60):
            raise RuntimeError("the peers' process did not start")
        push_origin, smtp_port = parent.recv()
        handle = Peers(parent, push_origin, smtp_port)
        yield handle
        handle.call("stop")
    finally:
        process.join(10)
        if process.is_alive():
            process.terminate()
            process.join(5)


# The accounts.


def _settings(url: str, peer: Peers, **overrides: Any) -> Settings:
    defaults = {
        # Process-wide; the chat part turns it on, as a web worker has it.
        "tune_gc": False,
        "chat_requests_per_minute": 100_000_000,
        "login_attempts_per_window": 100_000_000,
        "writes_per_minute": 100_000_000,
        "task_reads_per_minute": 100_000_000,
    }
    return Settings(
        database_url=url,
        secret_key=SECRET,
        push_endpoint_allow=[peer.push_origin],
        smtp_host="127.0.0.1",
        smtp_port=peer.smtp_port,
        smtp_tls="none",
        **{**defaults, **overrides},
    )


async def _seed(
    sessionmaker: SessionMaker, browsers: Sequence[dict[str, Any]], remind_at: datetime
) -> list[int]:
    """An account per browser: subscribed, email reminders on, one task reminding at
    `remind_at`; their ids."""
    owners: list[int] = []
    run = uuid.uuid4().hex[:8]
    for start in range(0, len(browsers), 1000):
        chunk = browsers[start : start + 1000]
        async with sessionmaker() as session:
            users = [
                User(
                    email=f"bench-{run}-{start + index}@example.com",
                    hashed_password="not a hash: never signs in",
                    last_task_number=1,
                )
                for index in range(len(chunk))
            ]
            session.add_all(users)
            await session.flush()
            for user, browser in zip(users, chunk, strict=True):
                assert user.id is not None
                owners.append(user.id)
                session.add(
                    PushSubscription(
                        owner_id=user.id,
                        endpoint=browser["endpoint"],
                        p256dh=browser["keys"]["p256dh"],
                        auth=browser["keys"]["auth"],
                        device="Bench browser",
                    )
                )
                session.add(NotificationSettings(user_id=user.id, email_reminders=True))
                session.add(
                    Task(owner_id=user.id, number=1, title="call the bank", remind_at=remind_at)
                )
            await session.commit()
    return owners


async def _arm(sessionmaker: SessionMaker, owners: Sequence[int], remind_at: datetime) -> None:
    """Sets each account's task to remind at `remind_at`."""
    async with sessionmaker() as session:
        for start in range(0, len(owners), 1000):
            await session.exec(
                update(Task)
                .where(col(Task.owner_id).in_(owners[start : start + 1000]))
                .values(remind_at=remind_at)
            )
        await session.commit()


async def _analyze(sessionmaker: SessionMaker, kind: str) -> None:
    if kind == "postgresql":
        async with sessionmaker() as session:
            await session.exec(text("ANALYZE"))  # type: ignore[call-overload]
            await session.commit()


async def _reminder_ids(sessionmaker: SessionMaker, after: int = 0) -> list[int]:
    """The ids of the reminders fired after reminder `after`."""
    async with sessionmaker() as session:
        rows = await session.exec(select(Reminder.id).where(col(Reminder.id) > after))
        return [reminder for reminder in rows.all() if reminder is not None]


async def _outbox(sessionmaker: SessionMaker) -> tuple[int, int, int]:
    """The outbox's rows: sent, pending, given up."""
    async with sessionmaker() as session:
        sent = await session.exec(select(func.count()).where(col(Delivery.sent_at).is_not(None)))
        pending = await session.exec(
            select(func.count()).where(
                col(Delivery.sent_at).is_(None), col(Delivery.failed_at).is_(None)
            )
        )
        failed = await session.exec(
            select(func.count()).where(col(Delivery.failed_at).is_not(None))
        )
        return int(sent.one()), int(pending.one()), int(failed.one())


async def _last_errors(sessionmaker: SessionMaker) -> list[str]:
    async with sessionmaker() as session:
        rows = await session.exec(
            select(Delivery.last_error).where(col(Delivery.last_error).is_not(None)).limit(5)
        )
        return [str(error) for error in rows.all()]


# Sending.


async def _hold(sessionmaker: SessionMaker, channel: Channel, until: datetime) -> None:
    async with sessionmaker() as session:
        await session.exec(
            update(Delivery)
            .where(col(Delivery.channel) == channel.value, col(Delivery.sent_at).is_(None))
            .values(next_attempt_at=until)
        )
        await session.commit()


async def _timed_sweep(dispatcher: Dispatcher, expected: int) -> Sending:
    cpu_started = time.process_time()
    started = time.perf_counter()
    sent = await dispatcher.sweep()
    wall = time.perf_counter() - started
    cpu_ms = (time.process_time() - cpu_started) * 1000
    assert sent == expected, f"{sent} sent of {expected}"
    return Sending(round(sent / wall, 1), round(cpu_ms / sent, 3))


async def _sending(url: str, kind: str, peer: Peers, accounts: int) -> tuple[Sending, Sending]:
    settings = _settings(url, peer)
    engine = create_engine(settings)
    try:
        await migrate(engine)
        sessionmaker = create_sessionmaker(engine)
        keys = await load_vapid_keys(sessionmaker, settings)
        peer.call("key", keys.public_key)
        browsers = peer.call("subscribe", accounts)
        owners = await _seed(sessionmaker, browsers, datetime.now(UTC) - timedelta(minutes=1))
        await _analyze(sessionmaker, kind)
        fired = await ReminderScheduler(sessionmaker, interval_seconds=5).sweep()
        assert fired == accounts, f"{fired} fired of {accounts}"
        await _hold(sessionmaker, Channel.EMAIL, datetime.now(UTC) + timedelta(days=1))

        def dispatcher(senders: Any) -> Dispatcher:
            return Dispatcher(
                sessionmaker,
                senders,
                interval_seconds=settings.reminder_check_seconds,
                lease_seconds=settings.delivery_lease_seconds,
                max_attempts=settings.delivery_max_attempts,
                concurrency=settings.delivery_concurrency,
            )

        push_sender = PushSender(settings, keys)
        try:
            push = await _timed_sweep(dispatcher({Channel.PUSH: push_sender}), accounts)
        finally:
            await push_sender.close()
        await _hold(sessionmaker, Channel.EMAIL, datetime.now(UTC) - timedelta(seconds=1))
        email_sender = EmailSender(settings, sessionmaker)
        try:
            email = await _timed_sweep(dispatcher({Channel.EMAIL: email_sender}), accounts)
        finally:
            await email_sender.close()
        assert await _outbox(sessionmaker) == (2 * accounts, 0, 0)
        peer.expect_each_once(await _reminder_ids(sessionmaker))
        # Ready for the second part: the same accounts, their reminders a day away.
        await _arm(sessionmaker, owners, datetime.now(UTC) + timedelta(days=1))
        return push, email
    finally:
        await engine.dispose()


# Chat during the due minute.


@asynccontextmanager
async def _running(application: FastAPI) -> AsyncIterator[FastAPI]:
    """Runs the app's lifespan in a task of its own (its anyio task groups must be exited by
    the task that entered them), as tests/conftest.py's `running` does."""
    ready, stop = asyncio.Event(), asyncio.Event()

    async def serve() -> None:
        async with application.router.lifespan_context(application):
            ready.set()
            await stop.wait()

    task = asyncio.create_task(serve())
    ready_wait = asyncio.create_task(ready.wait())
    await asyncio.wait({task, ready_wait}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        ready_wait.cancel()
        task.result()
    try:
        yield application
    finally:
        stop.set()
        await task


class QuietUser:
    """One account chatting one turn after another in one conversation."""

    def __init__(self, http: httpx.AsyncClient, token: str) -> None:
        self._http = http
        self._headers = {"Authorization": f"Bearer {token}"}
        self._conversation: int | None = None
        self._turns = 0

    async def turn(self) -> float:
        """One turn; its latency in ms."""
        message = CHAT[self._turns % len(CHAT)]
        self._turns += 1
        started = time.perf_counter()
        response = await self._http.post(
            "/api/chat",
            json={"message": message, "conversation_id": self._conversation},
            headers=self._headers,
        )
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, response.text
        self._conversation = response.json()["conversation_id"]
        return elapsed


async def _drained(sessionmaker: SessionMaker, sent_by_then: int) -> None:
    """Returns once `sent_by_then` deliveries are sent and none is pending."""
    started = time.monotonic()
    while True:
        await asyncio.sleep(0.5)
        sent, pending, failed = await _outbox(sessionmaker)
        if failed:
            raise AssertionError(
                f"{failed} deliveries given up: {await _last_errors(sessionmaker)}"
            )
        if sent >= sent_by_then and not pending:
            return
        if time.monotonic() - started > DRAIN_LIMIT_SECONDS:
            raise AssertionError(f"not drained: {sent} sent, {pending} pending")


async def _chat(
    url: str, peer: Peers, accounts: int, baseline_turns: int
) -> tuple[stats.Summary, stats.Summary, float, dict[str, Any]]:
    application = create_app(_settings(url, peer, reminder_scheduler=True, tune_gc=True))
    async with (
        _running(application),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=application), base_url="http://bench"
        ) as http,
    ):
        sessionmaker: SessionMaker = application.state.sessionmaker
        scheduler: ReminderScheduler = application.state.reminder_scheduler
        async with sessionmaker() as session:
            owners = [
                owner for owner in (await session.exec(select(User.id))).all() if owner is not None
            ]
        response = await http.post(
            "/api/auth/register",
            json={
                "email": f"quiet-{uuid.uuid4().hex[:8]}@example.com",
                "password": "correct horse battery",
            },
        )
        assert response.status_code == 201, response.text
        quiet = QuietUser(http, response.json()["access_token"])
        for _ in range(len(CHAT) * 2):
            await quiet.turn()  # warm: the conversation, the statements
        baseline = [await quiet.turn() for _ in range(baseline_turns)]
        sent_before, _, _ = await _outbox(sessionmaker)
        fired_before = max(await _reminder_ids(sessionmaker), default=0)
        started = time.perf_counter()
        await _arm(sessionmaker, owners, datetime.now(UTC) - timedelta(seconds=1))
        wake = asyncio.create_task(scheduler.sweep())
        drained = asyncio.create_task(_drained(sessionmaker, sent_before + 2 * accounts))
        during: list[float] = []
        while not drained.done():
            during.append(await quiet.turn())
        await drained
        drained_seconds = time.perf_counter() - started
        await wake
        fired = await _reminder_ids(sessionmaker, fired_before)
        assert len(fired) == accounts, f"{len(fired)} fired of {accounts}"
        counts = peer.expect_each_once(fired)
    return (
        stats.summarize(baseline),
        stats.summarize(during),
        round(drained_seconds, 1),
        {**counts, "during_turns": len(during)},
    )


async def _measure(url: str, kind: str, accounts: int, baseline_turns: int) -> Figures:
    with peers() as peer:
        push, email = await _sending(url, kind, peer, accounts)
        baseline, during, drained, counts = await _chat(url, peer, accounts, baseline_turns)
    return Figures(
        accounts=accounts,
        push=push,
        email=email,
        baseline_p50_ms=round(baseline.median, 1),
        baseline_p99_ms=round(baseline.p99, 1),
        baseline_turns=baseline_turns,
        during_p50_ms=round(during.median, 1),
        during_p99_ms=round(during.p99, 1),
        during_turns=counts["during_turns"],
        drained_seconds=drained,
        peer_decrypted=counts["decrypted"],
        peer_pushes=counts["received"],
    )


def measure(url: str, kind: str, accounts: int, baseline_turns: int) -> Figures:
    """Both parts on a fresh database at `url` (of `kind`)."""
    return asyncio.run(_measure(url, kind, accounts, baseline_turns))


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"


def rows(results: dict[str, Figures]) -> list[list[str]]:
    """The table's rows: measure, a cell per database, target, met."""
    kinds = list(results)
    figures = [results[k] for k in kinds]
    accounts = figures[0].accounts
    lines = []
    for label, channel in (
        (f"pushes to {accounts:,} subscribed browsers", "push"),
        (f"emails to {accounts:,} opted-in accounts", "email"),
    ):
        sending: list[Sending] = [getattr(f, channel) for f in figures]
        lines.append(
            [
                f"{label} (per second; CPU ms each)",
                *(f"{s.per_second:,.0f}; {s.cpu_ms} ms" for s in sending),
                f">= {TARGET_PER_SECOND:,.0f}/s; <= {TARGET_CPU_MS} ms",
                _met(
                    all(
                        s.per_second >= TARGET_PER_SECOND and s.cpu_ms <= TARGET_CPU_MS
                        for s in sending
                    )
                ),
            ]
        )
    lines.append(
        [
            "a quiet user's chat, nothing due (p50 / p99 ms)",
            *(f"{f.baseline_p50_ms} / {f.baseline_p99_ms}" for f in figures),
            "",
            _met(True),
        ]
    )
    lines.append(
        [
            f"the same chat while {accounts:,} reminders fire and {2 * accounts:,} deliveries "
            "go out (p50 / p99 ms)",
            *(f"{f.during_p50_ms} / {f.during_p99_ms}" for f in figures),
            f"p99 <= {TARGET_P99_FACTOR:g} x baseline + {TARGET_P99_SLACK_MS:g} ms",
            _met(all(f.during_p99_ms <= f.p99_target_ms for f in figures)),
        ]
    )
    lines.append(
        [
            "made due to all delivered, under that chat (seconds)",
            *(f"{f.drained_seconds}" for f in figures),
            f"<= {DUE_MINUTE_SECONDS:g} s",
            _met(all(f.drained_seconds <= DUE_MINUTE_SECONDS for f in figures)),
        ]
    )
    return lines


def notes(results: dict[str, Figures]) -> list[str]:
    """What the table leaves out: turns counted, the p99 each database had to meet, what the
    push service checked."""
    lines = []
    for kind, f in results.items():
        lines.append(
            f"Delivery on {COLUMN_TITLES[kind]}: chat turns {f.baseline_turns} with nothing due, "
            f"{f.during_turns} while delivering (p99 target {f.p99_target_ms:.1f} ms); the push "
            f"service decrypted {f.peer_decrypted} of its last {f.peer_pushes} pushes "
            f"(every {SAMPLE_EVERY}th) and checked every one's VAPID token; {os.cpu_count()} cpus."
        )
    return lines
