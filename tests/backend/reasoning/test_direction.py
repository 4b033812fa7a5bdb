"""Which way each word moves, and the contradiction read from it."""

from __future__ import annotations

from backend.reasoning.offline.direction import (
    direction_signal,
    directions,
    ratio_conflict,
    ratio_direction,
)


def test_a_word_takes_the_direction_of_the_movement_word_before_it() -> None:
    moved = directions("PPM1D mutations attenuated p53 activation in vitro.")
    assert moved["p53"] == -1


def test_a_negated_decrease_moves_a_word_up() -> None:
    assert directions("Vitamin D did not reduce fractures in the trial.")["fractur"] == 1


def test_a_movement_after_a_form_of_be_counts() -> None:
    assert directions("Sympathetic nerve activity is increased during pregnancy.")["activ"] == 1


def test_a_shared_word_moved_opposite_ways_is_a_contradiction_despite_mixed_directions() -> None:
    # The evidence says both "increase" and "reduction", so the clause-wide antonym count is
    # ambiguous; per word, LDL clearance goes down in the claim and up in the evidence.
    signal = direction_signal(
        "Alirocumab reduces LDL clearance in patients.",
        "The increase in LDL clearance during alirocumab treatment suggests a role in the "
        "reduction of plasma Lp(a) in patients.",
    )
    assert signal is not None
    assert signal.kind == "antonym"
    assert "clearance" in signal.detail


def test_words_moved_the_same_way_are_no_contradiction() -> None:
    signal = direction_signal(
        "Exercise lowers blood pressure in adults.",
        "In the trial, regular exercise reduced blood pressure in adults.",
    )
    assert signal is None


def test_a_modifier_of_different_nouns_moving_opposite_ways_is_no_contradiction() -> None:
    claim = "Dexamethasone increases risk of postoperative bleeding."
    other = "Dexamethasone is widely used to prevent postoperative nausea and vomiting."
    assert direction_signal(claim, other) is None
    # the same noun after it still conflicts
    assert direction_signal(claim, "Dexamethasone prevents postoperative bleeding.") is not None


def test_a_ratio_whose_interval_excludes_one_states_which_way_the_outcome_moves() -> None:
    assert ratio_direction("The odds ratio for stroke was 2.10 (95% CI 1.30 to 3.40).") == 1
    assert ratio_direction("Statin users had fewer fractures (HR, 0.64; 95% CI, 0.50-0.81).") == -1
    remission = "Relative risk of remission was 4.2 (95% confidence interval, 1.9-9.0)."
    assert ratio_direction(remission) == 1


def test_a_ratio_whose_interval_spans_one_or_that_disagrees_says_nothing() -> None:
    assert ratio_direction("The hazard ratio for death was 0.91 (95% CI 0.78-1.06).") == 0
    mixed = "Hazard ratios were 1.40 (1.10-1.80) for stroke and 0.70 (0.55-0.89) for death."
    assert ratio_direction(mixed) == 0
    # an absolute difference after a ratio is not a ratio
    assert ratio_direction("OR, 1.02 [95% CI, 0.88 to 1.19]; ARR, 3.1 [95% CI, 1.2 to 5.0].") == 0


def test_a_significant_ratio_against_the_claims_direction_is_a_conflict() -> None:
    claim = "Smoking decreases the risk of bladder cancer in men."
    other = "Among men, the odds ratio for bladder cancer in smokers was 3.1 (95% CI 2.2-4.4)."
    signal = ratio_conflict(claim, other)
    assert signal is not None and signal.kind == "antonym"
    assert ratio_conflict("Smoking increases the risk of bladder cancer in men.", other) is None


def test_a_ratio_is_no_conflict_when_the_claim_moves_shared_words_both_ways() -> None:
    # exposure down, outcome up: the ratio does not say which one it measures
    claim = "Lower vitamin D levels increase the risk of fractures."
    other = "For low vitamin D levels, the hazard ratio for fractures was 1.8 (95% CI 1.2-2.6)."
    assert ratio_conflict(claim, other) is None
