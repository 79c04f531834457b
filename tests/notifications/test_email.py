"""Reminders by email through a local SMTP server (bench/peers/smtp_server.py), on both
databases, with the real dispatcher and sender (backend/notifications/email.py): a reminder's
headers and links, what SMTP failures become (451 retried, 550 given up, no server retried),
and the one-click unsubscribe link (RFC 8058) that works without signing in."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import httpx
import jwt
import pytest
from fastapi import FastAPI
from sqlmodel import col, select

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.core.signed_links import read_link, sign_link
from backend.main import create_app
from backend.models import Channel, Delivery, NotificationSettings, Reminder, Task, User
from backend.models.task import TITLE_MAX_LENGTH
from backend.notifications.dispatcher import Dispatcher, Envelope
from backend.notifications.email import EmailSender
from backend.notifications.links import unsubscribe_url
from backend.notifications.preferences import CANCELLED
from backend.reminders import store as reminders
from bench.peers.smtp_server import SmtpServer, free_port, smtp_server
from tests.conftest import TEST_SECRET, client_for, make_settings, register, running
from tests.reminders.due_reminders import account_with_due_reminders, migrated

PUBLIC_URL = "https://todo.example.com"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    with smtp_server() as server:
        yield server


def mail_settings(database_url: str, smtp: SmtpServer, **overrides: object) -> Settings:
    return make_settings(
        database_url,
        smtp_host=smtp.host,
        smtp_port=smtp.port,
        smtp_tls="none",
        public_url=PUBLIC_URL,
        **overrides,
    )


@pytest.fixture
def settings_with_smtp(database_url: str, smtp: SmtpServer) -> Settings:
    return mail_settings(database_url, smtp)


@pytest.fixture
async def sessionmaker(settings_with_smtp: Settings) -> AsyncIterator[SessionMaker]:
    async with migrated(settings_with_smtp) as maker:
        yield maker


def dispatcher(maker: SessionMaker, sender: EmailSender) -> Dispatcher:
    return Dispatcher(maker, {Channel.EMAIL: sender, Channel.DIGEST: sender}, interval_seconds=1)


async def reminder_account(
    maker: SessionMaker,
    *,
    title: str = "call mom",
    zone: str = "UTC",
    due_at: datetime | None = None,
    email_on: bool = True,
) -> User:
    """An account whose one task's reminder is due, its email reminders on (or not)."""
    owner = await account_with_due_reminders(maker, 1, due_at=due_at)
    async with maker() as session:
        user = await session.get(User, owner)
        assert user is not None
        user.timezone = zone
        task = (await session.exec(select(Task).where(col(Task.owner_id) == owner))).one()
        task.title = title
        session.add_all([user, task])
        if email_on:
            session.add(NotificationSettings(user_id=owner, email_reminders=True))
        await session.commit()
        await session.refresh(user)
        return user


async def fire(maker: SessionMaker, owner: int) -> Reminder:
    async with maker() as session:
        fired = await reminders.fire_due(session)
    mine = [reminder for reminder in fired if reminder.owner_id == owner]
    assert len(mine) == 1
    return mine[0]


async def deliveries(maker: SessionMaker, owner: int) -> list[Delivery]:
    async with maker() as session:
        found = await session.exec(
            select(Delivery).where(col(Delivery.owner_id) == owner).order_by(col(Delivery.id))
        )
        return list(found.all())


def _links(text: str) -> dict[str, str]:
    """ "Label: https://..." lines of a plain-text part."""
    return dict(re.findall(r"^([A-Z][\w ]+): (https?://\S+)$", text, flags=re.MULTILINE))


