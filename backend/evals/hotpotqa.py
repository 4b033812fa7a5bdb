"""`marsa eval hotpotqa`: multi-hop research quality of the whole graph on HotpotQA.

Every paragraph of every question in the file goes into one fresh store (distractors stay
even with --limit); each of the first N questions then runs through the full graph with the
offline engine on the docs source only, through the real MCP client and server. The gold
answer is looked for in the direct answer (what a reader sees first) and in the whole report.
"""

from __future__ import annotations

import json
import re
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from backend.config import Settings
from backend.evals.details import DetailsFile, reader_view
from backend.evals.metrics import answer_found, percentile
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import MCPHub
from backend.reasoning.engine import ReasoningEngine
from backend.trace import Tracer
from mcp_servers.document_store.ingest import Document, make_doc_id
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore

_PUNCT = re.compile(f"[{re.escape(string.punctuation)}]")


def normalise(text: str) -> str:
    """Lower case, punctuation and articles removed, spaces collapsed (HotpotQA's rule)."""
    text = _PUNCT.sub(" ", text.lower())
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The questions of a HotpotQA-format JSON-lines file."""
    with path.open() as handle:
        return [json.loads(line) for line in handle if line.strip()]


def paragraphs(questions: list[dict[str, Any]]) -> list[Document]:
    """Every context paragraph once, identified by its title."""
    docs: dict[str, Document] = {}
    for question in questions:
        for title, sentences in question["context"]:
            if title not in docs:
                docs[title] = Document(
                    title=title,
                    content="".join(sentences).strip(),
                    source=f"hotpotqa:{title}",
                    doc_id=make_doc_id(f"hotpotqa:{title}"),
                )
    return list(docs.values())


def contains_answer(text: str, gold: str) -> bool:
    """True when the normalised gold answer occurs in the normalised text as whole words."""
    answer = normalise(gold)
    return bool(answer) and f" {answer} " in f" {normalise(text)} "


def score_question(question: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """Whether both gold paragraphs were cited, and whether the gold answer appears in the
    direct answer (what a reader sees first) and anywhere in the report."""
    titles = {s["id"]: s["title"] for s in result["sources"]}
    cited = {titles.get(c["source_id"]) for c in result["citations"]}
    gold = {title for title, _ in question["supporting_facts"]}
    return {
        "id": question["_id"],
        "both_gold_cited": gold <= cited,
        "answer_in_answer": contains_answer(result.get("answer", ""), question["answer"]),
        "answer_in_report": contains_answer(result["report"], question["answer"]),
        "answer_found": answer_found(result),
        "fabricated_citations": int(result["citation_check"].get("removed", 0)),
        "cited": len(cited),
    }


async def run(
    data: Path,
    limit: int | None,
    settings: Settings,
    make_engine: Callable[[], ReasoningEngine],
    details: Path | None = None,
    log: Callable[[str], None] = lambda m: print(m, file=sys.stderr),
) -> dict[str, Any]:
    """The whole benchmark; returns the JSON object `marsa eval hotpotqa` prints."""
    questions = load_questions(data)
    docs = paragraphs(questions)
    store = DocumentStore(DocsSettings.taken_from(settings))
    log(f"ingesting {len(docs)} paragraphs of {len(questions)} questions…")
    store.ingest(docs)
    asked = questions[:limit] if limit else questions
    rows: list[dict[str, Any]] = []
    seconds: list[float] = []
    failures: list[str] = []
    async with MCPHub(settings, servers=["docs"]) as hub:
        engine = make_engine()
        with DetailsFile(details) as out:
            for n, question in enumerate(asked, start=1):
                asked_row = {
                    "id": question["_id"],
                    "question": question["question"],
                    "gold": question["answer"],
                }
                ctx = ResearchContext(
                    hub=hub, engine=engine, tracer=Tracer(), settings=settings, sources=["docs"]
                )
                started = time.perf_counter()
                try:
                    result = (await run_research(question["question"], ctx)).as_json()
                except Exception as exc:  # an engine bug must not end the benchmark: it is counted
                    failures.append(f"{question['_id']}: {type(exc).__name__}: {exc}")
                    log(f"{n}/{len(asked)} FAILED {failures[-1]}")
                    out.write({**asked_row, "error": failures[-1]})
                    continue
                seconds.append(time.perf_counter() - started)
                rows.append(score_question(question, result))
                out.write({**asked_row, **reader_view(result), "scores": rows[-1]})
                log(
                    f"{n}/{len(asked)} {seconds[-1]:.1f}s gold={rows[-1]['both_gold_cited']} "
                    f"answer={rows[-1]['answer_in_answer']} report={rows[-1]['answer_in_report']}"
                )
    count = max(len(rows), 1)
    return {
        "questions": len(asked),
        "failed_runs": len(failures),
        # a failed run counts as a miss on every measure
        "both_gold_cited": round(sum(r["both_gold_cited"] for r in rows) / len(asked), 4),
        "answer_in_answer": round(sum(r["answer_in_answer"] for r in rows) / len(asked), 4),
        "answer_in_report": round(sum(r["answer_in_report"] for r in rows) / len(asked), 4),
        # every HotpotQA question is answerable: saying "not found" is a miss
        "not_found_on_answerable": round(sum(not r["answer_found"] for r in rows) / len(asked), 4),
        "fabricated_citations": sum(r["fabricated_citations"] for r in rows),
        "p50_seconds": round(percentile(seconds, 50), 3),
        "p95_seconds": round(percentile(seconds, 95), 3),
        "mean_cited_sources": round(sum(r["cited"] for r in rows) / count, 2),
        "failures": failures,
    }
