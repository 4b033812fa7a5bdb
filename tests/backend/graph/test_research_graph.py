"""The research graph end to end: real MCP client and document-store server, offline engine."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.nodes.fact_checker import UNCHECKED
from backend.graph.nodes.researcher import SHOWN_QUERY, shown_query
from backend.graph.run import run_research
from backend.mcp_client import MCPHub
from backend.reasoning.llm.engine import LLMEngine
from backend.reasoning.offline.engine import OfflineEngine
from backend.trace import Tracer
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore
from tests.fakes.chat_model import ScriptedChatModel
from tests.helpers import REPO_ROOT, assert_research_result

CORPUS = [
    (
        "Arthur's Magazine",
        "Arthur's Magazine (1844–1846) was an American literary periodical "
        "published in Philadelphia in the 19th century. Edited by Timothy Shay Arthur, it featured "
        "work by Edgar A. Poe, J.H. Ingraham, Sarah Josepha Hale and others.",
    ),
    (
        "First for Women",
        "First for Women is a woman's magazine published by Bauer Media Group in "
        "the USA. The magazine was started in 1989. It is based in Englewood Cliffs, New Jersey.",
    ),
    (
        "Godey's Lady's Book",
        "Godey's Lady's Book was a United States women's magazine published "
        "in Philadelphia from 1830 to 1878. It was the most widely circulated magazine before the "
        "Civil War.",
    ),
    (
        "Tides",
        "Tides are the rise and fall of sea levels caused by the gravity of the Moon and "
        "the Sun. Spring tides happen at new and full moon.",
    ),
    (
        "Volcanoes",
        "A volcano is a rupture in the crust of a planet that lets lava, ash and gases "
        "escape. Mount Etna in Sicily is one of the most active volcanoes in Europe.",
    ),
]
QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?"


@pytest.fixture(scope="module")
def engine() -> OfflineEngine:
    return OfflineEngine()


@pytest.fixture
def store_settings(settings: Settings) -> Iterator[Settings]:
    store = DocumentStore(DocsSettings.taken_from(settings))
    store.ingest(Document(title=t, content=c, source=f"corpus:{t}") for t, c in CORPUS)
    yield settings


async def research(
    settings: Settings, engine: Any, query: str = QUESTION, **knobs: Any
) -> dict[str, Any]:
    async with MCPHub(settings, servers=["docs", "web"]) as hub:
        ctx = ResearchContext(hub=hub, engine=engine, tracer=Tracer(), settings=settings, **knobs)
        return (await run_research(query, ctx)).as_json()


async def test_a_comparison_is_planned_researched_checked_and_reported_with_citations(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(store_settings, engine)
    assert result["status"] == "done"
    assert result["plan"]["kind"] == "comparison"
    assert len(result["sub_queries"]) >= 3
    assert result["report"].startswith("## Answer")
    assert "Arthur's Magazine" in result["answer"]
    sources = {s["id"]: s for s in result["sources"]}
    cited = {sources[c["source_id"]]["title"] for c in result["citations"]}
    assert {"Arthur's Magazine", "First for Women"} <= cited
    assert_research_result(result)


async def test_every_source_carries_its_quality_breakdown_and_every_claim_a_verdict(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(store_settings, engine)
    for source in result["sources"]:
        assert source["server"] == "docs" and source["path"].startswith("corpus:")
        assert set(source["score_breakdown"]) >= {"domain", "recency", "depth"}
        assert source["score_breakdown"]["domain"] == 0.7  # a local document
    assert result["claims"]
    for claim in result["claims"]:
        assert claim["verdict"] in ("supported", "contradicted", "unverifiable")
        assert 0.0 <= claim["confidence"] <= 1.0
    # the live trace says why a claim is unverifiable, not "unverifiable (0.00)"
    said = [e for e in result["trace"] if e["kind"] == "verdict"]
    assert said and any(e["data"]["verdict"] == "unverifiable" for e in said)
    for event in said:
        unchecked = event["data"]["verdict"] == "unverifiable"
        assert event["message"].startswith(f"{UNCHECKED}: ") == unchecked
        assert not event["message"].startswith("unverifiable (0.00)")


async def test_a_second_round_shows_only_the_verdicts_that_are_new_or_changed(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(store_settings, engine)
    rounds = [
        e for e in result["trace"] if e["node"] == "fact_checker" and e["kind"] == "node_start"
    ]
    assert len(rounds) >= 2  # the comparison is refined once
    said = [e["message"] for e in result["trace"] if e["kind"] == "verdict"]
    assert said and len(said) == len(set(said))
    as_before = [e for e in result["trace"] if "checked as in the round before" in e["message"]]
    assert as_before and all(e["node"] == "fact_checker" for e in as_before)
    assert all(e["data"]["unchanged"] >= 1 for e in as_before)


async def test_the_trace_shows_each_agent_in_order_with_tool_calls(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(store_settings, engine)
    starts = [e["node"] for e in result["trace"] if e["kind"] == "node_start"]
    assert starts[:3] == ["planner", "researcher", "fact_checker"]
    assert starts[-1] == "synthesizer"
    calls = [e for e in result["trace"] if e["kind"] == "tool_call"]
    assert calls and all(e["data"]["server"] == "docs" for e in calls)
    # each call is said by the words it searched, not "for q1" (read as the asker's numbering)
    searched = {sq["id"]: sq["text"] for sq in result["plan"]["sub_queries"]}
    planned = [e for e in calls if e["data"]["sub_query_id"] in searched]
    assert planned  # (a refinement's searches are not in the first plan)
    for e in planned:
        words = searched[e["data"]["sub_query_id"]]
        assert e["message"].startswith(f'docs.search_documents "{words[:40]}'), e["message"]
    assert not any(" for q" in e["message"] for e in calls)
    assert all(e["data"]["result_count"] > 0 for e in calls)
    assert [e["seq"] for e in result["trace"]] == list(range(1, len(result["trace"]) + 1))
    # Each round says how many documents it found that the run did not have: together, the
    # run's sources (a source found again, with another passage, is not new).
    rounds = [
        e["message"]
        for e in result["trace"]
        if e["node"] == "researcher" and e["message"].endswith(("new source", "new sources"))
    ]
    new = [0 if m == "no new sources" else int(m.split()[0]) for m in rounds]
    assert rounds and sum(new) == len(result["sources"])
    assert all(
        m in ("no new sources", "1 new source") or n > 1 for m, n in zip(rounds, new, strict=True)
    )
    # … and the planner how many searches its plan (and each refinement) holds, in words
    # that agree with the number ("simple question: 1 sub-query", not "1 sub-queries")
    planned = [e for e in result["trace"] if e["node"] == "planner" and "sub-quer" in e["message"]]
    assert planned
    for event in planned:
        n = int(re.search(r"(\d+) (?:new )?sub-quer", event["message"])[1])
        assert event["message"].endswith("sub-query" if n == 1 else "sub-queries"), event["message"]
    first = result["plan"]["sub_queries"]
    assert planned[0]["message"].endswith(
        f"{len(first)} sub-quer{'y' if len(first) == 1 else 'ies'}"
    )
    assert set(result["timings"]) >= {
        "planner",
        "researcher",
        "fact_checker",
        "synthesizer",
        "total",
    }


async def test_one_iteration_means_no_refinement(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(store_settings, engine, max_iterations=1)
    assert result["iterations"] == 1
    assert not [e for e in result["trace"] if e["kind"] == "refinement"]


async def test_web_without_a_key_is_not_used_and_a_run_with_no_usable_source_fails_clearly(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(store_settings, engine, sources=["web"])
    assert result["status"] == "failed"
    assert result["errors"] == ["no MCP server is available"]


async def test_an_llm_that_never_answers_properly_falls_back_to_the_offline_engine(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    model = ScriptedChatModel(answers=["I am not JSON"] * 40)
    tracer = Tracer()
    llm = LLMEngine(model, fallback=engine, model_name="scripted", tracer=tracer)
    async with MCPHub(store_settings, servers=["docs"]) as hub:
        ctx = ResearchContext(
            hub=hub, engine=llm, tracer=tracer, settings=store_settings, max_iterations=1
        )
        result = (await run_research(QUESTION, ctx)).as_json()
    assert result["status"] == "done"
    fallbacks = {e["data"]["step"] for e in result["trace"] if e["kind"] == "fallback"}
    assert fallbacks == {"plan", "claims", "verify", "report"}
    assert result["citations"] and result["citation_check"]["removed"] == 0


def test_max_iterations_is_bounded() -> None:
    with pytest.raises(ValueError, match="1–20"):
        ResearchContext(
            hub=None,
            engine=None,
            tracer=Tracer(),
            settings=Settings(),  # type: ignore[arg-type]
            max_iterations=21,
        )


async def test_an_extra_mcp_server_from_the_config_is_searched_too(
    store_settings: Settings, engine: OfflineEngine, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "lab": {
                        "command": sys.executable,
                        "args": ["-m", "tests.fakes.toy_search_server"],
                        "env": {"PYTHONPATH": REPO_ROOT},
                    }
                }
            }
        )
    )
    settings = store_settings.model_copy(update={"mcp_config": config})
    result = await research(settings, engine, query="When do spring tides happen?")
    calls = [e["data"] for e in result["trace"] if e["kind"] == "tool_call"]
    assert {"server": "lab", "tool": "lookup"} in [
        {"server": c["server"], "tool": c["tool"]} for c in calls
    ]
    lab = [s for s in result["sources"] if s["server"] == "lab"]
    assert lab and lab[0]["url"].startswith("https://lab.example.org/")


async def test_an_extra_server_without_a_search_tool_is_named_in_the_trace_and_not_called(
    store_settings: Settings, engine: OfflineEngine, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    writer = {
        "command": sys.executable,
        "args": ["-m", "tests.fakes.note_writer_server"],
        "env": {"PYTHONPATH": REPO_ROOT},
    }
    config.write_text(json.dumps({"mcpServers": {"writer": writer}}))
    settings = store_settings.model_copy(update={"mcp_config": config})
    result = await research(settings, engine, query="When do spring tides happen?")
    assert result["status"] == "done"
    notes = [e["message"] for e in result["trace"] if e["data"].get("server") == "writer"]
    assert notes and "no search-like tool" in notes[0]
    assert all(
        e["kind"] != "tool_call" for e in result["trace"] if e["data"].get("server") == "writer"
    )
    assert all("writer" not in sq["sources"] for sq in result["sub_queries"])


async def test_thin_evidence_refines_and_researches_again_up_to_the_default_two_rounds(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    # Five documents cannot give two sources for each of this comparison's sub-queries,
    # so the first round is thin.
    result = await research(store_settings, engine)
    starts = [e["node"] for e in result["trace"] if e["kind"] == "node_start"]
    assert starts.count("researcher") == 2 == result["iterations"]
    assert [e for e in result["trace"] if e["kind"] == "refinement"]
    assert len(result["sub_queries"]) > len(result["plan"]["sub_queries"])


LONG_DOC = " ".join(
    f"Section {i} of the harbour manual says the quay crane number {i} lifts {i * 10} tonnes."
    for i in range(1, 120)
)


async def test_chunks_of_one_document_are_one_numbered_source(
    settings: Settings, engine: OfflineEngine
) -> None:
    DocumentStore(DocsSettings.taken_from(settings)).ingest(
        [Document(title="Harbour manual", content=LONG_DOC, source="corpus:manual")]
    )
    result = await research(settings, engine, "How many tonnes does a quay crane lift?")
    docs = [s["doc_id"] for s in result["sources"]]
    assert len(docs) == len(set(docs)) == 1
    [manual] = result["sources"]
    assert len(manual["chunk_ids"]) >= 2  # several chunks retrieved, joined into one source
    assert {c["n"] for c in result["citations"]} == {1}
    assert_research_result(result)


async def test_a_question_the_documents_do_not_answer_says_so(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(
        store_settings, engine, "What is the airspeed of an unladen Kerberos swallow?"
    )
    assert result["answer_found"] is False
    assert result["answer"].startswith("The documents found do not answer this directly.")
    assert "## Not covered" in result["report"]
    assert_research_result(result)


async def test_an_answered_question_says_it_was_found(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    result = await research(
        store_settings, engine, "When was the magazine First for Women started?"
    )
    assert result["answer_found"] is True
    assert "1989" in result["answer"]


def test_a_long_search_is_shown_by_its_start_and_its_last_words() -> None:
    question = "Where can I inspect the fields that SQLAlchemyAutoSchema generated for my model?"
    refined = shown_query(f"{question} class author name")
    # (a refinement adds words at the end: cut there, it read as the same search again)
    assert refined.endswith("… class author name") and refined.startswith(question[:40])
    assert len(refined) <= SHOWN_QUERY
    assert shown_query(question) != refined
    assert shown_query("How are sources scored?") == "How are sources scored?"
