"""A list request narrowed by a list or a tag the user keeps: "work stuff?", "what's on the
shopping list?", "show errand tagged", "whats left on groceries".

The planner cannot see the user's lists and tags, so the words a list request says where a
name goes are read at run time against the names its own tasks carry: a list name (as a bulk
change's scope reads it, `bulk_actions.resolve_list`, or one typing slip away), else a tag.
"the shopping list" is the Groceries list when no list is called Shopping. A request whose
words name no list and no tag is shown as it was asked; one with no such words costs no
look-up.

In: a clause, the status and filters the rules read. Out: a step that reads the lists, then
shows the tasks the words narrow to.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from rapidfuzz.distance import DamerauLevenshtein

from backend.agent.rules import steps
from backend.agent.rules.bulk_actions import lists_of, resolve_list
from backend.agent.rules.types import ToolOutcome

_I = re.IGNORECASE
_WORD = re.compile(r"[a-z][a-z'-]*", _I)
# Words that ask, point, fill or say a status: never the name of a list or a tag.
_NOT_A_NAME = frozenset(
    """
    a about all alexa am an and any anything are as at be by can could did do does done due
    each else every everything for from get give go going got have hey hi how hv i i'd i'm in
    is it it's just kindly know left let like list lists look may me mine my need now of on
    ok okay one ones only open or our out outstanding pending please pls see should show so
    some still stuff tag tagged tags task tasks tell than thanks that the their them then
    there these they thing things this those thx to to-do to-dos todo todos too up view w
    want was we what what's whats which will with would yet you your completed complete
    finished unfinished remaining items item jobs job currently right hmm oh um uh under
    belong belongs filed labelled labeled marked called named bit whole full entire current
    again quick quickly real really here sorted order ordered kind mind possible favour
    favor gonna wanna
    """.split()
)
_SLIP = 1
_SLIP_FROM = 4  # letters a word needs before a typing slip is read as a name


# Where a list or a tag is named: "work stuff", "the shopping list", "on groceries", "tagged
# errand", "tag errand", "#home", or a fragment naming nothing else ("work?").
_NAMED_AT = re.compile(
    r"(?P<before>[a-z][\w'-]*)\s+(?:stuff|things|tasks|items|list|jobs|ones|tagged|related|bits)\b"
    r"|\b(?:on|in|from|under|for)\s+(?:the\s+|my\s+|our\s+)?(?P<after>[a-z][\w'-]*)"
    r"|(?:\btag(?:ged)?|\blabel(?:led)?|#)\s*['\"]?(?P<tag>[a-z][\w'-]*)",
    _I,
)
_FRAGMENT_MOST = 3  # words of a fragment that names a list alone ("work stuff please")


def words_beyond_asking(clause: str) -> tuple[str, ...]:
    """The words of a list request that may name a list or a tag, where such a name goes; a
    word said as a tag ("tagged work") is marked with a leading "#"."""
    found = [
        f"#{m['tag']}" if m["tag"] else (m["before"] or m["after"])
        for m in _NAMED_AT.finditer(clause)
    ]
    rest = [w.lower().strip("'-") for w in _WORD.findall(clause)]
    if len(rest) <= _FRAGMENT_MOST:
        found.extend(w for w in rest if w not in _NOT_A_NAME)  # "work?", "groceries please"
    words = (w.lower().strip("'-") for w in found)
    return tuple(dict.fromkeys(w for w in words if w and w.lstrip("#") not in _NOT_A_NAME))


def list_by_names(
    status: str, filters: dict[str, str], words: Sequence[str], *, narrowed_status: str
) -> steps.Step:
    """The lists read first (a look-up), then the tasks shown narrowed by the list or tag the
    words name (with `narrowed_status`); as asked when they name none."""
    asked = steps.list_tasks(status, filters)

    def step(outcomes: list[ToolOutcome]) -> steps.Action:
        tasks = steps.every_task(outcomes)
        if not isinstance(tasks, list):
            return tasks
        narrowed = _narrowed(filters, words, tasks)
        if narrowed is None:
            return asked(outcomes[1:])
        return steps.list_tasks(narrowed_status, narrowed)(outcomes[1:])

    return step


def _narrowed(
    filters: dict[str, str], words: Sequence[str], tasks: Sequence[steps.Task]
) -> dict[str, str] | None:
    lists, tags = _names_kept(tasks)
    said_list = filters.get("list")
    if said_list is not None and said_list in lists:
        return None  # the list asked for is one the user keeps: shown as asked
    as_tags, others = _said_as_tags(words)
    without_list = {name: value for name, value in filters.items() if name != "list"}

    # "tagged work": the tag, though a list has the name too; then a list; then a tag
    def a_tag(word: str) -> str | None:
        return _name_like(word, tags)

    def a_list(word: str) -> str | None:
        return _list_named(word, lists)

    tag = _first_named(as_tags, a_tag)
    if tag is not None:
        return {**without_list, "tag": tag}
    found = _first_named([said_list.lower()] if said_list else others, a_list)
    if found is not None:
        return {**filters, "list": found}
    tag = _first_named(others, a_tag)
    return {**without_list, "tag": tag} if tag is not None else None


def _names_kept(tasks: Sequence[steps.Task]) -> tuple[list[str], set[str]]:
    """The user's list names (sorted) and tags, as their tasks carry them."""
    return lists_of(tasks), {str(tag) for t in tasks for tag in t.get("tags") or []}


def _said_as_tags(words: Sequence[str]) -> tuple[list[str], list[str]]:
    return [w.lstrip("#") for w in words if w.startswith("#")], [
        w for w in words if not w.startswith("#")
    ]


def _first_named(words: Sequence[str], find: Callable[[str], str | None]) -> str | None:
    return next((found for found in map(find, words) if found is not None), None)


def _list_named(word: str, lists: Sequence[str]) -> str | None:
    """The list `word` names, as a bulk change's scope reads it ("shopping" is Groceries when
    there is no Shopping list), else one typing slip away."""
    return resolve_list(word, lists) or _name_like(word, lists)


def _name_like(word: str, names: Collection[str]) -> str | None:
    """The one name `word` says: itself, its singular or plural, or one typing slip away."""
    forms = {word, word.removesuffix("s"), f"{word}s"}
    exact = [name for name in names if name.lower() in forms]
    if exact:
        return sorted(exact)[0]
    if len(word) < _SLIP_FROM:
        return None
    close = [n for n in names if DamerauLevenshtein.distance(word, n.lower()) <= _SLIP]
    return close[0] if len(close) == 1 else None
