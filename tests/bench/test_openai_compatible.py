"""`bench.openai_compatible` in its quick mode, so it cannot rot: the same turns through
/v1/chat/completions and /api/chat on one server per database, each row printed. Figures are
never asserted beyond being numbers: CI machines are busy."""

from __future__ import annotations

from tests.bench.bench_output import run_bench, table_rows

WAYS = ("/api/chat", "/v1/chat/completions")


def test_the_quick_run_prints_both_ways_and_their_ratio_on_both_databases(
    postgresql_url: str,
) -> None:
    rows = table_rows(run_bench("openai_compatible", "--quick", timeout=600))
    for database in ("postgresql", "sqlite"):
        for suffix in ("", " (streamed)"):
            for way in WAYS:
                cpu, wall, target, met = rows[f"{database}: worker CPU per turn, {way}{suffix}"]
                assert float(cpu.removesuffix(" ms")) > 0
                assert float(wall.removesuffix(" ms")) > 0
                assert (target, met) == ("", "")
            label = f"{database}: {WAYS[1]}{suffix} over {WAYS[0]}{suffix}"
            ratio, wall, target, met = rows[label]
            assert float(ratio.removesuffix("x")) > 0
            assert (wall, target) == ("", "<= 1.10x")
            assert met in {"yes", "NO"}
    assert len(rows) == 12
