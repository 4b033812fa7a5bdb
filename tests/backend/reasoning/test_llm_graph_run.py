"""Whole research runs with the LLM engine: a scripted model, the real MCP client and the real
document-store server. One run where every answer is valid JSON, one where the model is down,
one where the provider echoes the API key."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.exceptions import ModelAuthenticationError
from langchain_core.messages import BaseMessage

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import MCPHub
from backend.reasoning.llm.engine import LLMEngine
from backend.reasoning.models import Claim, Plan, Report, Source, SubQuery, Verdict
from backend.reasoning.offline import OfflineEngine
from backend.trace import Tracer
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore
from tests.fakes.chat_model import Answer, ScriptedChatModel

ARTHUR = (
    "Arthur's Magazine (1844–1846) was an American literary periodical published in "
    "Philadelphia in the 19th century. Edited by Timothy Shay Arthur, it featured work by "
    "Edgar A. Poe, J.H. Ingraham, Sarah Josepha Hale and others."
)
FIRST = (
    "First for Women is a woman's magazine published by Bauer Media Group in the USA. "
    "The magazine was started in 1989. It is based in Englewood Cliffs, New Jersey."
)
CORPUS = [("Arthur's Magazine", ARTHUR), ("First for Women", FIRST)]
QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?"
_BLOCK = re.compile(r'<source id="(S\d+)" title="([^"]*)"')


@pytest.fixture
def store_settings(settings: Settings) -> Iterator[Settings]:
    DocumentStore(DocsSettings.taken_from(settings)).ingest(
        Document(title=t, content=c, source=f"corpus:{t}") for t, c in CORPUS
    )
    yield settings


def source_ids(messages: list[BaseMessage]) -> dict[str, str]:
    """Title -> source id, as the engine fenced the sources in this prompt."""
    prompt = "\n".join(str(m.content) for m in messages)
    return {title: sid for sid, title in _BLOCK.findall(prompt)}


def claims_answer(messages: list[BaseMessage]) -> str:
    ids = source_ids(messages)
    return json.dumps(
        {
            "claims": [
                {"text": ARTHUR.split(". ")[0] + ".", "source_ids": [ids["Arthur's Magazine"]]},
                {
                    "text": "The magazine was started in 1989.",
                    "source_ids": [ids["First for Women"]],
                },
            ]
        }
    )


VERIFY_ANSWER = json.dumps(
    {
        "verdicts": [
            {"claim_id": cid, "verdict": "unverifiable", "rationale": "one source", "evidence": []}
            for cid in ("C1", "C2")
        ]
    }
)


def report_answer(messages: list[BaseMessage]) -> str:
    ids = source_ids(messages)
    arthur, first = ids["Arthur's Magazine"], ids["First for Women"]
    markdown = (
        "## Answer\nArthur's Magazine was started first [1].\n\n## Dates\n"
        "Arthur's Magazine ran from 1844 [1]; First for Women was started in 1989 [2]. "
        "Arthur's Magazine was founded by Benjamin Franklin [3]."
    )
    citations = [
        (1, arthur, "Arthur's Magazine (1844–1846) was an American literary periodical"),
        (2, first, "The magazine was started in 1989"),
        (3, arthur, "founded in 1790 by Benjamin Franklin"),  # in no source
    ]
    return json.dumps(
        {
            "answer": "Arthur's Magazine.",
            "markdown": markdown,
            "citations": [{"n": n, "source_id": sid, "quote": q} for n, sid, q in citations],
        }
    )


PLAN_ANSWER = json.dumps(
    {
        "kind": "comparison",
        "sub_queries": [
            {"text": "Arthur's Magazine", "sources": ["docs"], "purpose": "item 1"},
            {"text": "First for Women", "sources": ["docs"], "purpose": "item 2"},
        ],
    }
)


class RefusingFallback:
    """The run must not need it: every answer of the script is valid."""

    name = "refusing"

    async def plan(self, *args: Any) -> Plan:
        raise AssertionError("the plan fell back")

    async def refine(self, *args: Any) -> list[SubQuery]:
        raise AssertionError("the refinement fell back")

    async def extract_claims(self, plan: Plan, sources: list[Source]) -> list[Claim]:
        raise AssertionError("the claims fell back")

    async def verify(self, *args: Any) -> list[Verdict]:
        raise AssertionError("the verification fell back")

    async def write_report(self, *args: Any) -> Report:
        raise AssertionError("the report fell back")


async def research(
    settings: Settings, answers: list[Answer], fallback: Any, secrets: list[str] | None = None
) -> dict[str, Any]:
    tracer = Tracer()
    llm = LLMEngine(
        ScriptedChatModel(answers=answers),
        fallback,
        "scripted",
        tracer=tracer,
        secrets=secrets or [],
    )
    async with MCPHub(settings, servers=["docs"]) as hub:
        ctx = ResearchContext(
            hub=hub, engine=llm, tracer=tracer, settings=settings, max_iterations=1
        )
        return (await run_research(QUESTION, ctx)).as_json()


async def test_a_made_up_citation_quote_is_removed_from_the_report_and_counted(
    store_settings: Settings,
) -> None:
    answers: list[Answer] = [PLAN_ANSWER, claims_answer, VERIFY_ANSWER, report_answer]
    result = await research(store_settings, answers, RefusingFallback())
    assert result["status"] == "done" and result["errors"] == []
    assert not [e for e in result["trace"] if e["kind"] == "fallback"]
    assert [c["n"] for c in result["citations"]] == [1, 2]
    check = result["citation_check"]
    assert check["removed"] == 1
    assert len(check["problems"]) == 1 and check["problems"][0].startswith("[3] quote not found")
    body, _, listed = result["report"].partition("## Sources")
    assert "Benjamin Franklin [citation removed]" in body and "[3]" not in body
    assert "started first [1]" in body and "started in 1989 [2]" in body
    assert re.findall(r"^(\d+)\. ", listed, re.MULTILINE) == ["1", "2"]


async def test_a_model_that_is_down_is_asked_once_and_every_step_degrades_and_says_so(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    down = ConnectionError("Failed to connect to Ollama")
    # One answer only: a second call to the model would find the script empty and fail.
    result = await research(store_settings, [down], engine)
    assert result["status"] == "done" and result["report"].startswith("## Answer")
    first, *later = [e for e in result["trace"] if e["kind"] == "fallback"]
    assert first["data"] == {
        "step": "plan",
        "error": f"ConnectionError: {down}",
        "given_up": "ConnectionError at the plan step",
    }
    assert [e["data"] for e in later] == [
        {"step": step, "given_up": "ConnectionError at the plan step"}
        for step in ("claims", "verify", "report")
    ]
    degraded = [e for e in result["errors"] if e.startswith("LLM ")]
    assert [e.split(":")[0] for e in degraded] == [
        "LLM plan",
        "LLM claims",
        "LLM verify",
        "LLM report",
    ]
    assert [e for e in degraded if str(down) in e] == degraded[:1]
    assert all("given up on after ConnectionError at the plan step" in e for e in degraded[1:])


async def test_a_key_echoed_by_the_provider_is_scrubbed_from_the_whole_run(
    store_settings: Settings, engine: OfflineEngine
) -> None:
    key = "sk-live-Q7w9Zr2Lx4Vb8Nn3Tt6"
    refused = ModelAuthenticationError(f"401 Incorrect API key provided: {key}")
    result = await research(store_settings, [refused], engine, secrets=[key])
    assert result["status"] == "done"
    assert any("Incorrect API key provided: ***" in e for e in result["errors"])
    # errors and trace are what the API stores for the run
    assert key not in json.dumps(result, default=str)
