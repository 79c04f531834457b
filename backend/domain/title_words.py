"""Words people use for the same thing in a task title.

"anything about my mother?" should find "call mom", and "I telephoned her" the call. Both the
title search in SQL (`services.tasks.title_search_terms`) and the assistant's matching
(`agent.rules.resolve`) read a word through this table, so they agree.
"""

from __future__ import annotations

SAME_WORD: dict[str, str] = {
    "mother": "mom",
    "mum": "mom",
    "mommy": "mom",
    "mama": "mom",
    "father": "dad",
    "daddy": "dad",
    "telephone": "call",
    "telephoned": "call",
    "phone": "call",
    "phoned": "call",
    "rang": "call",
    "ring": "call",
    "rung": "call",
    "ringing": "call",
    "called": "call",
    "calling": "call",
    "e-mail": "email",
    "e-mailed": "email",
}


def canonical(word: str) -> str:
    """The word a title most likely uses for `word` (lower case in, lower case out)."""
    return SAME_WORD.get(word, word)
