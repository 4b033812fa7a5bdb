"""Fact-checking claims against the other sources."""

from __future__ import annotations

from backend.reasoning.models import Claim, Source, Verdict
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline.verify import only_code, stance
from tests.backend.reasoning.corpus import source


async def _check(engine: OfflineEngine, claim: str, other: str, *, quality: float = 0.7) -> Verdict:
    sources = [source("S1", "Claim source", claim), source("S2", "Other", other, score=quality)]
    verdicts = await engine.verify([Claim(id="C1", text=claim, source_ids=["S1"])], sources)
    return verdicts[0]


async def test_a_claim_another_source_agrees_with_is_supported(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair.",
        "Gustave Eiffel's company finished building the Eiffel Tower in 1889 for the "
        "Exposition Universelle, the World's Fair held in Paris.",
    )
    assert verdict.verdict == "supported"
    assert 0 < verdict.confidence < 1
    assert [(e.source_id, e.stance) for e in verdict.evidence] == [("S2", "supports")]


async def test_the_same_sentence_word_for_word_in_another_document_is_no_second_witness(
    engine: OfflineEngine,
) -> None:
    # (lxml ships its docs as FAQ.txt and html/FAQ.html: each "confirmed" the other)
    claim = "Since lxml 2.2.1, you can disable these limits with the huge_tree parser option."
    verdict = await _check(engine, claim, f"**{claim.replace('huge_tree', '`huge_tree`')}**")
    assert verdict.verdict == "unverifiable" and not verdict.evidence
    reworded = await _check(
        engine,
        claim,
        "Since lxml 2.2.1 you can switch off these limits with the huge_tree option of the parser.",
    )
    assert reworded.verdict == "supported"


async def test_a_negated_statement_contradicts(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "Vitamin D supplementation reduces the risk of hip fractures in older adults.",
        "In the trial, vitamin D supplementation did not reduce the risk of hip fractures in "
        "older adults.",
    )
    assert verdict.verdict == "contradicted"
    assert "negation" in verdict.rationale


async def test_a_different_number_for_the_same_quantity_contradicts(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "The Eiffel Tower is 330 metres tall.",
        "Including its antennas, the Eiffel Tower is 300 metres tall.",
    )
    assert verdict.verdict == "contradicted"
    assert "330 vs 300" in verdict.rationale


async def test_a_different_year_for_the_same_event_contradicts(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "The Eiffel Tower was completed in 1889.",
        "The Eiffel Tower was completed in 1887, two years before the fair.",
    )
    assert verdict.verdict == "contradicted"
    assert "1889 vs 1887" in verdict.rationale
    assert verdict.evidence[0].quote == (
        "The Eiffel Tower was completed in 1887, two years before the fair."
    )


async def test_an_antonym_contradicts(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "Regular aerobic exercise increases HDL cholesterol levels in adults.",
        "Regular aerobic exercise decreases HDL cholesterol levels in adults, the study found.",
    )
    assert verdict.verdict == "contradicted"
    assert "increase/decrease" in verdict.rationale


async def test_what_happens_in_opposite_cases_is_no_contradiction(engine: OfflineEngine) -> None:
    claim = (
        "When `auto_parse_qs_csv` is not enabled, the value of the query string is added to "
        "the `req.params` dictionary as a single string."
    )
    other = (
        "When `auto_parse_qs_csv` is enabled, the value of the query string is split into a "
        "list in the `req.params` dictionary."
    )
    assert (await _check(engine, claim, other)).verdict != "contradicted"
    # … one case said both ways is
    denied = claim.replace("is added to", "is not added to")
    assert (await _check(engine, claim, denied)).verdict == "contradicted"


async def test_a_different_name_in_the_same_slot_contradicts(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "Marie Curie was born in Warsaw in 1867.",
        "Marie Curie was born in Paris in 1867 to a family of teachers.",
    )
    assert verdict.verdict == "contradicted"
    assert "Warsaw vs Paris" in verdict.rationale


