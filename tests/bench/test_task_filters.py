"""`bench.task_filters` in its quick mode, so it cannot rot, and how it reads query plans.

Figures are never asserted beyond being positive: CI machines are busy.
"""

from __future__ import annotations

import pytest

from bench.task_filters import (
    LIST_REQUESTS,
    LIST_TURN_PHRASES,
    Plan,
    access_path,
    list_label,
    plan_note,
    query_text,
    turn_label,
)
from tests.bench.bench_output import run_bench, table_rows

QUICK_TASKS = 60
VERDICTS = {"yes", "no", "SQLite only", "PostgreSQL only"}


@pytest.fixture(scope="module")
def quick_output(postgresql_url: str) -> str:
    """The quick mode on both databases with a small account, run once for the module."""
    return run_bench("task_filters", "--quick", "--tasks", str(QUICK_TASKS), timeout=600)


def plan_lines(output: str, heading: str) -> list[str]:
    """The summary lines under one database's EXPLAIN heading."""
    after = output.split(heading, 1)[1].split("\n\n", 1)[0]
    return after.splitlines()[1:]


def test_the_table_has_a_row_for_every_filter_sort_and_list_turn(quick_output: str) -> None:
    expected = [list_label(p) for p in LIST_REQUESTS] + [turn_label(p) for p in LIST_TURN_PHRASES]
    assert list(table_rows(quick_output)) == expected


def test_every_figure_is_a_positive_median_and_p99_on_both_databases(quick_output: str) -> None:
    for label, (returned, sqlite, postgresql, target, met) in table_rows(quick_output).items():
        for cell in (sqlite, postgresql):
            median, p99 = (float(number) for number in cell.split(" / "))
            assert 0 < median <= p99, label
        assert target == "< 20 ms median"
        assert met in VERDICTS
        assert returned


def test_the_list_turns_list_tasks_and_the_lists_say_how_many(quick_output: str) -> None:
    rows = table_rows(quick_output)
    for phrase in LIST_TURN_PHRASES:
        assert rows[turn_label(phrase)][0].startswith("list_tasks("), phrase
    unfiltered = rows[list_label({"sort": "number"})][0]
    assert unfiltered == f"{QUICK_TASKS} tasks"  # the other accounts' tasks never show


@pytest.mark.parametrize("heading", ["EXPLAIN QUERY PLAN on SQLite", "EXPLAIN on PostgreSQL"])
def test_every_request_is_explained_and_timed_alone(quick_output: str, heading: str) -> None:
    lines = plan_lines(quick_output, heading)
    assert [line.split()[0] for line in lines] == [query_text(p).split()[0] for p in LIST_REQUESTS]
    for line in lines:
        assert float(line.split(" ms ", 1)[0].split()[-1]) > 0
        assert " -> " in line


SQLITE_DUE_RANGE = [
    "SEARCH task USING INDEX ix_task_owner_due_date (owner_id=? AND due_date>? AND due_date<?)",
    "USE TEMP B-TREE FOR ORDER BY",
]
SQLITE_OWNER_ONLY = ["SEARCH task USING INDEX sqlite_autoindex_task_1 (owner_id=?)"]
POSTGRES_OWNER_ONLY = [
    "Sort  (cost=603.30..603.43 rows=50 width=94)",
    "  ->  Bitmap Heap Scan on task  (cost=127.30..603.30 rows=50 width=94)",
    "        Recheck Cond: (owner_id = 1)",
    "        Filter: (lower((list_name)::text) = 'work'::text)",
    "        ->  Bitmap Index Scan on ix_task_owner_list  (cost=0.00..127.29 rows=10000 width=0)",
    "              Index Cond: (owner_id = 1)",
]
POSTGRES_DUE_DAY = [
    "Index Scan using ix_task_owner_due_date on task  (cost=0.29..113.12 rows=66 width=94)",
    "  Index Cond: ((owner_id = 1) AND (due_date = '2026-11-24'::date))",
]
POSTGRES_EXPRESSION = [
    "Index Scan using ix_task_owner_list_key on task  (cost=0.29..90.1 rows=480 width=94)",
    "  Index Cond: ((owner_id = 1) AND (lower((list_name)::text) = 'work'::text))",
]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (SQLITE_DUE_RANGE, "ix_task_owner_due_date on (owner_id, due_date)"),
        (SQLITE_OWNER_ONLY, "uq_task_owner_number on (owner_id)"),
        (["SCAN task"], "whole table"),
        (POSTGRES_OWNER_ONLY, "ix_task_owner_list on (owner_id)"),
        (POSTGRES_DUE_DAY, "ix_task_owner_due_date on (owner_id, due_date)"),
        (POSTGRES_EXPRESSION, "ix_task_owner_list_key on (owner_id, list_name)"),
        (["Seq Scan on task  (cost=0.00..551.00 rows=10000 width=95)"], "whole table"),
    ],
)
def test_a_plan_tells_which_index_narrows_on_which_columns(lines: list[str], expected: str) -> None:
    assert str(access_path(lines)) == expected


@pytest.mark.parametrize(
    ("params", "lines", "rows", "indexes", "verdict"),
    [
        ({"sort": "due"}, ["Seq Scan on task"], 10_000, (), "no filter"),
        ({"due": "today"}, POSTGRES_DUE_DAY, 70, ("ix_task_owner_due_date",), "narrows"),
        ({"list": "Work"}, POSTGRES_OWNER_ONLY, 2_000, ("ix_task_owner_list",), "right plan"),
        ({"list": "Side"}, POSTGRES_OWNER_ONLY, 500, ("ix_task_owner_list",), "UNUSED"),
        ({"tag": "waiting"}, SQLITE_OWNER_ONLY, 100, (), "WOULD HELP"),
    ],
)
def test_a_plan_that_reads_every_owner_task_is_flagged_only_when_the_filter_is_selective(
    params: dict[str, str], lines: list[str], rows: int, indexes: tuple[str, ...], verdict: str
) -> None:
    plan = Plan(lines, sql_median_ms=1.0, rows=rows, filter_indexes=indexes)
    assert verdict in plan_note(params, plan, owner_tasks=10_000)
