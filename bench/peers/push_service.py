"""A local push service, written against the RFCs, playing the browser vendor's part (for the
tests and `bench.delivery`).

`subscribe()` does what a browser does when a page subscribes: makes a P-256 key pair and a
16-byte auth secret, and hands over `PushSubscription.toJSON()` with an endpoint on this
service. A push POSTed there is checked as a real push service would (RFC 8292: the
`Authorization: vapid t=<JWT>, k=<key>` header, its ES256 signature made with `k`, `k` the
server's key, `aud` this origin, `exp` within 24 hours, a `sub`; RFC 8030: a TTL; RFC 8291:
`aes128gcm`), then decrypted with the subscription's private key, as the browser would, and
recorded. It answers 201 unless a subscription's answers were scripted (404, 410, 429 with
Retry-After, 500...).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import http_ece  # type: ignore[import-untyped]
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

MAX_TOKEN_LIFETIME = 24 * 60 * 60


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Refused(Exception):
    """A push this service refuses: (status, why)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass
class Browser:
    """One subscription's browser side: its keys, and its scripted answers."""

    id: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    answers: deque[tuple[int, dict[str, str]]] = field(default_factory=deque)


@dataclass(frozen=True)
class Received:
    """A push that was checked, decrypted and answered."""

    subscription: str
    status: int
    message: dict[str, Any]
    headers: dict[str, str]
    claims: dict[str, Any]


class LocalPushService:
    def __init__(self) -> None:
        self.browsers: dict[str, Browser] = {}
        self.received: list[Received] = []
        # Pushes refused for a broken protocol (a bad token, an undecryptable body): a test
        # expects none.
        self.refused: list[str] = []
        # The VAPID public key pushes must be signed with (what GET /api/push/key says).
        self.server_key: str | None = None
        # How long it takes to answer a push (after recording it): a sender killed meanwhile
        # has sent it but not marked it sent.
        self.answer_delay_seconds = 0.0
        self.origin = ""

    def subscribe(self) -> dict[str, Any]:
        """A new browser's `PushSubscription.toJSON()`."""
        browser = Browser(uuid.uuid4().hex, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.browsers[browser.id] = browser
        point = browser.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{browser.id}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(browser.auth)},
        }

    def script(self, endpoint: str, *answers: int | tuple[int, dict[str, str]]) -> None:
        """The next answers to pushes for this subscription (then 201s)."""
        browser = self.browsers[endpoint.rsplit("/", 1)[1]]
        for answer in answers:
            browser.answers.append(answer if isinstance(answer, tuple) else (answer, {}))

    def messages(self, endpoint: str) -> list[dict[str, Any]]:
        """What this subscription's browser received (accepted with a 2xx)."""
        wanted = endpoint.rsplit("/", 1)[1]
        return [r.message for r in self.received if r.subscription == wanted and r.status < 300]

    def attempts(self, endpoint: str) -> list[int]:
        """The answers given to this subscription's pushes, in order."""
        wanted = endpoint.rsplit("/", 1)[1]
        return [r.status for r in self.received if r.subscription == wanted]

    async def _push(self, request: web.Request) -> web.Response:
        browser = self.browsers.get(request.match_info["id"])
        if browser is None:
            return web.Response(status=404, text="no such subscription")
        body = await request.read()
        try:
            claims = self._check_vapid(request.headers.get("Authorization", ""))
            message = self._decrypt(request, browser, body)
        except Refused as refused:
            self.refused.append(str(refused))
            return web.Response(status=refused.status, text=str(refused))
        status, headers = browser.answers.popleft() if browser.answers else (201, {})
        self.received.append(Received(browser.id, status, message, dict(request.headers), claims))
        if self.answer_delay_seconds:
            await asyncio.sleep(self.answer_delay_seconds)
        if status == 201:
            headers = {**headers, "Location": f"{self.origin}/message/{uuid.uuid4().hex}"}
        return web.Response(status=status, headers=headers)

    def _check_vapid(self, authorization: str) -> dict[str, Any]:
        scheme, _, rest = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise Refused(401, f"not a vapid Authorization: {authorization[:40]!r}")
        parts = dict(item.strip().split("=", 1) for item in rest.split(",") if "=" in item.strip())
        token, key = parts.get("t", ""), parts.get("k", "")
        if self.server_key is None or key != self.server_key:
            raise Refused(403, "k is not the key this subscription was made with")
        try:
            header_part, claims_part, signature_part = token.split(".")
            header = json.loads(unb64url(header_part))
            claims = json.loads(unb64url(claims_part))
            signature = unb64url(signature_part)
        except ValueError as exc:
            raise Refused(401, f"malformed JWT: {exc}") from exc
        if header.get("alg") != "ES256" or len(signature) != 64:
            raise Refused(401, f"not an ES256 JWT: {header}")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        der = encode_dss_signature(
            int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
        )
        try:
            public.verify(der, f"{header_part}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature as exc:
            raise Refused(403, "the JWT's signature does not verify with k") from exc
        if claims.get("aud") != self.origin:
            raise Refused(403, f"aud {claims.get('aud')!r} is not {self.origin!r}")
        now = time.time()
        expires = claims.get("exp")
        if not isinstance(expires, int) or not now < expires <= now + MAX_TOKEN_LIFETIME + 60:
            raise Refused(403, f"exp {expires!r} is not within 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise Refused(403, f"sub {claims.get('sub')!r} is not a mailto: or https: URI")
        return dict(claims)

    def _decrypt(self, request: web.Request, browser: Browser, body: bytes) -> dict[str, Any]:
        if request.headers.get("Content-Encoding") != "aes128gcm":
            raise Refused(415, "Content-Encoding is not aes128gcm")
        ttl = request.headers.get("TTL", "")
        if not ttl.isdigit():
            raise Refused(400, "no TTL header")
        if len(body) > 4096:
            raise Refused(413, "payload larger than 4096 bytes")
        try:
            plain = http_ece.decrypt(
                body, private_key=browser.private_key, auth_secret=browser.auth, version="aes128gcm"
            )
            message: dict[str, Any] = json.loads(plain)
        except (http_ece.ECEException, ValueError) as exc:
            raise Refused(400, f"payload does not decrypt: {exc!r}") from exc
        return message


@asynccontextmanager
async def local_push_service() -> AsyncIterator[LocalPushService]:
    """The service, listening on 127.0.0.1 at a port of its own."""
    service = LocalPushService()
    application = web.Application()
    application.router.add_post("/push/{id}", service._push)
    runner = web.AppRunner(application, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    service.origin = f"http://127.0.0.1:{port}"
    try:
        yield service
    finally:
        await runner.cleanup()
