"""Chunks of one document become one source: joined in order, overlap given once."""

from __future__ import annotations

from backend.graph.documents import add_chunk, document_status, join_chunks

WORDS = [f"w{i}" for i in range(30)]


def test_adjacent_chunks_join_with_their_overlap_once() -> None:
    first = " ".join(WORDS[:20])
    second = " ".join(WORDS[15:30])  # five words repeated
    assert join_chunks(["d:0000", "d:0001"], [first, second]) == " ".join(WORDS)


def test_a_line_break_after_the_overlap_is_kept() -> None:
    joined = join_chunks(["d:0003", "d:0004"], ["a b c d e f", "c d e f\n\nNew paragraph."])
    assert joined == "a b c d e f\n\nNew paragraph."


def test_chunks_that_are_not_adjacent_are_separated_by_a_blank_line() -> None:
    assert join_chunks(["d:0001", "d:0005"], ["One.", "Five."]) == "One.\n\nFive."


def test_a_chunk_found_later_takes_its_place_in_document_order() -> None:
    source = {"chunk_ids": ["d:0002"], "chunks": ["Two."], "text": "Two."}
    assert add_chunk(source, "d:0000", "Zero.")
    assert source["chunk_ids"] == ["d:0000", "d:0002"]
    assert source["text"] == "Zero.\n\nTwo."
    assert not add_chunk(source, "d:0000", "Zero.")  # the same chunk twice adds nothing


def test_each_chunk_keeps_its_section_heading_in_document_order() -> None:
    source = {"chunk_ids": ["d:0002"], "chunks": ["Two."], "chunk_sections": ["B"]}
    assert add_chunk(source, "d:0000", "Zero.", "A")
    assert source["chunk_sections"] == ["A", "B"]


def test_status_comes_from_metadata_then_a_status_line_at_the_top() -> None:
    assert document_status({"status": "Proposal"}, "") == "proposal"
    assert document_status({"deprecated": True}, "") == "deprecated"
    assert document_status({}, "# SEP-12\n\n**Status**: Draft\n\nText.") == "draft"
    assert document_status({}, "| Status | Superseded |\n") == "superseded"
    assert document_status({}, "The status: final design.") is None
    assert document_status({}, "Nothing to see.") is None
