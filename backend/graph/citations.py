"""The citation check: every [n] must point to a source retrieved in this run whose text
contains the quoted words. A citation that fails is removed and its place marked."""

from __future__ import annotations

import re
from typing import Any

from backend.reasoning.models import Citation, Source

REMOVED_MARK = "[citation removed]"
_MARKER = re.compile(r"\[(\d+)\]")
_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def check_citations(
    markdown: str, citations: list[Citation], sources: dict[str, Source]
) -> tuple[str, list[Citation], dict[str, Any]]:
    """(markdown with failed markers replaced, surviving citations, counts and reasons)."""
    problems: dict[int, str] = {}
    for citation in citations:
        source = sources.get(citation.source_id)
        if source is None:
            problems[citation.n] = (
                f"[{citation.n}] points to {citation.source_id}, not retrieved in this run"
            )
        elif not citation.quote.strip() or _norm(citation.quote) not in _norm(source.text):
            problems[citation.n] = f"[{citation.n}] quote not found in {citation.source_id}"
    known = {c.n for c in citations}
    body, _, _ = markdown.partition("\n## Sources")
    for n in {int(m) for m in _MARKER.findall(body)} - known:
        problems[n] = f"[{n}] has no citation entry"

    def replace(match: re.Match[str]) -> str:
        return REMOVED_MARK if int(match.group(1)) in problems else match.group(0)

    head, sep, tail = markdown.partition("\n## Sources")
    checked = _MARKER.sub(replace, head) + sep + tail
    kept = [c for c in citations if c.n not in problems]
    used = {int(m) for m in _MARKER.findall(head)}
    return (
        checked,
        kept,
        {
            "checked": len(known | used),
            "removed": len(problems),
            "problems": sorted(problems.values()),
        },
    )