async def test_a_reminder_email_says_what_and_when_and_carries_its_links(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    due = datetime(2026, 3, 10, 9, 30, tzinfo=UTC)  # 10:30 in Berlin (CET)
    user = await reminder_account(
        sessionmaker, title="<b>Tom & Jerry</b> call", zone="Europe/Berlin", due_at=due
    )
    reminder = await fire(sessionmaker, user.id or 0)
    sent = await dispatcher(sessionmaker, EmailSender(settings_with_smtp, sessionmaker)).sweep()
    assert sent >= 1
    [mail] = smtp.to(user.email)
    message = mail.message
    assert message["Subject"] == "Reminder: <b>Tom & Jerry</b> call"
    assert message["To"] == user.email
    assert mail.mail_from == "reminders@localhost"
    assert message["Message-ID"] == f"<reminder-{reminder.id}.{user.id}@todo.example.com>"
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = str(message["List-Unsubscribe"])
    assert re.fullmatch(
        r"<https://todo\.example\.com/api/notifications/unsubscribe\?token=[\w.-]+>", unsubscribe
    )
    # Written on one line, as RFC 8058 readers expect: never RFC 2047-encoded.
    assert b"\r\nList-Unsubscribe: <https://todo.example.com/" in mail.raw
    token = parse_qs(urlsplit(unsubscribe.strip("<>")).query)["token"][0]
    claims = read_link(settings_with_smtp, "unsubscribe", token)
    assert (claims.user_id, claims.account) == (user.id, user.account_key)
    assert message.get_content_type() == "multipart/alternative"

    text = mail.part("plain")
    assert "Due Tuesday 10 March 2026, 10:30 (Europe/Berlin)." in text
    links = _links(text)
    assert links["Open the task"] == f"{PUBLIC_URL}/?task=1"
    done, snooze = urlsplit(links["Done"]), urlsplit(links["Snooze 1 hour"])
    assert (done.path, snooze.path) == ("/api/reminder-links/done", "/api/reminder-links/snooze")
    assert parse_qs(snooze.query)["minutes"] == ["60"]
    for link in (done, snooze):
        signed = read_link(settings_with_smtp, "reminder", parse_qs(link.query)["token"][0])
        assert (signed.user_id, signed.reminder_id) == (user.id, reminder.id)
    assert links["Unsubscribe from these emails"] == unsubscribe.strip("<>")

    page = mail.part("html")
    assert "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt; call" in page
    assert "<b>Tom" not in page
    assert 'href="https://todo.example.com/api/reminder-links/done?token=' in page
    assert "Snooze 1 hour</a>" in page

    [row] = await deliveries(sessionmaker, user.id or 0)
    assert row.channel == Channel.EMAIL.value and row.sent_at is not None


async def test_a_long_title_in_any_script_and_a_named_sender_arrive_as_written(
    sessionmaker: SessionMaker, smtp: SmtpServer, database_url: str
) -> None:
    settings = mail_settings(database_url, smtp, email_from="Tödo Bot <reminders@localhost>")
    title = ("Café für Jürgen, 日本の予定, call the bank " * 6)[:TITLE_MAX_LENGTH].strip()
    user = await reminder_account(sessionmaker, title=title)
    await fire(sessionmaker, user.id or 0)
    assert await dispatcher(sessionmaker, EmailSender(settings, sessionmaker)).sweep() >= 1
    [mail] = smtp.to(user.email)
    said = " ".join(title.split())
    assert mail.message["Subject"] == f"Reminder: {said}"
    assert mail.message["From"] == "Tödo Bot <reminders@localhost>"
    assert mail.mail_from == "reminders@localhost"
    assert f"Reminder: {said}" in mail.part("plain")
    assert f"Reminder: {said}" in mail.part("html")
    # 7-bit on the wire, lines ended by CRLF, header lines folded (RFC 5322) except the
    # unsubscribe link, which RFC 8058 readers expect whole.
    assert mail.raw.isascii()
    lines = mail.raw.split(b"\r\n")
    assert all(b"\n" not in line and b"\r" not in line for line in lines)
    head = lines[: lines.index(b"")]
    assert all(len(line) <= 78 for line in head if not line.startswith(b"List-Unsubscribe:"))
    assert all(len(line) <= 998 for line in lines)


async def test_a_resend_is_the_same_message_to_the_receiver(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    """What a crash between sending and marking sent does: the same email again, with the
    same Message-ID, which the receiving end can collapse."""
    user = await reminder_account(sessionmaker)
    reminder = await fire(sessionmaker, user.id or 0)
    [row] = await deliveries(sessionmaker, user.id or 0)
    sender = EmailSender(settings_with_smtp, sessionmaker)
    envelope = Envelope(row, user, reminder)
    assert (await sender.send(envelope)).sent
    assert (await sender.send(envelope)).sent
    first, second = smtp.to(user.email)
    assert first.message["Message-ID"] == second.message["Message-ID"]


async def test_a_451_is_tried_again_later_and_then_sent(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    user = await reminder_account(sessionmaker)
    await fire(sessionmaker, user.id or 0)
    smtp.collector.fail_rcpt("451 4.3.0 Try again later", to=user.email)
    delivery = dispatcher(sessionmaker, EmailSender(settings_with_smtp, sessionmaker))
    now = datetime.now(UTC)
    await delivery.sweep(now)
    [row] = await deliveries(sessionmaker, user.id or 0)
    assert row.sent_at is None and row.failed_at is None
    assert row.last_error is not None and row.last_error.startswith("451")
    assert row.next_attempt_at > now and row.attempts == 1
    assert smtp.to(user.email) == []

    await delivery.sweep(now + timedelta(minutes=5))
    [row] = await deliveries(sessionmaker, user.id or 0)
    assert row.sent_at is not None and row.attempts == 2
    assert len(smtp.to(user.email)) == 1


async def test_a_550_is_given_up_at_once(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    user = await reminder_account(sessionmaker)
    await fire(sessionmaker, user.id or 0)
    smtp.collector.fail_rcpt("550 5.1.1 No such mailbox", to=user.email)
    delivery = dispatcher(sessionmaker, EmailSender(settings_with_smtp, sessionmaker))
    await delivery.sweep()
    await delivery.sweep(datetime.now(UTC) + timedelta(hours=2))
    [row] = await deliveries(sessionmaker, user.id or 0)
    assert row.sent_at is None and row.failed_at is not None and row.attempts == 1
    assert row.last_error is not None and "550" in row.last_error
    assert smtp.to(user.email) == []


async def test_a_message_refused_for_good_is_given_up_and_one_refused_for_now_is_not(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    user = await reminder_account(sessionmaker)
    reminder = await fire(sessionmaker, user.id or 0)
    [row] = await deliveries(sessionmaker, user.id or 0)
    sender = EmailSender(settings_with_smtp, sessionmaker)
    smtp.collector.fail_data("452 4.3.1 Insufficient system storage", to=user.email)
    later = await sender.send(Envelope(row, user, reminder))
    smtp.collector.fail_data("554 5.6.0 Message refused", to=user.email)
    never = await sender.send(Envelope(row, user, reminder))
    assert (later.sent, later.retry) == (False, True)
    assert (never.sent, never.retry) == (False, False)
    assert never.error is not None and never.error.startswith("554")


async def test_no_smtp_server_listening_is_tried_again(
    sessionmaker: SessionMaker, database_url: str, smtp: SmtpServer
) -> None:
    nobody = make_settings(
        database_url, smtp_host="127.0.0.1", smtp_port=free_port(), smtp_tls="none"
    )
    user = await reminder_account(sessionmaker)
    reminder = await fire(sessionmaker, user.id or 0)
    [row] = await deliveries(sessionmaker, user.id or 0)
    outcome = await EmailSender(nobody, sessionmaker, timeout=5).send(Envelope(row, user, reminder))
    assert (outcome.sent, outcome.retry) == (False, True)


async def test_an_account_without_email_reminders_gets_none(
    sessionmaker: SessionMaker, settings_with_smtp: Settings, smtp: SmtpServer
) -> None:
    user = await reminder_account(sessionmaker, email_on=False)
    await fire(sessionmaker, user.id or 0)
    await dispatcher(sessionmaker, EmailSender(settings_with_smtp, sessionmaker)).sweep()
    assert await deliveries(sessionmaker, user.id or 0) == []
    assert smtp.to(user.email) == []


# One-click unsubscribe, through the app.


@pytest.fixture(scope="module")
async def mail_app(database_url: str, smtp: SmtpServer) -> AsyncIterator[FastAPI]:
    async with running(create_app(mail_settings(database_url, smtp))) as application:
        yield application


@pytest.fixture
async def http(mail_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(mail_app) as client:
        yield client


async def _account(mail_app: FastAPI, user_id: int) -> User:
    async with mail_app.state.sessionmaker() as session:
        user = await session.get(User, user_id)
        assert user is not None
        return user


def _path(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


async def test_one_click_unsubscribe_works_without_signing_in_and_opening_it_changes_nothing(
    mail_app: FastAPI, http: httpx.AsyncClient
) -> None:
    who = await register(http)
    turned_on = await http.patch(
        "/api/notifications/settings",
        json={"email_reminders": True, "digest_time": "07:30"},
        headers=who.headers,
    )
    assert turned_on.status_code == 200, turned_on.text
    async with mail_app.state.sessionmaker() as session:
        session.add(
            Delivery(owner_id=who.id, channel=Channel.DIGEST.value, digest_on=date(2026, 3, 10))
        )
        await session.commit()
    link = _path(unsubscribe_url(mail_app.state.settings, await _account(mail_app, who.id)))

    page = await http.get(link)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "Content-Security-Policy" in page.headers
    assert '<form method="post"' in page.text and "<script" not in page.text
    assert 'name="List-Unsubscribe" value="One-Click"' in page.text
    action = re.search(r'action="([^"]+)"', page.text)
    assert action is not None and action.group(1).replace("&amp;", "&") == link
    unchanged = await http.get("/api/notifications/settings", headers=who.headers)
    assert unchanged.json()["email_reminders"] is True
    assert unchanged.json()["digest_time"] == "07:30"

    # What a mail client sends (RFC 8058): a form-encoded POST, no cookies, no token.
    done = await http.post(
        link,
        content="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert done.status_code == 200, done.text
    assert "unsubscribed" in done.text
    after = (await http.get("/api/notifications/settings", headers=who.headers)).json()
    assert (after["email_reminders"], after["digest_time"]) == (False, None)
    async with mail_app.state.sessionmaker() as session:
        choices = await session.get(NotificationSettings, who.id)
        assert choices is not None and choices.digest_next_at is None
        [queued] = (
            await session.exec(select(Delivery).where(col(Delivery.owner_id) == who.id))
        ).all()
        assert queued.failed_at is not None and queued.last_error == CANCELLED
    # Again: harmless.
    assert (await http.post(link)).status_code == 200


async def test_a_forged_expired_or_stale_unsubscribe_link_is_refused(
    mail_app: FastAPI, http: httpx.AsyncClient
) -> None:
    who = await register(http)
    on = await http.patch(
        "/api/notifications/settings", json={"email_reminders": True}, headers=who.headers
    )
    assert on.status_code == 200
    user = await _account(mail_app, who.id)
    settings = mail_app.state.settings
    forger = settings.model_copy(update={"secret_key": "another-secret-that-is-long-enough-12345"})
    now = datetime.now(UTC)
    expired = jwt.encode(
        {
            "sub": str(who.id),
            "acct": user.account_key,
            "aud": "link:unsubscribe",
            "iat": now - timedelta(days=400),
            "exp": now - timedelta(days=35),
        },
        TEST_SECRET,
        algorithm="HS256",
    )
    tokens = {
        "forged": sign_link(forger, "unsubscribe", user_id=who.id, account=user.account_key),
        "expired": expired,
        "another purpose": sign_link(
            settings, "reminder", user_id=who.id, account=user.account_key, reminder_id=1
        ),
        "a removed account's": sign_link(
            settings, "unsubscribe", user_id=who.id, account="0123456789abcdef"
        ),
        "garbage": "not-a-token",
        "none": "",
    }
    for name, token in tokens.items():
        for method in ("GET", "POST"):
            answer = await http.request(
                method, "/api/notifications/unsubscribe", params={"token": token}
            )
            assert answer.status_code == 400, (name, method, answer.text)
            assert answer.headers["content-type"].startswith("text/html")
            assert "not valid" in answer.text
    still = (await http.get("/api/notifications/settings", headers=who.headers)).json()
    assert still["email_reminders"] is True
