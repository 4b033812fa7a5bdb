"""Tool results become Sources with provenance and a quality score."""

from __future__ import annotations

from datetime import date

from backend.graph.sources import (
    generic_search_tool,
    scored,
    search_calls,
    source_key,
    to_sources,
)
from backend.mcp_client.models import ToolInfo
from backend.reasoning.models import Source, SubQuery


def test_docs_hits_keep_path_url_chunk_and_document_length_and_are_keyed_by_document() -> None:
    hits = {
        "results": [
            {
                "doc_id": "d1",
                "chunk_id": "d1:0002",
                "title": "Tides",
                "source": "/notes/tides.md",
                "source_url": None,
                "section": "Cause",
                "published_date": "2024-01-02",
                "score": 1.5,
                "text": "Moon.",
                "word_count": 1,
                "doc_word_count": 2400,
            }
        ]
    }
    [fields] = to_sources("docs", "search_documents", hits)
    assert fields["path"] == "/notes/tides.md" and fields["url"] is None
    assert fields["chunk_id"] == "d1:0002" and fields["word_count"] == 2400
    assert source_key(fields) == "d1"  # one source per document, not per chunk


def test_web_results_are_keyed_by_url() -> None:
    results = {
        "results": [
            {
                "title": "NOAA",
                "url": "https://noaa.gov/t",
                "content": "a b c",
                "score": 0.9,
                "published_date": None,
                "domain": "noaa.gov",
            }
        ]
    }
    [fields] = to_sources("web", "search", results)
    assert fields["url"] == "https://noaa.gov/t" and fields["word_count"] == 3
    assert source_key(fields) == "https://noaa.gov/t"


def test_each_server_is_asked_with_its_own_search_tools() -> None:
    sq = SubQuery(id="q1", text="tides", sources=["docs"])
    assert search_calls("docs", sq, 5) == [("search_documents", {"query": "tides", "n_results": 5})]
    assert [tool for tool, _ in search_calls("github", sq, 5)] == [
        "search_repositories",
        "search_code",
    ]
    assert search_calls("an-extra-server", sq, 5) == []


def test_scoring_fills_the_breakdown_by_kind_of_source() -> None:
    source = Source(
        id="S1",
        server="web",
        tool="search",
        title="NIH",
        url="https://www.nih.gov/x",
        text="…",
        published_date="2024-05-08",
        word_count=2500,
    )
    scored(source, date(2024, 5, 15))
    assert source.score == 0.9
    assert source.score_breakdown is not None and source.score_breakdown.domain == 0.9


def _tool(name: str, read_only: bool, required: list[str] | None = None) -> ToolInfo:
    schema = {"properties": {"query": {"type": "string"}}, "required": required or ["query"]}
    return ToolInfo(name=name, input_schema=schema, read_only=read_only)


def test_an_extra_servers_unannotated_search_tool_is_used() -> None:
    assert generic_search_tool([_tool("search_notes", read_only=False)]) == (
        "search_notes",
        "query",
    )


def test_an_extra_servers_unannotated_tool_not_named_like_a_lookup_is_not_called() -> None:
    assert generic_search_tool([_tool("append_note", read_only=False)]) is None


def test_a_search_tool_needing_more_than_the_query_is_not_used() -> None:
    assert generic_search_tool([_tool("lookup", read_only=True, required=["query", "k"])]) is None


def test_unannotated_tools_with_a_write_verb_are_never_taken_for_a_search() -> None:
    names = ["write_query", "execute_query", "search_and_replace", "drop_lookup_table"]
    for name in names:
        assert generic_search_tool([_tool(name, read_only=False)]) is None, name


def test_a_tool_its_server_says_writes_is_not_used_even_if_named_search() -> None:
    tool = _tool("search", read_only=False).model_copy(update={"declares_writes": True})
    assert generic_search_tool([tool]) is None


def test_a_document_marked_as_a_proposal_scores_lower_and_says_why() -> None:
    plain = Source(id="S1", server="docs", tool="search_documents", title="A", text="x")
    marked = plain.model_copy(update={"status": "proposal"})
    today = date(2026, 1, 1)
    assert scored(marked, today).score < scored(plain, today).score
    assert "proposal" in (marked.score_breakdown.domain_reason if marked.score_breakdown else "")


def test_a_sub_query_longer_than_a_tool_takes_is_cut_at_a_word() -> None:
    # a scene-setting question plus a hop's words, over GitHub search's 256 characters
    words = "tides " * 60
    sq = SubQuery(id="sq1", text=words.strip(), sources=["docs", "github"])
    for _, args in search_calls("github", sq, 5):
        assert len(args["query"]) <= 256 and args["query"].endswith("tides")
    ((_, docs_args),) = search_calls("docs", sq, 5)
    assert docs_args["query"] == words.strip()  # under the document store's 2,000
