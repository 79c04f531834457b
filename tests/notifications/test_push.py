"""Web Push against a local push service that checks and decrypts what it gets
(bench/peers/push_service.py), on both databases: sending, removal of gone
subscriptions, retries, the private-address refusal, the VAPID keys, and the subscription API.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiohttp.abc import AbstractResolver, ResolveResult
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import FastAPI
from sqlmodel import col, func, select

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.core.timeutil import utcnow
from backend.main import create_app
from backend.models import Channel, Delivery, PushSubscription, Reminder, ServerKey, User
from backend.notifications import subscriptions
from backend.notifications.dispatcher import Dispatcher
from backend.notifications.push import (
    PAYLOAD_MAX_BYTES,
    PushSender,
    due_text,
    payload,
    retry_after,
)
from backend.notifications.push_endpoints import (
    EndpointRefusedError,
    GuardedResolver,
    PrivateAddressError,
    check_endpoint,
    is_public,
)
from backend.notifications.subscriptions import device_label
from backend.notifications.vapid import KEY_NAME, load_vapid_keys, private_pem
from backend.reminders.store import fire_due
from bench.peers.push_service import LocalPushService, local_push_service
from tests.api.routes.reminder_clock import reminders_due_now
from tests.conftest import UserSession, client_for, make_settings, postgres_admin, register, running
from tests.reminders.due_reminders import account_with_due_reminders, migrated

CHROME_ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


@asynccontextmanager
async def fresh_database(database_url: str, directory: Path) -> AsyncIterator[str]:
    """A new, empty database of the same kind: these tests sweep every delivery due, and
    count the server's keys, which other tests' rows must not disturb."""
    name = f"todo_push_{uuid.uuid4().hex[:12]}"
    if database_url.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{directory / name}.db"
        return
    await postgres_admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{database_url.rsplit('/', 1)[0]}/{name}"
    finally:
        await postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
async def push_service() -> AsyncIterator[LocalPushService]:
    async with local_push_service() as service:
        yield service


@pytest.fixture(scope="module")
async def push_settings(
    database_url: str, push_service: LocalPushService, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Settings]:
    async with fresh_database(database_url, tmp_path_factory.mktemp("push")) as url:
        yield make_settings(url, push_endpoint_allow=[push_service.origin])


@pytest.fixture(scope="module")
async def sessionmaker(push_settings: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(push_settings) as maker:
        yield maker


@pytest.fixture
async def sender(
    push_settings: Settings, sessionmaker: SessionMaker, push_service: LocalPushService
) -> AsyncIterator[PushSender]:
    keys = await load_vapid_keys(sessionmaker, push_settings)
    push_service.server_key = keys.public_key
    push = PushSender(push_settings, keys)
    try:
        yield push
    finally:
        await push.close()


def dispatcher(sessionmaker: SessionMaker, sender: PushSender) -> Dispatcher:
    return Dispatcher(sessionmaker, {Channel.PUSH: sender}, interval_seconds=1)


async def subscribed_account(
    sessionmaker: SessionMaker, push_service: LocalPushService, due_at: datetime | None = None
) -> tuple[int, str]:
    """An account with one task whose reminder is due, and one browser subscribed."""
    owner = await account_with_due_reminders(sessionmaker, 1, due_at=due_at)
    browser = push_service.subscribe()
    async with sessionmaker() as session:
        await subscriptions.add(
            session,
            owner_id=owner,
            endpoint=browser["endpoint"],
            p256dh=browser["keys"]["p256dh"],
            auth=browser["keys"]["auth"],
            device="Test browser",
        )
    return owner, browser["endpoint"]


async def fire(sessionmaker: SessionMaker) -> list[Reminder]:
    async with sessionmaker() as session:
        return await fire_due(session)


async def deliveries(sessionmaker: SessionMaker, owner: int) -> list[Delivery]:
    async with sessionmaker() as session:
        found = await session.exec(select(Delivery).where(col(Delivery.owner_id) == owner))
        return list(found.all())


async def subscription_count(sessionmaker: SessionMaker, owner: int) -> int:
    async with sessionmaker() as session:
        count = await session.exec(
            select(func.count()).where(col(PushSubscription.owner_id) == owner)
        )
        return int(count.one())


# Sending


async def test_a_fired_reminder_reaches_the_browser_signed_and_encrypted(
    sessionmaker: SessionMaker,
    sender: PushSender,
    push_service: LocalPushService,
    push_settings: Settings,
) -> None:
    due = datetime(2031, 3, 4, 10, 0, tzinfo=UTC)
    owner, endpoint = await subscribed_account(sessionmaker, push_service, due_at=due)
    [reminder] = await fire(sessionmaker)
    assert await dispatcher(sessionmaker, sender).sweep() == 1
    [message] = push_service.messages(endpoint)
    assert push_service.refused == []
    assert message["title"] == "reminder 1"
    assert message["body"] == "Due Tue 4 Mar at 10:00"
    assert message["tag"] == f"reminder-{reminder.id}"
    assert (message["url"], message["reminder_id"], message["task_id"]) == (
        "/?task=1",
        reminder.id,
        1,
    )
    done, snooze = message["actions"]
    assert (done["action"], done["title"]) == ("done", "Done")
    assert done["url"].startswith("/api/reminder-links/done?token=")
    assert (snooze["action"], snooze["title"]) == ("snooze", "Snooze 10 min")
    assert snooze["url"].startswith("/api/reminder-links/snooze?token=")
    assert snooze["url"].endswith("&minutes=10")
    [received] = [r for r in push_service.received if endpoint.endswith(f"/{r.subscription}")]
    assert received.claims["aud"] == push_service.origin
    assert received.claims["sub"] == push_settings.vapid_subject
    headers = {name.lower(): value for name, value in received.headers.items()}
    assert (headers["urgency"], headers["ttl"], headers["topic"]) == (
        "high",
        str(24 * 3600),
        f"reminder-{reminder.id}",
    )
    [row] = await deliveries(sessionmaker, owner)
    assert row.sent_at is not None and row.failed_at is None


@pytest.mark.parametrize("status", [404, 410])
async def test_a_push_service_that_says_gone_removes_the_subscription(
    sessionmaker: SessionMaker, sender: PushSender, push_service: LocalPushService, status: int
) -> None:
    owner, endpoint = await subscribed_account(sessionmaker, push_service)
    push_service.script(endpoint, status)
    await fire(sessionmaker)
    assert await dispatcher(sessionmaker, sender).sweep() == 0
    assert await subscription_count(sessionmaker, owner) == 0
    assert await deliveries(sessionmaker, owner) == []  # went with the subscription
    # Never tried again.
    later = utcnow() + timedelta(hours=2)
    assert await dispatcher(sessionmaker, sender).sweep(now=later) == 0
    assert push_service.attempts(endpoint) == [status]


async def test_a_busy_or_failing_push_service_is_retried_with_backoff_until_sent(
    sessionmaker: SessionMaker, sender: PushSender, push_service: LocalPushService
) -> None:
    owner, endpoint = await subscribed_account(sessionmaker, push_service)
    push_service.script(endpoint, (429, {"Retry-After": "120"}), 500)
    await fire(sessionmaker)
    start = utcnow()
    sends = dispatcher(sessionmaker, sender)
    assert await sends.sweep(now=start) == 0
    [row] = await deliveries(sessionmaker, owner)
    # The push service's Retry-After, as it is longer than the first backoff (30 s).
    assert row.next_attempt_at == start + timedelta(seconds=120)
    assert row.last_error == "push service answered 429"
    assert await sends.sweep(now=start + timedelta(seconds=100)) == 0
    assert push_service.attempts(endpoint) == [429]
    assert await sends.sweep(now=start + timedelta(seconds=120)) == 0
    [row] = await deliveries(sessionmaker, owner)
    assert row.next_attempt_at == start + timedelta(seconds=120 + 60)  # the second backoff
    assert await sends.sweep(now=start + timedelta(seconds=180)) == 1
    assert push_service.attempts(endpoint) == [429, 500, 201]
    assert len(push_service.messages(endpoint)) == 1
    [row] = await deliveries(sessionmaker, owner)
    assert (row.attempts, row.sent_at is not None) == (3, True)
    assert await subscription_count(sessionmaker, owner) == 1


class _Rebinding(AbstractResolver):
    """DNS that says one thing when the browser subscribed and another at send time."""

    def __init__(self, address: str) -> None:
        self.address = address

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        return [
            ResolveResult(
                hostname=host, host=self.address, port=port, family=family, proto=0, flags=0
            )
        ]

    async def close(self) -> None:
        pass


async def test_private_endpoints_are_refused_at_send_time_and_not_retried(
    sessionmaker: SessionMaker,
    push_settings: Settings,
    push_service: LocalPushService,
) -> None:
    """Endpoints stored before a rule tightened, or whose name now resolves inside the
    network (DNS rebinding), are given up on without a request leaving."""
    keys = await load_vapid_keys(sessionmaker, push_settings)
    push_service.server_key = keys.public_key
    port = push_service.origin.rsplit(":", 1)[1]
    rebinding = PushSender(push_settings, keys, resolver=_Rebinding("127.0.0.1"))
    owner, endpoint = await subscribed_account(sessionmaker, push_service)
    browser_id = endpoint.rsplit("/", 1)[1]
    refused = {
        "https://10.0.0.7/push/x": "Push endpoints must name a host, not an IP address",
        f"http://push.example.com:{port}/push/{browser_id}": "Push endpoints must use https",
        f"https://rebound.example.com:{port}/push/{browser_id}": "resolves to no public address",
    }
    async with sessionmaker() as session:
        [row] = (
            await session.exec(
                select(PushSubscription).where(col(PushSubscription.owner_id) == owner)
            )
        ).all()
        keys_of = (row.p256dh, row.auth)
        await session.delete(row)
        for url in refused:
            session.add(
                PushSubscription(owner_id=owner, endpoint=url, p256dh=keys_of[0], auth=keys_of[1])
            )
        await session.commit()
    await fire(sessionmaker)
    try:
        assert await dispatcher(sessionmaker, rebinding).sweep() == 0
    finally:
        await rebinding.close()
    assert push_service.attempts(endpoint) == []
    rows = await deliveries(sessionmaker, owner)
    assert len(rows) == 3
    async with sessionmaker() as session:
        endpoints = {
            row.id: row.endpoint for row in (await session.exec(select(PushSubscription))).all()
        }
    for delivery in rows:
        assert delivery.failed_at is not None and delivery.attempts == 1
        assert delivery.last_error is not None
        assert refused[endpoints[delivery.subscription_id or 0]] in delivery.last_error


async def test_the_guarded_resolver_keeps_only_public_addresses_unless_allow_listed() -> None:
    class Mixed(_Rebinding):
        async def resolve(
            self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
        ) -> list[ResolveResult]:
            return [
                ResolveResult(hostname=host, host=a, port=port, family=family, proto=0, flags=0)
                for a in ("10.0.0.1", "93.184.215.14", "::1")
            ]

    guarded = GuardedResolver(["https://push.internal.example:8443"], Mixed(""))
    found = await guarded.resolve("push.example.com", 443)
    assert [result["host"] for result in found] == ["93.184.215.14"]
    allowed = await guarded.resolve("push.internal.example", 8443)
    assert len(allowed) == 3
    with pytest.raises(PrivateAddressError):
        await GuardedResolver([], _Rebinding("169.254.169.254")).resolve("metadata.example", 80)


# The endpoint check


async def _public(host: str, port: int) -> list[str]:
    return ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://push.example.com/x", "must use https"),
        ("https://127.0.0.1/x", "not an IP address"),
        ("https://[::1]:8443/x", "not an IP address"),
        ("https://10.20.30.40/x", "not an IP address"),
        ("https://2130706433/x", "not an IP address"),
        ("https://0x7f.1/x", "not an IP address"),
        ("https://user:secret@push.example.com/x", "user name or password"),
        ("https://localhost/x", "local name"),
        ("https://printer.local/x", "local name"),
        ("ftp://push.example.com/x", "not a web address"),
        ("https:///x", "not a web address"),
        ("https://push.example.com:99999/x", "not a valid port"),
        ("https://push.example.com/" + "x" * 1100, "longer than"),
    ],
)
async def test_endpoints_the_server_must_not_post_to_are_refused(url: str, why: str) -> None:
    with pytest.raises(EndpointRefusedError, match=why):
        await check_endpoint(url, [], lookup=_public)


@pytest.mark.parametrize(
    "addresses",
    [["192.168.1.5"], ["93.184.215.14", "10.0.0.1"], ["169.254.169.254"], ["::ffff:127.0.0.1"]],
)
async def test_a_host_resolving_into_a_private_network_is_refused(addresses: list[str]) -> None:
    async def lookup(host: str, port: int) -> list[str]:
        return addresses

    with pytest.raises(EndpointRefusedError, match="points into a private network"):
        await check_endpoint("https://push.example.com/x", [], lookup=lookup)


async def test_a_public_https_host_on_any_port_is_taken_and_the_allow_list_admits_its_origins() -> (
    None
):
    await check_endpoint("https://push.example.com:8443/send/abc", [], lookup=_public)

    async def nowhere(host: str, port: int) -> list[str]:
        raise AssertionError("an allow-listed origin is not looked up")

    allow = ["http://127.0.0.1:8123", "https://push.corp.example"]
    await check_endpoint("http://127.0.0.1:8123/push/1", allow, lookup=nowhere)
    await check_endpoint("https://PUSH.corp.example:443/a", allow, lookup=nowhere)
    with pytest.raises(EndpointRefusedError):
        await check_endpoint("http://127.0.0.1:8124/push/1", allow, lookup=nowhere)


async def test_a_host_that_cannot_be_found_is_refused_with_a_reason() -> None:
    async def failing(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(EndpointRefusedError, match="could not be found"):
        await check_endpoint("https://push.example.com/x", [], lookup=failing)


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("2001:4860:4860::8888", True),
        ("127.0.0.1", False),
        ("10.1.1.1", False),
        ("100.64.0.1", False),
        ("169.254.169.254", False),
        ("224.0.0.251", False),
        ("0.0.0.0", False),
        ("255.255.255.255", False),
        ("::", False),
        ("fe80::1%eth0", False),
        ("fd00::1", False),
        ("::ffff:10.0.0.1", False),
    ],
)
def test_public_addresses_are_the_global_unicast_ones(address: str, public: bool) -> None:
    assert is_public(address) is public


# VAPID keys


async def test_vapid_keys_are_made_once_and_shared_by_every_worker(
    database_url: str, tmp_path: Path
) -> None:
    async with fresh_database(database_url, tmp_path) as url:
        settings = make_settings(url)
        async with migrated(settings) as first, migrated(settings) as second:
            together = await asyncio.gather(
                load_vapid_keys(first, settings), load_vapid_keys(second, settings)
            )
            again = await load_vapid_keys(second, settings)
            async with first() as session:
                stored = (await session.exec(select(ServerKey))).all()
    assert together[0].public_key == together[1].public_key == again.public_key
    assert [key.name for key in stored] == [KEY_NAME]
    point = base64.urlsafe_b64decode(again.public_key + "=")
    assert (len(point), point[0]) == (65, 4)


@pytest.mark.parametrize("form", ["pem", "raw"])
async def test_a_configured_vapid_key_is_used_and_nothing_is_stored(
    form: str, sessionmaker: SessionMaker
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    text = private_pem(key) if form == "pem" else base64.urlsafe_b64encode(raw).decode().rstrip("=")
    settings = make_settings("sqlite+aiosqlite:///unused.db", vapid_private_key=text)

    def untouched() -> None:
        raise AssertionError("a configured key needs no database")

    keys = await load_vapid_keys(untouched, settings)  # type: ignore[arg-type]
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert keys.public_key == base64.urlsafe_b64encode(point).decode().rstrip("=")


# The payload


def test_a_long_title_is_cut_to_keep_the_payload_within_one_record(
    push_settings: Settings,
) -> None:
    user = User(id=1, email="a@example.com", hashed_password="x", account_key="k", timezone="UTC")
    reminder = Reminder(
        id=7,
        owner_id=1,
        task_pk=1,
        task_number=3,
        title="🦉" * 2000,
        remind_at=utcnow(),
    )
    body = payload(push_settings, user, reminder)
    assert len(body) <= PAYLOAD_MAX_BYTES
    message = json.loads(body)
    assert message["title"].endswith("…") and message["tag"] == "reminder-7"


@pytest.mark.parametrize(
    ("due", "body"),
    [
        (None, "Reminder"),
        (datetime(2031, 3, 4, 9, 30, tzinfo=UTC), "Due today at 10:30"),
        (datetime(2031, 3, 4, 23, 0, tzinfo=UTC), "Due tomorrow"),  # an all-day task
        (datetime(2031, 3, 9, 17, 15, tzinfo=UTC), "Due Sun 9 Mar at 18:15"),
        (datetime(2031, 3, 1, 7, 0, tzinfo=UTC), "Was due Sat 1 Mar at 08:00"),
    ],
)
def test_the_body_says_when_the_task_is_due_on_the_accounts_clock(
    due: datetime | None, body: str
) -> None:
    user = User(email="a@example.com", hashed_password="x", timezone="Europe/Paris")
    now = datetime(2031, 3, 4, 8, 0, tzinfo=UTC)
    assert due_text(due, user, now=now) == body


def test_retry_after_is_read_as_seconds_or_a_date() -> None:
    now = datetime(2031, 1, 1, 12, 0, tzinfo=UTC)
    assert retry_after("120", now=now) == timedelta(seconds=120)
    assert retry_after("Wed, 01 Jan 2031 12:05:00 GMT", now=now) == timedelta(minutes=5)
    assert retry_after("soon", now=now) is None
    assert retry_after(None) is None
    assert retry_after("99999999", now=now) == timedelta(hours=6)


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (CHROME_ANDROID, "Chrome on Android"),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
            "Firefox on Windows",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            "Edge on Windows",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            "Safari on iPhone",
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, "
            "like Gecko) Version/17.5 Safari/605.1.15",
            "Safari on macOS",
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Safari/537.36",
            "Chrome on Linux",
        ),
        ("curl/8.5.0", "Unknown browser"),
        (None, "Unknown browser"),
    ],
)
def test_a_device_is_named_from_its_user_agent(agent: str | None, label: str) -> None:
    assert device_label(agent) == label


# The subscription API, on an app whose allow-list admits the local push service


@pytest.fixture(scope="module")
async def push_app(
    database_url: str, push_service: LocalPushService, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[FastAPI]:
    async with fresh_database(database_url, tmp_path_factory.mktemp("push-api")) as url:
        settings = make_settings(url, push_endpoint_allow=[push_service.origin])
        async with running(create_app(settings)) as application:
            yield application


@pytest.fixture
async def api(push_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(push_app) as http:
        yield http


async def _subscribe(
    api: httpx.AsyncClient, who: UserSession, body: dict[str, Any], **headers: str
) -> httpx.Response:
    return await api.post("/api/push/subscriptions", json=body, headers={**who.headers, **headers})


async def _listed(api: httpx.AsyncClient, who: UserSession) -> list[dict[str, Any]]:
    response = await api.get("/api/push/subscriptions", headers=who.headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


async def test_the_public_key_needs_no_token_and_is_the_one_pushes_are_signed_with(
    api: httpx.AsyncClient, push_app: FastAPI
) -> None:
    response = await api.get("/api/push/key")
    assert response.status_code == 200
    keys = await load_vapid_keys(push_app.state.sessionmaker, push_app.state.settings)
    assert response.json() == {"public_key": keys.public_key}


async def test_a_browser_subscribes_is_listed_renews_and_unsubscribes(
    api: httpx.AsyncClient, push_service: LocalPushService
) -> None:
    who = await register(api)
    browser = push_service.subscribe()
    added = await _subscribe(api, who, browser, **{"User-Agent": CHROME_ANDROID})
    assert added.status_code == 201, added.text
    body = added.json()
    assert set(body) == {"id", "endpoint", "device", "created_at", "last_sent_at"}
    assert (body["endpoint"], body["device"], body["last_sent_at"]) == (
        browser["endpoint"],
        "Chrome on Android",
        None,
    )
    assert await _listed(api, who) == [body]
    # The browser's keys changed (it subscribed again): the same subscription, new keys.
    renewed = {**push_service.subscribe(), "endpoint": browser["endpoint"]}
    again = await _subscribe(api, who, renewed, **{"User-Agent": CHROME_ANDROID})
    assert (again.status_code, again.json()["id"]) == (201, body["id"])
    assert len(await _listed(api, who)) == 1
    gone = await api.delete(f"/api/push/subscriptions/{body['id']}", headers=who.headers)
    assert gone.status_code == 204
    assert await _listed(api, who) == []
    twice = await api.delete(f"/api/push/subscriptions/{body['id']}", headers=who.headers)
    assert (twice.status_code, twice.json()) == (404, {"detail": "Subscription not found"})


async def test_nobody_lists_or_removes_another_accounts_subscription(
    api: httpx.AsyncClient, push_service: LocalPushService
) -> None:
    owner, other = await register(api), await register(api)
    browser = push_service.subscribe()
    mine = (await _subscribe(api, owner, browser)).json()
    assert await _listed(api, other) == []
    theirs = await api.delete(f"/api/push/subscriptions/{mine['id']}", headers=other.headers)
    assert theirs.status_code == 404
    assert [s["id"] for s in await _listed(api, owner)] == [mine["id"]]
    # One browser is one subscription: another account signing in on it takes it over.
    taken = await _subscribe(
        api, other, {**push_service.subscribe(), "endpoint": browser["endpoint"]}
    )
    assert taken.status_code == 201
    assert await _listed(api, owner) == []
    assert [s["endpoint"] for s in await _listed(api, other)] == [browser["endpoint"]]


async def test_a_taken_over_browser_gets_none_of_the_previous_accounts_queued_pushes(
    push_app: FastAPI, push_service: LocalPushService
) -> None:
    maker: SessionMaker = push_app.state.sessionmaker
    first, endpoint = await subscribed_account(maker, push_service)
    await fire(maker)
    assert len(await deliveries(maker, first)) == 1
    # The same browser, another account signing in on it (its keys renewed).
    second = await account_with_due_reminders(maker, 0)
    fresh = push_service.subscribe()
    async with maker() as session:
        await subscriptions.add(
            session,
            owner_id=second,
            endpoint=endpoint,
            p256dh=fresh["keys"]["p256dh"],
            auth=fresh["keys"]["auth"],
            device="",
        )
    assert await deliveries(maker, first) == []
    assert await subscription_count(maker, second) == 1


async def test_the_list_says_when_each_browser_was_last_sent_a_reminder(
    api: httpx.AsyncClient, push_app: FastAPI, push_service: LocalPushService
) -> None:
    who = await register(api)
    browser = push_service.subscribe()
    assert (await _subscribe(api, who, browser)).status_code == 201
    response = await api.post(
        "/api/tasks",
        json={"title": "call mum", "remind_at": "2031-01-01T09:00:00Z"},
        headers=who.headers,
    )
    assert response.status_code == 201, response.text
    await reminders_due_now(push_app, who.id, 1)
    maker: SessionMaker = push_app.state.sessionmaker
    keys = await load_vapid_keys(maker, push_app.state.settings)
    push_service.server_key = keys.public_key
    push = PushSender(push_app.state.settings, keys)
    try:
        assert await dispatcher(maker, push).sweep() == 1
    finally:
        await push.close()
    [listed] = await _listed(api, who)
    assert listed["last_sent_at"] is not None
    sent = datetime.fromisoformat(listed["last_sent_at"].replace("Z", "+00:00"))
    assert abs(sent - utcnow()) < timedelta(minutes=1)
    assert [m["title"] for m in push_service.messages(browser["endpoint"])] == ["call mum"]


@pytest.mark.parametrize(
    ("endpoint", "why"),
    [
        ("https://127.0.0.1/push/1", "not an IP address"),
        ("https://192.168.0.10:8443/push/1", "not an IP address"),
        ("https://[fd00::1]/push/1", "not an IP address"),
        ("http://push.example.com/push/1", "must use https"),
        ("https://localhost/push/1", "local name"),
        ("https://me:pw@push.example.com/push/1", "user name or password"),
        ("http://127.0.0.1:1/push/1", "must use https"),  # the allow-list names another port
    ],
)
async def test_a_refused_endpoint_is_a_422_saying_why(
    api: httpx.AsyncClient, push_service: LocalPushService, endpoint: str, why: str
) -> None:
    who = await register(api)
    response = await _subscribe(api, who, {**push_service.subscribe(), "endpoint": endpoint})
    assert response.status_code == 422, response.text
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "endpoint"]
    assert why in error["msg"]
    assert await _listed(api, who) == []


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize(
    ("keys", "field", "why"),
    [
        ({"p256dh": _b64(b"\x04" + b"\x01" * 64)}, "p256dh", "not a point on the P-256 curve"),
        ({"p256dh": _b64(b"\x04" + b"\x01" * 31)}, "p256dh", "not an uncompressed P-256"),
        ({"p256dh": "not base64!"}, "p256dh", "not base64url"),
        ({"auth": _b64(os.urandom(15))}, "auth", "not a 16-byte"),
        ({"auth": ""}, "auth", "not base64url"),
    ],
)
async def test_malformed_keys_are_a_422(
    api: httpx.AsyncClient,
    push_service: LocalPushService,
    keys: dict[str, str],
    field: str,
    why: str,
) -> None:
    who = await register(api)
    browser = push_service.subscribe()
    body = {**browser, "keys": {**browser["keys"], **keys}}
    response = await _subscribe(api, who, body)
    assert response.status_code == 422, response.text
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "keys", field]
    assert why in error["msg"]


async def test_an_account_receives_pushes_on_at_most_twenty_browsers(
    api: httpx.AsyncClient, push_app: FastAPI, push_service: LocalPushService
) -> None:
    who = await register(api)
    async with push_app.state.sessionmaker() as session:
        for _ in range(subscriptions.MAX_SUBSCRIPTIONS_PER_ACCOUNT):
            browser = push_service.subscribe()
            await subscriptions.add(
                session,
                owner_id=who.id,
                endpoint=browser["endpoint"],
                p256dh=browser["keys"]["p256dh"],
                auth=browser["keys"]["auth"],
                device="",
            )
    response = await _subscribe(api, who, push_service.subscribe())
    assert response.status_code == 409
    assert "20 browsers" in response.json()["detail"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/push/subscriptions"),
        ("POST", "/api/push/subscriptions"),
        ("DELETE", "/api/push/subscriptions/1"),
    ],
)
async def test_subscriptions_need_a_token(api: httpx.AsyncClient, method: str, path: str) -> None:
    assert (await api.request(method, path)).status_code == 401
