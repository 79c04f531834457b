"""The utterance corpus (tests/agent/corpus/cases_*.py): intent and argument accuracy."""

from __future__ import annotations

from collections import Counter

from corpus.model import SEED_TASKS
from corpus.report import all_cases, evaluate, format_report

TARGET_ACCURACY = 0.97


def test_the_corpus_has_at_least_300_varied_utterances() -> None:
    cases = all_cases()
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


def test_intent_and_argument_accuracy_meets_the_target() -> None:
    results = evaluate(all_cases())
    correct = sum(1 for r in results if r.ok)
    accuracy = correct / len(results)
    assert accuracy >= TARGET_ACCURACY, format_report(results)


def test_seed_tasks_are_the_documented_ten() -> None:
    assert [t["id"] for t in SEED_TASKS] == list(range(1, 11))
