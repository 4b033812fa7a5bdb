"""Secret values never reach a log line, an error message or a trace."""

from __future__ import annotations

from collections.abc import Iterable


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Replace every secret value in ``text`` with ``***``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
