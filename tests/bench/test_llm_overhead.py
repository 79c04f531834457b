"""`bench.llm_overhead` in its quick mode, so it cannot rot: a real server with an LLM brain
against the fake model, both rows printed. Figures are never asserted beyond being
numbers: CI machines are busy."""

from __future__ import annotations

import subprocess
import sys

from tests.bench.test_task_filters import table_rows
from tests.live_server import ROOT


def test_the_quick_run_prints_both_measures_with_their_targets(postgresql_url: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.llm_overhead", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    rows = table_rows(result.stdout)
    assert len(rows) == 2
    for label, (figures, target, met) in rows.items():
        median, p95, worst = (float(part) for part in figures.split(" / "))
        assert median <= p95 <= worst, label
        assert target == "<= 5.0 ms median"
        assert met in {"yes", "NO"}
