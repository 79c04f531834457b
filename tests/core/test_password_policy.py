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


@pytest.mark.parametrize(
    "password",
    [
        "Password1!",
        "Summer2024!",  # a season, a year the word lists are too old to know, a symbol
        "Spring2025#",
        "Winter2025!!",
        "!Monkey2024",
        "zebra2025!",
    ],
)
def test_a_guessable_word_with_digits_or_symbols_around_it_is_too_common(password: str) -> None:
    problem = password_problem(password)
    assert problem is not None
    assert problem.code == "password_too_common"


@pytest.mark.parametrize("password", ["long password", "long pw!", "s3cret-pass"])
def test_a_password_within_a_hundred_million_guesses_is_too_common(password: str) -> None:
    # zxcvbn's score 3: what an attacker with a stolen, slowly hashed copy would not reach.
    problem = password_problem(password)
    assert problem is not None
    assert problem.code == "password_too_common"


@pytest.mark.parametrize(
    "password",
    [
        "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff11",  # full-width "password1"
        "\U0001d429\U0001d41a\U0001d42c\U0001d42c\U0001d430\U0001d428\U0001d42b\U0001d41d1",
        "\uff33\uff55\uff4d\uff4d\uff45\uff52\uff12\uff10\uff12\uff14\uff01",
    ],
)
def test_a_common_password_in_other_forms_of_the_same_letters_is_too_common(
    password: str,
) -> None:
    # Full-width and mathematical letters are the same letters once NFKC-normalised.
    problem = password_problem(password)
    assert problem is not None
    assert problem.code == "password_too_common"


def test_the_parts_of_the_accounts_email_are_too_easy_to_guess() -> None:
    email = "quillon.brandvik@example.com"
    assert password_problem("Brandvik2025!", email=email) is not None
    assert password_problem("quillonbrandvik", email=email) is not None
    assert password_problem("quillonbrandvik") is None


def test_a_word_with_digits_added_says_why() -> None:
    problem = password_problem("Summer2024!")
    assert problem is not None
    assert problem.message == (
        "Password is too easy to guess: a common word with numbers or symbols added is among "
        "the first guesses. Try a few unrelated words instead."
    )
