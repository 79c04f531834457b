"""Sign-up refuses passwords an attacker's list reaches early, in any form of their letters."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import unique_email


@pytest.mark.parametrize(
    "password",
    [
        "Password1!",
        "Summer2024!",
        "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff11",  # full-width "password1"
        "long password",
    ],
)
async def test_sign_up_refuses_a_decorated_word_a_full_width_common_password_or_a_weak_one(
    client: httpx.AsyncClient, password: str
) -> None:
    email = unique_email()
    response = await client.post("/api/auth/register", json={"email": email, "password": password})
    assert response.status_code == 422
    error = response.json()["detail"][0]
    assert (error["loc"], error["type"]) == (["body", "password"], "password_too_common")
    assert error["msg"].startswith("Password is too easy to guess")


@pytest.mark.parametrize("password", ["a long password", "correct horse battery"])
async def test_sign_up_accepts_the_passphrases_the_readme_and_tests_use(
    client: httpx.AsyncClient, password: str
) -> None:
    response = await client.post(
        "/api/auth/register", json={"email": unique_email(), "password": password}
    )
    assert response.status_code == 201
