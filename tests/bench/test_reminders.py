"""`bench.reminders` in its quick mode, so it cannot rot. Figures are never asserted beyond
being positive: CI machines are busy. (The run itself asserts that every fired reminder reached
the local push service and SMTP server exactly once: it exits non-zero otherwise.)"""

from __future__ import annotations

import pytest

from tests.bench.bench_output import run_bench, table_rows


@pytest.fixture(scope="module")
def quick_output(postgresql_url: str) -> str:
    """Both databases (the fixture makes sure PostgreSQL is there), run once for the module."""
    return run_bench("reminders", "--quick", timeout=600)


def test_every_measure_has_a_positive_figure_on_both_databases(quick_output: str) -> None:
    rows = table_rows(quick_output)
    assert len(rows) == 10  # the scheduler's 5, delivery's 5 (bench/delivery.py)
    for label, (sqlite, postgresql, _target, _met) in rows.items():
        for cell in (sqlite, postgresql):
            assert float(cell.replace(",", "").split()[0].rstrip(";")) > 0, label


def test_every_reminder_is_fired_once_across_the_two_sweeps(quick_output: str) -> None:
    rows = table_rows(quick_output)
    burst = rows["firing a tenth at once (reminders; per second)"]
    rest = rows["firing the rest (reminders; per second)"]
    for before, after in zip(burst[:2], rest[:2], strict=True):
        fired = int(before.split(";")[0].replace(",", "")) + int(
            after.split(";")[0].replace(",", "")
        )
        assert fired == 400


def test_the_probe_uses_the_partial_index_on_both_databases(quick_output: str) -> None:
    assert quick_output.count("ix_task_remind_at") >= 2


def test_delivery_reports_both_channels_and_the_quiet_users_chat(quick_output: str) -> None:
    rows = table_rows(quick_output)
    pushes = rows["pushes to 200 subscribed browsers (per second; CPU ms each)"]
    emails = rows["emails to 200 opted-in accounts (per second; CPU ms each)"]
    for cell in (*pushes[:2], *emails[:2]):
        per_second, cpu = cell.removesuffix(" ms").split("; ")
        assert float(per_second.replace(",", "")) > 0 and float(cpu) > 0
    baseline = rows["a quiet user's chat, nothing due (p50 / p99 ms)"]
    during = rows["the same chat while 200 reminders fire and 400 deliveries go out (p50 / p99 ms)"]
    for cell in (*baseline[:2], *during[:2]):
        p50, p99 = (float(part) for part in cell.split(" / "))
        assert 0 < p50 <= p99
