"""A follow-up run: it starts from an earlier run's sources and answer, reads "it" and "that"
with the earlier question, and numbers each document once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.runtime import Runtime

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.documents import add_chunk
from backend.graph.follow_up import (
    EarlierRun,
    FollowUpError,
    carried_source,
    resolve_references,
    subject_of,
)
from backend.graph.nodes.planner import planner
from backend.graph.result import ResultSource
from backend.graph.run import initial_state, run_research
from backend.mcp_client import MCPHub
from backend.reasoning.llm.engine import LLMEngine
from backend.reasoning.models import Plan
from backend.reasoning.offline.engine import OfflineEngine
from backend.trace import Tracer
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore
from tests.fakes.chat_model import ScriptedChatModel
from tests.helpers import assert_research_result

TIDES = "When do spring tides happen?"
EARLIER = {"run_id": "a1b2c3d4e5f6", "query": TIDES, "key_terms": ["spring", "tides", "happen"]}
CORPUS = [
    (
        "Tides and the moon",
        "Spring tides happen a day or two after the full moon and the new moon, when the sun "
        "and the moon pull in line. Neap tides happen at the quarter moons, when the pulls are "
        "at right angles.",
    ),
    (
        "Coastal almanac",
        "The almanac lists spring tides shortly after each full moon and new moon. Tidal range "
        "is largest at spring tides because the pulls of the sun and the moon add up.",
    ),
]


@pytest.fixture(scope="module")
def engine() -> OfflineEngine:
    return OfflineEngine()


def _store(settings: Settings) -> Settings:
    DocumentStore(DocsSettings.taken_from(settings)).ingest(
        Document(title=t, content=c, source=f"corpus:{t}") for t, c in CORPUS
    )
    return settings


async def _research(
    settings: Settings, engine: Any, query: str, earlier: EarlierRun | None = None
) -> dict[str, Any]:
    async with MCPHub(settings, servers=["docs"]) as hub:
        ctx = ResearchContext(
            hub=hub, engine=engine, tracer=Tracer(), settings=settings, max_iterations=1
        )
        return (await run_research(query, ctx, earlier)).as_json()


def _earlier(result: dict[str, Any]) -> EarlierRun:
    return EarlierRun.of(result["run_id"], result["query"], result["status"], result)


@pytest.mark.parametrize(
    ("follow_up", "resolved"),
    [
        ("Why is that?", "Why is that (spring tides happen)?"),
        (
            "How high are they at the new moon?",
            "How high are they (spring tides happen) at the new moon?",
        ),
        ("What causes it?", "What causes it (spring tides happen)?"),
        ("Why?", "Why (spring tides happen)?"),
    ],
)
def test_it_and_that_in_a_follow_up_are_read_with_the_earlier_questions_key_terms(
    follow_up: str, resolved: str
) -> None:
    assert resolve_references(follow_up, EARLIER) == resolved


@pytest.mark.parametrize(
    ("earlier", "subject"),
    [
        ("When do spring tides happen?", "spring tides happen"),
        ("How fast are glaciers in the Alps retreating?", "glaciers in the Alps retreating"),
        ("What limits transformer context length?", "transformer context length"),
        ("What is the Raft consensus algorithm?", "the Raft consensus algorithm"),
    ],
)
def test_the_earlier_subject_is_its_question_without_the_opening_words(
    earlier: str, subject: str
) -> None:
    assert subject_of({"query": earlier}) == subject


@pytest.mark.parametrize(
    "follow_up",
    [
        "Are spring tides higher than neap tides?",  # names the earlier subject itself
        "Does that harbour flood at neap tides?",  # "that" is a determiner here
        "Is it true that the moon matters most?",  # "it" points at nothing
    ],
)
def test_a_follow_up_that_needs_no_reading_is_left_as_asked(follow_up: str) -> None:
    assert resolve_references(follow_up, EARLIER) == follow_up


class _Hub:
    def available(self) -> list[str]:
        return ["docs"]

    def tools(self, server: str) -> list[Any]:
        return []

    async def call(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the planner searches nothing")


class _PlanRecorder(OfflineEngine):
    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    async def plan(self, query: str, available: list[str]) -> Plan:
        self.asked.append(query)
        return await super().plan(query, available)


async def test_the_planner_plans_a_follow_up_with_the_earlier_questions_key_terms(
    settings: Settings,
) -> None:
    engine = _PlanRecorder()
    tracer = Tracer()
    ctx = ResearchContext(hub=_Hub(), engine=engine, tracer=tracer, settings=settings)
    state = initial_state("Why is that?", 2, EarlierRun.model_validate(EARLIER))
    update = await planner(state, Runtime(context=ctx))
    assert engine.asked == ["Why is that (spring tides happen)?"]
    searched = update["sub_queries"][0]["text"].lower()
    assert "spring tides" in searched
    [note] = [e for e in tracer.events if e.data.get("parent_run_id") == EARLIER["run_id"]]
    assert note.data["resolved_query"] == "Why is that (spring tides happen)?"


async def test_a_follow_up_cites_the_earlier_sources_under_their_ids_without_searching_them(
    settings: Settings, tmp_path: Path, engine: OfflineEngine
) -> None:
    parent = await _research(_store(settings), engine, TIDES)
    assert parent["citations"]
    # The follow-up's document store is empty: whatever it cites was carried, not found again.
    empty = settings.model_copy(update={"data_dir": tmp_path / "empty"})
    child = await _research(empty, engine, "Why is that?", _earlier(parent))

    assert child["parent_run_id"] == parent["run_id"] and child["status"] == "done"
    parents = {s["id"]: s for s in parent["sources"]}
    carried = {s["id"]: s for s in child["sources"] if s["from_run"] == parent["run_id"]}
    assert set(carried) == set(parents)
    for sid, source in carried.items():
        assert (source["text"], source["score"]) == (parents[sid]["text"], parents[sid]["score"])
    assert child["citations"] and {c["source_id"] for c in child["citations"]} <= set(carried)
    assert child["citation_check"]["removed"] == 0
    assert "full moon" in child["report"]
    [start] = [e for e in child["trace"] if e["kind"] == "run_start"]
    assert start["data"]["parent_run_id"] == parent["run_id"]
    assert start["data"]["carried_sources"] == len(parents)
    assert_research_result(child)


async def test_a_document_found_again_is_one_source_and_new_ones_number_after(
    settings: Settings, engine: OfflineEngine
) -> None:
    store = _store(settings)
    parent = await _research(store, engine, TIDES)
    DocumentStore(DocsSettings.taken_from(settings)).ingest(
        [
            Document(
                title="Neap tides explained",
                content="Neap tides happen when the sun and the moon pull at right angles, "
                "about a week after spring tides.",
                source="corpus:neap",
            )
        ]
    )
    child = await _research(store, engine, "And what about neap tides?", _earlier(parent))
    ids = [s["id"] for s in child["sources"]]
    docs = [s["doc_id"] for s in child["sources"]]
    assert len(docs) == len(set(docs)) and len(ids) == len(set(ids))
    first = len(parent["sources"])
    assert ids[:first] == [s["id"] for s in parent["sources"]]
    new = [s for s in child["sources"] if s["from_run"] is None]
    assert new and all(int(s["id"][1:]) > first for s in new)
    assert any(s["title"] == "Neap tides explained" for s in new)


def test_a_new_chunk_of_a_carried_document_joins_its_text() -> None:
    source = ResultSource(
        id="S1",
        title="Manual",
        server="docs",
        tool="search_documents",
        score=0.6,
        doc_id="d1",
        chunk_id="d1:0000",
        chunk_ids=["d1:0000", "d1:0002"],
        sections=["Cranes"],
        text="Quay cranes lift forty tonnes. Their booms reach sixty metres.",
    )
    carried = carried_source(source, "a1b2c3d4e5f6")
    assert carried["text"] == source.text and carried["from_run"] == "a1b2c3d4e5f6"
    assert not add_chunk(carried, "d1:0002", "anything")  # known already
    assert add_chunk(carried, "d1:0005", "Straddle carriers move the boxes.")
    assert carried["chunk_ids"] == ["d1:0000", "d1:0002", "d1:0005"]
    assert source.text in carried["text"] and "Straddle carriers move the boxes." in carried["text"]


def test_a_run_with_no_answer_or_failed_with_no_sources_cannot_be_followed_up() -> None:
    with pytest.raises(FollowUpError, match="no answer to follow up"):
        EarlierRun.of("a1b2c3d4e5f6", TIDES, "running", None)
    with pytest.raises(FollowUpError, match="failed with no sources"):
        EarlierRun.of("a1b2c3d4e5f6", TIDES, "failed", {"sources": [], "answer": ""})


async def test_the_llm_engine_is_given_the_earlier_question_and_answer(
    settings: Settings, engine: OfflineEngine
) -> None:
    parent = await _research(_store(settings), engine, TIDES)
    model = ScriptedChatModel(answers=["not JSON"] * 12)
    tracer = Tracer()
    llm = LLMEngine(model, fallback=engine, model_name="scripted", tracer=tracer)
    async with MCPHub(settings, servers=["docs"]) as hub:
        ctx = ResearchContext(
            hub=hub, engine=llm, tracer=tracer, settings=settings, max_iterations=1
        )
        child = (await run_research("Why is that?", ctx, _earlier(parent))).as_json()
    assert child["status"] == "done" and child["parent_run_id"] == parent["run_id"]
    first_calls = [model.prompt_text(i) for i in range(0, len(model.prompts), 2)]
    assert len(first_calls) == 4  # plan, claims, verify, report: each asked, each fell back
    for prompt in first_calls:
        assert f"Earlier question: {TIDES}" in prompt
        assert f"Earlier answer: {parent['answer'][:200]}" in prompt
    assert "Why is that (spring tides happen)?" in first_calls[0]
