"""One text normaliser and the one rule for a quote: evidence and citations alike.

A quote holds when, with whitespace collapsed and case folded, it is found in its source's
text and has at least ``MIN_QUOTE_WORDS`` words: shorter ones ("the Moon") are found
verbatim almost anywhere and prove nothing.
"""

from __future__ import annotations

import re

MIN_QUOTE_WORDS = 3
"""Shorter quotes are found verbatim almost anywhere and prove nothing."""

_SPACE = re.compile(r"\s+")

RELEASE_HEADING = re.compile(
    r"^\W{0,2}(?:v|version\s+|release\s+)?(?P<number>\d+\.\d+(?:\.\d+)*)\b", re.I
)
"""A release's heading, and its number: "1.3.0 - 2025-11-10", "[25.1.0](…) - 2025-01-16",
"Version 8.1.0". The chunker files a changelog's sub-headings under it; the answer shows it."""


def normalise(text: str) -> str:
    """``text`` with every run of whitespace one space, trimmed and lower-cased."""
    return _SPACE.sub(" ", text).strip().lower()


def quote_holds(quote: str, text: str) -> bool:
    """Whether ``quote`` is found verbatim in ``text`` and long enough to prove something."""
    norm = normalise(quote)
    return len(norm.split()) >= MIN_QUOTE_WORDS and norm in normalise(text)
