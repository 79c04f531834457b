"""Writes the API's OpenAPI schema to frontend/openapi.json (the UI's client is generated
from it). `tests/api/test_openapi_snapshot.py` fails when the two drift apart."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from backend.core.config import Settings
from backend.main import create_app

SNAPSHOT = Path(__file__).resolve().parent.parent / "frontend" / "openapi.json"


def current_schema() -> str:
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    return json.dumps(app.openapi(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    SNAPSHOT.write_text(current_schema(), encoding="utf-8")
    sys.stdout.write(f"wrote {SNAPSHOT}\n")
