"""A started worker freezes its start-up objects out of the cyclic GC (in a subprocess: the
settings are process-wide)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from backend.core.heap import YOUNG_GENERATION_THRESHOLD

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import asyncio, gc, json, sys
from backend.core.config import Settings
from backend.main import create_app

async def main() -> None:
    app = create_app(Settings(database_url=sys.argv[1], secret_key="x" * 40, tune_gc=True))
    before = gc.get_freeze_count()
    async with app.router.lifespan_context(app):
        print(json.dumps({"before": before, "frozen": gc.get_freeze_count(),
                          "threshold": gc.get_threshold()}))

asyncio.run(main())
"""


def test_a_started_worker_freezes_its_startup_heap_and_collects_less_often(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, f"sqlite+aiosqlite:///{tmp_path / 'heap.db'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["before"] == 0
    assert probe["frozen"] > 10_000  # the imported SDKs, schemas and the agent
    assert probe["threshold"][0] == YOUNG_GENERATION_THRESHOLD
