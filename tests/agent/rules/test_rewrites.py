"""Roundabout requests rewritten as the plain request (backend/agent/rules/rewrites.py)."""

from __future__ import annotations

import pytest

from backend.agent.rules.rewrites import rewritten


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "do i have cheese on my shopping list if not please add it",
            "add cheese if it's not already there",
        ),
        ("are eggs on my list, if not add them", "add eggs if it's not already there"),
        ("is bacon on my shopping list, add if it's not", "add bacon if it's not already there"),
        ("i'm out of apples, add that to my list", "add apples"),
        ("i ran out of cheerios so add that to the list", "add cheerios"),
        ("i have no oranges, put them onto my list", "add oranges"),
    ],
)
def test_a_roundabout_request_becomes_the_plain_one(said: str, meant: str) -> None:
    assert rewritten(said) == meant


@pytest.mark.parametrize(
    "said", ["is milk on my list?", "i'm out of ideas", "add milk", "i ran out of time today"]
)
def test_anything_else_is_left_as_said(said: str) -> None:
    assert rewritten(said) == said
