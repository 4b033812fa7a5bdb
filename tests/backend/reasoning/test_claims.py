"""Claim extraction: verbatim, relevant, de-duplicated across sources, capped."""

from __future__ import annotations

import pytest

from backend.reasoning.models import SubQuery
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline.claims import PER_SINGLE_QUERY, is_prose
from marsa_common.embeddings import Embedder
from tests.backend.reasoning.corpus import RAG_QUESTION, magazines, rag, source

QUESTION = "Which magazine was started first, Arthur's Magazine or First for Women?"


async def test_every_claim_is_a_verbatim_sentence_of_each_of_its_sources(
    engine: OfflineEngine,
) -> None:
    sources = magazines()
    plan = await engine.plan(QUESTION, ["web"])
    claims = await engine.extract_claims(plan, sources)
    by_id = {s.id: s for s in sources}
    assert claims
    for claim in claims:
        assert claim.text in by_id[claim.source_ids[0]].text


async def test_relevant_sentences_are_chosen_over_irrelevant_ones(engine: OfflineEngine) -> None:
    text = (
        "The museum cafe is open from 9am to 5pm on weekdays. Canberra is the capital city of "
        "Australia. Visitors can park for free in the underground garage. The gift shop sells "
        "postcards and books about the collection."
    )
    plan = await engine.plan("What is the capital of Australia?", ["web"])
    claims = await engine.extract_claims(plan, [source("S1", "Visitor guide", text)])
    assert claims[0].text == "Canberra is the capital city of Australia."
    assert all("postcards" not in c.text for c in claims)


async def test_the_same_fact_in_two_sources_becomes_one_claim_citing_both(
    engine: OfflineEngine,
) -> None:
    sources = [
        source(
            "S1",
            "Canberra",
            "Canberra is the capital city of Australia. It lies at the northern end of the "
            "Australian Capital Territory.",
        ),
        source(
            "S2",
            "Australia facts",
            "Canberra is the capital of Australia. Sydney is the country's largest city.",
        ),
    ]
    plan = await engine.plan("What is the capital of Australia?", ["web"])
    claims = await engine.extract_claims(plan, sources)
    capital = [c for c in claims if "capital" in c.text and c.text.startswith("Canberra")]
    assert len(capital) == 1
    assert capital[0].source_ids == ["S1", "S2"]


async def test_near_identical_sentences_that_disagree_are_not_merged(
    engine: OfflineEngine,
) -> None:
    sources = [
        source("S1", "Tower facts", "The Eiffel Tower was completed in 1889 in Paris."),
        source("S2", "Tower myths", "The Eiffel Tower was completed in 1887 in Paris."),
    ]
    plan = await engine.plan("When was the Eiffel Tower completed?", ["web"])
    claims = await engine.extract_claims(plan, sources)
    assert {c.text for c in claims} == {s.text for s in sources}
    assert all(len(c.source_ids) == 1 for c in claims)


async def test_claims_are_capped_per_sub_query(engine: OfflineEngine) -> None:
    text = " ".join(
        f"Canberra hosted national event number {n} for Australian citizens in its capital."
        for n in range(1, 15)
    )
    plan = await engine.plan("What events does Canberra, the capital of Australia, host?", ["web"])
    claims = await engine.extract_claims(plan, [source("S1", "Events", text)])
    assert 1 <= len(claims) <= PER_SINGLE_QUERY < 14


async def test_extraction_is_deterministic(embedder: Embedder) -> None:
    plan = await OfflineEngine(embedder=embedder).plan(QUESTION, ["web"])
    first = await OfflineEngine(embedder=embedder).extract_claims(plan, magazines())
    second = await OfflineEngine(embedder=embedder).extract_claims(plan, magazines())
    assert first == second


async def test_a_sentence_is_filed_under_the_part_it_answers_best(engine: OfflineEngine) -> None:
    plan = await engine.plan(RAG_QUESTION, ["web"])
    claims = await engine.extract_claims(plan, rag())
    filed = {c.text: c.sub_query_id for c in claims}
    assert (
        filed[
            "By grounding answers in retrieved documents, RAG reduces hallucinations because the "
            "model can cite the facts it uses."
        ]
        == "q3"  # part 2: q1 is the whole question
    )


async def test_code_blocks_tables_and_diagrams_never_become_claims(engine: OfflineEngine) -> None:
    text = (
        "Canberra is the capital city of Australia.\n\n"
        "The capital city of Australia, drawn:\n"
        "```\ncapital ──> Canberra (Australia) seat of the capital city\n```\n\n"
        "The capital city of each country of Australia's region:\n"
        "| capital city | country of Australia |\n| --- | --- |\n| Canberra | Australia |"
    )
    plan = await engine.plan("What is the capital city of Australia?", ["web"])
    claims = await engine.extract_claims(plan, [source("S1", "Capitals", text)])
    texts = [c.text for c in claims]
    assert "Canberra is the capital city of Australia." in texts
    assert not [t for t in texts if "```" in t or "|" in t or "──" in t or "seat of" in t]


async def test_a_sentence_a_follow_up_took_over_keeps_its_relevance_to_the_question(
    engine: OfflineEngine,
) -> None:
    question = "What is the capital city of Australia?"
    plan = await engine.plan(question, ["web"])
    bridge = SubQuery(
        id="q2", text="Visitor guide opening hours", sources=["web"], hop=2, purpose="bridge: Guide"
    )
    plan.sub_queries.append(bridge)
    text = "Canberra is the capital city of Australia. The gift shop opens at 9am on weekdays."
    claims = await engine.extract_claims(plan, [source("S1", "Visitor guide", text)])
    answer = next(c for c in claims if c.text.startswith("Canberra"))
    alone = await engine.extract_claims(
        plan.model_copy(update={"sub_queries": plan.sub_queries[:1]}),
        [source("S1", "Visitor guide", text)],
    )
    assert answer.relevance >= next(c for c in alone if c.text == answer.text).relevance


def test_diagram_lines_and_table_rows_are_not_prose() -> None:
    assert is_prose("Canberra is the capital city of Australia.")
    assert is_prose("A pipe | alone is fine.")
    assert not is_prose("capital ──> Canberra (Australia) seat of the capital")
    assert not is_prose("planner --> researcher --> fact checker --> synthesizer")
    assert not is_prose("Canberra | Australia | 1913 | capital since then")
    assert not is_prose("The capital, drawn:\n```\nCanberra\n```")
    assert not is_prose("# The capital city of Australia")


def test_a_question_in_the_documents_is_no_claim() -> None:
    # pexpect's FAQ: "Q: Where can I get help with pexpect? Is there a mailing list?" was
    # fact-checked as a claim ("supported (0.45)")
    assert not is_prose("Q: Where can I get help with pexpect?")
    assert not is_prose("Is there a *mailing list*?")
    assert is_prose("A: You can use the pexpect tag on Stackoverflow.")


@pytest.mark.parametrize(
    ("sentence", "prose"),
    [
        ("`WebSocketException(code=1008, reason=None)`", False),
        ("* `await websocket.close(code=1000, reason=None)`", False),
        ("Signature: `request.form(max_files=1000)`", False),
        ("Use `websocket.close(code=1000)` to close the connection.", True),
        ("The default close code is 1000.", True),
    ],
)
def test_a_line_of_code_alone_is_not_a_claim(sentence: str, prose: bool) -> None:
    assert is_prose(sentence) is prose
