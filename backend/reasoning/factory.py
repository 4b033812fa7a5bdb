"""Choose the engine a run thinks with: the configured LLM, or the offline engine."""

from __future__ import annotations

from backend.config import Settings
from backend.reasoning.engine import ReasoningEngine
from backend.reasoning.models import Claim, Plan, Report, Source, SubQuery, Verdict
from backend.trace import Tracer


class OfflineInstead:
    """The offline engine standing in for a configured LLM that cannot be built: each step is
    the offline engine's. It reports why once, as its first fallback note, so the run's
    ``errors`` say it."""

    name = "offline"

    def __init__(self, offline: ReasoningEngine, why: str):
        self.offline = offline
        self.why = why
        self._notes = [why]

    def take_fallbacks(self) -> list[str]:
        """The reason the LLM is not used, the first time; [] after."""
        taken, self._notes = self._notes, []
        return taken

    async def plan(self, query: str, available: list[str]) -> Plan:
        return await self.offline.plan(query, available)

    async def refine(
        self, plan: Plan, sources: list[Source], verdicts: list[Verdict], iteration: int
    ) -> list[SubQuery]:
        return await self.offline.refine(plan, sources, verdicts, iteration)

    async def extract_claims(self, plan: Plan, sources: list[Source]) -> list[Claim]:
        return await self.offline.extract_claims(plan, sources)

    async def verify(self, claims: list[Claim], sources: list[Source]) -> list[Verdict]:
        return await self.offline.verify(claims, sources)

    async def write_report(
        self, plan: Plan, claims: list[Claim], verdicts: list[Verdict], sources: list[Source]
    ) -> Report:
        return await self.offline.write_report(plan, claims, verdicts, sources)


def warm_engine() -> None:
    """Load what the offline engine loads on first use (every engine falls back to it), so a
    process's first runs do not pay it; raises EmbedderError when the model cannot load."""
    from backend.reasoning.offline.engine import OfflineEngine

    OfflineEngine().warm()


def make_engine(settings: Settings, tracer: Tracer | None = None) -> ReasoningEngine:
    """The LLM engine when ``MARSA_LLM`` is set (falling back step by step to the offline
    engine), else the offline engine.

    A provider package that is not installed is an operator's fix, not the question's fault:
    the run goes on with the offline engine and says why (a ``fallback`` trace event and a
    line in its ``errors``). Any other bad ``MARSA_LLM`` raises ``LLMConfigError``.
    """
    # Imported here: the offline engine loads its sentence embedder's libraries.
    from backend.reasoning.offline.engine import OfflineEngine

    offline = OfflineEngine()
    if not settings.llm:
        return offline
    from backend.llm import LLMPackageMissing, build_chat_model, structured_output
    from backend.reasoning.llm.engine import Budget, LLMEngine

    try:
        model = build_chat_model(settings)
    except LLMPackageMissing as exc:
        why = f"LLM not used: {exc}; the offline engine ran this run"
        if tracer is not None:
            tracer.emit("run", "fallback", why, engine="offline", fix=f"pip install {exc.package}")
        return OfflineInstead(offline, why)
    prices = None
    if settings.llm_price_input is not None and settings.llm_price_output is not None:
        prices = (settings.llm_price_input, settings.llm_price_output)
    return LLMEngine(
        model,
        fallback=offline,
        model_name=settings.llm,
        tracer=tracer,
        prices=prices,
        secrets=settings.secrets(),
        budget=Budget(tokens=settings.llm_run_token_budget, usd=settings.llm_run_cost_budget),
        structured=structured_output(settings),
    )
