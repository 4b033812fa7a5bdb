"""`marsa eval qa`: what a reader sees when asking questions of a documentation folder.

The folder is ingested through the document-store server's ``ingest_file`` tool, as
`marsa ingest` does (a store that already holds a file unchanged does not embed it again);
each question then runs through the full graph with the offline engine on the docs
source only, through the real MCP client and server, as `marsa eval hotpotqa` does. A
question is scored on the direct answer (``result["answer"]``), not on any line of the long
report: every ``must_include`` group must have one of its alternatives in it.

A question line: ``{"id", "question", "type", "must_include": [["alt", ...], ...],
"gold_files": [path relative to the folder, ...], "evidence": [{"file", "quote"}, ...]}``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from backend.config import Settings
from backend.evals.details import DetailsFile, reader_view
from backend.evals.metrics import (
    answer_found,
    cites_gold_file,
    meets_must_include,
    percentile,
    share,
)
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import MCPHub, ToolCallError
from backend.reasoning.engine import ReasoningEngine
from backend.trace import Tracer

ANSWERABLE = ("lookup", "how", "comparison", "multihop", "list")
NOT_FOUND = ("unanswerable", "false_premise")  # the right answer is "the docs do not say so"
TYPES = (*ANSWERABLE, *NOT_FOUND)
_INGEST_TIMEOUT = 600.0  # seconds for one file: a long one is embedded in one call


class QuestionFileError(ValueError):
    """A question line the benchmark cannot score, with what to fix."""


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The questions of a JSON-lines file, checked: known type, unique id, and for an
    answerable question at least one ``must_include`` group and one gold file."""
    questions: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        question = json.loads(line)
        where = f"{path.name} line {number}"
        if question.get("type") not in TYPES:
            raise QuestionFileError(f"{where}: type must be one of {', '.join(TYPES)}")
        if not question.get("id") or question["id"] in seen:
            raise QuestionFileError(f"{where}: a missing or repeated id")
        seen.add(question["id"])
        groups = question.setdefault("must_include", [])
        if question["type"] in ANSWERABLE and not (groups and question.get("gold_files")):
            raise QuestionFileError(
                f"{where}: an answerable question needs must_include groups and gold_files"
            )
        if any(
            not group or not all(isinstance(a, str) and a.strip() for a in group)
            for group in groups
        ):
            raise QuestionFileError(
                f"{where}: each must_include group is a list of non-empty strings"
            )
        question.setdefault("gold_files", [])
        questions.append(question)
    return questions


class CorpusError(RuntimeError):
    """The folder gave the store nothing to answer from."""


def readable_by_server(settings: Settings, folder: Path) -> Settings:
    """Settings whose document-store server may read the folder's files by path, where the
    server limits that to configured folders (as `marsa ingest` allows the paths it gets)."""
    roots = dict(settings).get("docs_ingest_roots")
    if roots is None:  # a server that reads any path it is given
        return settings
    return settings.model_copy(update={"docs_ingest_roots": [*roots, str(folder.resolve())]})


def corpus_files(folder: Path) -> list[Path]:
    """The files under the folder in name order, hidden ones left out (the server says which
    it cannot read)."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(folder).parts)
    )


async def ingest_folder(hub: MCPHub, folder: Path, log: Callable[[str], None]) -> dict[str, Any]:
    """Every file of the folder through the server's ``ingest_file`` tool with its local
    path, as `marsa ingest` does; a store that already holds a file unchanged skips it."""
    statuses: list[str] = []
    not_ingested: list[str] = []
    files = corpus_files(folder)
    log(f"ingesting {len(files)} files from {folder}…")
    started = time.perf_counter()
    for file in files:
        args = {"filename": file.name, "path": str(file.resolve())}
        try:
            result = await hub.call("docs", "ingest_file", args, timeout=_INGEST_TIMEOUT)
        except ToolCallError as exc:
            not_ingested.append(f"{file}: {exc.message}")
            log(f"not ingested: {not_ingested[-1]}")
            continue
        statuses.extend(doc["status"] for doc in result.structured["documents"])
    counts = {status: statuses.count(status) for status in sorted(set(statuses))}
    log(f"documents {counts} in {time.perf_counter() - started:.1f}s")
    return {
        "folder": str(folder),
        "files": len(files),
        "documents": counts,
        "not_ingested": not_ingested,
    }


def score_question(question: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """One question's scores; the answer tests only for an answerable question."""
    row: dict[str, Any] = {
        "id": question["id"],
        "type": question["type"],
        "answer_found": answer_found(result),
        "fabricated_citations": int(result.get("citation_check", {}).get("removed", 0)),
    }
    if question["type"] in ANSWERABLE:
        groups = question["must_include"]
        row["answer_correct"] = meets_must_include(result.get("answer", ""), groups)
        row["report_correct"] = meets_must_include(result.get("report", ""), groups)
        row["gold_file_cited"] = cites_gold_file(result, question["gold_files"])
    return row


