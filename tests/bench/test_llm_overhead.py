"""`bench.llm_overhead` in its quick mode, so it cannot rot: a real server with an LLM brain
against the fake model beside one with the rules brain, every row printed. Figures are never
asserted beyond being numbers: CI machines are busy."""

from __future__ import annotations

from tests.bench.bench_output import run_bench, table_rows

TARGETED = (
    "server time added a turn (ms: median / p95 / max)",
    "first text byte after the model's (ms: median / p95 / max)",
)
PARTS = (
    "of the time added: the turn itself, the rules brain's same turn (ms)",
    "of the time added: the LLM path, added less that rules turn (ms)",
)


def test_the_quick_run_prints_both_targets_and_what_the_added_time_is_made_of(
    postgresql_url: str,
) -> None:
    rows = table_rows(run_bench("llm_overhead", "--quick", timeout=600))
    assert set(rows) == {*TARGETED, *PARTS}
    for label, (figures, target, met) in rows.items():
        median, p95, worst = (float(part) for part in figures.split(" / "))
        assert median <= p95 <= worst, label
        if label in TARGETED:
            assert target == "<= 5.0 ms median"
            assert met in {"yes", "NO"}
        else:
            assert (target, met) == ("", "")
