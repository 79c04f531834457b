"""What a new password must not be (NIST SP 800-63B, 3.1.1.2): blank, made of characters
nobody can see or type, or among the passwords attackers try first.

"Tried first" is zxcvbn's estimate: its ranked lists of the most common passwords (30,000
from real breaches), names and words, plus repeats ("aaaaaaaa"), sequences ("abcd1234"),
keyboard walks ("qwertyui"), common substitutions ("p@ssw0rd") and the account's own email
(whole, and each of its parts). A password is scored as NFKC reads it (full-width
"ｐａｓｓｗｏｒｄ１" is "password1" to an attacker's list) and must reach zxcvbn's score 3: past
the first hundred million guesses. A guessable word with only digits and symbols around it
("Summer2024!", "!Monkey2024") is refused whatever its score: zxcvbn's year list ends in
2019, so it counts "2024!" as five random characters, and attackers try exactly these.
Only new passwords are checked: sign-in accepts whatever an account was created with.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

# zxcvbn's estimate grows steeply with length (a random 64-character string can take half a
# second); a password whose first 32 characters are that guessable is refused anyway.
_ESTIMATED_PREFIX = 32
# zxcvbn's score 3 ("safely unguessable"): at least 10^8 guesses.
_LEAST_SCORE = 3
# A word within an attacker's first ten thousand guesses does not become safe by adding a
# year and a symbol ("Summer" + "2024!").
_DECORATED_WORD_GUESSES = 10_000
_DECORATED = re.compile(r"(?P<before>[\W\d_]{0,6})(?P<word>.*?)(?P<after>[\W\d_]{0,6})", re.S)
_EMAIL_PARTS = re.compile(r"[._+@-]+")

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

    context = _email_words(email)
    scored = unicodedata.normalize("NFKC", password)[:_ESTIMATED_PREFIX]
    decorated = _DECORATED.fullmatch(scored)
    if decorated is not None and decorated["word"] != scored and decorated["word"].strip():
        word: dict[str, Any] = zxcvbn(decorated["word"], user_inputs=context)
        if word["guesses"] < _DECORATED_WORD_GUESSES:
            return _too_common(
                "a common word with numbers or symbols added is among the first guesses"
            )
    estimate: dict[str, Any] = zxcvbn(scored, user_inputs=context)
    if estimate["score"] < _LEAST_SCORE:
        warning = str(estimate["feedback"]["warning"]).rstrip(".")
        return _too_common(f"{warning[0].lower()}{warning[1:]}" if warning else "")
    return None


def _email_words(email: str | None) -> list[str]:
    """The email, its name part and each word of it ("maria.lopez@x" gives "maria")."""
    if not email:
        return []
    name = email.partition("@")[0]
    return [email, name, *(word for word in _EMAIL_PARTS.split(email) if len(word) > 2)]


def _too_common(reason: str) -> PasswordProblem:
    said = f": {reason}" if reason else ""
    return PasswordProblem(
        "password_too_common",
        f"Password is too easy to guess{said}. Try a few unrelated words instead.",
    )
