"""New passwords: not blank, nothing invisible or control, not among the most guessed."""

from __future__ import annotations

import pytest

from backend.core.password_policy import password_problem


@pytest.mark.parametrize(
    ("password", "code"),
    [
        (" " * 8, "password_blank"),
        ("\u3000" * 8, "password_blank"),  # ideographic spaces
        ("\u3164" * 8, "password_blank"),  # Hangul filler: a letter that shows nothing
        ("\u200d" * 8, "password_blank"),  # joiners alone
        ("\u200b" * 8, "password_invisible_characters"),  # zero-width spaces
        ("correct\u200bhorse battery", "password_invisible_characters"),
        ("\u202ecorrect horse", "password_invisible_characters"),  # right-to-left override
        ("\x00" * 8, "password_control_characters"),
        ("correct horse\tbattery", "password_control_characters"),
        ("12345678", "password_too_common"),
        ("password", "password_too_common"),
        ("Password1", "password_too_common"),
        ("p@ssw0rd", "password_too_common"),
        ("qwertyui", "password_too_common"),
        ("aaaaaaaa", "password_too_common"),
        ("abcd1234", "password_too_common"),
        ("iloveyou", "password_too_common"),
        ("a" * 128, "password_too_common"),
    ],
)
def test_a_weak_or_unseeable_password_is_refused_with_its_reason(password: str, code: str) -> None:
    problem = password_problem(password)
    assert problem is not None
    assert problem.code == code
    assert problem.message.startswith("Password ")


def test_the_accounts_own_email_is_too_easy_to_guess() -> None:
    assert password_problem("maria.lopez", email="maria.lopez@example.com") is not None
    assert password_problem("maria.lopez") is None


@pytest.mark.parametrize(
    "password",
    [
        "correct horse battery",
        "a long password",
        "long pw!",
        "Tr0ub4dor&3",
        "mot de passe très long",
        "пароль для списка дел",
        "کتاب\u200cخانه من",  # Persian: a joiner inside a word
        "🐱‍👤 ninja cat 🐱‍👤",  # an emoji sequence held together by a joiner
        ("Yq7#pL0!zR" * 13)[:128],  # the longest allowed
    ],
)
def test_an_ordinary_password_is_accepted(password: str) -> None:
    assert password_problem(password) is None


def test_the_reason_for_a_common_password_says_why() -> None:
    problem = password_problem("12345678")
    assert problem is not None
    assert problem.message == (
        "Password is too easy to guess: this is a top-10 common password. "
        "Try a few unrelated words instead."
    )
