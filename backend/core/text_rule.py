"""The one rule for text arriving from outside: no NUL, no lone UTF-16 surrogates.

PostgreSQL cannot store NUL in text (SQLite can: the same request would pass on one database
and fail with a 500 on the other), and no UTF-8 text can carry half a surrogate pair (JSON's
"\\ud800" escape makes one). Refused wherever text comes in, with where it was: REST
requests at the edge (backend/api/middleware.py, TextRule), MCP tool arguments in the tool
server's one call path (mcp_tools/server.py), backups as they are read
(backend/services/backup_format.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

Location = tuple[str | int, ...]

# A Python str holds a surrogate only unpaired: JSON readers join escaped pairs into one
# character.
_REFUSED = re.compile("[\x00\ud800-\udfff]")
NUL_PROBLEM = "must not contain NUL characters"
SURROGATE_PROBLEM = "must not contain lone surrogates (halves of a UTF-16 pair)"
# A reply names this many places at most: a list of a thousand bad strings needs no more.
MAX_FAULTS = 20


@dataclass(frozen=True)
class TextFault:
    """Text that breaks the rule: `loc` says where ("tags", 1), `problem` what is wrong."""

    loc: Location
    problem: str


def text_problem(text: str) -> str | None:
    """What is wrong with `text` under the rule, or None."""
    found = _REFUSED.search(text)
    if found is None:
        return None
    return NUL_PROBLEM if found.group() == "\x00" else SURROGATE_PROBLEM


def _walk(value: object, loc: Location) -> Iterator[TextFault]:
    # Iterative: a deeply nested document must not exhaust the interpreter's stack. A bad
    # key is queued as its fault, so faults come out in document order.
    pending: list[tuple[object, Location] | TextFault] = [(value, loc)]
    while pending:
        entry = pending.pop()
        if isinstance(entry, TextFault):
            yield entry
            continue
        item, where = entry
        if isinstance(item, str):
            problem = text_problem(item)
            if problem is not None:
                yield TextFault(where, problem)
        elif isinstance(item, dict):
            children: list[tuple[object, Location] | TextFault] = []
            for key, child in item.items():
                problem = text_problem(key) if isinstance(key, str) else None
                children.append(
                    TextFault((*where, key), problem) if problem else (child, (*where, key))
                )
            pending.extend(reversed(children))
        elif isinstance(item, list | tuple):
            pending.extend(reversed([(child, (*where, i)) for i, child in enumerate(item)]))


def text_faults(value: object, loc: Location = ()) -> list[TextFault]:
    """Every string in `value` (JSON-like: str, dict keys and values, lists) that breaks the
    rule, in document order, the first MAX_FAULTS of them."""
    faults = []
    for fault in _walk(value, loc):
        faults.append(fault)
        if len(faults) == MAX_FAULTS:
            break
    return faults
