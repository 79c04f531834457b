"""Two people share a list in two browsers (sharing.mjs, Debian's chromium driven by
playwright-core) against the real backend on SQLite: an invitation to an email that signs up
later, accepted; adds and ticks on both sides, each shown live on the other's open page;
a removal that takes the list from the other page at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.chromium import ARTIFACTS, require, run_script
from tests.live_server import ROOT, live_server

SCREENSHOTS = ("sharing-dialog", "sharing-alex", "sharing-sam")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require((ROOT / "frontend" / "dist" / "index.html").is_file(), "UI not built: make frontend")
    directory = tmp_path_factory.mktemp("e2e-sharing")
    with live_server(
        f"sqlite+aiosqlite:///{directory / 'todo.db'}", directory / "server.log"
    ) as url:
        yield url


def test_two_people_share_a_shopping_list_and_see_each_others_changes_live(
    base_url: str,
) -> None:
    run_script("sharing.mjs", base_url)
    for name in SCREENSHOTS:
        assert (ARTIFACTS / f"{name}.png").is_file(), name
