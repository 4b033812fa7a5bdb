"""One normaliser and one quote rule, for evidence and citations alike."""

from __future__ import annotations

from marsa_common.text import MIN_QUOTE_WORDS, normalise, quote_holds

TEXT = "Spring tides happen a day or two after the\n full moon."


def test_whitespace_runs_become_one_space_and_case_is_folded() -> None:
    assert normalise("  The \t Full\n\nMoon ") == "the full moon"


def test_a_quote_found_verbatim_whitespace_and_case_aside_holds() -> None:
    assert quote_holds("after the FULL   moon", TEXT)


def test_a_quote_not_in_the_text_does_not_hold() -> None:
    assert not quote_holds("after the new moon", TEXT)


def test_a_quote_shorter_than_the_minimum_does_not_hold_even_when_found() -> None:
    assert MIN_QUOTE_WORDS == 3
    assert not quote_holds("full moon", TEXT)
    assert not quote_holds("   ", TEXT)
