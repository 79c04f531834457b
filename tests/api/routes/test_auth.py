from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlmodel import col, delete

from backend.models import User
from backend.services import users
from tests.conftest import register, unique_email


async def test_register_returns_token_and_user(client: httpx.AsyncClient) -> None:
    email = unique_email()
    response = await client.post(
        "/api/auth/register", json={"email": email, "password": "long enough pw"}
    )
    assert response.status_code == 201
    body = response.json()
    assert body["token_type"] == "bearer"
    assert body["user"]["email"] == email
    assert isinstance(body["user"]["id"], int)
    assert body["access_token"]


async def test_register_same_email_in_other_case_is_a_conflict(client: httpx.AsyncClient) -> None:
    email = unique_email()
    await register(client, email)
    response = await client.post(
        "/api/auth/register", json={"email": email.upper(), "password": "long enough pw"}
    )
    assert response.status_code == 409
    assert "already exists" in response.json()["detail"]


async def test_register_rejects_invalid_email_and_short_password(client: httpx.AsyncClient) -> None:
    bad_email = await client.post(
        "/api/auth/register", json={"email": "not-an-email", "password": "long enough pw"}
    )
    short = await client.post("/api/auth/register", json={"email": unique_email(), "password": "x"})
    assert bad_email.status_code == 422
    assert short.status_code == 422
    assert short.json()["detail"][0]["loc"] == ["body", "password"]


async def test_login_with_right_password_returns_a_working_token(client: httpx.AsyncClient) -> None:
    account = await register(client)
    response = await client.post(
        "/api/auth/login", json={"email": account.email, "password": "correct horse battery"}
    )
    assert response.status_code == 200
    me = await client.get(
        "/api/auth/me", headers={"Authorization": f"Bearer {response.json()['access_token']}"}
    )
    assert me.json() == {"id": account.id, "email": account.email, "timezone": "UTC"}


async def test_login_with_wrong_password_or_unknown_email_is_401(client: httpx.AsyncClient) -> None:
    account = await register(client)
    wrong = await client.post(
        "/api/auth/login", json={"email": account.email, "password": "wrong password"}
    )
    unknown = await client.post(
        "/api/auth/login", json={"email": unique_email(), "password": "whatever123"}
    )
    assert wrong.status_code == 401
    assert unknown.status_code == 401
    assert wrong.json()["detail"] == unknown.json()["detail"] == "Incorrect email or password"


async def test_me_without_or_with_a_bad_token_is_401(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/auth/me")).status_code == 401
    bad = await client.get("/api/auth/me", headers={"Authorization": "Bearer not.a.token"})
    assert bad.status_code == 401
    assert bad.headers["www-authenticate"] == "Bearer"


async def test_a_vanished_accounts_token_never_opens_the_account_that_reuses_its_id(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    carol = await register(client)
    assert (await client.get("/api/tasks", headers=carol.headers)).status_code == 200
    async with app.state.sessionmaker() as session:  # an operator removes the account
        await session.exec(delete(User).where(col(User.id) == carol.id))
        await session.commit()
    dave = await register(client)
    me = await client.get("/api/auth/me", headers=carol.headers)
    assert me.status_code == 401
    if dave.id == carol.id:  # SQLite hands the newest account's id out again
        assert (await client.get("/api/tasks", headers=carol.headers)).status_code == 401
        assert (await client.get("/api/tasks", headers=dave.headers)).status_code == 200


async def test_a_token_used_just_before_its_account_vanished_gets_401_not_500(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    erin = await register(client)
    assert (await client.get("/api/tasks", headers=erin.headers)).status_code == 200
    async with app.state.sessionmaker() as session:
        await session.exec(delete(User).where(col(User.id) == erin.id))
        await session.commit()
    added = await client.post("/api/tasks", json={"title": "ghost"}, headers=erin.headers)
    assert added.status_code == 401
    chatted = await client.post("/api/chat", json={"message": "add ghost"}, headers=erin.headers)
    assert chatted.status_code == 401
    assert chatted.json() == {"detail": "Invalid or expired token"}


async def test_a_login_with_a_nul_in_the_email_is_a_422_on_every_database(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/api/auth/login", json={"email": "\u0000a@example.com", "password": "whatever"}
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "email"]


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        (" " * 8, "Password must not be blank."),
        ("\u200b" * 8, "Password must not contain invisible characters"),
        ("\x01" * 8, "Password must not contain control characters"),
        ("12345678", "Password is too easy to guess: this is a top-10 common password."),
        ("iloveyou", "Password is too easy to guess"),
    ],
)
async def test_a_blank_invisible_control_or_common_password_is_refused_saying_why(
    client: httpx.AsyncClient, password: str, reason: str
) -> None:
    email = unique_email()
    response = await client.post("/api/auth/register", json={"email": email, "password": password})
    assert response.status_code == 422
    error = response.json()["detail"][0]
    assert error["loc"] == ["body", "password"]
    assert error["type"].startswith("password_")
    assert error["msg"].startswith(reason)
    login = await client.post("/api/auth/login", json={"email": email, "password": password})
    assert login.status_code == 401  # no account was made


async def test_a_password_made_of_the_email_is_refused(client: httpx.AsyncClient) -> None:
    email = unique_email()
    response = await client.post("/api/auth/register", json={"email": email, "password": email})
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "password_too_common"


async def test_an_existing_account_with_a_now_refused_password_still_signs_in(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    email = unique_email()
    async with app.state.sessionmaker() as session:  # made before the rule existed
        await users.register_user(session, email=email, password="12345678")
    response = await client.post("/api/auth/login", json={"email": email, "password": "12345678"})
    assert response.status_code == 200
