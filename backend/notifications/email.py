"""Email: a fired reminder for an account that opted in, and the daily digest
(specs/notifications.md), sent by SMTP with `aiosmtplib`.

Every email names what it is about in its Message-ID (`<reminder-<id>.<user>@host>`,
`<digest-<day>.<user>@host>`), so one sent again after a crash between sending and marking it
sent (backend/notifications/outbox.py) is the same message to the receiving end, which may
collapse the two. Every email carries a signed one-click unsubscribe link (RFC 8058
`List-Unsubscribe` and `List-Unsubscribe-Post`) that works without signing in, and says it
was sent by a machine (`Auto-Submitted: auto-generated`, RFC 3834) so no auto-reply answers.

What SMTP answers decides what becomes of a delivery: accepted is sent; a 4xx reply, a lost
connection or a timeout is tried again later (with the outbox's backoff); a 5xx about the
message or its recipient ("550 no such mailbox") is given up on. A 5xx about the connection
itself (authentication, HELO) says the server's settings are wrong, not the message: tried
again, so mail waits for the fix instead of being dropped.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from email.charset import QP, Charset
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import Compat32
from email.utils import format_datetime, formataddr, parseaddr
from urllib.parse import urlsplit

import aiosmtplib

from backend.core.config import Settings
from backend.core.db import SessionMaker, read_only
from backend.core.loops import CpuTurns
from backend.core.timeutil import utcnow
from backend.domain.due import on_clock, short_day
from backend.models import Channel, Reminder, User
from backend.notifications import digest
from backend.notifications.digest import DigestContent, DigestItem, Section
from backend.notifications.dispatcher import Envelope
from backend.notifications.links import reminder_action_url, task_url, unsubscribe_url
from backend.notifications.outbox import Outcome
from backend.notifications.smtp_pool import SmtpPool

SMTP_TIMEOUT_SECONDS = 30.0
SNOOZE_MINUTES = 60
# Why a digest was not sent: nothing due, overdue or repeating that day.
NOTHING_DUE = "skipped: nothing due, overdue or repeating that day"


class _WirePolicy(Compat32):
    """The email package's legacy (compat32) generator, with CRLF line ends: it writes a
    message in a quarter of the CPU of the modern policy's header objects, which were most
    of an email's cost. Headers are folded at 78 characters (RFC 5322), non-ASCII text is
    RFC 2047-encoded, and the unsubscribe link is written on one line as it is (RFC 8058
    readers expect it whole; a URL has nowhere to fold, and it stays under 998)."""

    def fold_binary(self, name: str, value: str) -> bytes:
        if name.lower() == "list-unsubscribe":
            return f"{name}: {value}{self.linesep}".encode("ascii")
        return super().fold_binary(name, value)


_POLICY = _WirePolicy(linesep="\r\n")
_UTF8_QUOTED_PRINTABLE = Charset("utf-8")
_UTF8_QUOTED_PRINTABLE.body_encoding = QP


@dataclass(frozen=True)
class OutgoingEmail:
    """An email as SMTP takes it: the envelope's sender and recipient, and the message."""

    sender: str
    recipient: str
    raw: bytes


# Connections kept open to the SMTP server per process (servers cap a client's; 8 is modest).
SMTP_CONNECTIONS = 8


