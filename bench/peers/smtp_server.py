"""A local SMTP server for the tests and `bench.delivery` (aiosmtpd, on 127.0.0.1 and a
free port, in a thread of its own): it keeps every message it accepts, parsed, and answers RCPT or
DATA with scripted failures ("451 try again later", "550 no such mailbox") when told to."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


@dataclass(frozen=True)
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage
    raw: bytes

    @property
    def to(self) -> str:
        return str(self.message["To"])

    def part(self, subtype: str) -> str:
        """The body of the text/`subtype` alternative, decoded (lines end in "\\n")."""
        found = self.message.get_body(preferencelist=(subtype,))
        assert found is not None, f"no text/{subtype} part"
        content: str = found.get_content()  # type: ignore[attr-defined]
        return content.replace("\r\n", "\n")


class Collector:
    """The handler: what was received, and the replies scripted for the next commands."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.received: list[Received] = []
        self._rcpt_replies: list[tuple[str | None, str]] = []
        self._data_replies: list[tuple[str | None, str]] = []

    def fail_rcpt(self, reply: str, *, to: str | None = None, times: int = 1) -> None:
        """The next `times` RCPT TO commands (for `to`, or any) are answered `reply`."""
        with self._lock:
            self._rcpt_replies += [(to, reply)] * times

    def fail_data(self, reply: str, *, to: str | None = None, times: int = 1) -> None:
        with self._lock:
            self._data_replies += [(to, reply)] * times

    def _scripted(self, replies: list[tuple[str | None, str]], address: str) -> str | None:
        with self._lock:
            for index, (to, reply) in enumerate(replies):
                if to is None or to == address:
                    del replies[index]
                    return reply
        return None

    async def handle_RCPT(  # noqa: N802 - aiosmtpd's hook name
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: Any
    ) -> str:
        reply = self._scripted(self._rcpt_replies, address)
        if reply is not None:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        for address in envelope.rcpt_tos:
            reply = self._scripted(self._data_replies, address)
            if reply is not None:
                return reply
        raw: bytes = envelope.original_content or envelope.content
        parsed = message_from_bytes(raw, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        with self._lock:
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), parsed, raw))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Received]:
        """What was received for `address` (the database is shared: other tests' mail too)."""
        with self._lock:
            return [mail for mail in self.received if address in mail.rcpt_tos]


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    collector: Collector

    def to(self, address: str) -> list[Received]:
        return self.collector.to(address)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def smtp_server() -> Iterator[SmtpServer]:
    collector = Collector()
    controller = Controller(collector, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield SmtpServer("127.0.0.1", controller.port, collector)
    finally:
        controller.stop()
