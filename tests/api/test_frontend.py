"""The web UI is served from the same origin; unknown API paths stay API errors."""

from __future__ import annotations

from pathlib import Path

import httpx

from backend.main import create_app
from tests.conftest import client_for, make_settings, running


async def test_the_ui_index_is_served_at_root_and_for_client_routes(
    tmp_path: Path, sqlite_url: str
) -> None:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Todo</title>", encoding="utf-8")
    (dist / "assets" / "app.js").write_text("console.log(1)", encoding="utf-8")
    (dist / "favicon.svg").write_text("<svg/>", encoding="utf-8")
    app = create_app(make_settings(sqlite_url, frontend_dist=dist))
    async with running(app), client_for(app) as http:
        root = await http.get("/")
        deep = await http.get("/conversations/12")
        asset = await http.get("/assets/app.js")
        icon = await http.get("/favicon.svg")
        escape = await http.get("/..%2F..%2Fpyproject.toml")
        api_missing = await http.get("/api/nope")
    assert root.status_code == deep.status_code == 200
    assert "<title>Todo</title>" in root.text and root.text == deep.text
    assert asset.text == "console.log(1)"
    assert icon.text == "<svg/>"
    assert "tool.ruff" not in escape.text
    assert api_missing.status_code == 404
    assert api_missing.json() == {"detail": "Not Found"}


async def test_without_a_built_ui_root_explains_how_to_build_it(
    tmp_path: Path, sqlite_url: str
) -> None:
    app = create_app(make_settings(sqlite_url, frontend_dist=tmp_path / "missing"))
    async with running(app), client_for(app) as http:
        response: httpx.Response = await http.get("/")
    assert response.status_code == 503
    assert "make run" in response.text
