"""Structured output through each provider's own mechanism, over real HTTP: the real
langchain-openai and langchain-anthropic clients talk to local servers speaking their APIs
(``tests/fakes``), and the engine built by ``make_engine`` reads what comes back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, get_args

import pytest

from backend.config import Settings
from backend.llm import StructuredOutput, structured_output
from backend.reasoning.factory import make_engine
from backend.reasoning.llm.engine import LLMEngine
from backend.reasoning.models import QuestionKind
from backend.reasoning.offline import OfflineEngine
from backend.trace import Tracer
from tests.fakes.anthropic_api import AnthropicApi
from tests.fakes.chat_model import ScriptedChatModel
from tests.fakes.model_api import ModelApi, Reply
from tests.fakes.ollama_api import OllamaApi
from tests.fakes.openai_chat_api import OpenAIChatApi

PLAN = {
    "kind": "comparison",
    "sub_queries": [
        {"text": "Moon tides", "sources": ["docs"], "purpose": "item 1"},
        {"text": "Sun tides", "sources": ["docs"], "purpose": "item 2"},
    ],
    "key_terms": ["tides"],
    "entities": ["Moon", "Sun"],
    "rationale": "two causes compared",
}


@pytest.fixture
def openai() -> Iterator[OpenAIChatApi]:
    fake = OpenAIChatApi().start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def anthropic() -> Iterator[AnthropicApi]:
    fake = AnthropicApi().start()
    try:
        yield fake
    finally:
        fake.stop()


def llm(settings: Settings, fake: ModelApi, spec: str, **extra: Any) -> tuple[LLMEngine, Tracer]:
    """The engine a run would build for ``spec`` against ``fake``."""
    url = fake.base if isinstance(fake, OpenAIChatApi) else fake.url
    tracer = Tracer()
    fields = {"llm_api_key": "sk-test", "llm_max_retries": 0, **extra}
    configured = Settings(data_dir=settings.data_dir, llm=spec, llm_base_url=url, **fields)
    engine = make_engine(configured, tracer)
    assert isinstance(engine, LLMEngine)
    return engine, tracer


def calls(tracer: Tracer) -> list[tuple[int, str, str]]:
    return [
        (e.data["attempt"], e.data["outcome"], e.data["output"])
        for e in tracer.events
        if e.kind == "llm_call"
    ]


@pytest.mark.parametrize(
    ("spec", "structured", "expected"),
    [
        ("openai:gpt-4o-mini", "auto", StructuredOutput("json_schema", strict=True)),
        ("openai-compatible:smollm2", "auto", StructuredOutput("json_schema", strict=True)),
        ("anthropic:claude-sonnet-4-6", "auto", StructuredOutput("function_calling")),
        ("ollama:llama3.1", "auto", StructuredOutput("json_schema")),
        ("openai:gpt-4o-mini", "tools", StructuredOutput("function_calling", strict=True)),
        ("anthropic:claude-sonnet-4-6", "off", None),
    ],
)
def test_each_provider_is_asked_for_structured_output_its_own_way(
    spec: str, structured: str, expected: StructuredOutput | None
) -> None:
    settings = Settings(llm=spec, llm_structured=structured, llm_base_url="http://x/v1")
    assert structured_output(settings) == expected


async def test_openai_gets_the_steps_schema_as_a_strict_json_schema_response_format(
    settings: Settings, openai: OpenAIChatApi
) -> None:
    openai.script = [Reply(data=PLAN)]
    engine, tracer = llm(settings, openai, "openai:gpt-4o-mini")
    plan = await engine.plan("Do the Moon or the Sun cause tides?", ["docs"])
    assert [sq.text for sq in plan.sub_queries] == ["Moon tides", "Sun tides"]
    (body,) = openai.bodies
    form = body["response_format"]
    assert form["type"] == "json_schema" and form["json_schema"]["name"] == "plan"
    assert form["json_schema"]["strict"] is True
    schema = form["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"kind", "sub_queries", "key_terms", "entities", "rationale"}
    assert schema["properties"]["kind"]["enum"] == list(get_args(QuestionKind))
    assert calls(tracer) == [(1, "valid", "json_schema")]


async def test_with_tools_chosen_the_answer_comes_as_the_forced_tool_call(
    settings: Settings, openai: OpenAIChatApi
) -> None:
    openai.script = [Reply(data=PLAN)]
    engine, tracer = llm(settings, openai, "openai:gpt-4o-mini", llm_structured="tools")
    plan = await engine.plan("q?", ["docs"])
    assert plan.kind == "comparison"
    (body,) = openai.bodies
    assert "response_format" not in body
    assert body["tool_choice"] == {"type": "function", "function": {"name": "plan"}}
    assert [t["function"]["name"] for t in body["tools"]] == ["plan"]
    assert calls(tracer) == [(1, "valid", "function_calling")]


async def test_a_server_refusing_response_format_is_asked_with_the_prompt_and_the_trace_says_so(
    settings: Settings, openai: OpenAIChatApi
) -> None:
    openai.refuse_response_format = True
    openai.script = lambda body: Reply(text=f"Here it is:\n```json\n{json.dumps(PLAN)}\n```")
    engine, tracer = llm(settings, openai, "openai-compatible:smollm2")
    plan = await engine.plan("q?", ["docs"])
    await engine.plan("q?", ["docs"])  # a later step: not refused again
    assert plan.kind == "comparison" and engine.steps["fell_back"] == []
    assert ["response_format" in b for b in openai.bodies] == [True, False, False]
    (refused,) = [e for e in tracer.events if e.kind == "fallback"]
    assert refused.data["structured_output"] == "json_schema"
    assert "400" in refused.data["error"] and "not supported" in refused.data["error"]
    (note,) = engine.take_fallbacks()
    assert "refused structured output (json_schema)" in note
    assert calls(tracer) == [(1, "valid", "prompt"), (1, "valid", "prompt")]


async def test_anthropic_gets_the_schema_as_one_forced_tool_and_answers_with_tool_use(
    settings: Settings, anthropic: AnthropicApi
) -> None:
    anthropic.script = [Reply(data=PLAN, input_tokens=321, output_tokens=45)]
    engine, tracer = llm(settings, anthropic, "anthropic:claude-sonnet-4-6")
    plan = await engine.plan("q?", ["docs"])
    assert plan.kind == "comparison" and engine.steps["by_model"] == ["plan"]
    (body,) = anthropic.bodies
    assert body["tool_choice"] == {"type": "tool", "name": "plan"}
    (tool,) = body["tools"]
    assert tool["name"] == "plan" and "sub_queries" in tool["input_schema"]["properties"]
    assert body["max_tokens"] == settings.llm_max_tokens
    assert engine.usage["plan"]["input_tokens"] == 321
    assert calls(tracer) == [(1, "valid", "function_calling")]


async def test_an_anthropic_answer_in_content_blocks_is_read_from_its_text(
    settings: Settings, anthropic: AnthropicApi
) -> None:
    blocks = [
        {"type": "thinking", "thinking": "They want {a plan}.", "signature": "sig"},
        {"type": "text", "text": json.dumps(PLAN)},
    ]
    anthropic.script = [Reply(blocks=blocks)]
    engine, tracer = llm(settings, anthropic, "anthropic:claude-sonnet-4-6")
    plan = await engine.plan("q?", ["docs"])
    assert plan.kind == "comparison" and len(anthropic.bodies) == 1
    assert calls(tracer) == [(1, "valid", "function_calling")]


async def test_an_answer_cut_at_max_tokens_is_re_asked_shorter_then_falls_back(
    settings: Settings, openai: OpenAIChatApi
) -> None:
    runaway = '{"kind": "simple", "sub_queries": [{"text": "' + "very " * 200
    openai.script = [Reply(text=runaway, cut=True, output_tokens=64)] * 2
    engine, tracer = llm(settings, openai, "openai:gpt-4o-mini", llm_max_tokens=64)
    plan = await engine.plan("q?", ["docs"])
    assert plan.sub_queries  # the offline planner's
    assert [b.get("max_tokens") or b.get("max_completion_tokens") for b in openai.bodies] == [
        64,
        64,
    ]
    assert "cut off" in json.dumps(openai.bodies[1]["messages"][-1])
    assert calls(tracer) == [(1, "cut", "json_schema"), (2, "cut", "json_schema")]
    assert engine.steps["fell_back"] == ["plan"]
    assert "cut at the output bound twice" in engine.steps["fell_back_why"][0]
    assert engine.usage["plan"]["output_tokens"] == 128


@pytest.fixture
def ollama() -> Iterator[OllamaApi]:
    fake = OllamaApi().start()
    try:
        yield fake
    finally:
        fake.stop()


async def test_ollama_gets_the_steps_schema_as_its_format(
    settings: Settings, ollama: OllamaApi
) -> None:
    ollama.script = [Reply(data=PLAN)]
    engine, tracer = llm(settings, ollama, "ollama:llama3.1")
    plan = await engine.plan("q?", ["docs"])
    assert plan.kind == "comparison"
    (body,) = ollama.bodies
    assert body["format"]["properties"]["sub_queries"]["type"] == "array"
    assert calls(tracer) == [(1, "valid", "json_schema")]


async def test_an_ollama_server_refusing_the_format_is_asked_with_the_prompt(
    settings: Settings, ollama: OllamaApi
) -> None:
    ollama.refuse_format = True
    ollama.script = lambda body: Reply(text=json.dumps(PLAN))
    engine, tracer = llm(settings, ollama, "ollama:llama3.1")
    plan = await engine.plan("q?", ["docs"])
    assert plan.kind == "comparison" and engine.steps["by_model"] == ["plan"]
    assert [isinstance(b.get("format"), dict) for b in ollama.bodies] == [True, False]
    (refused,) = [e for e in tracer.events if e.kind == "fallback"]
    assert refused.data["structured_output"] == "json_schema" and "400" in refused.data["error"]


async def test_a_chat_model_without_structured_output_is_asked_with_the_prompt() -> None:
    model = ScriptedChatModel(answers=[json.dumps(PLAN), json.dumps(PLAN)])
    tracer = Tracer()
    engine = LLMEngine(
        model, OfflineEngine(), "scripted", tracer, structured=StructuredOutput("json_schema")
    )
    await engine.plan("q?", ["docs"])
    await engine.plan("q?", ["docs"])
    assert engine.steps["by_model"] == ["plan", "plan"] and engine.structured is None
    (event,) = [e for e in tracer.events if e.kind == "fallback"]
    assert "has no structured output (json_schema)" in event.message


async def test_a_tool_call_with_broken_arguments_is_re_asked_showing_them(
    settings: Settings, openai: OpenAIChatApi
) -> None:
    broken = '{"kind": "comparison", "sub_queries": [{"text": "Moon'
    openai.script = [Reply(arguments=broken), Reply(data=PLAN)]
    engine, tracer = llm(settings, openai, "openai:gpt-4o-mini", llm_structured="tools")
    plan = await engine.plan("q?", ["docs"])
    assert plan.kind == "comparison" and len(openai.bodies) == 2
    assert calls(tracer) == [(1, "malformed", "function_calling"), (2, "valid", "function_calling")]
    reask = json.dumps(openai.bodies[1]["messages"][-2:])
    assert "sub_queries" in reask and "not valid for the JSON shape" in reask
