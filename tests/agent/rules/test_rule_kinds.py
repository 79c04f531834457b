"""What decided a reading (`RuleKind`, backend/agent/rules/types.py): code branches on the
kind, never on the label people read in `meta.rules` (issue 32)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.engine import interpret
from backend.agent.rules.intents import detect_intent, rule_intent
from backend.agent.rules.patterns import SENTENCE_RULES
from backend.agent.rules.text import core_request, prepare
from backend.agent.rules.types import Intent, PendingQuestion, RuleKind

AGENT = Path(__file__).resolve().parents[3] / "backend" / "agent"

# Reading a label: comparing it, testing its start or end, or matching a pattern on it.
_STRING_TESTS = frozenset({"startswith", "endswith"})
_PATTERN_TESTS = frozenset({"match", "search", "fullmatch", "findall", "finditer"})
_VALUE_TESTS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def _is_label(node: ast.AST) -> bool:
    """`x.rule`, `x.rules` or a bare `rule`: a Detection's label, or a plan's labels. A
    repeat's rule (`repeat.rule`, "every monday") is no label."""
    if isinstance(node, ast.Name):
        return node.id == "rule"
    if not isinstance(node, ast.Attribute) or node.attr not in ("rule", "rules"):
        return False
    owner = node.value
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return name != "repeat"


def _label_read(node: ast.AST) -> int | None:
    """The line where `node` reads a label, or None."""
    if isinstance(node, ast.Compare):  # `d.rule == ...`, `d.rule in ...` (not `is`: identity)
        values = any(isinstance(op, _VALUE_TESTS) for op in node.ops)
        sides = (node.left, *node.comparators)
        return node.lineno if values and any(_is_label(side) for side in sides) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        method = node.func.attr
        if method in _STRING_TESTS and _is_label(node.func.value):
            return node.lineno
        if method in _PATTERN_TESTS and any(_is_label(arg) for arg in node.args):
            return node.lineno
    if isinstance(node, ast.comprehension) and _is_label(node.iter):
        # `any(r.startswith("answer") for r in plan.rules)`: the labels read one by one
        return node.iter.lineno
    return None


def label_branches(source: str) -> list[int]:
    """The lines of `source` that branch on a rule's label."""
    lines = {_label_read(node) for node in ast.walk(ast.parse(source))}
    return sorted(line for line in lines if line is not None)


@pytest.mark.parametrize(
    "source",
    [
        'detection.rule.startswith("keyword")',
        'd.rule.startswith(("model:", "keyword"))',
        'detection.rule == "X is done"',
        "detection.rule in _ABOUT_THE_LAST_TASK",
        'rule.startswith("answer")',
        'any(rule.startswith("answer") for rule in plan.rules)',
        '"answer: yes" in plan.rules',
        "name != detection.rule",
        "_MODEL.match(detection.rule)",
        'detection.rule.endswith("(after a typo fix)")',
    ],
)
def test_the_check_finds_a_branch_on_a_label(source: str) -> None:
    assert label_branches(source) == [1]


@pytest.mark.parametrize(
    "source",
    [
        'text.startswith("add")',
        "detection.kind is RuleKind.MODEL",
        "detection.kind in _GUESSES",
        'rule = f"model: {label}"',
        "rules.append(detection.rule)",
        'self.repeat.rule == "FREQ=DAILY"',
        "self.chosen is self.rules",
        'repeat.rule.startswith("FREQ")',
        'Detection(Intent.LIST, f"asked: {detection.rule}", kind=RuleKind.QUESTION)',
    ],
)
def test_the_check_leaves_other_code_alone(source: str) -> None:
    assert label_branches(source) == []


def test_no_code_branches_on_a_rule_label() -> None:
    found = {
        f"{path.relative_to(AGENT)}:{line}": path.read_text().splitlines()[line - 1].strip()
        for path in sorted(AGENT.rglob("*.py"))
        for line in label_branches(path.read_text())
    }
    assert found == {}, "branch on `kind` (RuleKind), not on the label"


def test_every_sentence_rule_names_its_kind() -> None:
    assert SENTENCE_RULES
    for rule in SENTENCE_RULES:
        assert isinstance(rule.kind, RuleKind), rule.name
        assert isinstance(rule.intent, Intent), rule.name


SAMPLES = (
    "add milk",
    "remind me to call mom",
    "buy milk",
    "show my tasks",
    "whats on my list",
    "my tasks",
    "mark task 2 done",
    "delete task 3",
    "rename task 1 to buy oat milk",
    "I need to call the dentist",
    "I need to delete task 2",
    "milk should be added to my list",
    "bread on my list",
    "I paid the rent",
    "the rent is paid",
    "milk is done",
    "milk is finishd",
    "milk bought",
    "I already buy the eggs",
    "I don't need the eggs anymore",
    "I did it",
    "I didn't do it",
    "cross it off",
    "the second one I did already",
    "undo",
    "put it back",
    "hi",
    "help",
    "thanks, bye",
    "tell me a joke",
    "please order everything on my shopping list",
    "",
    "hmm",
    "blah blah",
    "what's the weather like",
    "do you ever get sick of people asking you to remember milk",
    "is milk on my list?",
    "called mom?",
    "could you tell me whether I've already called my mother?",
    "bread on there?",
    "what's due today",
    "make it high priority",
    "clear my list",
    "delete the finished tasks",
    "how many tasks do I have",
    "shwo my tasks",
    "for task 2, add the description bring the receipts",
    "task 4 done",
    "I must be mistaken",
    "show me the weather",
)


@pytest.mark.parametrize("message", SAMPLES)
def test_every_reading_names_what_decided_it(message: str) -> None:
    clause = core_request(prepare(message))
    for detection in (rule_intent(clause), detect_intent(clause), detect_intent(message)):
        assert isinstance(detection.kind, RuleKind), detection
        assert detection.rule  # the label people read stays


@pytest.mark.parametrize(
    ("message", "kind", "verbatim"),
    [
        ("add milk", RuleKind.LEADING_ADD, True),
        ("milk is done", RuleKind.X_IS_DONE, True),
        # after a typo fix the kind stays; only words as written are about the last task
        ("milk is finishd", RuleKind.X_IS_DONE, False),
        ("I need to delete task 2", RuleKind.LEADING_VERB, False),
        ("cross it off", RuleKind.CROSS_IT_OFF, True),
        ("undo", RuleKind.UNDO, True),
        ("is milk on my list?", RuleKind.SENTENCE, True),
    ],
)
def test_the_kind_of_a_rule(message: str, kind: RuleKind, verbatim: bool) -> None:
    detection = rule_intent(message)
    assert (detection.kind, detection.verbatim) == (kind, verbatim)


def test_a_plan_says_whether_it_answered_the_open_question() -> None:
    offered = ConversationContext(pending=PendingQuestion(kind="offer_add", title="milk"))
    answer = interpret("no", offered)
    assert answer.answered and answer.intents == [Intent.SOCIAL]
    assert answer.rules[0].startswith("answer")  # the label people read
    assert not interpret("hello", ConversationContext()).answered
