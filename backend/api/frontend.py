"""Serves the built web UI (frontend/dist) from the same origin as the API."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

# Paths the UI never owns: unknown ones there stay JSON 404s.
_API_PREFIXES = ("api/", "mcp", "docs", "redoc", "openapi.json", "healthz", "readyz")
_NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Todo Chatbot</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The web UI is not built</h1><p>Run <code>make run</code> (it builds the UI), or use the
API at <a href="/docs">/docs</a>.</p></body></html>"""


def mount_frontend(app: FastAPI, dist: Path) -> None:
    """`/` and any client-side route get index.html; built assets are served as files."""
    root = dist.resolve()
    index = root / "index.html"
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    # Sync on purpose: FastAPI runs it in a thread, so file checks never block the loop.
    @app.get("/{path:path}", include_in_schema=False)
    def spa(path: str) -> Response:
        if path.startswith(_API_PREFIXES):
            raise HTTPException(status_code=404, detail="Not Found")
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            return FileResponse(candidate)
        if not index.is_file():
            return HTMLResponse(_NOT_BUILT, status_code=503)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})
