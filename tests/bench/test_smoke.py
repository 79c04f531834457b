"""A seconds-long run of the benchmark so it cannot rot (figures are not asserted)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.run import LATEST, RESULTS_WRITTEN_TO
from tests.bench.bench_output import run_bench
from tests.live_server import ROOT


@dataclass(frozen=True)
class QuickRun:
    stdout: str
    out: Path
    latest_before: dict[str, str]


def _files(directory: Path) -> dict[str, str]:
    """Every file under `directory`, by relative path, with a digest of its bytes."""
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def quick_run(postgresql_url: str) -> Iterator[QuickRun]:
    """`bench.run --quick` exactly as the README gives it (no --out), run once for the module."""
    latest_before = _files(LATEST)
    result = subprocess.run(
        [sys.executable, "-m", "bench.run", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert result.returncode == 0, result.stderr[-4000:]
    last_line = result.stdout.strip().splitlines()[-1]
    assert last_line.startswith(RESULTS_WRITTEN_TO), last_line
    out = Path(last_line.removeprefix(RESULTS_WRITTEN_TO).strip())
    try:
        yield QuickRun(stdout=result.stdout, out=out, latest_before=latest_before)
    finally:
        if out.resolve() != LATEST.resolve():
            shutil.rmtree(out, ignore_errors=True)


def test_the_benchmark_runs_end_to_end_and_writes_its_results(quick_run: QuickRun) -> None:
    results = json.loads((quick_run.out / "results.json").read_text())
    assert results["quick"] is True
    assert set(results["databases"]) == {"sqlite", "postgresql"}
    for entry in results["databases"].values():
        assert all(
            row["chat"]["requests"] > 0 and row["chat"]["errors"] == 0
            for row in entry["throughput"]
        )
        assert {"messages_ratio", "rss_end_mib"} <= set(entry["scaling"]) | set(entry["memory"])
    assert results["databases"]["postgresql"]["two_workers"]
    assert (quick_run.out / "chart.png").stat().st_size > 10_000
    assert "chat/s" in quick_run.stdout


def test_a_quick_run_leaves_the_committed_figures_untouched(quick_run: QuickRun) -> None:
    assert quick_run.out.resolve() != LATEST.resolve()
    assert quick_run.latest_before, "bench/latest holds the committed figures"
    assert _files(LATEST) == quick_run.latest_before


def test_the_turn_cost_measure_runs_on_postgresql(postgresql_url: str) -> None:
    """`bench.turn_cost` (the before/after measure of a change) on a fresh database."""
    assert "ms CPU per turn (4)" in run_bench("turn_cost", "--turns", "4")


def test_the_architecture_floor_measure_runs(postgresql_url: str) -> None:
    """`bench.floors`: the Agents SDK, MCP and raw database costs every turn pays."""
    output = run_bench("floors", "--runs", "20")
    figures = dict(line.split() for line in output.splitlines())
    assert set(figures) == {
        "runner_no_tools_ms",
        "runner_one_mcp_tool_ms",
        "mcp_call_tool_ms",
        "raw_asyncpg_turn_ms",
        "floor_before_http_ms",
    }
    assert all(float(value) > 0 for value in figures.values())


def test_the_noisy_neighbour_benchmark_runs_every_noise_and_prints_its_table(
    postgresql_url: str,
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.noisy_neighbour", "--turns", "3", "--noisy", "1"]
        + ["--tasks", "20", "--big", "50", "--max-seconds", "60"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in result.stdout.strip().splitlines()[2:]
    ]
    beside = [
        "alone",
        "1 users completing 20 tasks each",
        "4 clients fetching a 50-task feed",
        "4 clients reading 50 tasks",
        "3 clients creating tasks with impossible rules",
        "3 users sending a 660-task message",
    ]
    assert [(row[0], row[1]) for row in rows] == [
        (kind, noise) for kind in ("sqlite", "postgresql") for noise in beside
    ]
    # Every noise was under way: its requests were answered (counted by status).
    assert all(row[4] != "-" for row in rows if row[1] != "alone")
    assert all(float(row[2]) > 0 for row in rows)