class EmailSender:
    """Sends Channel.EMAIL (a fired reminder) and Channel.DIGEST deliveries."""

    def __init__(
        self,
        settings: Settings,
        sessionmaker: SessionMaker,
        *,
        timeout: float = SMTP_TIMEOUT_SECONDS,
        clock: Callable[[], datetime] = utcnow,
        turns: CpuTurns | None = None,
    ) -> None:
        self._settings = settings
        self._turns = turns or CpuTurns()
        self._sessionmaker = sessionmaker
        self._timeout = timeout
        self._clock = clock
        self._pool = SmtpPool(settings, size=SMTP_CONNECTIONS, timeout=timeout)

    async def close(self) -> None:
        await self._pool.close()

    async def send(self, envelope: Envelope) -> Outcome:
        delivery = envelope.delivery
        assert delivery.id is not None
        if not self._settings.email_enabled:
            return Outcome(delivery.id, error="email is not set up (SMTP_HOST)")
        channel = Channel(delivery.channel)
        if channel is Channel.EMAIL:
            reminder = envelope.reminder
            if reminder is None:
                return Outcome(delivery.id, error="the reminder is gone")
            async with self._turns.turn():
                email = reminder_message(self._settings, envelope.user, reminder, now=self._clock())
        elif channel is Channel.DIGEST and delivery.digest_on is not None:
            async with self._sessionmaker() as session:
                await read_only(session)
                content = await digest.gather(session, envelope.user, delivery.digest_on)
            if content.empty:
                return Outcome(delivery.id, error=NOTHING_DUE)
            async with self._turns.turn():
                email = digest_message(self._settings, envelope.user, content, now=self._clock())
        else:
            return Outcome(delivery.id, error=f"not an email: {delivery.channel}")
        return await self.deliver(delivery.id, email)

    async def deliver(self, delivery_id: int, email: OutgoingEmail) -> Outcome:
        """Hands `email` to the SMTP server; what became of it."""
        try:
            await self._pool.sendmail(email.sender, [email.recipient], email.raw)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [refused.code for refused in exc.recipients]
            reason = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
            return Outcome(delivery_id, error=reason, retry=not all(c >= 500 for c in codes))
        except (
            aiosmtplib.SMTPAuthenticationError,
            aiosmtplib.SMTPHeloError,
            aiosmtplib.SMTPConnectResponseError,
        ) as exc:
            return Outcome(delivery_id, error=f"{exc.code} {exc.message}", retry=True)
        except aiosmtplib.SMTPResponseException as exc:
            return Outcome(delivery_id, error=f"{exc.code} {exc.message}", retry=exc.code < 500)
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            return Outcome(delivery_id, error=f"{type(exc).__name__}: {exc}", retry=True)
        return Outcome(delivery_id, sent=True)


def message_host(settings: Settings) -> str:
    """The domain of Message-IDs: the host people reach the service at."""
    return urlsplit(settings.base_url).hostname or "localhost"


def reminder_message_id(settings: Settings, user: User, reminder_id: int) -> str:
    return f"<reminder-{reminder_id}.{user.id}@{message_host(settings)}>"


def digest_message_id(settings: Settings, user: User, day: date) -> str:
    return f"<digest-{day.isoformat()}.{user.id}@{message_host(settings)}>"


def one_line(text: str) -> str:
    """Text for a header: line breaks and runs of spaces become one space."""
    return " ".join(text.split())


def when(moment: datetime, zone_name: str) -> str:
    """ "Tuesday 10 March 2026, 09:30" on the zone's clock; the start of a day alone (an
    all-day task's due instant) is the day."""
    local = on_clock(moment, zone_name)
    day = f"{local:%A} {local.day} {local:%B %Y}"
    if (local.hour, local.minute) == (0, 0):
        return day
    return f"{day}, {local:%H:%M}"


def _base(
    settings: Settings,
    user: User,
    *,
    subject: str,
    message_id: str,
    text: str,
    html_body: str,
    unsubscribe: str,
    now: datetime,
) -> OutgoingEmail:
    message = MIMEMultipart("alternative", policy=_POLICY)
    name, sender = parseaddr(settings.email_from)
    message["From"] = formataddr((name, sender), charset="utf-8")
    message["To"] = user.email
    message["Subject"] = one_line(subject)
    message["Date"] = format_datetime(now.astimezone(UTC))
    message["Message-ID"] = message_id
    message["Auto-Submitted"] = "auto-generated"
    message["X-Auto-Response-Suppress"] = "All"
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    for body, subtype in ((text, "plain"), (html_body, "html")):
        part = MIMEText(body, subtype, _UTF8_QUOTED_PRINTABLE, policy=_POLICY)  # type: ignore[arg-type]
        del part["MIME-Version"]  # said once, by the message
        message.attach(part)
    return OutgoingEmail(sender, user.email, message.as_bytes())


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def _link(url: str, label: str) -> str:
    return f'<a href="{html.escape(url, quote=True)}">{html.escape(label)}</a>'


def _footer_text(unsubscribe: str, why: str) -> str:
    return f"\n-- \n{why}\nUnsubscribe from these emails: {unsubscribe}\n"


def _footer_html(unsubscribe: str, why: str) -> str:
    link = _link(unsubscribe, "Unsubscribe from these emails")
    return f"<hr>\n<p><small>{html.escape(why)} {link}</small></p>\n"


