"""Whole research runs with a configured LLM over real HTTP: ``make_engine`` builds the real
langchain-openai or langchain-anthropic client against a local server speaking its API
(``tests/fakes``), with the real MCP client and document store. Every case ends in a finished
run; what degraded is named in its ``errors``, ``engine_steps`` and trace."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from backend.config import Settings
from backend.graph.context import ResearchContext
from backend.graph.run import run_research
from backend.mcp_client import MCPHub
from backend.reasoning.factory import make_engine
from backend.trace import Tracer
from mcp_servers.document_store.ingest import Document
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore
from tests.fakes import anthropic_api, openai_chat_api
from tests.fakes.model_api import ModelApi, Reply

ARTHUR = (
    "Arthur's Magazine (1844–1846) was an American literary periodical published in "
    "Philadelphia in the 19th century. Edited by Timothy Shay Arthur, it featured work by "
    "Edgar A. Poe, J.H. Ingraham, Sarah Josepha Hale and others."
)
FIRST = (
    "First for Women is a woman's magazine published by Bauer Media Group in the USA. "
    "The magazine was started in 1989. It is based in Englewood Cliffs, New Jersey."
)
QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?"
_BLOCK = re.compile(r'<source id="(S\d+)" title="([^"]*)"')
_CLAIM = re.compile(r'<claim id="(C\d+)"')
STEPS = {
    "Plan research for this question": "plan",
    "The evidence so far is thin": "refine",
    "Extract the claims": "claims",
    "Check each claim": "verify",
    "Write the research report": "report",
}


@pytest.fixture
def store_settings(settings: Settings) -> Settings:
    DocumentStore(DocsSettings.taken_from(settings)).ingest(
        Document(title=t, content=c, source=f"corpus:{t}")
        for t, c in [("Arthur's Magazine", ARTHUR), ("First for Women", FIRST)]
    )
    return settings


def valid(step: str, prompt: str) -> dict[str, Any]:
    """A good answer to ``step``, from the source ids the prompt fenced."""
    ids = {title: sid for sid, title in _BLOCK.findall(prompt)}
    if step == "plan":
        return {
            "kind": "comparison",
            "sub_queries": [
                {"text": "Arthur's Magazine", "sources": ["docs"], "purpose": "item 1"},
                {"text": "First for Women", "sources": ["docs"], "purpose": "item 2"},
            ],
            "key_terms": ["magazine"],
            "entities": ["Arthur's Magazine", "First for Women"],
            "rationale": "Two magazines compared by start date.",
        }
    if step == "refine":
        return {"sub_queries": []}
    if step == "claims":
        return {
            "claims": [
                {"text": ARTHUR.split(". ")[0] + ".", "source_ids": [ids["Arthur's Magazine"]]},
                {
                    "text": "The magazine was started in 1989.",
                    "source_ids": [ids["First for Women"]],
                },
            ]
        }
    if step == "verify":
        verdicts = [
            {"claim_id": cid, "verdict": "unverifiable", "rationale": "only its own source",
             "evidence": []}
            for cid in _CLAIM.findall(prompt)
        ]  # fmt: skip
        return {"verdicts": verdicts}
    return {
        "answer": "Arthur's Magazine was started first.",
        "answer_found": True,
        "markdown": "## Answer\nArthur's Magazine (1844) was started before First for Women "
        "(1989) [1][2].",
        "citations": [
            {"n": 1, "source_id": ids["Arthur's Magazine"],
             "quote": "Arthur's Magazine (1844–1846)"},
            {"n": 2, "source_id": ids["First for Women"],
             "quote": "The magazine was started in 1989"},
        ],
    }  # fmt: skip


def step_of(prompt: str) -> str:
    """Which step a request's prompt asks for."""
    return next(name for marker, name in STEPS.items() if marker in prompt)


def scripted(
    prompt_of: Callable[[dict[str, Any]], str], special: dict[str, list[Reply]]
) -> Callable[[dict[str, Any]], Reply]:
    """Replies by step: the ``special`` ones first, in order, then good structured answers."""
    queues = {step: list(replies) for step, replies in special.items()}

    def reply(body: dict[str, Any]) -> Reply:
        prompt = prompt_of(body)
        step = step_of(prompt)
        if queues.get(step):
            return queues[step].pop(0)
        return Reply(data=valid(step, prompt))

    return reply


