"""Chunks of one document become one source: joined in order, overlap given once."""

from __future__ import annotations

from backend.graph.documents import add_chunk, document_status, in_code_block, join_chunks
from backend.reasoning.models import Source
from backend.reasoning.offline.passages import passages
from mcp_servers.document_store.ingest import chunk_text

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


def _doc_with_code_across_chunks() -> str:
    code = "\n".join(f"result_{i} = call_{i}(value_{i})" for i in range(40))
    prose = " ".join(f"Before{i} happens." for i in range(60))
    after = "Use `raise_server_exceptions=False` to see the error page."
    return f"# Guide\n\n{prose}\n\n```python\n{code}\n```\n\n{after}\n"


def test_a_chunk_cut_inside_code_joins_without_turning_code_into_prose() -> None:
    chunks = chunk_text(_doc_with_code_across_chunks(), chunk_words=80, overlap=20)
    cut = [c for c in chunks if c.text.startswith("```\n") and "raise_server" in c.text]
    assert cut, "the chunker should cut inside the code block (the case under test)"
    ids = [f"d:{c.index:04d}" for c in chunks]
    joined = join_chunks(ids, [c.text for c in chunks])
    assert not in_code_block(joined)
    tail = joined[joined.rindex("```") :]
    assert "raise_server_exceptions" in tail  # the sentence is after the block's closing fence
    source = Source(id="S1", server="docs", tool="search_documents", title="Guide", text=joined)
    prose = [p for p in passages(source) if "raise_server" in p.quote and not p.is_code]
    assert prose and prose[0].quote.startswith("Use `raise_server")


def test_a_code_block_left_open_is_closed_before_a_chunk_that_does_not_follow() -> None:
    joined = join_chunks(["d:0001", "d:0005"], ["Run:\n\n```\nmake all", "After it."])
    assert joined == "Run:\n\n```\nmake all\n```\n\nAfter it."
    assert not in_code_block(joined)


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
