"""`bench.targets --quick`, so the one-run table of issue 16's targets cannot rot: every
target has its row, a figure and a verdict; the supporting tables and targets.json have
their parts; a quick run leaves the committed figures alone. Figures are never asserted
beyond their shape: CI machines are busy."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.run import LATEST, RESULTS_WRITTEN_TO
from tests.bench.bench_output import run_bench, table_rows

TARGET_ROWS = {
    "1. turn worker CPU <= 1.3x the floor, PostgreSQL",
    "1. turn worker CPU <= 1.3x the floor, SQLite",
    "2. 1 worker, 16 connections: >= 150 turns/s, no errors",
    "2. 2 workers, 16 connections: >= 1.7x one",
    "2. 3 workers, 16 connections: (capacity model check)",
    "3. open loop 60 turns/s, 1 worker: p99 < 50 ms",
    "3. open loop at 25% of max, 1 worker: p50 / p99",
    "3. open loop at 50% of max, 1 worker: p50 / p99",
    "3. open loop at 75% of max, 1 worker: p50 / p99",
    "4. statements / transactions per turn, PostgreSQL",
    "4. connections a worker holds, PostgreSQL",
}
LLM_ROWS = {
    "5. LLM server time added a turn <= 5 ms (median / p95 / max)",
    "5. LLM first text <= 5 ms (median / p95 / max)",
}
# Rows that state a target have a verdict; the rest give figures for the capacity model.
JUDGED = {
    "1. turn worker CPU <= 1.3x the floor, PostgreSQL",
    "1. turn worker CPU <= 1.3x the floor, SQLite",
    "2. 1 worker, 16 connections: >= 150 turns/s, no errors",
    "2. 2 workers, 16 connections: >= 1.7x one",
    "3. open loop 60 turns/s, 1 worker: p99 < 50 ms",
} | LLM_ROWS


@dataclass(frozen=True)
class QuickRun:
    output: str
    results: dict[str, object]
    out: Path
    committed_before: bytes | None


def _committed() -> bytes | None:
    """The committed figures of a full run, if there are any."""
    path = LATEST / "targets.json"
    return path.read_bytes() if path.exists() else None


@pytest.fixture(scope="module")
def quick_run(postgresql_url: str) -> Iterator[QuickRun]:
    """`bench.targets --quick` as the README gives it, run once for the module."""
    committed_before = _committed()
    output = run_bench("targets", "--quick", timeout=900)
    last_line = output.strip().splitlines()[-1]
    assert last_line.startswith(RESULTS_WRITTEN_TO), last_line
    out = Path(last_line.removeprefix(RESULTS_WRITTEN_TO).strip())
    try:
        results = json.loads((out / "targets.json").read_text())
        yield QuickRun(output, results, out, committed_before)
    finally:
        if out.resolve() != LATEST.resolve():
            shutil.rmtree(out, ignore_errors=True)


def _targets_table(output: str) -> dict[str, list[str]]:
    """The first table (target | figure | met), by target."""
    first = output.split("\n\n")[1]
    assert first.startswith("| target | figure | met |"), first[:200]
    rows = table_rows(first)
    rows.pop("target")
    return rows


def test_every_target_has_a_row_with_a_figure_and_a_verdict(quick_run: QuickRun) -> None:
    rows = _targets_table(quick_run.output)
    llm_todo = "5. LLM brains (bench.llm_overhead)"
    assert set(rows) in (TARGET_ROWS | LLM_ROWS, TARGET_ROWS | {llm_todo})
    for target, (figure, met) in rows.items():
        assert figure, target
        if target in JUDGED:
            assert met in {"yes", "no"}, target
        else:
            assert met == "", target
    floor = quick_run.results["floor"]
    assert isinstance(floor, dict)
    for database in ("PostgreSQL", "SQLite"):
        figure = rows[f"1. turn worker CPU <= 1.3x the floor, {database}"][0]
        assert f"vs floor {floor['floor_before_http_ms']:.2f} ms" in figure


def test_the_runs_show_where_the_cores_went_and_the_model_beside_the_measured(
    quick_run: QuickRun,
) -> None:
    rows = table_rows(quick_run.output)
    runs = [
        "closed, 1 worker(s)",
        "closed, 2 worker(s)",
        "closed, 3 worker(s)",
        "open, 60/s",
        "open, 25% of max",
        "open, 50% of max",
        "open, 75% of max",
        "one connection, postgresql",
        "one connection, sqlite",
    ]
    for run in runs:
        turns, per_turn, cores, preemptions = rows[run]
        assert float(turns) >= 0 and float(preemptions) >= 0
        assert len(per_turn.split(" / ")) == 3 and len(cores.split(" / ")) == 5, run
    for workers in ("1", "2", "3"):
        measured, *predicted, other = rows[workers]
        assert len(predicted) == 3
        assert all(float(figure) >= 0 for figure in [measured, *predicted, other])


def test_targets_json_holds_each_part_and_a_quick_run_leaves_the_figures_alone(
    quick_run: QuickRun,
) -> None:
    results = quick_run.results
    assert results["quick"] is True
    expected = {"machine", "floor", "turn_cpu", "closed_loop", "open_loop", "statements"}
    assert expected | {"llm_overhead", "capacity_model", "targets"} <= set(results)
    closed = results["closed_loop"]
    assert isinstance(closed, dict) and set(closed) == {"1", "2", "3"}
    for workers, run in closed.items():
        assert run["errors"] == 0 and run["requests"] <= run["sent"]
        assert len(run["connections_per_worker"]) == int(workers)
        assert run["transactions_per_turn"] > 0
    statements = results["statements"]
    assert isinstance(statements, dict)
    assert statements["statements"] > 0 and statements["transactions"] >= 0
    assert statements["round_trips"] >= statements["statements"]
    assert quick_run.out.resolve() != LATEST.resolve()
    assert _committed() == quick_run.committed_before
