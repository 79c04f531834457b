"""The installable app (issue 34): the service worker, the web app manifest and its icons, over
real HTTP from the real backend serving the built UI, and in Debian's chromium (pwa.mjs): the
worker registers, a push delivered through the DevTools protocol shows a reminder's
notification with Done and Snooze while no page of the app is open, Chromium finds the app
installable, and the app shell opens offline and says so."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from tests.e2e.chromium import ARTIFACTS, require, run_script
from tests.live_server import ROOT, live_server

ICONS = {
    "/icon-192.png": (192, 192),
    "/icon-512.png": (512, 512),
    "/icon-maskable-512.png": (512, 512),
    "/apple-touch-icon.png": (180, 180),
    "/badge-96.png": (96, 96),
}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require((ROOT / "frontend" / "dist" / "sw.js").is_file(), "UI not built: make frontend")
    directory = tmp_path_factory.mktemp("pwa")
    with live_server(
        f"sqlite+aiosqlite:///{directory / 'todo.db'}", directory / "server.log"
    ) as url:
        yield url


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, str] = {}
        self.metas: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "link" and "rel" in found:
            self.links[found["rel"]] = found.get("href", "")
        if tag == "meta" and "name" in found:
            self.metas.setdefault(found["name"], found.get("content", ""))


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_page_links_a_manifest_that_names_real_icons(base_url: str) -> None:
    with httpx.Client(base_url=base_url) as http:
        page = http.get("/")
        head = _Head()
        head.feed(page.text)
        assert head.links["manifest"] == "/manifest.webmanifest"
        assert head.links["apple-touch-icon"] == "/apple-touch-icon.png"
        assert "theme-color" in head.metas

        manifest = http.get("/manifest.webmanifest")
        assert manifest.status_code == 200
        assert manifest.headers["content-type"].startswith("application/manifest+json")
        assert manifest.headers["cache-control"] == "no-cache"
        fields = json.loads(manifest.text)
        assert fields["start_url"] == fields["scope"] == "/"
        assert fields["display"] == "standalone"
        assert fields["name"] and fields["short_name"]
        assert fields["theme_color"] and fields["background_color"]
        purposes = {(icon["sizes"], icon["purpose"]) for icon in fields["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes

        for path, size in ICONS.items():
            icon = http.get(path)
            assert icon.status_code == 200, path
            assert icon.headers["content-type"] == "image/png", path
            assert _png_size(icon.content) == size, path


def test_the_service_worker_is_served_fresh_at_the_root_under_the_pages_csp(base_url: str) -> None:
    with httpx.Client(base_url=base_url) as http:
        worker = http.get("/sw.js")
        page = http.get("/")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith(("text/javascript", "application/javascript"))
    # A browser checks for a new worker on every visit; the hashed assets need no such care.
    assert worker.headers["cache-control"] == "no-cache"
    assert "index.html" in worker.text  # the precache list was injected
    csp = dict(
        part.strip().split(" ", 1)
        for part in page.headers["content-security-policy"].split(";")
        if part.strip()
    )
    assert csp["script-src"] == "'self'"  # a same-origin worker (worker-src falls back to it)
    assert csp["manifest-src"] == "'self'"


def test_the_installable_app_in_chromium(base_url: str) -> None:
    output = run_script("pwa.mjs", base_url)
    for step in (
        "ok - the service worker registers",
        "ok - the manifest passes Chromium's installability check",
        "ok - a push delivered with no page of the app open shows",
        "ok - the app shell opens offline",
    ):
        assert step in output, output
    assert Path(ARTIFACTS / "desktop-offline.png").is_file()
