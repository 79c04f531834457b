"""`bench.llm_overhead` in its quick mode, so it cannot rot: a real server with an LLM brain
against the fake model, both rows printed. Figures are never asserted beyond being
numbers: CI machines are busy."""

from __future__ import annotations

from tests.bench.bench_output import run_bench, table_rows


def test_the_quick_run_prints_both_measures_with_their_targets(postgresql_url: str) -> None:
    output = run_bench("llm_overhead", "--quick", timeout=600)
    rows = table_rows(output)
    assert len(rows) == 2
    for label, (figures, target, met) in rows.items():
        median, p95, worst = (float(part) for part in figures.split(" / "))
        assert median <= p95 <= worst, label
        assert target == "<= 5.0 ms median"
        assert met in {"yes", "NO"}