def reminder_message(
    settings: Settings, user: User, reminder: Reminder, *, now: datetime
) -> OutgoingEmail:
    """The email for one fired reminder: its title, when its task is due on the account's
    clock, and links to open the task, mark it done and snooze it for an hour."""
    assert reminder.id is not None
    title = one_line(reminder.title)
    due = (
        f"Due {when(reminder.due_at, user.timezone)} ({user.timezone})."
        if reminder.due_at is not None
        else None
    )
    links = [
        ("Open the task", task_url(settings, reminder.task_number)),
        ("Done", reminder_action_url(settings, user, reminder.id, "done")),
        (
            "Snooze 1 hour",
            reminder_action_url(settings, user, reminder.id, "snooze", minutes=SNOOZE_MINUTES),
        ),
    ]
    why = "You get this email because you turned on reminders by email."
    unsubscribe = unsubscribe_url(settings, user)
    text = f"Reminder: {title}\n" + (f"{due}\n" if due else "") + "\n"
    text += "".join(f"{label}: {url}\n" for label, url in links)
    text += _footer_text(unsubscribe, why)
    body = f"<h1>Reminder: {html.escape(title)}</h1>\n"
    if due:
        body += f"<p>{html.escape(due)}</p>\n"
    body += "<p>" + " | ".join(_link(url, label) for label, url in links) + "</p>\n"
    body += _footer_html(unsubscribe, why)
    return _base(
        settings,
        user,
        subject=f"Reminder: {title}",
        message_id=reminder_message_id(settings, user, reminder.id),
        text=text,
        html_body=_page(f"Reminder: {title}", body),
        unsubscribe=unsubscribe,
        now=now,
    )


def _digest_subject(content: DigestContent) -> str:
    counts = [
        (content.due_today.total, "due"),
        (content.repeats_today.total, "repeating"),
        (content.overdue.total, "overdue"),
    ]
    said = ", ".join(f"{count} {what}" for count, what in counts if count)
    return f"Your day, {content.day:%A} {content.day.day} {content.day:%B}: {said}"


def _item_text(item: DigestItem, day: date, *, overdue: bool) -> str:
    """ "09:30 Call mom", "Water plants (every week)", "Pay rent (due Mon 9 Mar)"."""
    said = one_line(item.title)
    if item.due_time is not None and not overdue:
        said = f"{item.due_time:%H:%M} {said}"
    notes = []
    if overdue:
        clock = f" {item.due_time:%H:%M}" if item.due_time is not None else ""
        notes.append(f"due {short_day(item.due_date, day)}{clock}")
    if item.repeat_text:
        notes.append(item.repeat_text)
    return f"{said} ({'; '.join(notes)})" if notes else said


def digest_message(
    settings: Settings, user: User, content: DigestContent, *, now: datetime
) -> OutgoingEmail:
    """The daily digest: what is due on the day, what repeats that day, what is overdue."""
    day = content.day
    heading = f"Your day, {day:%A} {day.day} {day:%B %Y}"
    sections: list[tuple[str, Section, bool]] = [
        ("Due today", content.due_today, False),
        ("Repeats today", content.repeats_today, False),
        ("Overdue", content.overdue, True),
    ]
    text, body = f"{heading}\n", f"<h1>{html.escape(heading)}</h1>\n"
    for name, section, overdue in sections:
        if not section.total:
            continue
        text += f"\n{name} ({section.total})\n"
        body += f"<h2>{html.escape(name)} ({section.total})</h2>\n<ul>\n"
        for item in section.items:
            said = _item_text(item, day, overdue=overdue)
            url = task_url(settings, item.number)
            text += f"- {said}\n  {url}\n"
            body += f"<li>{_link(url, said)}</li>\n"
        if section.more:
            text += f"- and {section.more} more\n"
            body += f"<li>and {section.more} more</li>\n"
        body += "</ul>\n"
    text += f"\nOpen your tasks: {settings.base_url}/\n"
    body += f"<p>{_link(f'{settings.base_url}/', 'Open your tasks')}</p>\n"
    why = "You get this email because you asked for a daily digest; change its time in Settings."
    unsubscribe = unsubscribe_url(settings, user)
    text += _footer_text(unsubscribe, why)
    body += _footer_html(unsubscribe, why)
    return _base(
        settings,
        user,
        subject=_digest_subject(content),
        message_id=digest_message_id(settings, user, day),
        text=text,
        html_body=_page(heading, body),
        unsubscribe=unsubscribe,
        now=now,
    )
