"""The labelled real-utterance corpus and the conversation corpus: loading, grading, reporting.

    .venv/bin/python -m corpus.real                 # figures: tuning vs held-out
    .venv/bin/python -m corpus.real --misses        # also the tuning misses
    .venv/bin/python -m corpus.real --write-known-misses

The fresh blind batches (`corpus.fresh`) are printed last, on their own: their figures only.

Each item starts from `STANDARD_TASKS` and runs through the rule engine with the in-memory
tools (`fake_tools.py`). An item is right when the reply is of the expected kind,
the counted tool calls are exactly the expected ones, and a question is left open exactly when
one must be. The held-out quarter (`split.py`) is reported only as figures: its misses are
never printed, so nobody tunes on them.
"""

from __future__ import annotations

import argparse
import copy
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backend.agent.turn_limits import CHANGING_TOOLS
from corpus.fake_tools import Conversation, Exchange, FakeTaskStore
from corpus.model import STANDARD_TASKS, Call
from corpus.report import call_matches, calls_match, counted_calls
from corpus.split import split_name

DATA = Path(__file__).parent / "data"
KNOWN_MISSES = DATA / "known_misses.txt"

# Reply kinds that count as the same answer when the calls and the open question match: the
# calls carry the difference (a list shown vs a question answered, a delete vs a clear).
_SAME_KIND = {
    "list": {"list", "query"},
    "query": {"list", "query"},
    "delete": {"delete", "clear"},
    "clear": {"delete", "clear"},
    "update": {"update", "reopen"},
    "reopen": {"update", "reopen"},
    "greeting": {"greeting", "social"},
    "social": {"greeting", "social"},
}


@dataclass(frozen=True)
class Expectation:
    intents: frozenset[str]
    calls: tuple[Call, ...]
    asks: bool | None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Expectation:
        intent = data["intent"]
        intents = frozenset([intent] if isinstance(intent, str) else intent)
        calls = tuple(Call(c["name"], dict(c.get("arguments", {}))) for c in data["calls"])
        return cls(intents, calls, data.get("asks"))

    def describe(self) -> str:
        return f"{'/'.join(sorted(self.intents))} {list(self.calls)} asks={self.asks}"


@dataclass(frozen=True)
class Observed:
    act: str
    calls: tuple[Call, ...]
    asked: bool
    reply: str

    def describe(self) -> str:
        return f"{self.act} {list(self.calls)} asks={self.asked}"


def observe(exchange: Exchange) -> Observed:
    acts = exchange.meta.get("acts") or ["clarify"]
    asked = exchange.meta.get("pending") is not None
    return Observed(str(acts[0]), counted_calls(exchange.tool_calls), asked, exchange.reply)


def kind_matches(expected: Expectation, observed: Observed) -> bool:
    if "undo" in expected.intents:
        return True  # the calls say what was undone
    if "clarify" in expected.intents and observed.asked and not observed.calls:
        return True
    allowed: set[str] = set()
    for intent in expected.intents:
        allowed |= _SAME_KIND.get(intent, {intent})
    return observed.act in allowed


def is_right(expected: Expectation, observed: Observed) -> bool:
    return (
        calls_match(observed.calls, expected.calls)
        and (expected.asks is None or expected.asks == observed.asked)
        and kind_matches(expected, observed)
    )


_CHANGING_TOOLS = CHANGING_TOOLS


def unasked_changes(expected: Expectation, observed: Observed) -> tuple[Call, ...]:
    """The calls that changed data the label did not ask to change: the worst kind of miss
    ("is bread on there?" stored as a task, the wrong task deleted)."""
    return tuple(
        c
        for c in observed.calls
        if c.name in _CHANGING_TOOLS and not any(call_matches(c, e) for e in expected.calls)
    )


@dataclass(frozen=True)
class Utterance:
    id: str
    text: str
    source: str
    group: str
    expect: Expectation

    @property
    def split(self) -> str:
        return split_name(self.id)

    @property
    def intent(self) -> str:
        return "/".join(sorted(self.expect.intents))


@dataclass(frozen=True)
class TurnSpec:
    say: str
    expect: Expectation


@dataclass(frozen=True)
class ConversationSpec:
    id: str
    voice: str
    kind: str
    turns: tuple[TurnSpec, ...]
    batch: str = "conversations"  # the file it came from: batches were written at different times

    @property
    def split(self) -> str:
        return split_name(self.id)


