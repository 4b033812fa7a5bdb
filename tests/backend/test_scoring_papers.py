"""Papers are scored by venue, publication date and abstract (backend.scoring, kind="paper")."""

from __future__ import annotations

from datetime import date

import pytest

from backend.scoring import abstract_depth, paper_authority, score_source

NOW = date(2024, 5, 15)


@pytest.mark.parametrize(
    "venue",
    [
        "arXiv (Cornell University)",
        "Communications of the ACM",
        "IEEE Transactions on Pattern Analysis and Machine Intelligence",
        "Nature",
        "Nature Communications",
        "Science",
        "Empirical Methods in Natural Language Processing",
    ],
)
def test_a_paper_in_a_publication_tier_venue_scores_085(venue: str) -> None:
    assert paper_authority("https://doi.org/10.1/x", venue) == (0.85, f"publication ({venue})")


def test_a_paper_in_another_journal_scores_080_naming_the_journal() -> None:
    found = paper_authority("https://doi.org/10.1000/x", "Journal of Library Science")
    assert found == (0.80, "journal or conference (Journal of Library Science)")


def test_a_paper_without_a_venue_is_scored_by_a_publication_url() -> None:
    assert paper_authority("https://arxiv.org/abs/2005.11401", None)[0] == 0.85


def test_a_paper_without_a_venue_or_a_known_url_scores_the_indexed_paper_floor() -> None:
    assert paper_authority("https://openalex.org/W1", None) == (0.60, "paper with no known venue")


@pytest.mark.parametrize(
    ("words", "depth"), [(0, 0.4), (1, 0.5), (99, 0.5), (100, 0.6), (900, 0.6)]
)
def test_a_papers_depth_comes_from_its_abstracts_length(words: int, depth: float) -> None:
    assert abstract_depth(words) == depth


def test_abstract_depth_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError):
        abstract_depth(-1)


def test_a_paper_is_scored_by_venue_publication_date_and_abstract() -> None:
    result = score_source(
        "https://doi.org/10.1038/x",
        kind="paper",
        published="2024-04-01",
        word_count=150,
        now=NOW,
        venue="Nature",
    )
    assert (result.domain, result.recency, result.depth) == (0.85, 1.0, 0.6)
    assert result.final == round(0.4 * 0.85 + 0.3 * 1.0 + 0.3 * 0.6, 4)
