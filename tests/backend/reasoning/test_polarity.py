"""Opposite-term axes."""

from __future__ import annotations

from backend.reasoning.offline.polarity import polarity


def test_unrelated_is_the_opposite_side_of_associated() -> None:
    assert polarity("Air pollution is unrelated to anxiety.") == {"associated/unrelated": {1}}
    assert polarity("Air pollution was associated with anxiety.") == {"associated/unrelated": {0}}


def test_resistant_is_the_opposite_side_of_susceptible() -> None:
    assert polarity("Knockout mice were resistant to obesity.") == {"susceptible/resistant": {1}}
    assert polarity("Knockout mice were prone to obesity.") == {"susceptible/resistant": {0}}


def test_activity_names_a_thing_and_takes_no_side() -> None:
    # "activity" stems like "activate", but "T cell activity" does not promote anything.
    assert polarity("T cell activity was measured.") == {}
    assert polarity("IL-2 activates T cells.") == {"promotes/inhibits": {0}}


def test_underestimate_is_the_opposite_side_of_overestimate() -> None:
    assert polarity("The score overestimates risk.") == {"overestimate/underestimate": {0}}
    assert polarity("The score underestimated risk.") == {"overestimate/underestimate": {1}}


def test_independent_is_the_opposite_side_of_dependent() -> None:
    assert polarity("Growth is dependent on insulin.") == {"dependent/independent": {0}}
    assert polarity("Growth is independent of insulin.") == {"dependent/independent": {1}}


def test_a_position_or_a_presentation_takes_no_side() -> None:
    # They stem like "positive" and "present".
    assert polarity("Pass positional arguments in this position.") == {}
    assert polarity("The presentation was presented by the presenter.") == {}
    assert polarity("The result was positive.") == {"positive/negative": {0}}
