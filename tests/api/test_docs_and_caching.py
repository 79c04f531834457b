"""The API docs load only this origin's scripts under a CSP; private API answers are not cached."""

from __future__ import annotations

from html.parser import HTMLParser

import httpx
import pytest

from tests.conftest import ChatFn, UserSession, unique_email


class _Page(HTMLParser):
    """The scripts (address, or inline text) and stylesheets a page loads."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self._in_script = "src" not in found
            if found.get("src"):
                self.sources.append(str(found["src"]))
        if tag == "link" and found.get("href"):
            self.sources.append(str(found["href"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts.append(data)


def _directives(csp: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in csp.split(";") if part.strip())


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
async def test_a_docs_page_loads_only_this_origins_files_under_a_csp(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    csp = _directives(response.headers["content-security-policy"])
    assert csp["script-src"] == "'self'" and csp["default-src"] == "'self'"
    # Only ReDoc's search worker, built by its own script from a blob, is allowed beyond that.
    assert csp.get("worker-src") == ("'self' blob:" if path == "/redoc" else None)
    page = _Page()
    page.feed(response.text)
    assert page.inline_scripts == []  # the CSP would block them
    assert page.sources and "://" not in response.text  # nothing from another origin
    for source in page.sources:
        assert source.startswith("/"), source
        asset = await client.get(source)
        assert asset.status_code == 200, source
        assert asset.content


async def test_swagger_ui_starts_from_a_script_file_that_reads_this_apps_spec(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/docs")
    assert 'data-openapi-url="/openapi.json"' in page.text
    start = await client.get("/docs/swagger-start.js")
    assert start.headers["content-type"].startswith("text/javascript")
    assert "SwaggerUIBundle(" in start.text and "openapiUrl" in start.text
    assert (await client.get("/openapi.json")).status_code == 200


async def test_token_responses_are_never_cached(client: httpx.AsyncClient) -> None:
    credentials = {"email": unique_email(), "password": "correct horse battery"}
    registered = await client.post("/api/auth/register", json=credentials)
    logged_in = await client.post("/api/auth/login", json=credentials)
    assert registered.status_code == 201 and logged_in.status_code == 200
    assert registered.headers["cache-control"] == "no-store"
    assert logged_in.headers["cache-control"] == "no-store"


async def test_tasks_conversations_and_messages_are_never_cached(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    conversation = (await chat("add water the plants"))["conversation_id"]
    responses = [
        await client.get("/api/tasks", headers=user.headers),
        await client.get("/api/tasks/1", headers=user.headers),
        await client.post("/api/tasks", json={"title": "call mom"}, headers=user.headers),
        await client.get("/api/conversations", headers=user.headers),
        await client.get(f"/api/conversations/{conversation}/messages", headers=user.headers),
        await client.post("/api/chat", json={"message": "show my tasks"}, headers=user.headers),
        await client.get("/api/auth/me", headers=user.headers),
        await client.get("/api/tasks"),  # a 401 too
        await client.post(  # the MCP endpoint's answers hold tasks too
            "/mcp/",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={**user.headers, "Accept": "application/json, text/event-stream"},
        ),
    ]
    for response in responses:
        assert response.headers["cache-control"] == "no-store", response.request.url


async def test_the_docs_assets_are_not_marked_private(client: httpx.AsyncClient) -> None:
    asset = await client.get("/docs/assets/swagger-ui.css")
    assert asset.status_code == 200
    assert "no-store" not in asset.headers.get("cache-control", "")
