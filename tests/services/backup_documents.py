"""Backup documents for the tests: a valid one, as `todo-chatbot export` writes it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from backend.core.security import hash_password

PASSWORD = "correct horse battery"


@cache
def _password_hash() -> str:
    return hash_password(PASSWORD)


def valid_document(email: str = "restored@example.com") -> dict[str, Any]:
    """A fresh copy each call: an account with two tasks and a two-message conversation."""
    return {
        "format": "todo-chatbot/user-export",
        "version": 1,
        "user": {
            "email": email,
            "hashed_password": _password_hash(),
            "last_task_number": 3,
            "created_at": "2026-01-01T09:00:00+00:00",
        },
        "tasks": [
            {
                "number": 1,
                "title": "Buy milk",
                "description": None,
                "completed": True,
                "created_at": "2026-01-01T09:01:00+00:00",
                "updated_at": "2026-01-01T09:05:00+00:00",
            },
            {
                "number": 3,
                "title": "Walk the dog",
                "description": "before noon",
                "completed": False,
                "created_at": "2026-01-02T10:00:00Z",
                "updated_at": "2026-01-02T10:00:00Z",
            },
        ],
        "conversations": [
            {
                "title": "add buy milk",
                "created_at": "2026-01-01T09:01:00+00:00",
                "updated_at": "2026-01-01T09:01:01+00:00",
                "messages": [
                    {
                        "role": "user",
                        "content": "add buy milk",
                        "tool_calls": None,
                        "meta": None,
                        "created_at": "2026-01-01T09:01:00+00:00",
                    },
                    {
                        "role": "assistant",
                        "content": "I've added 'Buy milk' to your list.",
                        "tool_calls": [
                            {
                                "name": "add_task",
                                "arguments": {"title": "Buy milk"},
                                "result": {"task_id": 1, "status": "created", "title": "Buy milk"},
                            }
                        ],
                        "meta": {"focus": 1, "brain": "rules"},
                        "created_at": "2026-01-01T09:01:01+00:00",
                    },
                ],
            }
        ],
    }


def as_bytes(document: dict[str, Any]) -> bytes:
    return json.dumps(document).encode("utf-8")