def _lines(path: Path) -> Iterable[dict[str, Any]]:
    if not path.exists():
        return []
    return (json.loads(line) for line in path.read_text().splitlines() if line.strip())


def load_utterances() -> list[Utterance]:
    return [
        Utterance(
            row["id"],
            row["text"],
            row["source"],
            row["group"],
            Expectation.from_json(row["expect"]),
        )
        for row in _lines(DATA / "utterances.jsonl")
    ]


def load_conversations() -> list[ConversationSpec]:
    conversations = []
    for path in sorted(DATA.glob("conversations*.jsonl")):
        for row in _lines(path):
            turns = tuple(
                TurnSpec(turn["say"], Expectation.from_json(turn["expect"]))
                for turn in row["turns"]
            )
            conversations.append(
                ConversationSpec(row["id"], row["voice"], row["kind"], turns, path.stem)
            )
    return conversations


def new_conversation() -> Conversation:
    return Conversation(FakeTaskStore(STANDARD_TASKS))


def asked_the_right_choice(
    conversation: Conversation, exchange: Exchange, expected: Expectation
) -> bool:
    """Whether a reply that asked offered the labelled change among its choices: picking
    one of them (its message sent next) makes exactly the labelled calls."""
    for choice in exchange.meta.get("choices") or ():
        trial = copy.deepcopy(conversation)
        picked = observe(trial.say(choice["message"]))
        if expected.calls and calls_match(picked.calls, expected.calls):
            return True
    return False


@dataclass(frozen=True)
class UtteranceResult:
    observed: Observed
    chose: bool  # wrong, but it asked with the labelled change among its choices


def run_utterance(item: Utterance) -> Observed:
    return run_utterance_with_choices(item).observed


def run_utterance_with_choices(item: Utterance) -> UtteranceResult:
    conversation = new_conversation()
    exchange = conversation.say(item.text)
    seen = observe(exchange)
    chose = not is_right(item.expect, seen) and seen.asked
    chose = chose and asked_the_right_choice(conversation, exchange, item.expect)
    return UtteranceResult(seen, chose)


@dataclass(frozen=True)
class ConversationResult:
    spec: ConversationSpec
    observed: tuple[Observed, ...]  # up to and including the first wrong turn
    # The first wrong turn asked, offering the labelled change among its choices.
    chose: bool = False

    @property
    def ok(self) -> bool:
        return len(self.observed) == len(self.spec.turns) and all(
            is_right(t.expect, o) for t, o in zip(self.spec.turns, self.observed, strict=True)
        )


def run_conversation(spec: ConversationSpec) -> ConversationResult:
    conversation = new_conversation()
    observed: list[Observed] = []
    for turn in spec.turns:
        exchange = conversation.say(turn.say)
        seen = observe(exchange)
        observed.append(seen)
        if not is_right(turn.expect, seen):
            chose = seen.asked and asked_the_right_choice(conversation, exchange, turn.expect)
            return ConversationResult(spec, tuple(observed), chose)
    return ConversationResult(spec, tuple(observed))


def known_misses() -> set[str]:
    if not KNOWN_MISSES.exists():
        return set()
    return {
        line.split("#")[0].strip()
        for line in KNOWN_MISSES.read_text().splitlines()
        if line.split("#")[0].strip()
    }


def _table(title: str, groups: dict[str, list[bool]]) -> list[str]:
    lines = [f"\n{title:<28}{'items':>7}{'right':>7}{'share':>9}"]
    for name, oks in sorted(groups.items()):
        lines.append(f"  {name:<26}{len(oks):>7}{sum(oks):>7}{sum(oks) / len(oks):>9.1%}")
    return lines


