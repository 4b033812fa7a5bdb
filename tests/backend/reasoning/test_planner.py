"""The offline planner: question kinds, sub-queries and routing; refine's follow-up hops."""

from __future__ import annotations

from backend.reasoning.models import Verdict
from backend.reasoning.offline import OfflineEngine
from tests.backend.reasoning.corpus import INCEPTION, INCEPTION_MUSIC, NOLAN, source

ALL = ["docs", "web", "github"]


async def test_an_or_question_is_a_comparison_with_one_search_per_entity(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan(
        "Which magazine was started first, Arthur's Magazine or First for Women?", ALL
    )
    assert plan.kind == "comparison"
    assert plan.entities == ["Arthur's Magazine", "First for Women"]
    assert [(sq.purpose, sq.text) for sq in plan.sub_queries] == [
        ("entity: Arthur's Magazine", "Arthur's Magazine started"),
        ("entity: First for Women", "First for Women started"),
        ("whole question", plan.query),
    ]


async def test_who_was_born_first_is_a_comparison(engine: OfflineEngine) -> None:
    plan = await engine.plan("Who was born first, Albert Einstein or Niels Bohr?", ALL)
    assert plan.kind == "comparison"
    assert [sq.text for sq in plan.sub_queries[:2]] == ["Albert Einstein born", "Niels Bohr born"]


async def test_are_x_and_y_both_is_a_comparison(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "Are Random House Tower and 888 7th Avenue both used for real estate?", ALL
    )
    assert plan.kind == "comparison"
    assert plan.entities == ["Random House Tower", "888 7th Avenue"]


async def test_compare_x_and_y_is_a_comparison(engine: OfflineEngine) -> None:
    plan = await engine.plan("Compare Chroma and FAISS for vector search.", ["docs"])
    assert plan.kind == "comparison"
    assert plan.entities == ["Chroma", "FAISS"]
    assert plan.sub_queries[0].text == "Chroma vector search"


async def test_x_vs_y_is_a_comparison(engine: OfflineEngine) -> None:
    plan = await engine.plan("LangGraph vs CrewAI: which is better for multi-agent apps?", ALL)
    assert plan.kind == "comparison"
    assert plan.entities == ["LangGraph", "CrewAI"]


async def test_two_question_marks_make_a_multi_part_question(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "What is retrieval-augmented generation? How does it reduce hallucinations?", ALL
    )
    assert plan.kind == "multi_part"
    assert [sq.text for sq in plan.sub_queries] == [
        "What is retrieval-augmented generation?",
        "How does retrieval-augmented generation reduce hallucinations?",
    ]
    assert [sq.purpose for sq in plan.sub_queries] == ["part 1", "part 2"]


async def test_clauses_joined_by_semicolon_and_are_parts(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "What causes inflation; and how do central banks respond to it?", ["web"]
    )
    assert plan.kind == "multi_part"
    assert [sq.text for sq in plan.sub_queries] == [
        "What causes inflation",
        "how do central banks respond to inflation?",
    ]


async def test_a_second_wh_clause_after_comma_and_is_a_part(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "How is source quality scored, and why do GitHub issues score lower than READMEs?",
        ["docs"],
    )
    assert plan.kind == "multi_part"
    assert [sq.text for sq in plan.sub_queries] == [
        "How is source quality scored",
        "why do GitHub issues score lower than READMEs?",
    ]


async def test_a_relative_clause_makes_a_multi_hop_question(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "In which country is the company that makes the Model S headquartered?", ALL
    )
    assert plan.kind == "multi_hop"
    assert [(sq.text, sq.hop) for sq in plan.sub_queries] == [(plan.query, 1)]


async def test_an_attribute_of_a_role_holder_is_multi_hop(engine: OfflineEngine) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ALL)
    assert plan.kind == "multi_hop"


async def test_a_plain_question_is_simple_with_one_search(engine: OfflineEngine) -> None:
    plan = await engine.plan("What is the capital of Australia?", ALL)
    assert plan.kind == "simple"
    assert [sq.text for sq in plan.sub_queries] == ["What is the capital of Australia?"]
    assert plan.rationale


