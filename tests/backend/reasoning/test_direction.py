"""Which way each word moves, and the contradiction read from it."""

from __future__ import annotations

from backend.reasoning.offline.direction import direction_signal, directions


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
