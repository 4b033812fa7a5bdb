"""SciFact verification figures: per-half scores."""

from __future__ import annotations

from backend.evals.scifact_verify import halves


def test_halves_split_the_claims_with_the_odd_one_in_the_first_half() -> None:
    gold = ["CONTRADICT", "SUPPORT", "CONTRADICT", "CONTRADICT", "SUPPORT"]
    predicted = ["CONTRADICT", "CONTRADICT", "SUPPORT", "CONTRADICT", "SUPPORT"]
    parts = halves(gold, predicted)
    assert parts["first"]["claims"] == 3
    assert parts["last"]["claims"] == 2
    # First half: CONTRADICT predicted twice, right once; last half: predicted once, right.
    assert parts["first"]["contradict_precision"] == 0.5
    assert parts["last"]["contradict_precision"] == 1.0
