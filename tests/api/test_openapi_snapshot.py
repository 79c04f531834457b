from __future__ import annotations

from scripts.export_openapi import SNAPSHOT, current_schema


def test_the_ui_client_is_generated_from_the_current_api_schema() -> None:
    assert SNAPSHOT.read_text(encoding="utf-8") == current_schema(), (
        "The API changed: run `make openapi` to refresh frontend/openapi.json and the client."
    )
