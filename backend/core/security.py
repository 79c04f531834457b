"""Password hashing (argon2 via pwdlib) and signed, expiring access tokens (PyJWT)."""

from __future__ import annotations

import asyncio
import hmac
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TypeVar

import jwt
from pwdlib import PasswordHash

from backend.core.config import Settings
from backend.core.timeutil import utcnow

ALGORITHM = "HS256"
T = TypeVar("T")
_password_hash = PasswordHash.recommended()


class InvalidTokenError(Exception):
    """The token is malformed, expired, unsigned or signed with another key."""


def hash_password(password: str) -> str:
    return _password_hash.hash(password)


def verify_password(password: str, hashed: str) -> bool:
    return _password_hash.verify(password, hashed)


# Verifying against a real hash for unknown emails keeps login timing uniform.
_DUMMY_HASH = hash_password("not-a-real-password")


def verify_password_or_dummy(password: str, hashed: str | None) -> bool:
    if hashed is None:
        _password_hash.verify(password, _DUMMY_HASH)
        return False
    return verify_password(password, hashed)


class HashingBusyError(Exception):
    """More password hashes are waiting than MAX_PENDING_HASHES: refuse (503) rather than
    queue a wait no client sits through."""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may run on
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# argon2 costs ~0.1 s of CPU and 64 MiB per hash. On the event loop it would stall every
# other request, and any pooled connection they hold, for that long; so it runs in threads
# of its own (argon2 releases the GIL), one per core: more would share the same cores and
# multiply the memory. Not the default thread pool, which file responses need too.
_HASHING = ThreadPoolExecutor(max_workers=_cores(), thread_name_prefix="password-hash")
# Hashes running or queued in this process; past this a sign-in or sign-up is refused. At
# ~0.1 s each per core, the last of 256 waits tens of seconds on a small machine.
MAX_PENDING_HASHES = 256
_pending = 0
_pending_lock = threading.Lock()  # one event loop per process serves, but tests run several


async def _in_hashing_thread(work: Callable[[], T]) -> T:
    global _pending
    with _pending_lock:
        if _pending >= MAX_PENDING_HASHES:
            raise HashingBusyError(f"{_pending} password hashes already waiting")
        _pending += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_HASHING, work)
    finally:
        with _pending_lock:
            _pending -= 1


async def hash_password_in_thread(password: str) -> str:
    """`hash_password` off the event loop; hold no pooled connection while awaiting it."""
    return await _in_hashing_thread(partial(hash_password, password))


async def verify_password_or_dummy_in_thread(password: str, hashed: str | None) -> bool:
    """`verify_password_or_dummy` off the event loop; hold no pooled connection while
    awaiting it."""
    return await _in_hashing_thread(partial(verify_password_or_dummy, password, hashed))


@dataclass(frozen=True)
class AccessClaims:
    user_id: int
    # The account's key (User.account_key): an id alone can come back for another account.
    account: str
    # When the token stops opening anything: a stream opened with it ends then too.
    expires_at: datetime | None = None
    # A personal access token's id and whether it may change data (specs/access-tokens.md);
    # a sign-in token has no id and may do anything the account may.
    token_id: int | None = None
    may_change: bool = True

    @property
    def signed_in(self) -> bool:
        """Whether this is a sign-in (session) token, which alone manages tokens and the
        account."""
        return self.token_id is None

    def issued_to(self, account_key: str) -> bool:
        return hmac.compare_digest(self.account, account_key)


def create_access_token(user_id: int, settings: Settings, *, account: str) -> str:
    now = utcnow()
    payload: dict[str, object] = {
        "sub": str(user_id),
        "acct": account,
        "iat": now,
        "exp": now + timedelta(minutes=settings.access_token_expire_minutes),
        "type": "access",
    }
    return jwt.encode(payload, settings.secret_key, algorithm=ALGORITHM)


MAX_USER_ID = 2**31 - 1


def read_access_token(token: str, settings: Settings) -> AccessClaims:
    """The user id (and account stamp) the token was issued for."""
    try:
        payload = jwt.decode(
            token,
            settings.secret_key,
            algorithms=[ALGORITHM],  # an explicit list refuses "alg": "none"
            options={"require": ["sub", "exp", "acct"]},
        )
    except jwt.PyJWTError as exc:
        raise InvalidTokenError(str(exc)) from exc
    subject = payload.get("sub")
    if payload.get("type") != "access" or not isinstance(subject, str):
        raise InvalidTokenError("not an access token")
    # ASCII digits only ("١" and "²" pass isdigit()), and an id a database row can have.
    if not (subject.isascii() and subject.isdigit() and 0 < len(subject) <= 10):
        raise InvalidTokenError("not a user id")
    user_id = int(subject)
    if not 1 <= user_id <= MAX_USER_ID:
        raise InvalidTokenError("not a user id")
    account = payload.get("acct")
    if not isinstance(account, str) or not account:
        raise InvalidTokenError("malformed account key")
    try:  # jwt.decode checked it is a time to come; it must also be a date
        expires = datetime.fromtimestamp(int(payload["exp"]), UTC)
    except (TypeError, ValueError, OverflowError, OSError) as exc:
        raise InvalidTokenError("malformed expiry") from exc
    return AccessClaims(user_id, account, expires)


def decode_access_token(token: str, settings: Settings) -> int:
    """Returns the user id the token was issued for."""
    return read_access_token(token, settings).user_id
