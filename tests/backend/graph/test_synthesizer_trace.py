"""The synthesizer's trace line on the answer: what a reader of the live trace sees."""

from __future__ import annotations

from backend.graph.nodes.synthesizer import basis_line


def test_the_answers_basis_is_said_in_words_not_as_internal_fields() -> None:
    # new users read "answer found: asked lookup, score 0.62209, coverage 0.6093, similarity
    # 0.416, cue True, hop 1, denied False" as noise
    basis = {
        "asked": "lookup",
        "score": 0.62209,
        "coverage": 0.6093,
        "similarity": 0.416,
        "cue": True,
        "hop": 1,
        "denied": False,
    }
    line = basis_line(True, basis)
    assert line == (
        "answer found for a lookup question: the passage chosen holds 61% of the question's "
        "words, 0.42 close in meaning"
    )
    assert "score" not in line and "cue" not in line and "denied" not in line
    missing = basis_line(False, {**basis, "asked": "yes_no", "cue": False, "hop": 2})
    assert missing.startswith("answer not found for a yes/no question: ")
    assert missing.endswith("without the kind of thing asked for, found by search 2 of a chain")
    denied = basis_line(False, {**basis, "denied": True})
    assert denied == (
        "answer not found for a lookup question: the sources deny what the question takes for "
        "granted"
    )
