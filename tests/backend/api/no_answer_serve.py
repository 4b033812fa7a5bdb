"""`marsa serve` whose runs think with an engine that finds no answer in the sources.

The offline engine, except that its report says the sources do not answer the question, as
an engine does for a question the documents do not cover. Run it as
``python -m tests.backend.api.no_answer_serve serve --port N`` (``api_server(module=…)``).
"""

from __future__ import annotations

from backend.api import runner
from backend.cli import app
from backend.config import Settings
from backend.reasoning.models import Claim, Plan, Report, Source, Verdict
from backend.reasoning.offline.engine import OfflineEngine
from backend.trace import Tracer

NO_ANSWER = "The sources do not say."


class NoAnswerEngine(OfflineEngine):
    """Researches like the offline engine; its report finds no answer."""

    name = "no-answer"

    async def write_report(
        self, plan: Plan, claims: list[Claim], verdicts: list[Verdict], sources: list[Source]
    ) -> Report:
        report = await super().write_report(plan, claims, verdicts, sources)
        return report.model_copy(update={"answer": NO_ANSWER, "answer_found": False})


def _no_answer_engine(settings: Settings, tracer: Tracer | None = None) -> NoAnswerEngine:
    return NoAnswerEngine()


runner.make_engine = _no_answer_engine  # type: ignore[assignment]

if __name__ == "__main__":
    app()
