"""A seconds-long run of the benchmark so it cannot rot (figures are not asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.live_server import ROOT


def test_the_benchmark_runs_end_to_end_and_writes_its_results(
    tmp_path: Path, postgresql_url: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.run", "--quick", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert result.returncode == 0, result.stderr[-4000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert set(results["databases"]) == {"sqlite", "postgresql"}
    for entry in results["databases"].values():
        assert all(
            row["chat"]["requests"] > 0 and row["chat"]["errors"] == 0
            for row in entry["throughput"]
        )
        assert {"messages_ratio", "rss_end_mib"} <= set(entry["scaling"]) | set(entry["memory"])
    assert results["databases"]["postgresql"]["two_workers"]
    assert (tmp_path / "chart.png").stat().st_size > 10_000
    assert "chat/s" in result.stdout


def _run_bench(module: str, *args: str) -> str:
    """Runs `python -m bench.<module> args` and returns its output, failing on a non-zero exit."""
    result = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result.stdout


def test_the_turn_cost_measure_runs_on_postgresql(postgresql_url: str) -> None:
    """`bench.turn_cost` (the before/after measure of a change) on a fresh database."""
    assert "ms CPU per turn (4)" in _run_bench("turn_cost", "--turns", "4")


def test_the_architecture_floor_measure_runs(postgresql_url: str) -> None:
    """`bench.floors`: the Agents SDK, MCP and raw database costs every turn pays."""
    output = _run_bench("floors", "--runs", "20")
    figures = dict(line.split() for line in output.splitlines())
    assert set(figures) == {
        "runner_no_tools_ms",
        "runner_one_mcp_tool_ms",
        "mcp_call_tool_ms",
        "raw_asyncpg_turn_ms",
        "floor_before_http_ms",
    }
    assert all(float(value) > 0 for value in figures.values())
