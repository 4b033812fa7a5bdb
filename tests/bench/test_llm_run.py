"""bench/llm_run.py's figures, from a whole run against a local server speaking OpenAI's
chat-completions API (the real langchain-openai client, MCP client and document store), so
the bench cannot rot while no real model is in the test suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.config import Settings
from bench.llm_run import measure, run_settings
from tests.fakes.model_api import Reply
from tests.fakes.openai_chat_api import OpenAIChatApi, prompt_text

QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?"
CORPUS = {
    "arthurs-magazine.md": "# Arthur's Magazine\n\nArthur's Magazine (1844–1846) was an "
    "American literary periodical published in Philadelphia in the 19th century.\n",
    "first-for-women.md": "# First for Women\n\nFirst for Women is a woman's magazine published "
    "by Bauer Media Group in the USA. The magazine was started in 1989.\n",
}
PLAN = {
    "kind": "comparison",
    "sub_queries": [
        {"text": "Arthur's Magazine start", "sources": ["docs"], "purpose": "item 1"},
        {"text": "First for Women start", "sources": ["docs"], "purpose": "item 2"},
    ],
    "key_terms": ["magazine"],
    "entities": ["Arthur's Magazine", "First for Women"],
    "rationale": "Two magazines compared by start date.",
}


def reply(body: dict[str, Any]) -> Reply:
    """A model that plans well, then fails each later step in its own way."""
    prompt = prompt_text(body)
    if "Plan research for this question" in prompt:
        return Reply(data=PLAN, input_tokens=300, output_tokens=80)
    if "Extract the claims" in prompt:
        return Reply(status=500, error="the server fell over")
    if "Check each claim" in prompt:
        return Reply(text="I think they are all true.", input_tokens=900, output_tokens=10)
    return Reply(text='{"answer": "Arthur', cut=True, input_tokens=1000, output_tokens=64)


@pytest.fixture
def server() -> Iterator[OpenAIChatApi]:
    fake = OpenAIChatApi(script=reply).start()
    try:
        yield fake
    finally:
        fake.stop()


async def test_the_bench_reports_each_call_and_step_of_a_run_against_an_openai_compatible_url(
    server: OpenAIChatApi, settings: Settings, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in CORPUS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    configured = run_settings(
        settings.model_copy(update={"llm_max_retries": 0}), server.base, "tiny-model", "none"
    )
    out = await measure(configured, QUESTION, corpus)

    assert out["model"] == "openai-compatible:tiny-model" and out["ingested"] == {"added": 2}
    assert out["status"] == "done" and out["run_seconds"] > 0
    assert out["steps_by_model"] == ["plan"]
    assert [s["step"] for s in out["steps_fell_back"]] == ["claims", "verify", "report"]
    assert "Error code: 500" in out["steps_fell_back"][0]["why"]
    assert [(c["step"], c["attempt"], c["outcome"]) for c in out["calls"]] == [
        ("plan", 1, "valid"),
        ("claims", 1, "error"),
        ("verify", 1, "malformed"),
        ("verify", 2, "malformed"),
        ("report", 1, "cut"),
        ("report", 2, "cut"),
    ]
    assert all(c["seconds"] is not None and c["output"] == "json_schema" for c in out["calls"])
    totals = out["totals"]
    assert totals["calls"] == 6
    assert totals["input_tokens"] == 300 + 2 * 900 + 2 * 1000
    assert totals["output_tokens"] == 80 + 2 * 10 + 2 * 64
    assert totals["outcomes"] == {"cut": 2, "error": 1, "malformed": 2, "valid": 1}
    # The offline engine's report stands in for the model's: its citations survive.
    assert "1844" in out["report"] and out["citations_surviving"] >= 1
    assert out["answer_first_line"] and out["citation_check"]["removed"] == 0
    assert len(out["errors"]) == 3 and all(e.startswith("LLM ") for e in out["errors"])
    assert [body["model"] for body in server.bodies] == ["tiny-model"] * 6
    bounds = {body.get("max_tokens") or body.get("max_completion_tokens") for body in server.bodies}
    assert bounds == {configured.llm_max_tokens}
