"""One research run through the real graph with a chat model behind any OpenAI-compatible URL,
and what the model did in it, as JSON.

    .venv/bin/python -m bench.llm_run --base-url http://127.0.0.1:8089/v1 --model smollm2
        [--question Q] [--corpus DIR] [--max-iterations 1] [--api-key KEY] [--out FILE]

The run uses the LLM engine (``MARSA_LLM=openai-compatible:MODEL``, ``MARSA_LLM_BASE_URL``),
the real MCP client and a fresh document store in a temporary data directory that holds only
the corpus (by default four of this repository's own pages). The bounds are the usual
settings, read from the environment: ``MARSA_LLM_MAX_TOKENS``, ``MARSA_LLM_TIMEOUT``,
``MARSA_LLM_MAX_RETRIES``, ``MARSA_LLM_STRUCTURED``, the run budgets.

Prints one JSON object: the run's seconds (ingestion apart), its status and engine, the steps
the model did and those that fell back (with why), every model call (step, attempt, outcome,
how it was asked, seconds, tokens in and out), totals, the answer's first line, the citations
that survived the check and the run's errors. bench/serve_smollm2.sh serves a small local
model to point it at; docs/evaluation.md ("A real small model") has a measured run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from backend.config import Settings
from backend.evals.qa import ingest_folder, readable_by_server
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import MCPHub
from backend.reasoning.factory import make_engine
from backend.trace import Tracer

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ("README.md", "docs/configuration.md", "docs/architecture.md", "docs/api.md")
"""This repository's own pages: a small corpus whose answer a reader can check."""
DEFAULT_QUESTION = "How long may one chat-model request take before MARSA gives it up?"
"""Answered in docs/configuration.md (MARSA_LLM_TIMEOUT, 60 s) and the README."""


def calls(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every model call of a run, from its ``llm_call`` trace events, in order."""
    return [
        {
            "step": e["data"].get("step"),
            "node": e["node"],
            "model": e["data"].get("model"),
            "attempt": e["data"].get("attempt"),
            "outcome": e["data"].get("outcome"),
            "output": e["data"].get("output"),
            "seconds": None if e.get("duration_ms") is None else round(e["duration_ms"] / 1000, 2),
            "input_tokens": e["data"].get("input_tokens"),
            "output_tokens": e["data"].get("output_tokens"),
        }
        for e in trace
        if e["kind"] == "llm_call"
    ]


def figures(result: dict[str, Any], run_seconds: float) -> dict[str, Any]:
    """What the model did in a run (a ``RunResult.as_json()``), as the bench prints it."""
    made = calls(result["trace"])
    seconds = [c["seconds"] for c in made if c["seconds"] is not None]
    steps = result.get("engine_steps") or {"by_model": [], "fell_back": [], "fell_back_why": []}
    answer_lines = [line for line in result.get("answer", "").splitlines() if line.strip()]
    return {
        "run_seconds": round(run_seconds, 1),
        "status": result.get("status"),
        "engine": result.get("engine"),
        "steps_by_model": steps["by_model"],
        "steps_fell_back": [
            {"step": step, "why": why}
            for step, why in zip(steps["fell_back"], steps["fell_back_why"], strict=True)
        ],
        "structured_output_refused": [
            e["data"].get("error", e["message"])
            for e in result["trace"]
            if e["kind"] == "fallback" and "structured_output" in e["data"]
        ],
        "calls": made,
        "totals": {
            "calls": len(made),
            "input_tokens": sum(c["input_tokens"] or 0 for c in made),
            "output_tokens": sum(c["output_tokens"] or 0 for c in made),
            "seconds_per_call_mean": round(statistics.fmean(seconds), 2) if seconds else None,
            "seconds_per_call_max": max(seconds) if seconds else None,
            "outcomes": {o: [c["outcome"] for c in made].count(o) for o in _outcomes(made)},
        },
        "answer_first_line": answer_lines[0] if answer_lines else "",
        "answer_found": result.get("answer_found"),
        "citations_surviving": len(result.get("citations", [])),
        "citation_check": result.get("citation_check"),
        "claims": len(result.get("claims", [])),
        "sources": len(result.get("sources", [])),
        "errors": result.get("errors", []),
    }


def _outcomes(made: list[dict[str, Any]]) -> list[str]:
    return sorted({c["outcome"] for c in made if c["outcome"]})


def run_settings(base: Settings, base_url: str, model: str, api_key: str) -> Settings:
    """``base`` with the chat model behind ``base_url`` as an OpenAI-compatible server."""
    return base.model_copy(
        update={
            "llm": f"openai-compatible:{model}",
            "llm_base_url": base_url,
            # A local server takes any key; the OpenAI client insists on one.
            "llm_api_key": SecretStr(api_key),
        }
    )


async def measure(
    settings: Settings, question: str, corpus: Path, max_iterations: int = 1
) -> dict[str, Any]:
    """Ingest ``corpus`` into the store of ``settings.data_dir``, run ``question`` once with
    the configured LLM and return the figures, plus the report and the ingestion's seconds."""
    settings = readable_by_server(settings, corpus)
    tracer = Tracer()
    engine = make_engine(settings, tracer)
    async with MCPHub(settings, servers=["docs"]) as hub:
        started = time.perf_counter()
        ingested = await ingest_folder(hub, corpus, lambda line: print(line, file=sys.stderr))
        ingest_seconds = time.perf_counter() - started
        ctx = ResearchContext(
            hub=hub, engine=engine, tracer=tracer, settings=settings, max_iterations=max_iterations
        )
        started = time.perf_counter()
        result = (await run_research(question, ctx)).as_json()
        run_seconds = time.perf_counter() - started
    return {
        "question": question,
        "model": settings.llm,
        "base_url": settings.llm_base_url,
        "bounds": {
            "max_tokens": settings.llm_max_tokens,
            "timeout_s": settings.llm_timeout,
            "max_retries": settings.llm_max_retries,
            "structured": settings.llm_structured,
        },
        "ingest_seconds": round(ingest_seconds, 1),
        "ingested": ingested["documents"],
        **figures(result, run_seconds),
        "report": result.get("report", ""),
    }


def default_corpus(into: Path) -> Path:
    """A folder holding copies of :data:`DEFAULT_CORPUS`."""
    into.mkdir(parents=True, exist_ok=True)
    for name in DEFAULT_CORPUS:
        shutil.copy(REPO / name, into / Path(name).name)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="the server's …/v1 URL")
    parser.add_argument("--model", required=True, help="the model name the server answers to")
    parser.add_argument("--api-key", default="not-needed", help="sent as the bearer key")
    parser.add_argument("--question", default=DEFAULT_QUESTION)
    parser.add_argument("--corpus", type=Path, help="a folder of documents (default: 4 pages "
                        "of this repository)")  # fmt: skip
    parser.add_argument("--max-iterations", type=int, default=1)
    parser.add_argument("--out", type=Path, help="also write the JSON (with the report) here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="marsa-llm-run-") as tmp:
        corpus = args.corpus or default_corpus(Path(tmp) / "corpus")
        settings = run_settings(
            Settings(data_dir=Path(tmp) / "data"), args.base_url, args.model, args.api_key
        )
        out = asyncio.run(measure(settings, args.question, corpus, args.max_iterations))
    text = json.dumps(out, indent=2, ensure_ascii=False)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in out.items() if k != "report"}, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
