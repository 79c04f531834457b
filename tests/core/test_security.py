from __future__ import annotations

from datetime import timedelta

import jwt
import pytest

from backend.core.config import Settings
from backend.core.security import (
    ALGORITHM,
    InvalidTokenError,
    create_access_token,
    decode_access_token,
    hash_password,
    read_access_token,
    verify_password,
)
from backend.core.timeutil import utcnow

SETTINGS = Settings(secret_key="k" * 40, access_token_expire_minutes=5)


def test_password_hash_is_argon2_and_verifies() -> None:
    hashed = hash_password("s3cret-pass")
    assert hashed.startswith("$argon2")
    assert verify_password("s3cret-pass", hashed)
    assert not verify_password("other", hashed)


def test_token_round_trip_gives_the_user_id() -> None:
    assert decode_access_token(create_access_token(42, SETTINGS, account="k42"), SETTINGS) == 42


def _forge(payload: dict[str, object], key: str = "k" * 40, algorithm: str = ALGORITHM) -> str:
    return jwt.encode(payload, key, algorithm=algorithm)


@pytest.mark.parametrize(
    "token",
    [
        _forge(
            {"sub": "1", "exp": utcnow() - timedelta(seconds=1), "type": "access", "acct": "k1"}
        ),
        _forge(
            {"sub": "1", "exp": utcnow() + timedelta(minutes=1), "type": "access", "acct": "k1"},
            key="x" * 40,
        ),
        _forge({"sub": "1", "type": "access", "acct": "k1"}),
        _forge(
            {"sub": "1", "exp": utcnow() + timedelta(minutes=1), "type": "refresh", "acct": "k1"}
        ),
        _forge(
            {"sub": "abc", "exp": utcnow() + timedelta(minutes=1), "type": "access", "acct": "k1"}
        ),
        jwt.encode(
            {"sub": "1", "exp": utcnow() + timedelta(minutes=1), "type": "access", "acct": "k1"},
            key=None,
            algorithm="none",
        ),
        _forge({"sub": "1", "exp": utcnow() + timedelta(minutes=1), "type": "access"}),
        _forge({"sub": "1", "exp": utcnow() + timedelta(minutes=1), "type": "access", "acct": ""}),
        _forge({"sub": "1", "exp": utcnow() + timedelta(minutes=1), "type": "access", "acct": 7}),
        "not-a-jwt",
        "",
    ],
    ids=[
        "expired",
        "wrong-secret",
        "no-exp",
        "not-access",
        "bad-sub",
        "alg-none",
        "no-account",
        "empty-account",
        "numeric-account",
        "garbage",
        "empty",
    ],
)
def test_bad_tokens_are_refused(token: str) -> None:
    with pytest.raises(InvalidTokenError):
        decode_access_token(token, SETTINGS)


@pytest.mark.parametrize(
    "subject", ["9" * 30, str(2**63), str(2**31), "0", "²", "١", " 1", "+1", "-1"]
)
def test_a_subject_that_is_no_storable_user_id_is_refused(subject: str) -> None:
    token = _forge(
        {"sub": subject, "exp": utcnow() + timedelta(minutes=1), "type": "access", "acct": "k1"}
    )
    with pytest.raises(InvalidTokenError):
        decode_access_token(token, SETTINGS)


def test_the_largest_user_id_is_accepted() -> None:
    token = _forge(
        {
            "sub": str(2**31 - 1),
            "exp": utcnow() + timedelta(minutes=1),
            "type": "access",
            "acct": "k1",
        }
    )
    assert decode_access_token(token, SETTINGS) == 2**31 - 1


def test_a_token_names_the_account_it_was_issued_to() -> None:
    claims = read_access_token(create_access_token(3, SETTINGS, account="carols-key"), SETTINGS)
    assert claims.user_id == 3
    assert claims.issued_to("carols-key")
    assert not claims.issued_to("daves-key")
