"""The citation check: every citation must point to a source retrieved in this run whose
text contains its quoted words. A citation that fails is removed and its place marked.

A number ``[n]`` stands for one source, which may be cited for several quotes. Each quote is
checked on its own: when every quote of ``[n]`` fails (or ``[n]`` has none), every ``[n]`` is
replaced; when only some fail, an ``[n]`` is replaced where its sentence (the text before the
marker) shares more content words with a failed quote than with any good one.
"""

from __future__ import annotations

import re
from typing import Any

from backend.reasoning.models import Citation, Source
from backend.reasoning.offline.text import content_stems
from marsa_common.text import quote_holds

REMOVED_MARK = "[citation removed]"
SOURCES_HEADING = "\n## Sources"
# (numbered from 1: "[0]" is an index, never a source)
_MARKER = re.compile(r"\[([1-9]\d*)\]")
_GROUP = re.compile(r"(?:\[[1-9]\d*\])+")

# Code in the report (`del SECRET_KEYS[0]`, fenced blocks): its "[0]" indexes a list
CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.S)


def _without_code(text: str) -> str:
    """The text with its code spans and blocks blanked out, offsets kept: a marker is found
    only in prose."""
    return CODE.sub(lambda m: " " * len(m.group(0)), text)


def _problem(citation: Citation, sources: dict[str, Source]) -> str | None:
    source = sources.get(citation.source_id)
    if source is None:
        return f"[{citation.n}] points to {citation.source_id}, not retrieved in this run"
    if not quote_holds(citation.quote, source.text):
        return f"[{citation.n}] quote not found in {citation.source_id}: {citation.quote[:80]!r}"
    return None


def check_citations(
    markdown: str, citations: list[Citation], sources: dict[str, Source]
) -> tuple[str, list[Citation], dict[str, Any]]:
    """(markdown with failed markers replaced, surviving citations, counts and reasons).

    ``checked`` counts citations plus markers with no citation entry; ``removed`` counts
    the failed ones among them; ``markers_removed`` the places replaced in the text.
    """
    failed: dict[int, str] = {}  # index in citations -> reason
    for i, citation in enumerate(citations):
        reason = _problem(citation, sources)
        if reason is not None:
            failed[i] = reason
    head, sep, tail = markdown.partition(SOURCES_HEADING)
    by_n: dict[int, list[int]] = {}
    for i, citation in enumerate(citations):
        by_n.setdefault(citation.n, []).append(i)
    orphans = sorted({int(m) for m in _MARKER.findall(_without_code(head))} - set(by_n))
    dead = set(orphans) | {n for n, idx in by_n.items() if all(i in failed for i in idx)}
    partial = {n for n, idx in by_n.items() if n not in dead and any(i in failed for i in idx)}

    places = _places(head)
    doomed = _localise(places, partial, by_n, failed, citations)
    checked_head = _rewrite(head, places, dead, doomed)
    kept = [c for i, c in enumerate(citations) if i not in failed]
    problems = [*failed.values(), *(f"[{n}] has no citation entry" for n in orphans)]
    return (
        checked_head + sep + tail,
        kept,
        {
            "checked": len(citations) + len(orphans),
            "removed": len(failed) + len(orphans),
            "markers_removed": sum(
                1 for p in places for n in p.numbers if n in dead or (p.start, n) in doomed
            ),
            "problems": sorted(problems),
        },
    )


class _Place:
    """A group of adjacent markers and the text of its line before it (back to the
    previous group), which is what the markers cite."""

    def __init__(self, start: int, end: int, numbers: list[int], context: str):
        self.start, self.end, self.numbers, self.context = start, end, numbers, context


def _places(head: str) -> list[_Place]:
    places: list[_Place] = []
    boundary = 0
    for match in _GROUP.finditer(_without_code(head)):
        line_start = head.rfind("\n", 0, match.start()) + 1
        context = head[max(boundary, line_start) : match.start()]
        if not content_stems(context):  # "[1], [2]": the markers share the words before
            context = head[line_start : match.start()]
        numbers = [int(m) for m in _MARKER.findall(match.group(0))]
        places.append(_Place(match.start(), match.end(), numbers, context))
        boundary = match.end()
    return places


def _localise(
    places: list[_Place],
    partial: set[int],
    by_n: dict[int, list[int]],
    failed: dict[int, str],
    citations: list[Citation],
) -> set[tuple[int, int]]:
    """(place start, n) for each marker that relies on a failed quote of a number that also
    has good quotes: the failed quote shares more words with the marker's sentence than any
    good quote of that number. Where the words cannot tell (a tie), the marker stays: the
    number does point to a source that says one of the things it is cited for. A failed
    quote no place relies on is removed from the citations and counted, but marks nothing."""
    doomed: set[tuple[int, int]] = set()
    for n in partial:
        stems = {i: content_stems(citations[i].quote) for i in by_n[n]}
        for place in (p for p in places if n in p.numbers):
            context = content_stems(place.context)
            score = {i: len(s & context) for i, s in stems.items()}
            good = max((v for i, v in score.items() if i not in failed), default=0)
            bad = max((v for i, v in score.items() if i in failed), default=0)
            if bad > good:
                doomed.add((place.start, n))
    return doomed


def _rewrite(head: str, places: list[_Place], dead: set[int], doomed: set[tuple[int, int]]) -> str:
    out: list[str] = []
    cursor = 0
    for p in places:
        out.append(head[cursor : p.start])
        for n in p.numbers:
            out.append(REMOVED_MARK if n in dead or (p.start, n) in doomed else f"[{n}]")
        cursor = p.end
    out.append(head[cursor:])
    return "".join(out)
