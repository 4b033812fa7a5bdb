"""Is a disagreement between two sentences about the same statement?"""

from __future__ import annotations

import pytest

from backend.reasoning.offline.align import MIN_SHARED, aligned_conflicts, shared_share
from backend.reasoning.offline.signals import same_subject


def test_a_claims_own_short_form_is_named_by_its_long_form() -> None:
    # "FA" is the claim's own short form of "folic acid": the other sentence need not
    # repeat it to be about the same thing.
    claim = "Intake of folic acid (FA) increases levels of homocysteine."
    other = "Folic acid decreases homocysteine levels in this population."
    assert {s.kind for s in aligned_conflicts(claim, other)} == {"antonym"}


def test_a_claims_long_form_is_named_by_its_short_form() -> None:
    claim = "Infection with Chikungunya virus (CHIKV) increases joint pain in adults."
    other = "CHIKV infection decreases joint pain in adults."
    assert {s.kind for s in aligned_conflicts(claim, other)} == {"antonym"}


def test_a_short_form_and_its_long_form_count_once_as_shared_content() -> None:
    claim = "HbA1c overestimates glycemic control in black adults with sickle cell trait (SCT)."
    other = "HbA1c may underestimate past glycemia in black patients with SCT."
    assert shared_share(claim, other) >= MIN_SHARED


def test_overestimate_against_underestimate_of_the_same_thing_contradicts() -> None:
    claim = "HbA1c overestimates glycemic control in black adults with sickle cell trait (SCT)."
    other = "HbA1c may systematically underestimate past glycemia in black patients with SCT."
    assert [s.detail for s in aligned_conflicts(claim, other)] == ["overestimate/underestimate"]


def test_incapable_of_negates_what_follows() -> None:
    claim = "Rats are incapable of producing neutralizing antibodies against the virus."
    other = "Rats produced neutralizing antibodies against the virus after a single dose."
    assert [s.kind for s in aligned_conflicts(claim, other)] == ["negation"]


def test_an_irregular_plural_is_the_same_subject_as_its_singular() -> None:
    claim = "Mice are incapable of producing neutralizing antibodies against the virus."
    other = "The vaccine produced neutralizing antibodies against the virus in two mouse models."
    assert [s.kind for s in aligned_conflicts(claim, other)] == ["negation"]


def test_a_name_in_the_claims_leading_scope_need_not_be_repeated() -> None:
    # An abstract names its population once; its finding does not say "British" again.
    claim = "In British men, haplogroup I decreases risk of cardiovascular disease."
    other = (
        "The association between haplogroup I and increased risk of coronary artery disease "
        "was independent of traditional cardiovascular risk factors."
    )
    assert {s.kind for s in aligned_conflicts(claim, other)} == {"antonym"}


def test_a_leading_scope_is_not_the_name_a_claim_opens_with() -> None:
    claim = "In British Men, haplogroup I decreases risk of cardiovascular disease."
    other = "Carriers of haplogroup I had a 50% higher risk of coronary artery disease."
    assert same_subject(claim, other)


def test_a_graded_judgement_keeps_its_slot() -> None:
    # "more" grades "accurate"; it does not end the slot "monitoring … accurate".
    claim = "Ambulatory blood pressure monitoring is inaccurate at diagnosing hypertension."
    other = (
        "Ambulatory monitoring is more accurate than both clinic and home monitoring in "
        "diagnosing hypertension."
    )
    assert [s.detail for s in aligned_conflicts(claim, other)] == ["true/false"]


def test_a_leading_baseline_is_not_the_name_a_sentence_opens_with() -> None:
    claim = "Decreased diastolic blood pressure is associated with abdominal aortic aneurysm."
    other = (
        "Compared with Systolic pressure, raised diastolic blood pressure had a greater effect "
        "on abdominal aortic aneurysm."
    )
    assert same_subject(claim, other)


def test_a_species_is_named_by_its_abbreviated_genus() -> None:
    claim = "In macaques, TH17 cells decrease dissemination of Salmonella Typhimurium from the gut."
    other = "TH17 cells increased dissemination of S. typhimurium from the gut."
    assert {s.kind for s in aligned_conflicts(claim, other)} == {"antonym"}


def test_a_hyphenated_opposite_term_takes_the_other_side() -> None:
    claim = "Ca2+ cycling is a UCP1-dependent thermogenic mechanism."
    other = "Conversely, enhanced Ca2+ cycling stimulates UCP1-independent thermogenesis."
    assert [s.detail for s in aligned_conflicts(claim, other)] == ["dependent/independent"]


def test_a_different_rate_of_the_same_thing_contradicts() -> None:
    claim = "One in two surgical randomized controlled trials are discontinued early."
    other = "One in five surgical randomised controlled trials are discontinued early."
    assert [s.kind for s in aligned_conflicts(claim, other)] == ["number"]


def test_a_rate_of_another_thing_in_the_sentence_does_not_contradict() -> None:
    claim = "One in five surgical randomized controlled trials are discontinued early."
    other = (
        "Surgical randomised controlled trials are discontinued early, and one in three "
        "completed trials remain unpublished."
    )
    assert aligned_conflicts(claim, other) == []


@pytest.mark.parametrize(
    ("claim", "other"),
    [
        # the reader's choice: what someone wants or is bound to, not what a thing does
        (
            "And you don't want to see log entries from the function.",
            "This is useful if you want to see your log entries within logging.",
        ),
        (
            "The loggers are very fast, but you're not bound to the loggers.",
            "You are bound to the loggers the library gives you.",
        ),
        # a negation inside an opening condition denies nothing the sentence states
        (
            "If you tell attrs to not write an init method, it writes an attrs_init method.",
            "attrs will write an init method and an attrs_init method.",
        ),
    ],
)
def test_a_negation_of_the_readers_choice_or_in_a_condition_is_no_conflict(
    claim: str, other: str
) -> None:
    assert not [s for s in aligned_conflicts(claim, other) if s.kind == "negation"]


def test_a_negation_of_what_a_thing_does_still_conflicts() -> None:
    claim = "The middleware does not compress responses smaller than 500 bytes."
    other = "The middleware compresses responses smaller than 500 bytes."
    assert "negation" in {s.kind for s in aligned_conflicts(claim, other)}


def test_a_table_rows_next_label_is_no_value_in_a_slot() -> None:
    from backend.reasoning.offline.signals import contradiction_signals

    # two pages' tables list the same driver with different next columns: no disagreement
    a = "SQLite: Driver: cysqlite; Command: `runtests.py -e cysqlite`"
    b = "Sqlite (alternate): Driver: `cysqlite`; Implementation: `CySqliteDatabase`"
    assert contradiction_signals(a, b) == []
    # a name filling the slot is still a value
    founded = "The hotel was founded in Paris by Ritz."
    other = "The hotel was founded in London by Ritz."
    assert [s.kind for s in contradiction_signals(founded, other)] == ["value"]
