"""The citation check removes what a reader could not follow, and counts it."""

from __future__ import annotations

from backend.reasoning.citations import REMOVED_MARK, check_citations
from backend.reasoning.models import Citation, Source

SOURCES = {
    "S1": Source(
        id="S1",
        server="docs",
        tool="search_documents",
        title="Tides",
        text="The Moon's gravity raises two tidal bulges.\nSpring tides occur at new moon.",
    ),
}
REPORT = (
    "## Answer\nThe Moon raises the tides [1].\n\nSpring tides come at new moon [2]. "
    "The Sun does nothing [3]. Unlisted [4].\n\n## Sources\n1. Tides\n"
)


def test_a_citation_whose_quote_is_in_its_source_survives_whitespace_and_case() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="the moon's  gravity raises\ntwo tidal bulges")
    ]
    markdown, kept, counts = check_citations("Tides [1].", citations, SOURCES)
    assert markdown == "Tides [1]." and kept == citations
    assert counts["checked"] == 1 and counts["removed"] == 0


def test_failed_citations_are_removed_and_their_places_marked() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="The Moon's gravity raises two tidal bulges."),
        Citation(n=2, source_id="S1", quote="Spring tides occur at new moon."),
        Citation(n=3, source_id="S1", quote="The Sun does nothing."),
        Citation(n=5, source_id="S7", quote="anything"),
    ]
    markdown, kept, counts = check_citations(REPORT, citations, SOURCES)
    assert [c.n for c in kept] == [1, 2]
    assert f"The Sun does nothing {REMOVED_MARK}." in markdown
    assert f"Unlisted {REMOVED_MARK}." in markdown
    assert "raises the tides [1]" in markdown and "new moon [2]" in markdown
    assert counts["removed"] == 3
    assert any("not retrieved in this run" in p for p in counts["problems"])
    assert any("no citation entry" in p for p in counts["problems"])


def test_the_sources_list_is_left_alone() -> None:
    markdown, _, _ = check_citations(REPORT, [], SOURCES)
    assert markdown.endswith("## Sources\n1. Tides\n")


def test_a_failed_quote_marks_only_the_sentence_that_relies_on_it() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="The Moon's gravity raises two tidal bulges."),
        Citation(n=1, source_id="S1", quote="Neap tides never happen at all."),
    ]
    report = (
        "- The Moon's gravity raises two tidal bulges. [1]\n"
        "- Neap tides never happen at all. [1]\n\n## Sources\n1. Tides\n"
    )
    markdown, kept, counts = check_citations(report, citations, SOURCES)
    assert "two tidal bulges. [1]" in markdown
    assert f"never happen at all. {REMOVED_MARK}" in markdown
    assert kept == citations[:1]
    assert counts["checked"] == 2 and counts["removed"] == 1 and counts["markers_removed"] == 1


def test_every_citation_is_counted_not_every_number() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="The Moon's gravity raises two tidal bulges."),
        Citation(n=1, source_id="S1", quote="Spring tides occur at new moon."),
    ]
    report = "Bulges [1]. Spring tides occur at new moon [1].\n"
    markdown, kept, counts = check_citations(report, citations, SOURCES)
    assert markdown == report and kept == citations
    assert counts["checked"] == 2 and counts["removed"] == 0


def test_a_number_whose_every_quote_fails_is_removed_everywhere() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="The Sun does nothing."),
        Citation(n=1, source_id="S1", quote="Nor does Mars."),
    ]
    markdown, kept, counts = check_citations("A [1]. B [1].", citations, SOURCES)
    assert markdown == f"A {REMOVED_MARK}. B {REMOVED_MARK}."
    assert kept == [] and counts["removed"] == 2 and counts["markers_removed"] == 2


def test_a_failed_quote_no_sentence_relies_on_marks_nothing() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="The Moon's gravity raises two tidal bulges."),
        Citation(n=1, source_id="S1", quote="Volcanoes erupt under the sea."),
    ]
    markdown, kept, counts = check_citations(
        "The Moon raises two tidal bulges [1].", citations, SOURCES
    )
    assert markdown == "The Moon raises two tidal bulges [1]."
    assert kept == citations[:1] and counts["removed"] == 1 and counts["markers_removed"] == 0


def test_markers_after_a_comma_are_judged_by_the_sentence_before_them() -> None:
    citations = [
        Citation(n=1, source_id="S1", quote="Spring tides occur at new moon."),
        Citation(n=2, source_id="S1", quote="The Moon's gravity raises two tidal bulges."),
        Citation(n=2, source_id="S1", quote="Spring tides occur at every eclipse."),
    ]
    report = "Spring tides come at new moon [1], [2].\n"
    markdown, _, counts = check_citations(report, citations, SOURCES)
    assert markdown == f"Spring tides come at new moon [1], {REMOVED_MARK}.\n"
    assert counts["markers_removed"] == 1


def test_a_quote_too_short_to_prove_anything_is_removed_like_evidence_would_be() -> None:
    # One quote rule for citations and evidence: found verbatim and at least three words.
    citations = [Citation(n=1, source_id="S1", quote="new moon")]
    markdown, kept, counts = check_citations(
        "Spring tides come at new moon [1].", citations, SOURCES
    )
    assert kept == [] and counts["removed"] == 1
    assert REMOVED_MARK in markdown


def test_an_index_in_code_is_no_citation_marker() -> None:
    # itsdangerous' key rotation example: `del SECRET_KEYS[0]` shown in the answer
    citations = [Citation(n=1, source_id="S1", quote="Spring tides occur at new moon.")]
    report = (
        "## Answer\nSpring tides occur at new moon: `keys.append(key)` `del keys[0]` [1]\n\n"
        "```python\nfirst = keys[2]\n```\n\n## Sources\n1. Tides\n"
    )
    markdown, kept, counts = check_citations(report, citations, SOURCES)
    assert "`del keys[0]` [1]" in markdown and "first = keys[2]" in markdown
    assert REMOVED_MARK not in markdown and kept == citations
    assert counts["removed"] == 0 and counts["markers_removed"] == 0


def test_an_index_written_in_prose_is_no_citation_marker() -> None:
    # a new user's cattrs question, repeated under "Not covered": "paths like $.a_list[0]"
    citations = [Citation(n=1, source_id="S1", quote="Spring tides occur at new moon.")]
    report = (
        "## Answer\nSpring tides occur at new moon. [1]\n\n## Not covered\n"
        "- How do I get paths like $.a_list[0] in the errors?\n\n"
        "## Sources\n1. Tides\n"
    )
    markdown, kept, counts = check_citations(report, citations, SOURCES)
    assert "$.a_list[0] in" in markdown
    assert REMOVED_MARK not in markdown and kept == citations
    assert counts["checked"] == 1 and counts["removed"] == 0


def test_a_marker_right_after_a_name_is_still_checked() -> None:
    # an LLM writes "Set DJANGO_SETTINGS_MODULE[2] first.": [2] must be checked like any other
    citations = [Citation(n=1, source_id="S1", quote="Spring tides occur at new moon.")]
    report = "## Answer\nSet DJANGO_SETTINGS_MODULE[2] first. [1]\n\n## Sources\n1. Tides\n"
    markdown, _, counts = check_citations(report, citations, SOURCES)
    assert f"DJANGO_SETTINGS_MODULE{REMOVED_MARK}" in markdown
    assert counts["removed"] == 1
