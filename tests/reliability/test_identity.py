"""Identity across workers: a token opens only the account it was issued to, on whichever
worker answers, even after that account is removed and its id handed to someone else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import remove_sqlite_account
from tests.live_server import live_server

ROUNDS = 20  # enough requests that both workers answer some of them


@pytest.fixture(scope="module")
def sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("identity") / "todo.db"


@pytest.fixture(scope="module")
def two_sqlite_workers(
    sqlite_file: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    log = tmp_path_factory.mktemp("identity-log") / "server.log"
    with live_server(
        f"sqlite+aiosqlite:///{sqlite_file}",
        log,
        workers=2,
        chat_requests_per_minute="100000",
        login_attempts_per_window="100000",
    ) as url:
        yield url


async def _register(http: httpx.AsyncClient, email: str) -> tuple[int, dict[str, str]]:
    response = await http.post(
        "/api/auth/register", json={"email": email, "password": "a long password"}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    return body["user"]["id"], {"Authorization": f"Bearer {body['access_token']}"}


async def _statuses(http: httpx.AsyncClient, headers: dict[str, str]) -> list[int]:
    return [(await http.get("/api/tasks", headers=headers)).status_code for _ in range(ROUNDS)]


async def test_a_removed_accounts_token_reaches_nobody_on_any_worker(
    two_sqlite_workers: str, sqlite_file: Path
) -> None:
    async with httpx.AsyncClient(base_url=two_sqlite_workers, timeout=60) as http:
        old_id, old_token = await _register(http, "leaving@example.com")
        assert set(await _statuses(http, old_token)) == {200}  # both workers know the account

        remove_sqlite_account(sqlite_file, old_id)
        assert set(await _statuses(http, old_token)) == {401}  # gone means 401, not 200 []

        new_id, new_token = await _register(http, "arriving@example.com")
        added = await http.post("/api/tasks", json={"title": "new owner's"}, headers=new_token)
        assert added.status_code == 201
        assert new_id == old_id  # SQLite hands the removed newest account's id out again

        assert set(await _statuses(http, old_token)) == {401}
        chats = [
            (await http.post("/api/chat", json={"message": "show my tasks"}, headers=old_token))
            for _ in range(ROUNDS // 2)
        ]
        assert {c.status_code for c in chats} == {401}
        mine = await http.get("/api/tasks", headers=new_token)
        assert [t["title"] for t in mine.json()] == ["new owner's"]


async def test_a_token_of_a_removed_account_does_not_open_the_same_email_signed_up_again(
    two_sqlite_workers: str, sqlite_file: Path
) -> None:
    async with httpx.AsyncClient(base_url=two_sqlite_workers, timeout=60) as http:
        old_id, old_token = await _register(http, "again@example.com")
        remove_sqlite_account(sqlite_file, old_id)
        _, new_token = await _register(http, "again@example.com")
        assert set(await _statuses(http, old_token)) == {401}
        assert set(await _statuses(http, new_token)) == {200}
