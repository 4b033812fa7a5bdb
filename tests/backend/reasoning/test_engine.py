"""The offline engine end to end: the interface, and a two-hop question answered."""

from __future__ import annotations

from backend.reasoning.engine import ReasoningEngine
from backend.reasoning.offline import OfflineEngine
from tests.backend.reasoning.corpus import INCEPTION, INCEPTION_MUSIC, NOLAN, source


def test_the_offline_engine_implements_the_reasoning_interface(engine: OfflineEngine) -> None:
    implementation: ReasoningEngine = engine
    assert implementation.name == "offline"


async def test_a_two_hop_question_is_answered_from_the_bridge_source(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    sources = [
        source("S1", "Inception", INCEPTION, sub_query_ids=["q1"], retrieval_score=0.9),
        source("S2", "Inception (soundtrack)", INCEPTION_MUSIC, sub_query_ids=["q1"]),
    ]
    hop_two = await engine.refine(plan, sources, [], 1)
    plan = plan.model_copy(update={"sub_queries": [*plan.sub_queries, *hop_two]})
    sources.append(source("S3", "Christopher Nolan", NOLAN, sub_query_ids=[hop_two[0].id]))
    claims = await engine.extract_claims(plan, sources)
    verdicts = await engine.verify(claims, sources)
    report = await engine.write_report(plan, claims, verdicts, sources)
    assert "Born in Westminster, London, Nolan" in report.answer
    assert "1. Christopher Nolan" in report.markdown  # the answer cites the bridge source
