"""Choose the engine a run thinks with: the configured LLM, or the offline engine."""

from __future__ import annotations

from backend.config import Settings
from backend.reasoning.engine import ReasoningEngine
from backend.trace import Tracer


def make_engine(settings: Settings, tracer: Tracer | None = None) -> ReasoningEngine:
    """The LLM engine when ``MARSA_LLM`` is set (falling back step by step to the offline
    engine), else the offline engine."""
    from backend.reasoning.offline.engine import OfflineEngine

    offline = OfflineEngine()
    if not settings.llm:
        return offline
    from backend.llm import build_chat_model
    from backend.reasoning.llm_engine import LLMEngine

    prices = None
    if settings.llm_price_input is not None and settings.llm_price_output is not None:
        prices = (settings.llm_price_input, settings.llm_price_output)
    return LLMEngine(
        build_chat_model(settings),
        fallback=offline,
        model_name=settings.llm,
        tracer=tracer,
        prices=prices,
        secrets=settings.secrets(),
    )
