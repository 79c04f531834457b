"""Task resolution by title (the spec's Rule 5, priorities 2 and 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidfuzz import fuzz

SIMILARITY_THRESHOLD = 60.0  # percent; the spec accepts matches above 60% similarity

_FILLER = ("the ", "my ", "a ", "an ")
_TASK_SUFFIXES = (" task", " todo", " item", " one")


def normalize_query(query: str) -> str:
    text = query.strip().lower()
    changed = True
    while changed:
        changed = False
        for prefix in _FILLER:
            if text.startswith(prefix):
                text, changed = text[len(prefix) :], True
        for suffix in _TASK_SUFFIXES:
            if text.endswith(suffix) and len(text) > len(suffix):
                text, changed = text[: -len(suffix)], True
    return text.strip()


def match_tasks(query: str, tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Exact title match (case-insensitive) if any, else every substring or fuzzy match."""
    wanted = normalize_query(query)
    if not wanted:
        return []
    exact = [t for t in tasks if str(t["title"]).strip().lower() in (wanted, query.strip().lower())]
    if exact:
        return exact
    scored: list[tuple[float, dict[str, Any]]] = []
    for task in tasks:
        title = str(task["title"]).lower()
        if wanted in title:
            scored.append((100.0, task))
            continue
        score = max(fuzz.ratio(wanted, title), fuzz.token_set_ratio(wanted, title))
        if score > SIMILARITY_THRESHOLD:
            scored.append((score, task))
    scored.sort(key=lambda pair: -pair[0])
    return [task for _, task in scored]
