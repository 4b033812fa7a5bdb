"""The built-in sources are declared once, in backend/sources, and read from there."""

from __future__ import annotations

import pytest

from backend.graph.sources import scored, search_calls, to_sources
from backend.mcp_client.registry import SERVERS, connection_for
from backend.reasoning.llm import prompts
from backend.reasoning.models import Source, SubQuery
from backend.reasoning.offline.planner import route
from backend.sources import BUILTINS, SearchCall, SourceSpec, routed


def test_every_builtin_is_a_server_the_registry_starts() -> None:
    assert SERVERS is BUILTINS
    assert list(BUILTINS) == ["docs", "web", "github", "scholarly", "searxng"]


def test_a_question_goes_to_the_sources_in_rank_order_code_ones_only_for_code() -> None:
    every = ["web", "github", "docs"]
    assert routed(every, code_question=False) == ["docs", "web"]
    assert routed(every, code_question=True) == ["docs", "github", "web"]
    assert route("Which GitHub repositories implement BM25?", every) == ["docs", "github", "web"]


def test_a_research_question_goes_to_scholarly_and_another_does_not() -> None:
    every = ["docs", "web", "scholarly"]
    assert route("What do recent papers say about dense retrieval?", every) == [
        "docs",
        "web",
        "scholarly",
    ]
    assert route("How do I install MARSA?", every) == ["docs", "web"]


def test_web_sub_queries_go_to_searxng_alone_when_tavily_is_off() -> None:
    assert route("What is a tide?", ["docs", "searxng"]) == ["docs", "searxng"]


def test_web_sub_queries_go_to_both_web_sources_when_both_are_on() -> None:
    assert route("What is a tide?", ["searxng", "web", "docs"]) == ["docs", "web", "searxng"]


def test_a_paper_becomes_a_source_scored_by_its_venue_and_abstract() -> None:
    paper = {
        "title": "Dense Passage Retrieval",
        "authors": ["V. Karpukhin", "B. Oguz", "S. Min", "P. Lewis"],
        "author_count": 9,
        "venue": "Empirical Methods in Natural Language Processing",
        "year": 2020,
        "published_date": "2020-11-16",
        "abstract": "Open-domain question answering relies on efficient passage retrieval.",
        "citation_count": 2500,
        "url": "https://doi.org/10.18653/v1/2020.emnlp-main.550",
    }
    fields = to_sources("scholarly", "search_papers", {"results": [paper]})[0]
    assert fields["title"] == (
        "Dense Passage Retrieval (V. Karpukhin, B. Oguz, S. Min et al., 2020)"
    )
    assert fields["text"] == paper["abstract"] and fields["venue"] == paper["venue"]
    source = scored(Source(id="S1", **fields), None)
    assert source.score_breakdown is not None
    assert source.score_breakdown.domain == 0.85 and source.score_breakdown.depth == 0.5
    assert "Empirical Methods" in source.score_breakdown.domain_reason


def test_a_papers_retrieval_score_is_its_citations_kept_within_one() -> None:
    paper = {"title": "T", "url": "https://doi.org/10.1/t", "citation_count": 3100}
    fields = to_sources("scholarly", "search_papers", {"results": [paper]})[0]
    assert fields["retrieval_score"] == 0.9688


def test_a_searxng_results_unbounded_score_is_kept_within_one() -> None:
    item = {"title": "Tides", "url": "https://example.org/tides", "content": "x", "score": 4.0}
    assert to_sources("searxng", "search", {"results": [item]})[0]["retrieval_score"] == 0.8


def test_a_searxng_result_becomes_a_web_source() -> None:
    item = {"title": "Tides", "url": "https://example.org/tides", "content": "The moon pulls."}
    fields = to_sources("searxng", "search", {"results": [item]})[0]
    assert (fields["server"], fields["url"], fields["text"]) == (
        "searxng",
        "https://example.org/tides",
        "The moon pulls.",
    )


@pytest.mark.parametrize("spec", list(BUILTINS.values()), ids=list(BUILTINS))
def test_the_llm_planner_is_told_what_each_source_is_and_where_questions_go(
    spec: SourceSpec,
) -> None:
    assert spec.prompt in prompts.PLAN
    assert spec.prompt_route in prompts.PLAN


def _adapt(item: dict[str, object]) -> dict[str, object]:
    return {"title": item["t"], "url": None, "text": item["t"]}


def test_a_new_source_module_is_searched_adapted_and_scored_as_it_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    news = SourceSpec(
        name="news",
        module="mcp_servers.news_server",
        port=8199,
        description="news",
        url_setting="news_server_url",
        settings=("log_level", "news_api_key"),
        searches=(SearchCall("search_news", _adapt, kind="docs", limit_arg="max_results"),),
        route="always",
        rank=3,
        prompt="news = news articles",
        prompt_route="use news when it is available",
    )
    monkeypatch.setitem(BUILTINS, "news", news)
    monkeypatch.setenv("MARSA_NEWS_API_KEY", "k-news")
    sub = SubQuery(id="q1", text="tides", sources=["news"])
    assert search_calls("news", sub, 5) == [("search_news", {"query": "tides", "max_results": 5})]
    fields = to_sources("news", "search_news", {"results": [{"t": "Tides today"}]})
    assert fields[0]["server"] == "news" and fields[0]["title"] == "Tides today"
    source = scored(Source(id="S1", **fields[0]), None)
    assert source.score_breakdown is not None
    assert "local document" in source.score_breakdown.domain_reason  # scored as kind "docs"
    assert routed(["news", "docs"], code_question=False) == ["docs", "news"]

    from backend.config import Settings

    env = connection_for("news", Settings())["env"]
    assert env["MARSA_NEWS_API_KEY"] == "k-news"  # a setting the backend does not hold
    assert "MARSA_DATA_DIR" not in env