@pytest.fixture
def openai() -> Iterator[openai_chat_api.OpenAIChatApi]:
    fake = openai_chat_api.OpenAIChatApi().start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def anthropic() -> Iterator[anthropic_api.AnthropicApi]:
    fake = anthropic_api.AnthropicApi().start()
    try:
        yield fake
    finally:
        fake.stop()


async def research(
    settings: Settings,
    fake: ModelApi,
    special: dict[str, list[Reply]] | Callable[[dict[str, Any]], Reply],
    **extra: Any,
) -> dict[str, Any]:
    """One run with the LLM served by ``fake``: replies by step (``special``, then good
    answers), or a whole script."""
    if isinstance(fake, openai_chat_api.OpenAIChatApi):
        spec, url, prompt_of = "openai:gpt-4o-mini", fake.base, openai_chat_api.prompt_text
    else:
        spec, url, prompt_of = "anthropic:claude-sonnet-4-6", fake.url, anthropic_api.prompt_text
    fake.script = special if callable(special) else scripted(prompt_of, special)
    fields: dict[str, Any] = {"llm_api_key": "sk-test", "llm_max_retries": 0, **extra}
    configured = Settings(data_dir=settings.data_dir, llm=spec, llm_base_url=url, **fields)
    tracer = Tracer()
    engine = make_engine(configured, tracer)
    async with MCPHub(configured, servers=["docs"]) as hub:
        ctx = ResearchContext(
            hub=hub, engine=engine, tracer=tracer, settings=configured, max_iterations=1
        )
        return (await run_research(QUESTION, ctx)).as_json()


def llm_errors(result: dict[str, Any]) -> list[str]:
    return [e for e in result["errors"] if e.startswith("LLM ")]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_valid_structured_answers_make_the_whole_run_the_models(
    store_settings: Settings, provider: str, request: pytest.FixtureRequest
) -> None:
    fake = request.getfixturevalue(provider)
    result = await research(store_settings, fake, {})
    assert result["status"] == "done" and result["errors"] == []
    assert result["engine"] == "llm"
    assert result["engine_steps"]["by_model"] == ["plan", "claims", "verify", "report"]
    assert result["engine_steps"]["fell_back"] == []
    assert result["answer"] == "Arthur's Magazine was started first."
    assert result["citation_check"]["removed"] == 0 and len(result["citations"]) == 2
    outputs = {e["data"]["output"] for e in result["trace"] if e["kind"] == "llm_call"}
    assert outputs == {"json_schema" if provider == "openai" else "function_calling"}


async def test_a_report_echoing_the_prompts_example_is_replaced_by_the_offline_one(
    store_settings: Settings, openai: openai_chat_api.OpenAIChatApi
) -> None:
    echo = Reply(
        data={
            "answer": "The direct answer",
            "answer_found": True,
            "markdown": "## Answer\n...",
            "citations": [{"n": 1, "source_id": "S1", "quote": "exact words from S1"}],
        }
    )
    result = await research(store_settings, openai, {"report": [echo, echo]})
    assert result["status"] == "done"
    assert result["engine_steps"]["by_model"] == ["plan", "claims", "verify"]
    assert result["engine_steps"]["fell_back"] == ["report"]
    assert "prompt's example" in result["engine_steps"]["fell_back_why"][0]
    assert "The direct answer" not in result["report"] and result["answer"] != "The direct answer"
    assert result["report"].startswith("## Answer") and result["citations"]
    (error,) = llm_errors(result)
    assert error.startswith("LLM report:") and "prompt's example" in error
    fallback = next(e for e in result["trace"] if e["kind"] == "fallback")
    assert fallback["node"] == "synthesizer" and fallback["data"]["step"] == "report"


FAILURES = [
    # (step, provider, replies, what the run's errors say)
    ("claims", "openai", [Reply(text='{"claims": [{"text": "' + "very " * 300, cut=True)] * 2,
     "cut at the output bound twice"),
    ("claims", "anthropic", [Reply(text="{claims: [oops"), Reply(text="Sorry, no JSON.")],
     "malformed twice"),
    ("plan", "openai", [Reply(status=429, error="Rate limit reached for gpt-4o-mini")],
     "RateLimitError"),
    ("report", "anthropic", [Reply(status=500, error="Internal server error")],
     "could not answer"),
    ("verify", "openai", [Reply(status=400, error="Invalid 'messages': too many")] * 2,
     "Error code: 400"),
]  # fmt: skip