def failed_run_row(question: dict[str, Any], error: str) -> dict[str, Any]:
    """A run that raised: a miss on every measure, and no "not found" either."""
    row: dict[str, Any] = {
        "id": question["id"],
        "type": question["type"],
        "answer_found": None,
        "fabricated_citations": 0,
        "error": error,
    }
    if question["type"] in ANSWERABLE:
        row.update(answer_correct=False, report_correct=False, gold_file_cited=False)
    return row


def passed(row: dict[str, Any]) -> bool:
    """The question's main test: the answer for an answerable one, "not found" otherwise."""
    if row["type"] in ANSWERABLE:
        return bool(row["answer_correct"])
    return row["answer_found"] is False


def expected(question: dict[str, Any]) -> str:
    """What a right answer holds, in words, for the failure list."""
    if question["type"] in ANSWERABLE:
        return " AND ".join(" | ".join(group) for group in question["must_include"])
    quotes = "; ".join(e["quote"] for e in question.get("evidence", []))
    return "not found" + (f" (the docs say: {quotes})" if quotes else " (the docs do not say)")


def measures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The shares over a set of rows; a share with no question to count is None."""
    answerable = [r for r in rows if r["type"] in ANSWERABLE]
    not_found = [r for r in rows if r["type"] in NOT_FOUND]
    return {
        "answer_correct": share(r["answer_correct"] for r in answerable),
        "report_correct": share(r["report_correct"] for r in answerable),
        "gold_file_cited": share(r["gold_file_cited"] for r in answerable),
        "not_found_correct": share(r["answer_found"] is False for r in not_found),
        "not_found_on_answerable": share(r["answer_found"] is False for r in answerable),
        "fabricated_citations": sum(r["fabricated_citations"] for r in rows),
    }


def summarise(
    questions: list[dict[str, Any]],
    rows: list[dict[str, Any]],
    seconds: list[float],
    answers: dict[str, str],
) -> dict[str, Any]:
    """The JSON object `marsa eval qa` prints: overall measures, per type, failures."""
    by_id = {q["id"]: q for q in questions}
    by_type = {}
    for kind in TYPES:
        of_kind = [r for r in rows if r["type"] == kind]
        if of_kind:
            by_type[kind] = {
                "questions": len(of_kind),
                **{k: v for k, v in measures(of_kind).items() if v is not None},
            }
    failures = [
        {
            "id": row["id"],
            "type": row["type"],
            "question": by_id[row["id"]]["question"],
            "expected": expected(by_id[row["id"]]),
            "answer": row.get("error") or answers.get(row["id"], "")[:200],
        }
        for row in rows
        if not passed(row)
    ]
    return {
        "questions": len(rows),
        "answerable": sum(r["type"] in ANSWERABLE for r in rows),
        "failed_runs": sum("error" in r for r in rows),
        **measures(rows),
        "p50_seconds": round(percentile(seconds, 50), 3),
        "p95_seconds": round(percentile(seconds, 95), 3),
        "by_type": by_type,
        "failures": failures,
    }


async def run(
    corpus: Path,
    questions_file: Path,
    settings: Settings,
    make_engine: Callable[[], ReasoningEngine],
    limit: int | None = None,
    details: Path | None = None,
    log: Callable[[str], None] = lambda m: print(m, file=sys.stderr),
) -> dict[str, Any]:
    """The whole benchmark; returns the JSON object `marsa eval qa` prints."""
    questions = load_questions(questions_file)
    asked = questions[:limit] if limit else questions
    rows: list[dict[str, Any]] = []
    seconds: list[float] = []
    answers: dict[str, str] = {}
    async with MCPHub(readable_by_server(settings, corpus), servers=["docs"]) as hub:
        ingested = await ingest_folder(hub, corpus, log)
        if not ingested["documents"]:
            raise CorpusError(f"nothing in {corpus} could be ingested: {ingested['not_ingested']}")
        engine = make_engine()
        with DetailsFile(details) as out:
            for n, question in enumerate(asked, start=1):
                ctx = ResearchContext(
                    hub=hub, engine=engine, tracer=Tracer(), settings=settings, sources=["docs"]
                )
                started = time.perf_counter()
                try:
                    result = (await run_research(question["question"], ctx)).as_json()
                except Exception as exc:  # an engine bug must not end the benchmark: it is counted
                    rows.append(failed_run_row(question, f"{type(exc).__name__}: {exc}"))
                    log(f"{n}/{len(asked)} {question['id']} FAILED {rows[-1]['error']}")
                    out.write({**_asked(question), "error": rows[-1]["error"]})
                    continue
                seconds.append(time.perf_counter() - started)
                rows.append(score_question(question, result))
                answers[question["id"]] = result.get("answer", "")
                out.write({**_asked(question), **reader_view(result), "scores": rows[-1]})
                log(
                    f"{n}/{len(asked)} {question['id']} {seconds[-1]:.1f}s "
                    f"{'ok' if passed(rows[-1]) else 'MISS'}"
                )
    report = summarise(asked, rows, seconds, answers)
    report["corpus"] = ingested
    return report


def _asked(question: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": question["id"],
        "type": question["type"],
        "question": question["question"],
        "gold": question["must_include"],
        "gold_files": question["gold_files"],
    }
