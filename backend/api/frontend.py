"""Serves the built web UI (frontend/dist) from the same origin as the API."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

# Paths the UI never owns: unknown ones there stay JSON 404s.
_API_PREFIXES = ("/api/", "/mcp", "/docs", "/redoc", "/openapi.json", "/healthz", "/readyz")
_NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Todo Chatbot</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The web UI is not built</h1><p>Run <code>make run</code> (it builds the UI), or use the
API at <a href="/docs">/docs</a>.</p></body></html>"""


def mount_frontend(app: FastAPI, dist: Path) -> None:
    """`/` and any client-side route get index.html; built assets are served as files.

    The UI answers only GETs that no API route claimed (a 404), so API paths keep their own
    404 and 405 answers.
    """
    root = dist.resolve()
    index = root / "index.html"
    if (root / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=root / "assets"), name="assets")

    def page(path: str) -> Response:
        candidate = (root / path.lstrip("/")).resolve()
        if path.strip("/") and candidate.is_file() and candidate.is_relative_to(root):
            return FileResponse(candidate)
        if not index.is_file():
            return HTMLResponse(_NOT_BUILT, status_code=503)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.exception_handler(StarletteHTTPException)
    async def ui_or_error(request: Request, exc: StarletteHTTPException) -> Response:
        path = request.url.path
        if (
            exc.status_code == 404
            and request.method == "GET"
            and not path.startswith(_API_PREFIXES)
        ):
            return page(path)
        return await http_exception_handler(request, exc)