async def test_the_same_slot_for_different_people_is_not_a_contradiction(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine, "Marie Curie was born in Warsaw.", "Pierre Curie was born in Paris."
    )
    assert verdict.verdict == "unverifiable"


async def test_a_claim_no_other_source_speaks_to_is_unverifiable(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "The Eiffel Tower was repainted for the 19th time in 2019.",
        "Vitamin D is produced in the skin after exposure to sunlight.",
    )
    assert verdict.verdict == "unverifiable"
    assert verdict.confidence == 0.0
    assert verdict.evidence == []


async def test_support_from_better_sources_gives_higher_confidence(
    engine: OfflineEngine,
) -> None:
    claim = "Canberra is the capital city of Australia."
    other = "The capital of Australia is Canberra, a planned city in the ACT."
    weak = await _check(engine, claim, other, quality=0.45)
    strong = await _check(engine, claim, other, quality=0.9)
    assert weak.verdict == strong.verdict == "supported"
    assert strong.confidence > weak.confidence


async def test_a_free_standing_claim_is_checked_against_every_source(
    engine: OfflineEngine,
) -> None:
    corpus = [
        source(
            "D1",
            "Vitamin D and fractures: a randomised trial",
            "We randomised 2,686 adults aged 65 to 85 to vitamin D or placebo every four months "
            "for five years. Vitamin D supplementation reduced the incidence of hip fractures "
            "in older adults by 22%.",
        ),
        source(
            "D2",
            "Coffee and sleep",
            "Caffeine taken six hours before bedtime reduced total sleep time by one hour.",
        ),
    ]
    claim = Claim(
        id="C1",
        text="Vitamin D supplementation reduces the risk of hip fractures in older adults.",
        source_ids=[],
    )
    [verdict] = await engine.verify([claim], corpus)
    assert verdict.verdict == "supported"
    assert {e.source_id for e in verdict.evidence} == {"D1"}


async def test_another_chunk_of_the_same_document_is_not_independent_evidence(
    engine: OfflineEngine,
) -> None:
    sentence = "Canberra is the capital city of Australia."
    chunks: list[Source] = [
        source("S1", "Canberra", sentence, doc_id="doc-7", url="https://example.org/canberra"),
        source("S2", "Canberra", sentence, doc_id="doc-7", url="https://example.org/canberra"),
    ]
    [verdict] = await engine.verify([Claim(id="C1", text=sentence, source_ids=["S1"])], chunks)
    assert verdict.verdict == "unverifiable"


async def test_every_evidence_quote_is_verbatim_from_its_source(engine: OfflineEngine) -> None:
    sources = [
        source("S1", "A", "The Eiffel Tower is 330 metres tall. It was completed in 1889."),
        source("S2", "B", "Standing 330 metres high, the Eiffel Tower dominates the skyline."),
        source("S3", "C", "The Eiffel Tower is 300 metres tall without its antennas."),
    ]
    claim = Claim(id="C1", text="The Eiffel Tower is 330 metres tall.", source_ids=["S1"])
    [verdict] = await engine.verify([claim], sources)
    by_id = {s.id: s for s in sources}
    assert verdict.evidence
    for item in verdict.evidence:
        assert item.quote in by_id[item.source_id].text


async def test_a_negation_in_an_unrelated_clause_does_not_contradict(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Vitamin D supplementation reduces the risk of hip fractures in older adults.",
        "Vitamin D supplementation reduced the risk of hip fractures in older adults, although "
        "it did not change overall mortality.",
    )
    assert verdict.verdict == "supported"


def test_a_shared_name_makes_two_sentences_about_the_same_thing_despite_a_section_label() -> None:
    from backend.reasoning.offline.signals import same_subject

    claim = "A country's GAVI eligibility is not indicative of accelerated adoption of the vaccine."
    evidence = (
        "CONCLUSIONS This study suggests that GAVI eligibility is associated with "
        "accelerated decisions to adopt the vaccine."
    )
    assert same_subject(claim, evidence)
    assert not same_subject(
        "Arthur's Magazine was founded in 1844.", "First for Women was founded in 1989."
    )


async def test_a_finding_moved_the_other_way_contradicts_despite_mixed_directions(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Alirocumab reduces LDL clearance in patients.",
        "The increase in LDL clearance during alirocumab treatment suggests a role in the "
        "reduction of plasma Lp(a) in patients.",
    )
    assert verdict.verdict == "contradicted"
    # Read either as "reduces" and "increase" filling the same slot (LDL clearance) or as
    # LDL clearance moved opposite ways.
    assert "opposite" in verdict.rationale


# False positives of the old rule: a negation, a number or a different requirement in a
# similar sentence is not a contradiction unless it sits on the statement both make.


async def test_a_must_rule_is_not_contradicted_by_a_should_not_rule_for_another_actor(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "A client MUST send a Host header field in all HTTP/1.1 request messages.",
        "A proxy SHOULD NOT forward the Host header field of a request message to an origin "
        "server unchanged.",
    )
    assert verdict.verdict != "contradicted"


async def test_a_different_requirement_on_the_same_field_is_not_a_contradiction(
    engine: OfflineEngine,
) -> None:
    # "MUST send it" and "SHOULD NOT generate a value that differs" are two rules that hold
    # together; the negation governs "generate … that differs", not "send".
    verdict = await _check(
        engine,
        "A client MUST send a Host header field in all HTTP/1.1 request messages.",
        "A client SHOULD NOT generate a Host header field that differs from the authority "
        "component of the target URI.",
    )
    assert verdict.verdict != "contradicted"


async def test_a_number_for_a_different_quantity_is_not_a_contradiction(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "The Eiffel Tower is 330 metres tall.",
        "The Eiffel Tower's top observation deck is 276 metres above the ground.",
    )
    assert verdict.verdict != "contradicted"


async def test_a_negation_in_a_subordinate_clause_about_something_else_does_not_contradict(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Vitamin D supplementation reduces the risk of hip fractures in older adults.",
        "Vitamin D supplementation reduces the risk of hip fractures in older adults who do "
        "not have kidney disease.",
    )
    assert verdict.verdict == "supported"


async def test_a_negation_in_a_leading_although_clause_does_not_contradict(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Metformin lowers blood glucose in patients with type 2 diabetes.",
        "Although metformin was not approved for children until 2000, it lowers blood glucose "
        "in patients with type 2 diabetes.",
    )
    assert verdict.verdict == "supported"


# True contradictions the old rule missed.


async def test_the_same_predicate_negated_contradicts_beside_a_shared_unrelated_negation(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Metformin lowers blood glucose in patients who do not exercise.",
        "Metformin does not lower blood glucose in patients who do not exercise.",
    )
    assert verdict.verdict == "contradicted"
    assert "negation" in verdict.rationale


async def test_five_against_seven_of_the_same_unit_contradicts_across_spellings(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "The TLS handshake must complete within 5 seconds.",
        "The TLS handshake must complete within 7 sec.",
    )
    assert verdict.verdict == "contradicted"
    assert "5 vs 7 (s)" in verdict.rationale


async def test_increases_against_decreases_the_same_thing_contradicts_beside_another_increase(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Caffeine increases alertness in adults.",
        "Caffeine decreases alertness and increases anxiety in adults.",
    )
    assert verdict.verdict == "contradicted"
    assert "increase/decrease" in verdict.rationale


async def test_the_same_rule_under_must_and_must_not_contradicts(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "A client MUST send a Host header field in every request message.",
        "A client MUST NOT send a Host header field in a request message.",
    )
    assert verdict.verdict == "contradicted"


async def test_a_sentence_that_only_sets_the_topic_does_not_support_a_claimed_change(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Metformin reduces the risk of colorectal cancer in patients with diabetes.",
        "OBJECTIVE To determine whether metformin use is associated with the risk of colorectal "
        "cancer in patients with diabetes.",
    )
    assert verdict.verdict == "unverifiable"
    assert "states a change" in verdict.rationale


async def test_a_sentence_stating_the_same_change_in_other_words_supports_it(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Metformin reduces the risk of colorectal cancer in patients with diabetes.",
        "Metformin use was associated with a lower risk of colorectal cancer in patients with "
        "diabetes.",
    )
    assert verdict.verdict == "supported"


async def test_a_study_aim_does_not_support_the_finding_it_asks_about(
    engine: OfflineEngine,
) -> None:
    verdict = await _check(
        engine,
        "Fish oil supplementation in pregnancy lowers the rate of allergy in infants.",
        "The aim of this study was to determine whether fish oil supplementation in pregnancy "
        "lowers the rate of allergy in infants.",
    )
    assert verdict.verdict == "unverifiable"


async def test_a_stated_purpose_of_a_component_still_supports(engine: OfflineEngine) -> None:
    verdict = await _check(
        engine,
        "The GZip middleware compresses responses for clients that accept gzip.",
        "The purpose of the GZip middleware is to compress responses for clients that accept gzip.",
    )
    assert verdict.verdict == "supported"


def test_a_significant_ratio_the_other_way_contradicts_a_claimed_change() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "Regular aspirin use increases the risk of colorectal cancer."
    other = (
        "Regular aspirin use was associated with colorectal cancer risk "
        "(hazard ratio 0.71, 95% CI 0.60-0.85)."
    )
    label, signals = stance(claim, other, 0.8)
    assert label == "contradicts"
    assert "ratio below 1" in signals[0].detail


def test_a_significant_ratio_the_same_way_states_the_claimed_change() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "Regular aspirin use decreases the risk of colorectal cancer."
    other = (
        "Regular aspirin use was associated with colorectal cancer risk "
        "(hazard ratio 0.71, 95% CI 0.60-0.85)."
    )
    assert stance(claim, other, 0.8)[0] == "supports"


def test_a_stated_effect_contradicts_a_claim_of_no_effect() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "Daily folic acid supplements do not alter homocysteine levels in adults."
    other = "In adults, daily folic acid supplements lowered homocysteine levels by 25%."
    label, signals = stance(claim, other, 0.8)
    assert label == "contradicts"
    assert signals[0].kind == "negation"


def test_a_change_in_another_subject_does_not_confirm_a_claim_of_no_effect() -> None:
    from backend.reasoning.offline.verify import stance

    # It used to support: the claim "states a change" (a negation) and so does the sentence.
    claim = "Bright light therapy has no effect on sleep quality in older adults."
    other = "Melatonin increased sleep quality in older adults with insomnia."
    assert stance(claim, other, 0.8)[0] == "neutral"


def test_a_claim_of_no_effect_is_confirmed_by_a_null_finding() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "Vitamin E supplements have no effect on the risk of stroke."
    assert stance(claim, "Vitamin E supplements did not change the risk of stroke.", 0.8)[0] == (
        "supports"
    )
    ratio = "For vitamin E supplements, the relative risk of stroke was 0.98 (95% CI 0.91-1.05)."
    assert stance(claim, ratio, 0.8)[0] == "supports"


def test_a_negation_that_only_narrows_who_is_meant_is_not_a_claim_of_no_effect() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "In patients without diabetes, statins reduce LDL cholesterol."
    other = "Statins reduced LDL cholesterol in patients without diabetes by a third."
    assert stance(claim, other, 0.8)[0] == "supports"


def test_a_question_about_an_effect_does_not_contradict_a_claim_of_no_effect() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "High-dose folic acid does not affect the progression of chronic kidney disease."
    other = (
        "OBJECTIVE To determine whether high-dose folic acid reduces the progression of "
        "chronic kidney disease."
    )
    assert stance(claim, other, 0.8)[0] == "neutral"


def test_a_but_not_that_narrows_the_claim_is_not_a_claim_of_no_effect() -> None:
    from backend.reasoning.offline.verify import null_claim

    assert not null_claim("Metformin lowers glucose output in the liver but not in muscle.")
    assert null_claim("Metformin does not lower glucose output in muscle.")


def test_an_unrelated_thing_named_in_a_claim_is_not_a_claim_of_no_effect() -> None:
    from backend.reasoning.offline.verify import null_claim

    assert not null_claim("Bound transcripts are more stable than unassociated transcripts.")
    assert null_claim("Hip fracture risk is unrelated to statin use.")


def test_an_acronym_in_the_sentence_counts_as_the_claims_spelled_out_words() -> None:
    from backend.reasoning.offline.verify import stance

    # An abstract defines "brown adipose tissue (BAT)" once and uses the letters after.
    claim = "Chenodeoxycholic acid treatment decreases brown adipose tissue activity."
    other = (
        "Treatment of 12 healthy female subjects with CDCA for 2 days resulted in increased "
        "BAT activity."
    )
    label, signals = stance(claim, other, 0.75)
    assert label == "contradicts"
    assert "activity" in signals[0].detail


def test_a_claims_acronym_spelled_out_in_the_sentence_is_named_there() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "Enabling TLS increases the latency of the first request."
    other = "Enabling Transport Layer Security reduces the latency of the first request."
    assert stance(claim, other, 0.75)[0] == "contradicts"
    agreeing = "Enabling Transport Layer Security increases the latency of the first request."
    assert stance(claim, agreeing, 0.75)[0] == "supports"


def test_initials_that_only_happen_to_match_are_not_an_acronym() -> None:
    from backend.reasoning.offline.signals import spelled_out

    # Stopwords do not spell: "the last session" is not "TLS"; two capitals are too few.
    assert spelled_out("Close the last session first.", "Enable TLS first.") == frozenset()
    assert spelled_out("Hazard ratio was high.", "The HR was high.") == frozenset()
    assert spelled_out("Enable transport layer security.", "Enable TLS.") == {
        "transport",
        "layer",
        "secur",
    }


def test_a_lowered_judgement_takes_the_other_side_of_its_axis() -> None:
    from backend.reasoning.offline.verify import stance

    # "decreased susceptibility" is resistance, not its opposite.
    claim = "N348I mutations cause resistance to nevirapine."
    agreeing = "N348I mutations decreased susceptibility to nevirapine."
    assert stance(claim, agreeing, 0.75)[0] == "supports"
    opposite = "N348I mutations increased susceptibility to nevirapine."
    assert stance(claim, opposite, 0.75)[0] == "contradicts"
    claim = "The new parser is effective at rejecting malformed headers."
    lowered = "The new parser showed reduced effectiveness at rejecting malformed headers."
    assert stance(claim, lowered, 0.75)[0] == "contradicts"


def _read(claim: str, sentences: list[str], cosines: list[float]) -> Verdict:
    """The verdict from one other source whose sentences have these cosines to the claim."""
    import numpy as np

    from backend.reasoning.offline.claims import Candidate
    from backend.reasoning.offline.verify import _verify

    other = source("S2", "Other", " ".join(sentences))
    cands = [Candidate(index=i, source=other, text=s) for i, s in enumerate(sentences)]
    return _verify(
        Claim(id="C1", text=claim, source_ids=[]), [other], {"S2": cands}, np.array(cosines)
    )


ASPIRIN = "Daily aspirin reduces the risk of colorectal cancer in adults."
ASPIRIN_TOPIC = [
    "The risk of colorectal cancer in adults taking daily aspirin was the primary outcome.",
    "Daily aspirin and the risk of colorectal cancer in adults were recorded for ten years.",
]


def test_the_third_closest_sentence_of_a_source_is_read() -> None:
    # Abstracts open with the topic and the aim; the finding often ranks third.
    finding = (
        "Among adults, those on daily aspirin had 30% fewer colorectal cancers than those on "
        "placebo."
    )
    verdict = _read(ASPIRIN, [*ASPIRIN_TOPIC, finding], [0.95, 0.92, 0.80])
    assert verdict.verdict == "supported"
    assert verdict.evidence[0].quote == finding


def test_a_loosely_similar_sentence_supports_but_does_not_contradict() -> None:
    # Cosine 0.52: read for support (the claim's words and its change are there), but a
    # contradiction still needs cosine 0.55.
    agreeing = "In adults, daily aspirin lowered the risk of colorectal cancer."
    assert _read(ASPIRIN, [agreeing], [0.52]).verdict == "supported"
    opposite = "In adults, daily aspirin increased the risk of colorectal cancer."
    assert _read(ASPIRIN, [opposite], [0.52]).verdict == "unverifiable"
    assert _read(ASPIRIN, [opposite], [0.56]).verdict == "contradicted"


def test_five_of_nine_claim_words_with_a_stated_change_support() -> None:
    from backend.reasoning.offline.verify import stance

    claim = "Regular exercise lowers resting blood pressure in older adults with hypertension."
    other = (
        "In older adults, blood pressure at rest fell after a year of training three times a week."
    )
    assert stance(claim, other, 0.66)[0] == "supports"


def test_without_narrows_who_is_meant_and_does_not_negate_the_statement() -> None:
    from backend.reasoning.offline.verify import stance

    # Two conditions, both of which can hold: no conflict.
    claim = "The proxy caches responses for clients with cookies."
    other = "The proxy caches responses for clients without cookies."
    assert stance(claim, other, 0.75)[0] != "contradicts"
    negated = "The proxy does not cache responses for clients with cookies."
    assert stance(claim, negated, 0.75)[0] == "contradicts"


def test_positional_arguments_are_not_arguments_moving_up() -> None:
    # "positional" stems like "positive"; Click 8.1.7's docs had this pair shown as a conflict.
    label, _ = stance(
        "Options in click are distinct from positional arguments.",
        "options are fully documented in the help page, arguments are not",
        0.6,
    )
    assert label == "neutral"


def test_support_that_ends_agrees_with_no_longer_supported() -> None:
    # cachetools 8.0.2, read by a new user: its changelog's release note and the page it
    # changed say the same, and were shown as a conflict.
    page = (
        "Changed in version 8.0: Passing `None` as the `cache` parameter is no longer "
        "supported, and now raises a `TypeError`."
    )
    assert stance("Drop support for `@cached(cache=None)`.", page, 0.8)[0] != "contradicts"
    # support dropped is still contested by support kept
    label, _ = stance("We dropped support for Python 2.", "Python 2 is still supported.", 0.8)
    assert label == "contradicts"


def test_a_signature_alone_supports_no_statement() -> None:
    signature = (
        "`ttl_cache(user_function)`: ttl_cache(maxsize=128, ttl=600, timer=time.monotonic, "
        "typed=False)"
    )
    assert stance("Add `@ttl_cache` function decorator.", signature, 0.72)[0] == "neutral"
    # a sentence saying it in words does
    said = "The `ttl_cache` function decorator caches results for `ttl` seconds."
    assert stance("Add `@ttl_cache` function decorator.", said, 0.72)[0] == "supports"
    # a finding reported as a ratio is no code
    assert not only_code("OR 2.77 (95% CI 1.04 to 7.97)")


def test_a_lead_in_to_an_example_contradicts_nothing() -> None:
    # dateutil's relativedelta page: each line leads into a `>>>` example
    claim = "The logic for years is the same, even on leap years."
    assert stance(claim, "But not in a leap year:", 0.8)[0] != "contradicts"
    assert stance(claim, "But not in a leap year.", 0.8)[0] == "contradicts"


def test_a_contrast_after_a_comma_does_not_negate_the_sentence() -> None:
    # portalocker 4.4.2's docs, read by a new user: two pages saying the same thing were
    # shown as a conflict ("negation mismatch") for the "not per process" of one of them.
    claim = (
        "portalocker's `Lock` opens its own filehandle, so with the default `flock` two `Lock` "
        "objects on the same path in the same process still exclude each other."
    )
    other = (
        "Locking is per open filehandle, not per process: two `Lock` instances on the same "
        "path in the same process still contend with each other."
    )
    assert stance(claim, other, 0.6)[0] != "contradicts"
    # The predicate itself negated is still a conflict.
    negated = "Two `Lock` objects on the same path in the same process do not exclude each other."
    assert stance(claim, negated, 0.6)[0] == "contradicts"
