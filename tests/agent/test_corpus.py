"""The project's own corpus (`corpus/cases_*.py`), one test per case.

Each test is named by the case's id (`corpus.report.case_id`: its module and what is said).
Cases the assistant gets wrong today are listed in `corpus/data/known_misses_own.txt` and run
as strict xfails: a fix makes its test pass and fail the run until it leaves the list, and a
regression fails at once. The per-intent table is in `python -m corpus.report`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from corpus.model import SEED_TASKS, Case
from corpus.report import describe_miss, known_misses, named_cases, run_case

CASES = named_cases()
KNOWN_MISSES = known_misses()

# AC-CB1 asks for more than 95%; the corpus is held to this higher floor.
TARGET_ACCURACY = 0.97


def _marks(name: str) -> list[pytest.MarkDecorator]:
    if name in KNOWN_MISSES:
        reason = "known miss (corpus/data/known_misses_own.txt)"
        return [pytest.mark.xfail(strict=True, reason=reason)]
    return []


@pytest.mark.parametrize(
    "case",
    [pytest.param(case, id=name, marks=_marks(name)) for name, case in CASES.items()],
)
def test_the_assistant_handles_an_own_case_as_labelled(case: Case) -> None:
    result = run_case(case)
    assert result.ok, describe_miss(result)


def test_the_corpus_has_at_least_300_varied_utterances() -> None:
    cases = list(CASES.values())
    assert len(cases) >= 300
    assert len({case.say.lower() for case in cases}) >= 0.95 * len(cases)
    per_intent = Counter(case.intent for case in cases)
    assert set(per_intent) == {
        "create_task",
        "list_tasks",
        "complete_task",
        "delete_task",
        "update_task",
        "help",
        "greeting",
        "unclear",
    }


def test_no_known_miss_names_a_case_that_does_not_exist() -> None:
    assert KNOWN_MISSES <= set(CASES)


def test_the_known_misses_leave_the_accuracy_above_the_target() -> None:
    """With every other case passing (the tests above), this is the corpus's accuracy."""
    right = sum(1 for name in CASES if name not in KNOWN_MISSES)
    assert right / len(CASES) >= TARGET_ACCURACY


def test_seed_tasks_are_the_documented_ten() -> None:
    assert [t["id"] for t in SEED_TASKS] == list(range(1, 11))