def report(show_misses: bool = False) -> tuple[str, set[str]]:
    """The figures, and the ids of every item (either split) that is not right."""
    lines: list[str] = []
    misses: set[str] = set()
    by_split: dict[str, list[bool]] = defaultdict(list)
    by_intent: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    by_source: dict[str, list[bool]] = defaultdict(list)
    tuning_misses: list[str] = []
    harmful: dict[str, list[bool]] = defaultdict(list)
    right_or_chose: dict[str, list[bool]] = defaultdict(list)
    for item in load_utterances():
        tried = run_utterance_with_choices(item)
        observed = tried.observed
        ok = is_right(item.expect, observed)
        right_or_chose[f"{item.split} utterances"].append(ok or tried.chose)
        harmful[f"{item.split} utterances"].append(bool(unasked_changes(item.expect, observed)))
        by_split[item.split].append(ok)
        by_intent[item.split][item.intent].append(ok)
        by_source[f"{item.split} {item.source}"].append(ok)
        if not ok:
            misses.add(item.id)
            if item.split == "tuning":
                flag = " UNASKED CHANGE" if harmful[f"{item.split} utterances"][-1] else ""
                tuning_misses.append(
                    f"- {item.id}{flag} {item.text!r}\n    want {item.expect.describe()}\n"
                    f"    got  {observed.describe()}\n    reply: {observed.reply[:120]!r}"
                )
    lines.append("REAL UTTERANCES (data/utterances.jsonl)")
    lines += _table("split", by_split)
    for split in ("tuning", "holdout"):
        lines += _table(f"{split}: by expected intent", by_intent[split])
    lines += _table("by source", by_source)

    conv_split: dict[str, list[bool]] = defaultdict(list)
    by_voice: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    by_kind: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    by_batch: dict[str, list[bool]] = defaultdict(list)
    conv_misses: list[str] = []
    for spec in load_conversations():
        result = run_conversation(spec)
        conv_split[spec.split].append(result.ok)
        right_or_chose[f"{spec.split} conversations"].append(result.ok or result.chose)
        by_batch[f"{spec.split} {spec.batch}"].append(result.ok)
        by_voice[spec.split][spec.voice].append(result.ok)
        by_kind[spec.split][spec.kind].append(result.ok)
        turn = spec.turns[len(result.observed) - 1]
        seen = result.observed[-1]
        harm = bool(unasked_changes(turn.expect, seen))
        harmful[f"{spec.split} conversations"].append(harm)
        if not result.ok:
            misses.add(spec.id)
            if spec.split == "tuning":
                said = " | ".join(t.say for t in spec.turns[: len(result.observed)])
                flag = " UNASKED CHANGE" if harm else ""
                conv_misses.append(
                    f"- {spec.id}{flag} ({spec.voice}, {spec.kind}) {said!r}\n"
                    f"    want {turn.expect.describe()}\n    got  {seen.describe()}\n"
                    f"    reply: {seen.reply[:120]!r}"
                )
    if conv_split:
        lines.append("\nCONVERSATIONS (data/conversations*.jsonl; right = every turn right)")
        lines += _table("split", conv_split)
        lines += _table("by batch (file)", by_batch)
        for split in ("tuning", "holdout"):
            lines += _table(f"{split}: by voice", by_voice[split])
            lines += _table(f"{split}: by kind", by_kind[split])
    lines.append(
        "\nUNASKED CHANGES (data changed that the label did not ask to change;"
        " conversations: their first wrong turn)"
    )
    lines.append(f"{'':<28}{'items':>7}{'harmed':>7}{'share':>9}")
    for name, harms in sorted(harmful.items()):
        lines.append(f"  {name:<26}{len(harms):>7}{sum(harms):>7}{sum(harms) / len(harms):>9.1%}")
    lines.append(
        "\nRIGHT, OR ASKED OFFERING THE LABELLED CHANGE AMONG ITS CHOICES"
        " (conversations: at their first wrong turn)"
    )
    lines += _table("split", right_or_chose)
    if show_misses:
        lines.append(f"\nTUNING MISSES: utterances ({len(tuning_misses)})")
        lines += tuning_misses
        lines.append(f"\nTUNING MISSES: conversations ({len(conv_misses)})")
        lines += conv_misses
    return "\n".join(lines), misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="print the tuning misses")
    parser.add_argument(
        "--write-known-misses",
        action="store_true",
        help="record today's misses as the strict xfail list",
    )
    args = parser.parse_args()
    text, misses = report(show_misses=args.misses)
    print(text)
    from corpus.fresh import report as fresh_report  # here: corpus.fresh imports this module

    print("\n" + fresh_report())
    if args.write_known_misses:
        KNOWN_MISSES.write_text(
            "# Items the assistant gets wrong today (strict xfail in\n"
            "# tests/agent/test_real_corpus.py).\n"
            "# Regenerate with `python -m corpus.real --write-known-misses`.\n"
            + "".join(f"{item_id}\n" for item_id in sorted(misses))
        )
        print(f"\n{len(misses)} known misses -> {KNOWN_MISSES}")


if __name__ == "__main__":
    main()
