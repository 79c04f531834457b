"""The public shapes read from a stored reply's meta: whether its change can be undone."""

from __future__ import annotations

from typing import Any

import pytest

from backend.models.conversation import stored_undoable

ADDED = {"tool": "delete_task", "arguments": {"task_id": 1}}


@pytest.mark.parametrize(
    ("meta", "undoable"),
    [
        ({"undo": ADDED}, True),
        ({"undo": {"tool": None, "bulk": True, "steps": [ADDED, ADDED]}}, True),
        # Changed nothing, or a change that cannot be undone.
        (None, False),
        ({}, False),
        ({"focus": 1, "listed": [1, 2]}, False),
        ({"undo": {"tool": None, "did": "rename"}}, False),
        ({"undo": {"tool": None, "bulk": True}}, False),
        ({"undo": {"tool": None, "bulk": True, "steps": []}}, False),
        # A reply that undid a change: "undo" next goes back to the change before it.
        ({"undone": True, "focus": 1}, False),
        ({"undone": True, "undo": ADDED}, False),
        # Not what the engine stores.
        ({"undo": "delete_task"}, False),
        ({"undo": {"tool": None, "steps": "all"}}, False),
    ],
)
def test_a_reply_is_undoable_when_its_undo_names_a_change(
    meta: dict[str, Any] | None, undoable: bool
) -> None:
    assert stored_undoable(meta) is undoable
