"""Connections to the SMTP server kept open between messages: connecting, EHLO, STARTTLS and
logging in cost far more than one message, and a due minute may hold thousands. At most
`size` are open at once; one idle longer than the server is likely to keep it is closed and
opened again, and one that failed mid-message is dropped (its state is unknown)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import aiosmtplib

from backend.core.config import Settings

# Servers drop idle clients after a minute or so (RFC 5321 asks for at least five); closing
# ours first avoids sending into a connection the server has just closed.
IDLE_SECONDS = 30.0


class SmtpPool:
    def __init__(self, settings: Settings, *, size: int, timeout: float) -> None:
        self._settings = settings
        self._timeout = timeout
        self._slots = asyncio.Semaphore(size)
        self._idle: list[tuple[float, aiosmtplib.SMTP]] = []

    async def _connect(self) -> aiosmtplib.SMTP:
        settings = self._settings
        client = aiosmtplib.SMTP(
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            use_tls=settings.smtp_tls == "tls",
            start_tls=settings.smtp_tls == "starttls",
            timeout=self._timeout,
        )
        await client.connect()
        if settings.smtp_username:
            password = settings.smtp_password.get_secret_value() if settings.smtp_password else ""
            try:
                await client.login(settings.smtp_username, password)
            except BaseException:
                client.close()
                raise
        return client

    def _reusable(self) -> aiosmtplib.SMTP | None:
        while self._idle:
            since, client = self._idle.pop()
            if client.is_connected and time.monotonic() - since < IDLE_SECONDS:
                return client
            _close(client)
        return None

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[aiosmtplib.SMTP]:
        async with self._slots:
            client = self._reusable() or await self._connect()
            try:
                yield client
            except BaseException:
                _close(client)
                raise
            self._idle.append((time.monotonic(), client))

    async def sendmail(self, sender: str, recipients: list[str], message: bytes) -> None:
        """Sends over a kept connection; one the server closed meanwhile is replaced once."""
        for attempt in range(2):
            try:
                async with self.connection() as client:
                    await client.sendmail(sender, recipients, message)
                return
            except aiosmtplib.SMTPServerDisconnected:
                if attempt:
                    raise

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for _, client in idle:
            with suppress(aiosmtplib.SMTPException, OSError, TimeoutError):
                await client.quit()
            _close(client)


def _close(client: aiosmtplib.SMTP) -> None:
    with suppress(Exception):
        client.close()
