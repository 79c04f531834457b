"""Serves the built web UI (frontend/dist) from the same origin as the API.

The UI is one page: it keeps its own routes in the URL's fragment (`/#/conversations/7`,
frontend/src/conversations/useOpenConversation.ts), so the server's routes for it are `/` and
`/index.html`, and its built files (`/assets/*`, `/favicon.svg`, the service worker `/sw.js`,
the web app manifest `/manifest.webmanifest` and the app's icons). Every other path is the
API's JSON 404: MCP clients probe `/.well-known/oauth-*` and read the answer as JSON, and
this service publishes no such metadata.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

# The UI's own routes: the page itself.
UI_PAGES = frozenset({"/", "/index.html"})
# Files a browser must check for a new version every time (they name no content hash): the
# service worker and the manifest, like the page.
_ALWAYS_REVALIDATED = frozenset({"/sw.js", "/manifest.webmanifest"})
_NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Todo Chatbot</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The web UI is not built</h1><p>Run <code>make run</code> (it builds the UI), or use the
API at <a href="/docs">/docs</a>.</p></body></html>"""


def mount_frontend(app: FastAPI, dist: Path) -> Callable[[Request], Response | None]:
    """Mounts the built assets; returns what answers a GET no API route claimed (a 404):
    index.html for `/` and `/index.html`, a built file at the top of dist, or None (the
    404 stands). API paths keep their own 404 and 405 answers."""
    root = dist.resolve()
    index = root / "index.html"
    if (root / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=root / "assets"), name="assets")

    def built_file(path: str) -> Path | None:
        """A file at the top of dist (favicon.svg), never a directory or a path outside."""
        name = path.removeprefix("/")
        if not name or "/" in name:
            return None
        candidate = (root / name).resolve()
        return candidate if candidate.is_file() and candidate.parent == root else None

    def page(request: Request) -> Response | None:
        if request.method != "GET":
            return None
        path = request.url.path
        if path in UI_PAGES:
            if not index.is_file():
                return HTMLResponse(_NOT_BUILT, status_code=503)
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        found = built_file(path)
        if found is None:
            return None
        if path in _ALWAYS_REVALIDATED:
            return FileResponse(found, headers={"Cache-Control": "no-cache"})
        return FileResponse(found)

    return page
