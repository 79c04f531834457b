"""A real uvicorn server in a subprocess on a free loopback port, for tests over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.server import ROOT, server
from tests.conftest import TEST_SECRET

__all__ = ["ROOT", "live_server"]


@contextmanager
def live_server(
    database_url: str, log_path: Path, *, workers: int = 1, **settings: str
) -> Iterator[str]:
    """The server's base URL; abuse limits stay as configured unless `settings` lift them."""
    with server(
        database_url, workers, log_path, secret=TEST_SECRET, unlimited=False, **settings
    ) as (url, _process):
        yield url
