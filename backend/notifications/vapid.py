"""The server's VAPID key pair (RFC 8292), which every worker signs its pushes with.

Given in settings (VAPID_PRIVATE_KEY, as PEM or as the raw private key in base64url), or else
made on the first start and kept in the `server_key` table, so every worker and the
`todo-chatbot reminders` process sign with the same key. Browsers subscribe with its public
half (`applicationServerKey`); a key that changed would leave every subscription unusable, so
it is made once: workers starting together insert-or-read, and all end with the first one's.
"""

from __future__ import annotations

import base64
import binascii
import time
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02  # type: ignore[import-untyped]
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.core.timeutil import utcnow
from backend.models import ServerKey

KEY_NAME = "vapid_private_key"
# RFC 8292 lets a token live up to 24 hours; a fresh one is signed well before that.
TOKEN_LIFETIME_SECONDS = 12 * 60 * 60
TOKEN_REUSE_SECONDS = 60 * 60


class VapidKeyError(ValueError):
    """VAPID_PRIVATE_KEY (or the stored key) is not a P-256 private key."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Decodes base64url with or without padding (and plain base64, which some tools print)."""
    cleaned = "".join(text.split()).rstrip("=").replace("+", "-").replace("/", "_")
    return base64.urlsafe_b64decode(cleaned + "=" * (-len(cleaned) % 4))


def parse_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 private key from PEM (PKCS#8 or SEC 1), the raw 32-byte scalar in base64url,
    or DER in base64url (what `vapid --gen` and pywebpush's docs use)."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key: Any = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            raw = b64url_decode(text)
            if len(raw) == 32:
                key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
            else:
                key = serialization.load_der_private_key(raw, password=None)
    except (ValueError, TypeError, binascii.Error) as exc:
        raise VapidKeyError(f"not a usable VAPID private key: {exc}") from exc
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise VapidKeyError("a VAPID private key is an EC key on the P-256 curve")
    return key


def private_pem(key: ec.EllipticCurvePrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


@dataclass
class VapidKeys:
    """The key pair, and the signed tokens it hands out (one per push service origin,
    reused for an hour: signing is CPU work, and a busy minute sends thousands of pushes)."""

    private_key: ec.EllipticCurvePrivateKey
    _vapid: Any = field(init=False, repr=False)
    _tokens: dict[tuple[str, str], tuple[float, str]] = field(
        init=False, repr=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self._vapid = Vapid02(self.private_key)

    @property
    def public_key(self) -> str:
        """The public key as browsers take it (`applicationServerKey`): the uncompressed
        P-256 point, base64url without padding."""
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def authorization(self, audience: str, subject: str, *, now: float | None = None) -> str:
        """The `Authorization: vapid t=..., k=...` value for pushes to `audience` (the push
        service's origin)."""
        now = time.time() if now is None else now
        cached = self._tokens.get((audience, subject))
        if cached is not None and cached[0] - now > TOKEN_LIFETIME_SECONDS - TOKEN_REUSE_SECONDS:
            return cached[1]
        expires = int(now) + TOKEN_LIFETIME_SECONDS
        headers = self._vapid.sign({"aud": audience, "exp": expires, "sub": subject})
        value = str(headers["Authorization"])
        self._tokens[(audience, subject)] = (expires, value)
        return value


async def load_vapid_keys(sessionmaker: SessionMaker, settings: Settings) -> VapidKeys:
    """The server's keys: the configured ones, or the stored ones, made and stored first if
    there are none (whichever process stores first wins; the others read its key)."""
    if settings.vapid_private_key is not None:
        return VapidKeys(parse_private_key(settings.vapid_private_key.get_secret_value()))
    async with sessionmaker() as session:
        stored = await session.get(ServerKey, KEY_NAME)
        if stored is not None:
            return VapidKeys(parse_private_key(stored.value))
        made = ec.generate_private_key(ec.SECP256R1())
        try:
            await session.exec(
                insert(ServerKey).values(
                    name=KEY_NAME, value=private_pem(made), created_at=utcnow()
                )
            )
            await session.commit()
        except IntegrityError:
            # Another worker stored one first (on PostgreSQL this waited for its commit).
            await session.rollback()
        value = (
            await session.exec(select(ServerKey.value).where(ServerKey.name == KEY_NAME))
        ).one()
        return VapidKeys(parse_private_key(value))
