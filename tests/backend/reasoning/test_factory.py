"""make_engine: the offline engine by default; the LLM engine, told the run's secrets, when a
model is configured."""

from __future__ import annotations

import pytest
from langchain_core.exceptions import ModelAuthenticationError

import backend.llm
from backend.config import Settings
from backend.reasoning.factory import make_engine
from backend.reasoning.llm_engine import LLMEngine
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
