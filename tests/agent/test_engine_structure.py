"""The rule engine stays readable (issue 32): every function of backend/agent/rules is of
cyclomatic complexity 15 or less, as radon counts it (a branch, a loop, a boolean operator
and a comprehension's condition each add one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from radon.complexity import cc_visit

RULES = Path(__file__).resolve().parents[2] / "backend" / "agent" / "rules"
MAX_COMPLEXITY = 15


@pytest.mark.parametrize("module", sorted(RULES.glob("*.py")), ids=lambda path: path.name)
def test_no_function_of_the_engine_is_over_complexity_15(module: Path) -> None:
    blocks = cc_visit(module.read_text())
    over = {
        block.fullname: block.complexity for block in blocks if block.complexity > MAX_COMPLEXITY
    }
    assert over == {}, f"{module.name}: split these into named steps: {over}"


def test_the_measure_counts_what_it_should() -> None:
    branching = "def f(x):\n" + "".join(
        f"    if x == {n}:\n        return {n}\n" for n in range(16)
    )
    assert cc_visit(branching)[0].complexity == 17


def test_no_rewrite_of_the_engine_loops_until_the_text_settles_without_a_bound() -> None:
    # Two rewrites that undo each other ("at 9 morning" <-> "morning at 9") once hung a turn
    # for ever: every fixpoint loop is bounded by SETTLE_LIMIT.
    unbounded = [
        path.name
        for path in sorted(RULES.glob("*.py"))
        if re.search(r"^\s*while\s+previous\s*!=", path.read_text(), re.M)
    ]
    assert unbounded == []
