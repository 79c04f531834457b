"""The web UI is served from the same origin, at its own routes only: every other path is
the API's JSON 404 (MCP clients probe /.well-known/ paths and read the answer as JSON)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from backend.main import create_app
from tests.conftest import client_for, make_settings, running

INDEX = "<!doctype html><title>Todo</title>"


def _built_ui(dist: Path) -> Path:
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text(INDEX, encoding="utf-8")
    (dist / "assets" / "app.js").write_text("console.log(1)", encoding="utf-8")
    (dist / "favicon.svg").write_text("<svg/>", encoding="utf-8")
    return dist


@pytest.fixture
def ui_app(tmp_path: Path, sqlite_url: str) -> FastAPI:
    return create_app(make_settings(sqlite_url, frontend_dist=_built_ui(tmp_path / "dist")))


async def test_the_ui_index_and_its_files_are_served(ui_app: FastAPI) -> None:
    async with running(ui_app), client_for(ui_app) as http:
        root = await http.get("/")
        index = await http.get("/index.html")
        asset = await http.get("/assets/app.js")
        icon = await http.get("/favicon.svg")
        escape = await http.get("/..%2F..%2Fpyproject.toml")
    assert root.status_code == index.status_code == 200
    assert root.text == index.text == INDEX
    assert asset.text == "console.log(1)"
    assert icon.text == "<svg/>"
    assert escape.status_code == 404
    assert "tool.ruff" not in escape.text


@pytest.mark.parametrize(
    "path",
    [
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/openid-configuration",
        "/conversations/12",  # the UI keeps its routes in the fragment: /#/conversations/12
        "/no/such/page",
        "/assets/missing.js",
        "/api/nope",
        "/mcp/nope",
    ],
)
async def test_an_unknown_path_is_a_json_404_not_the_web_page(ui_app: FastAPI, path: str) -> None:
    async with running(ui_app), client_for(ui_app) as http:
        response = await http.get(path)
    assert response.status_code == 404, response.text
    assert response.headers["content-type"] == "application/json"
    assert set(response.json()) == {"detail"}


async def test_a_post_to_an_unknown_path_below_the_mcp_endpoint_is_a_json_404(
    ui_app: FastAPI,
) -> None:
    async with running(ui_app), client_for(ui_app) as http:
        response = await http.post("/mcp/nope", json={})
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


async def test_without_a_built_ui_root_explains_how_to_build_it(
    tmp_path: Path, sqlite_url: str
) -> None:
    app = create_app(make_settings(sqlite_url, frontend_dist=tmp_path / "missing"))
    async with running(app), client_for(app) as http:
        response: httpx.Response = await http.get("/")
        unknown = await http.get("/.well-known/oauth-authorization-server")
    assert response.status_code == 503
    assert "make run" in response.text
    assert unknown.status_code == 404
    assert unknown.json() == {"detail": "Not Found"}
