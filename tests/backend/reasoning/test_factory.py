"""make_engine: the offline engine by default; the LLM engine, told the run's secrets, when a
model is configured; the offline engine, saying why, when the model's package is missing."""

from __future__ import annotations

import sys

import pytest
from langchain_core.exceptions import ModelAuthenticationError

import backend.llm
from backend.config import Settings
from backend.llm import LLMConfigError
from backend.reasoning.engine import take_fallbacks
from backend.reasoning.factory import make_engine, warm_engine
from backend.reasoning.llm.engine import LLMEngine
from backend.reasoning.offline.engine import OfflineEngine
from backend.trace import Tracer
from tests.fakes.chat_model import ScriptedChatModel

TAVILY_KEY = "tvly-factory-test-0123456789"


def test_without_a_model_the_engine_is_the_offline_one() -> None:
    assert isinstance(make_engine(Settings(llm=None)), OfflineEngine)


async def test_the_llm_engine_scrubs_every_configured_secret_from_what_it_reports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    echoed = ModelAuthenticationError(f"bad credentials near {TAVILY_KEY}")
    model = ScriptedChatModel(answers=[echoed])
    monkeypatch.setattr(backend.llm, "build_chat_model", lambda settings: model)
    settings = Settings(llm="openai:gpt-test", tavily_api_key=TAVILY_KEY)
    engine = make_engine(settings, Tracer())
    assert isinstance(engine, LLMEngine)
    await engine.plan("What raises the tides?", ["docs"])
    notes = engine.take_fallbacks()
    assert notes and TAVILY_KEY not in " ".join(notes) and "***" in " ".join(notes)


async def test_a_provider_package_that_is_not_installed_gives_the_offline_engine_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "langchain_openai", None)  # its import raises ImportError
    tracer = Tracer()
    engine = make_engine(Settings(llm="openai:gpt-test"), tracer)
    assert engine.name == "offline"
    plan = await engine.plan("What raises the tides?", ["docs"])
    assert plan.sub_queries
    notes = take_fallbacks(engine)
    assert len(notes) == 1 and "pip install langchain-openai" in notes[0]
    assert take_fallbacks(engine) == []  # said once, by the first node
    (event,) = [e for e in tracer.events if e.kind == "fallback"]
    assert event.data == {"engine": "offline", "fix": "pip install langchain-openai"}


def test_a_model_setting_that_is_not_provider_and_model_still_raises() -> None:
    with pytest.raises(LLMConfigError, match="not provider:model"):
        make_engine(Settings(llm="mystery:model"), Tracer())


def test_warming_loads_the_embedder_that_a_runs_offline_engine_then_uses() -> None:
    from marsa_common.embeddings import _shared_minilm

    _shared_minilm.cache_clear()  # as in a process that has not researched yet
    warm_engine()
    engine = make_engine(Settings(llm=None))
    assert isinstance(engine, OfflineEngine)
    loaded = engine.vectors.embedder
    assert getattr(loaded, "_session", None) is not None  # no load left for the first run
