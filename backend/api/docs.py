"""The API docs, /docs (Swagger UI) and /redoc (ReDoc), served from this app's own origin.

FastAPI's default pages load their scripts from a CDN without integrity checks, and start
Swagger UI with an inline script. Here the assets come from the fastapi-offline package and
Swagger UI starts from a script file of its own, so both pages run under the app's
Content-Security-Policy: scripts from this origin only, no inline ones.
"""

from __future__ import annotations

import html
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

DOCS_URL = "/docs"
REDOC_URL = "/redoc"
ASSETS_URL = "/docs/assets"
SWAGGER_START_URL = "/docs/swagger-start.js"
_ASSETS = Path(fastapi_offline.__file__).parent / "static"

# Reads the spec's address from the page, so the script is the same file for every page.
_SWAGGER_START = """\
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    // The public validator badge would be an image from another origin.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
});
"""

_SWAGGER_PAGE = """\
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="{assets}/favicon.png">
<link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi-url="{openapi_url}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="{start}"></script>
</body>
</html>
"""


def _root(request: Request) -> str:
    """The prefix a proxy serves the app under (`--root-path`), or nothing."""
    return str(request.scope.get("root_path") or "").rstrip("/")


def mount_docs(app: FastAPI) -> None:
    """Adds /docs and /redoc; the app must be built with `docs_url=None, redoc_url=None`."""
    app.mount(ASSETS_URL, StaticFiles(directory=_ASSETS), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get(DOCS_URL, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = _root(request)
        page = _SWAGGER_PAGE.format(
            title=html.escape(f"{app.title} - Swagger UI"),
            assets=html.escape(root + ASSETS_URL),
            start=html.escape(root + SWAGGER_START_URL),
            openapi_url=html.escape(root + openapi_url),
        )
        return HTMLResponse(page)

    @app.get(SWAGGER_START_URL, include_in_schema=False)
    async def swagger_start() -> Response:
        return Response(_SWAGGER_START, media_type="text/javascript")

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = _root(request)
        return get_redoc_html(
            openapi_url=root + openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )
