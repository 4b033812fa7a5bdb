"""No step may make the run worse: a valid answer that does not rest on the run's sources is
re-asked once with the reason, then the offline engine does the step and the run says why."""

from __future__ import annotations

import json

from backend.reasoning.llm.engine import LLMEngine
from backend.reasoning.llm.guard import echoed_example
from backend.reasoning.llm.outputs import ReportOut
from backend.reasoning.models import Claim, Plan
from backend.trace import Tracer
from tests.backend.test_llm_engine import CLAIM, TIDES_2, RecordingFallback, sources
from tests.fakes.chat_model import ScriptedChatModel

PLAN = Plan(query="Why are there tides?", kind="simple", sub_queries=[])
ECHO = json.dumps(
    {
        "answer": "The direct answer",
        "answer_found": True,
        "markdown": "## Answer\n...",
        "citations": [{"n": 1, "source_id": "S1", "quote": "exact words from S1"}],
    }
)
GOOD_REPORT = json.dumps(
    {
        "answer": "The Moon's gravity.",
        "markdown": "## Answer\nThe Moon's gravity causes tides [1].",
        "citations": [
            {"n": 1, "source_id": "S2", "quote": "Tides are caused mainly by the Moon's gravity"}
        ],
    }
)


def engine(*answers: str) -> tuple[LLMEngine, ScriptedChatModel, RecordingFallback, Tracer]:
    model = ScriptedChatModel(answers=list(answers))
    fallback, tracer = RecordingFallback(), Tracer()
    return LLMEngine(model, fallback, "scripted:test", tracer=tracer), model, fallback, tracer


def test_an_answer_giving_back_the_prompts_example_is_recognised() -> None:
    assert echoed_example(ReportOut.model_validate_json(ECHO))
    assert echoed_example(ReportOut(markdown="…")) is not None
    assert echoed_example(ReportOut.model_validate_json(GOOD_REPORT)) is None


async def test_the_echoed_example_is_re_asked_with_the_reason_then_the_offline_report_is_used() -> (
    None
):
    llm, model, fallback, tracer = engine(ECHO, ECHO)
    report = await llm.write_report(PLAN, [CLAIM], [], sources())
    assert report.markdown == "## Answer\nfallback" and fallback.calls == ["report"]
    assert "gives back the prompt's example" in model.prompt_text(1)
    outcomes = [e.data["outcome"] for e in tracer.events if e.kind == "llm_call"]
    assert outcomes == ["rejected", "rejected"]
    (event,) = [e for e in tracer.events if e.kind == "fallback"]
    assert event.data["step"] == "report" and "example" in event.data["error"]
    assert llm.steps["fell_back"] == ["report"]
    assert "did not rest on this run's sources" in llm.steps["fell_back_why"][0]
    (note,) = llm.take_fallbacks()
    assert note.startswith("LLM report:") and "example" in note


async def test_a_report_whose_every_citation_fails_is_re_asked_and_a_good_second_one_kept() -> None:
    made_up = json.dumps(
        {
            "answer": "The Sun.",
            "markdown": "## Answer\nThe Sun alone causes tides [1].",
            "citations": [{"n": 1, "source_id": "S1", "quote": "the Sun alone lifts the sea"}],
        }
    )
    llm, model, fallback, _ = engine(made_up, GOOD_REPORT)
    report = await llm.write_report(PLAN, [CLAIM], [], sources())
    assert fallback.calls == [] and report.answer == "The Moon's gravity."
    assert "no citation survives the citation check" in model.prompt_text(1)


async def test_claims_none_of_which_is_in_its_source_fall_back_to_the_offline_claims() -> None:
    paraphrased = json.dumps(
        {"claims": [{"text": "The Moon's pull makes two bulges of water.", "source_ids": ["S1"]}]}
    )
    llm, _, fallback, tracer = engine(paraphrased, paraphrased)
    assert await llm.extract_claims(PLAN, sources()) == []  # the recording fallback's
    assert fallback.calls == ["claims"]
    (event,) = [e for e in tracer.events if e.kind == "fallback"]
    assert "none of its 1 claims is found verbatim" in event.data["error"]


async def test_a_claim_of_two_words_does_not_rest_on_its_source() -> None:
    short = json.dumps({"claims": [{"text": "Spring tides", "source_ids": ["S1"]}]})
    llm, _, fallback, _ = engine(short, short)
    await llm.extract_claims(PLAN, sources())
    assert fallback.calls == ["claims"]


async def test_verdicts_whose_every_evidence_quote_is_paraphrased_fall_back() -> None:
    paraphrased = json.dumps(
        {
            "verdicts": [
                {
                    "claim_id": "C1",
                    "verdict": "supported",
                    "rationale": "NOAA agrees",
                    "evidence": [
                        {"source_id": "S2", "quote": "the Moon's gravity mostly causes tides"}
                    ],
                }
            ]
        }
    )
    llm, model, fallback, _ = engine(paraphrased, paraphrased)
    await llm.verify([CLAIM], sources())
    assert fallback.calls == ["verify"]
    assert "evidence quotes is found in the source it names" in model.prompt_text(1)
    assert "copying quotes exactly" in model.prompt_text(1)


async def test_verdicts_with_one_quote_that_holds_are_weighed_not_replaced() -> None:
    mixed = json.dumps(
        {
            "verdicts": [
                {
                    "claim_id": "C1",
                    "verdict": "supported",
                    "evidence": [
                        {"source_id": "S2", "quote": TIDES_2.split(". ")[0]},
                        {"source_id": "S2", "quote": "the Moon mostly causes the tides"},
                    ],
                }
            ]
        }
    )
    llm, _, fallback, _ = engine(mixed)
    [verdict] = await llm.verify([CLAIM], sources())
    assert fallback.calls == [] and verdict.verdict == "supported"
    assert len(verdict.evidence) == 1


async def test_with_no_sources_an_uncited_report_is_not_rejected() -> None:
    honest = json.dumps(
        {"answer": "", "answer_found": False, "markdown": "## Answer\nNo source was found."}
    )
    llm, _, fallback, _ = engine(honest)
    report = await llm.write_report(PLAN, [], [], [])
    assert fallback.calls == [] and report.answer_found is False


async def test_a_claim_found_in_its_source_is_kept_when_another_is_dropped() -> None:
    answer = json.dumps(
        {
            "claims": [
                {"text": CLAIM.text, "source_ids": ["S1"]},
                {"text": "The Moon is made of cheese.", "source_ids": ["S1"]},
            ]
        }
    )
    llm, _, fallback, _ = engine(answer)
    claims = await llm.extract_claims(PLAN, sources())
    assert fallback.calls == [] and claims == [Claim(id="C1", text=CLAIM.text, source_ids=["S1"])]