@pytest.mark.parametrize(("step", "provider", "replies", "said"), FAILURES)
async def test_a_step_whose_model_fails_is_done_by_the_offline_engine_and_the_run_says_why(
    store_settings: Settings,
    request: pytest.FixtureRequest,
    step: str,
    provider: str,
    replies: list[Reply],
    said: str,
) -> None:
    result = await research(store_settings, request.getfixturevalue(provider), {step: replies})
    assert result["status"] == "done" and result["report"].startswith("## Answer")
    assert result["engine"] == "llm"
    assert result["engine_steps"]["fell_back"] == [step]
    assert step not in result["engine_steps"]["by_model"]
    errors = llm_errors(result)
    assert any(e.startswith(f"LLM {step}:") and said in e for e in errors), errors
    assert any(e["kind"] == "fallback" and e["data"]["step"] == step for e in result["trace"])


async def test_a_400_to_the_structured_request_is_retried_with_the_prompt_first(
    store_settings: Settings, openai: openai_chat_api.OpenAIChatApi
) -> None:
    result = await research(
        store_settings, openai, {"verify": [Reply(status=400, error="bad request")] * 2}
    )
    # The first 400 turns structured output off; the same request without it is refused too.
    first, second = llm_errors(result)
    assert "refused structured output (json_schema)" in first
    assert second.startswith("LLM verify: the model could not answer")
    verify = [b for b in openai.bodies if "Check each claim" in openai_chat_api.prompt_text(b)]
    assert ["response_format" in b for b in verify] == [True, False]
    report = [b for b in openai.bodies if "Write the research" in openai_chat_api.prompt_text(b)]
    assert ["response_format" in b for b in report] == [False]


async def test_a_server_that_never_answers_is_given_up_after_the_timeout_and_the_run_finishes(
    store_settings: Settings, openai: openai_chat_api.OpenAIChatApi
) -> None:
    started = time.monotonic()
    result = await research(store_settings, openai, {"plan": [Reply(hold=True)]}, llm_timeout=0.5)
    assert time.monotonic() - started < 30
    assert result["status"] == "done" and result["report"].startswith("## Answer")
    assert result["engine"] == "offline"  # the model did no step
    assert result["engine_steps"]["fell_back"] == ["plan", "claims", "verify", "report"]
    assert len(openai.bodies) == 1  # given up on: not asked again
    first, *later = llm_errors(result)
    assert first.startswith("LLM plan:") and "Timeout" in first
    assert all("given up on" in e for e in later)


async def test_anthropic_content_blocks_with_thinking_are_read_from_their_text(
    store_settings: Settings, anthropic: anthropic_api.AnthropicApi
) -> None:
    thinking = {"type": "thinking", "thinking": "Plan {first} then answer.", "signature": "s"}

    def in_blocks(body: dict[str, Any]) -> Reply:
        prompt = anthropic_api.prompt_text(body)
        text = {"type": "text", "text": json.dumps(valid(step_of(prompt), prompt))}
        return Reply(blocks=[thinking, text])

    result = await research(store_settings, anthropic, in_blocks)
    assert result["status"] == "done" and result["errors"] == []
    assert result["engine_steps"]["by_model"] == ["plan", "claims", "verify", "report"]
    assert result["answer"] == "Arthur's Magazine was started first."


async def test_paraphrased_evidence_quotes_hand_the_verification_to_the_offline_engine(
    store_settings: Settings, openai: openai_chat_api.OpenAIChatApi
) -> None:
    good = scripted(openai_chat_api.prompt_text, {})

    def paraphrasing(body: dict[str, Any]) -> Reply:
        prompt = openai_chat_api.prompt_text(body)
        if step_of(prompt) != "verify":
            return good(body)
        other = next(sid for sid, title in _BLOCK.findall(prompt) if title == "First for Women")
        evidence = [{"source_id": other, "quote": "Arthur's magazine began in the 1840s",
                     "stance": "supports"}]  # fmt: skip
        verdict = {"claim_id": "C1", "verdict": "supported", "rationale": "r", "evidence": evidence}
        return Reply(data={"verdicts": [verdict]})

    result = await research(store_settings, openai, paraphrasing)
    assert result["status"] == "done"
    assert result["engine_steps"]["fell_back"] == ["verify"]
    (error,) = llm_errors(result)
    assert error.startswith("LLM verify:") and "evidence quotes is found in the source" in error
    asked = [b for b in openai.bodies if "Check each claim" in openai_chat_api.prompt_text(b)]
    assert len(asked) == 2  # asked once more with the reason, then handed over
