"""Password hashing (argon2 via pwdlib) and signed, expiring access tokens (PyJWT)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import jwt
from pwdlib import PasswordHash

from backend.core.config import Settings
from backend.core.timeutil import utcnow

ALGORITHM = "HS256"
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


@dataclass(frozen=True)
class AccessClaims:
    user_id: int
    # The account's key (User.account_key): an id alone can come back for another account.
    account: str
    # When the token stops opening anything: a stream opened with it ends then too.
    expires_at: datetime | None = None

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
