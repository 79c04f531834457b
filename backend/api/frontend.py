"""Serves the built web UI (frontend/dist) from the same origin as the API.

The UI is one page: it keeps its own routes in the URL's fragment (`/#/conversations/7`,
frontend/src/conversations/useOpenConversation.ts), so the server's routes for it are `/` and
`/index.html`, and its built files (`/assets/*`, `/favicon.svg`). Every other path is the
API's JSON 404: MCP clients probe `/.well-known/oauth-*` and read the answer as JSON, and
this service publishes no such metadata.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

# The UI's own routes: the page itself.
UI_PAGES = frozenset({"/", "/index.html"})
_NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Todo Chatbot</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The web UI is not built</h1><p>Run <code>make run</code> (it builds the UI), or use the
API at <a href="/docs">/docs</a>.</p></body></html>"""


def mount_frontend(app: FastAPI, dist: Path) -> None:
    """`/` and `/index.html` get index.html; built files are served as files.

    The UI answers only GETs that no API route claimed (a 404), so API paths keep their own
    404 and 405 answers.
    """
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

    def page(path: str) -> Response | None:
        if path in UI_PAGES:
            if not index.is_file():
                return HTMLResponse(_NOT_BUILT, status_code=503)
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        found = built_file(path)
        return FileResponse(found) if found is not None else None

    @app.exception_handler(StarletteHTTPException)
    async def ui_or_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and request.method == "GET":
            served = page(request.url.path)
            if served is not None:
                return served
        return await http_exception_handler(request, exc)
