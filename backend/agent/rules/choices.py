"""The readings a question offers, as choices a person can pick by button or by words.

Out: `choices_for(pending)`, the `[{label, message}]` of the reply metadata (at most three):
the web UI shows each as a button that sends its `message`. In: `picked_message(said,
choices)`, the message of the choice a person picks in words ("the first one", "2", "yes,
the second"), which the engine then reads as if it had been sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from backend.agent.rules.types import Choice, PendingKind, PendingQuestion, pending_kind

MAX_CHOICES = 3

_VERB = {"complete_task": "mark as done", "delete_task": "delete", "update_task": "change"}


def _yes_no(yes: str, no: str) -> list[Choice]:
    return [Choice(label=yes, message="yes"), Choice(label=no, message="no")]


def choices_for(pending: PendingQuestion | None) -> list[Choice]:
    """The choices a question left open offers (none for a question answered in words)."""
    if not pending:
        return []
    kind = pending_kind(pending)
    title = str(pending.get("title", ""))
    if kind is PendingKind.CHOOSE_TASK:
        pairs = zip(pending.get("candidates", []), pending.get("titles", []), strict=False)
        return [
            # named as the question names it: "Finish Q4 report (task 3)"
            Choice(label=f"{name} (task {number})", message=f"task {number}")
            for number, name in list(pairs)[:MAX_CHOICES]
        ]
    renamed = (pending.get("fields") or {}).get("title")
    if kind is PendingKind.CONFIRM_TASK and renamed:
        return _yes_no(f"Yes, rename it '{renamed}'", "No, keep the title")
    if kind is PendingKind.CONFIRM_TASK:
        verb = _VERB.get(str(pending.get("tool", "")), "change")
        said = f"'{title}'" if title else f"task {pending.get('task_id')}"
        return _yes_no(f"Yes, {verb} {said}", "No, leave it")
    if kind is PendingKind.CONFIRM_CLEAR:
        return _yes_no("Yes, delete them", "No, keep them")
    if kind is PendingKind.OFFER_ADD and title:
        return _yes_no(f"Add '{title}'", "No, thanks")
    if kind is PendingKind.OFFER_LIST:
        return _yes_no("Show my tasks", "No, thanks")
    if kind is PendingKind.CHOOSE_REQUEST:
        return list(pending.get("options") or [])[:MAX_CHOICES]
    return []


_ORDINALS = {
    **dict.fromkeys(("1", "1st", "first", "one"), 0),
    **dict.fromkeys(("2", "2nd", "second", "two"), 1),
    **dict.fromkeys(("3", "3rd", "third", "three"), 2),
}
# A bare number is left to the question's own reading: "2" may be the second one or task 2.
_PICK = re.compile(
    r"^(?:(?:yes|yeah|yep|ok|okay|sure)[,!.]?\s+)?(?:(?:i'?ll\s+take|i\s+mean|i\s+meant|"
    r"go\s+with|pick|choose)\s+)?(?:the\s+)?"
    r"(?:(?P<which>1st|2nd|3rd|first|second|third)(?:\s+(?:one|option|choice))?"
    r"|(?:option|choice)\s+(?P<number>[123]))(?:\s+please)?[\s.!]*$",
    re.IGNORECASE,
)


def picked_message(said: str, choices: Sequence[Choice]) -> str | None:
    """The message of the choice `said` picks by its place, or None. Only among readings: a
    yes or a no is said, never picked by number ("1" never confirms a deletion)."""
    if not choices or any(c["message"] in ("yes", "no") for c in choices):
        return None
    found = _PICK.match(said.strip())
    if found is None:
        return None
    index = _ORDINALS[(found["which"] or found["number"]).lower()]
    return choices[index]["message"] if index < len(choices) else None


_WORD = re.compile(r"[\w@.+'-]+")
# Words said around a choice that name none of them.
_AROUND = frozenset(
    "the one list a an that this please i mean meant yes yeah ok okay it's its go with pick "
    "choose take i'll".split()
)


def chosen_in_words(said: str, choices: Sequence[Choice]) -> str | None:
    """The message of the one choice whose label holds every word `said` names ("the Family
    one", "sam@example.com"); None when none does, or several."""
    words = {_bare(w) for w in _WORD.findall(said.lower())} - _AROUND - {""}
    if not words:
        return None
    fitting = [c for c in choices if words <= _label_words(c["label"])]
    return fitting[0]["message"] if len(fitting) == 1 else None


def _bare(word: str) -> str:
    return re.sub(r"'s$", "", word.strip(".'"))


def _label_words(label: str) -> set[str]:
    """A label's words, an email's parts too ("sam" of "sam@example.com")."""
    words = {_bare(w) for w in _WORD.findall(label.lower())}
    return words | {part for w in words if "@" in w for part in re.split(r"[@._+-]", w)}
