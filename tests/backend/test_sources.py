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
    assert list(BUILTINS) == ["docs", "web", "github"]


def test_a_question_goes_to_the_sources_in_rank_order_code_ones_only_for_code() -> None:
    every = ["web", "github", "docs"]
    assert routed(every, code_question=False) == ["docs", "web"]
    assert routed(every, code_question=True) == ["docs", "github", "web"]
    assert route("Which GitHub repositories implement BM25?", every) == ["docs", "github", "web"]


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