async def test_a_code_question_goes_to_github_when_it_is_available(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("How does the retry logic in the httpx library work?", ALL)
    assert plan.sub_queries[0].sources == ["docs", "github", "web"]


async def test_a_code_question_skips_github_when_it_is_not_available(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("How does the retry logic in the httpx library work?", ["docs"])
    assert plan.sub_queries[0].sources == ["docs"]


async def test_a_question_that_is_not_about_code_never_goes_to_github(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("What is the function of the liver?", ALL)
    assert plan.sub_queries[0].sources == ["docs", "web"]


async def test_web_is_searched_only_when_available(engine: OfflineEngine) -> None:
    without = await engine.plan("What is the capital of Australia?", ["docs", "github"])
    assert without.sub_queries[0].sources == ["docs"]


async def test_extra_servers_are_not_routed_by_default(engine: OfflineEngine) -> None:
    plan = await engine.plan("What is the capital of Australia?", ["docs", "web", "arxiv"])
    assert plan.sub_queries[0].sources == ["docs", "web"]


async def test_refine_builds_a_hop_two_query_from_a_name_in_the_top_source(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    sources = [
        source("S1", "Inception", INCEPTION, sub_query_ids=["q1"], retrieval_score=0.9),
        source("S2", "Inception (soundtrack)", INCEPTION_MUSIC, sub_query_ids=["q1"]),
    ]
    new = await engine.refine(plan, sources, [], 1)
    assert [(sq.text, sq.hop, sq.purpose) for sq in new] == [
        ("Christopher Nolan born", 2, "bridge: Christopher Nolan")
    ]
    assert new[0].id == "q2" and new[0].sources == ["web"]


async def test_refine_never_repeats_a_sub_query_and_stops_when_the_hop_is_answered(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    first_hop = [source("S1", "Inception", INCEPTION, sub_query_ids=["q1"])]
    hop_two = await engine.refine(plan, first_hop, [], 1)
    plan = plan.model_copy(update={"sub_queries": [*plan.sub_queries, *hop_two]})
    again = await engine.refine(plan, first_hop, [], 2)
    assert not {sq.text for sq in again} & {sq.text for sq in plan.sub_queries}
    answered = [*first_hop, source("S3", "Christopher Nolan", NOLAN, sub_query_ids=["q2"])]
    assert await engine.refine(plan, answered, [], 2) == []


async def test_refine_retries_a_compared_entity_nobody_wrote_about(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Who was born first, Albert Einstein or Niels Bohr?", ["web"])
    only_einstein = [
        source(
            "S1",
            "Albert Einstein",
            "Albert Einstein (14 March 1879 – 18 April 1955) was a German-born theoretical "
            "physicist who developed the theory of relativity.",
            sub_query_ids=["q1", "q3"],
        )
    ]
    new = await engine.refine(plan, only_einstein, [], 1)
    assert [(sq.text, sq.purpose) for sq in new] == [("Niels Bohr", "entity: Niels Bohr (retry)")]


async def test_refine_expands_the_question_when_most_claims_are_unverifiable(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("What is the capital of Australia?", ["web"])
    sources = [
        source(
            "S1",
            "Canberra",
            "Canberra is the capital city of Australia. Canberra was chosen as a compromise "
            "between Sydney and Melbourne, the two largest cities, in 1908.",
            sub_query_ids=["q1"],
        )
    ]
    verdicts = [Verdict(claim_id="C1", verdict="unverifiable", confidence=0.0)]
    new = await engine.refine(plan, sources, verdicts, 1)
    assert len(new) == 1
    assert new[0].purpose == "expanded"
    assert new[0].text.startswith(plan.query) and "canberra" in new[0].text.lower()
    supported = [Verdict(claim_id="C1", verdict="supported", confidence=0.6)]
    assert await engine.refine(plan, sources, supported, 1) == []
