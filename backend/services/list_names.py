"""When two list names look alike: Unicode's confusable skeletons (UTS #39, section 4).

"Іnbox" (Cyrillic І), "Inbox" and "lnbox" (a lower-case L) read the same on screen; a list of
each side by side would let a task be filed where its owner would never look. A name's
skeleton maps every character to the prototype it is confusable with (ICU's SpoofChecker,
from the Unicode Consortium's confusables.txt); names are compared after NFKC (full-width and
mathematical letters are letters) and in any casing, as list names are. TR39's prototypes
are case-sensitive ("I" is confusable with "l", "i" is not), so a name has two keys: its own
skeleton and its lower-cased form's, each then lower-cased; two names look alike when they
share one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import icu

# Stateless once built, and built once: its confusable data takes a few milliseconds.
_CHECKER = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    visible = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(str(_CHECKER.getSkeleton(0, visible)).casefold().split())


@lru_cache(maxsize=4096)
def look_alike_keys(name: str) -> frozenset[str]:
    """The keys two names that look alike share (at least one)."""
    shown = unicodedata.normalize("NFKC", name)
    return frozenset({_skeleton(shown), _skeleton(shown.casefold())})


def looks_like(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` looks like, other than the same name in another
    casing (that is the same list); None when none does."""
    keys = look_alike_keys(name)
    for other in others:
        if other.lower() != name.lower() and keys & look_alike_keys(other):
            return other
    return None
