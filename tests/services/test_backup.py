"""Backup and restore of one user's data through the CLI, across databases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

from backend.main import create_app
from tests.conftest import TEST_SECRET, ChatFn, UserSession, client_for, make_settings, running

ROOT = Path(__file__).resolve().parents[2]


def cli(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": TEST_SECRET},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_export_then_import_into_a_fresh_database_restores_everything(
    database_url: str, tmp_path: Path, client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add buy milk")
    await chat("add call mom with about the weekend")
    await chat("complete task 1")
    await client.delete("/api/tasks/2", headers=user.headers)
    await chat("add walk the dog")
    backup = tmp_path / "backup.json"
    exported = cli(database_url, "export", "--email", user.email, "--out", str(backup))
    assert exported.returncode == 0, exported.stderr
    document = json.loads(backup.read_text(encoding="utf-8"))
    assert [t["number"] for t in document["tasks"]] == [1, 3]

    fresh = f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    imported = cli(fresh, "import", str(backup))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == f"imported {user.email}"

    async with running(create_app(make_settings(fresh))) as app, client_for(app) as restored:
        login = await restored.post(
            "/api/auth/login", json={"email": user.email, "password": "correct horse battery"}
        )
        assert login.status_code == 200  # the same password works
        headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
        tasks = (await restored.get("/api/tasks", headers=headers)).json()
        assert [(t["id"], t["title"], t["completed"]) for t in tasks] == [
            (1, "buy milk", True),
            (3, "walk the dog", False),
        ]
        conversations = (await restored.get("/api/conversations", headers=headers)).json()
        messages = (
            await restored.get(
                f"/api/conversations/{conversations[0]['id']}/messages", headers=headers
            )
        ).json()
        assert [m["content"] for m in messages][:2] == [
            "add buy milk",
            "I've added 'Buy milk' to your list.",
        ]
        assert messages[1]["tool_calls"][0]["name"] == "add_task"
        # Numbers are never reused, even after a restore: task 2 was deleted.
        new = await restored.post("/api/tasks", json={"title": "next"}, headers=headers)
        assert new.json()["id"] == 4
        # Context survives too: "it" is the last task the conversation was about.
        reply = await restored.post(
            "/api/chat",
            json={"message": "mark it as done", "conversation_id": conversations[0]["id"]},
            headers=headers,
        )
        assert reply.json()["response"] == "Awesome! I've marked 'Walk the dog' as complete."


def test_import_refuses_to_overwrite_an_existing_account(tmp_path: Path) -> None:
    document = {
        "format": "todo-chatbot/user-export",
        "version": 1,
        "user": {
            "email": "dup@example.com",
            "hashed_password": "x",
            "last_task_number": 0,
            "created_at": "2026-01-01T00:00:00+00:00",
        },
        "tasks": [],
        "conversations": [],
    }
    path = tmp_path / "one.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.db'}"
    assert cli(url, "import", str(path)).returncode == 0
    again = cli(url, "import", str(path))
    assert again.returncode == 1
    assert "already exists" in again.stderr


def test_export_of_an_unknown_email_is_a_clear_error(tmp_path: Path) -> None:
    result = cli(f"sqlite+aiosqlite:///{tmp_path / 'db.db'}", "export", "--email", "no@x.io")
    assert result.returncode == 1
    assert "no user with email no@x.io" in result.stderr


def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    result = cli(f"sqlite+aiosqlite:///{tmp_path / 'db.db'}", "import", str(path))
    assert result.returncode == 1
    assert "not a todo-chatbot/user-export" in result.stderr
