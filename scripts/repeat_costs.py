"""What finding a repeat's dates costs, before and after issue 30's bounded search.

Before, a task's first and next dates were dateutil's `rrule.after`, which looks for a date up
to the year 9999: seconds of event-loop CPU for a rule no day matches, forever for INTERVAL=0.
Now a create checks the rule (`repeat_problem`) and a completion looks at most 30 years ahead
(`next_due`). Run: `PYTHONPATH=$PWD python -m scripts.repeat_costs [--skip-before]`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import date, datetime
from datetime import time as clock

from dateutil.rrule import rrulestr

from backend.domain.repeats import Repeat, next_due, repeat_problem

TODAY = date(2026, 11, 25)
RULES = [
    "FREQ=YEARLY;BYSETPOS=366",
    "FREQ=DAILY;BYSETPOS=366",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6",
    "FREQ=WEEKLY;BYWEEKNO=53;BYMONTH=6",
    "FREQ=DAILY;INTERVAL=0",
    # ordinary rules: what every create and completion pays
    "FREQ=DAILY",
    "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
]


def _ms(work: Callable[[], object], runs: int = 3) -> float:
    """The best of `runs`, in milliseconds."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _before(rule: str) -> float | None:
    """dateutil's `after` from today, as first_due and next_due called it (None: never ends)."""
    if "INTERVAL=0" in rule:
        return None  # loops on one day forever
    start = datetime.combine(TODAY, clock(0))
    return _ms(lambda: rrulestr(f"RRULE:{rule}", dtstart=start).after(start, inc=True), runs=1)


def main(skip_before: bool) -> None:
    out = sys.stdout
    out.write("| rule | before: dateutil after() | now: create check | now: completion |\n")
    out.write("|---|---|---|---|\n")
    for rule in RULES:
        repeat = Repeat(rule)
        before = None if skip_before else _before(rule)
        shown = "hangs" if "INTERVAL=0" in rule else "-" if before is None else f"{before:.1f} ms"
        create = _ms(lambda r=repeat: repeat_problem(r, None, None, today=TODAY))
        done = _ms(lambda r=repeat: next_due(r, TODAY, clock(9), today=TODAY))
        out.write(f"| `{rule}` | {shown} | {create:.2f} ms | {done:.2f} ms |\n")
    # a daily task due in the first supported year, completed today: the longest catch-up
    old = _ms(lambda: next_due(Repeat("FREQ=DAILY"), date(1900, 1, 1), None, today=TODAY))
    out.write(f"| `FREQ=DAILY` due 1900-01-01, completed today | - | - | {old:.2f} ms |\n")


if __name__ == "__main__":
    main(skip_before="--skip-before" in sys.argv)
