"""What a new password must not be (NIST SP 800-63B, 3.1.1.2): blank, made of characters
nobody can see or type, or among the passwords attackers try first.

"Tried first" is zxcvbn's estimate: its ranked lists of the most common passwords (30,000
from real breaches), names and words, plus repeats ("aaaaaaaa"), sequences ("abcd1234"),
keyboard walks ("qwertyui"), common substitutions ("p@ssw0rd") and the account's own email.
A password it expects to fall within an attacker's first ten thousand guesses is refused.
Only new passwords are checked: sign-in accepts whatever an account was created with.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

# zxcvbn's estimate grows steeply with length (a random 64-character string can take half a
# second); a password whose first 32 characters are that guessable is refused anyway.
_ESTIMATED_PREFIX = 32
_ENOUGH_GUESSES = 10_000

# Joiners sit inside words (Persian, Indic scripts) and emoji sequences; other format
# characters (zero-width space, direction marks, byte order mark) only hide.
_JOINERS = {"\u200c", "\u200d"}
# Letters and symbols that render as nothing at all.
_BLANK_LOOKING = {"\u115f", "\u1160", "\u2800", "\u3164", "\uffa0"}


@dataclass(frozen=True)
class PasswordProblem:
    code: str  # the 422 error's `type`
    message: str


def _shows_nothing(char: str) -> bool:
    return (
        char.isspace() or char in _BLANK_LOOKING or unicodedata.category(char) in {"Cf", "Mn", "Me"}
    )


def password_problem(password: str, *, email: str | None = None) -> PasswordProblem | None:
    """Why `password` may not be chosen, or None if it may."""
    if any(unicodedata.category(char) == "Cc" for char in password):
        return PasswordProblem(
            "password_control_characters",
            "Password must not contain control characters (such as NUL, tab or line breaks).",
        )
    if any(unicodedata.category(char) == "Cf" and char not in _JOINERS for char in password):
        return PasswordProblem(
            "password_invisible_characters",
            "Password must not contain invisible characters (such as zero-width spaces).",
        )
    if all(_shows_nothing(char) for char in password):
        return PasswordProblem("password_blank", "Password must not be blank.")
    return _guessable(password, email)


def _guessable(password: str, email: str | None) -> PasswordProblem | None:
    # Imported on first use: its word lists take ~14 MB, which workers that never see a
    # sign-up should not carry.
    from zxcvbn import zxcvbn  # type: ignore[import-untyped]

    context = [email, email.partition("@")[0]] if email else []
    estimate: dict[str, Any] = zxcvbn(password[:_ESTIMATED_PREFIX], user_inputs=context)
    if estimate["guesses"] >= _ENOUGH_GUESSES:
        return None
    warning = str(estimate["feedback"]["warning"]).rstrip(".")
    reason = f": {warning[0].lower()}{warning[1:]}" if warning else ""
    return PasswordProblem(
        "password_too_common",
        f"Password is too easy to guess{reason}. Try a few unrelated words instead.",
    )
