"""Preparing user text for matching and formatting titles for display."""

from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")
_SMART_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_EDGE_QUOTES = "'\"`"


def prepare(message: str) -> str:
    """Single spaces and straight quotes; the user's casing is kept (patterns ignore case)."""
    return _SPACES.sub(" ", message.translate(_SMART_QUOTES)).strip()


def strip_end_punctuation(text: str) -> str:
    return text.rstrip(" .!?")


def is_question(message: str) -> bool:
    return message.strip().endswith("?")


def clean_title(raw: str) -> str:
    """Trims spaces, surrounding quotes and trailing punctuation from an extracted title."""
    title = _SPACES.sub(" ", raw).strip().rstrip(" .!?,;:")
    while len(title) >= 2 and title[0] in _EDGE_QUOTES and title[-1] == title[0]:
        title = title[1:-1].strip()
    return title


def display_title(title: str) -> str:
    """Titles are shown with a capital first letter, as in the spec's replies."""
    return title[:1].upper() + title[1:]
