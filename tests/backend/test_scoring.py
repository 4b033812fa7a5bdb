"""Source-quality scoring: domain authority, recency, depth and their weighted sum."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest

from backend.scoring import (
    WEIGHTS,
    SourceScore,
    depth_score,
    domain_authority,
    recency_score,
    score_source,
)

NOW = date(2024, 5, 15)

# --- domain authority: tiers ------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "suffix"),
    [
        ("https://cs.stanford.edu/people/x", "edu"),
        ("https://www.nih.gov/news", "gov"),
        ("https://pubmed.ncbi.nlm.nih.gov/123/", "gov"),
        ("https://www.army.mil/article/1", "mil"),
        ("https://www.who.int/news", "int"),
        ("https://www.gov.uk/guidance/x", "gov.uk"),
        ("https://www.cs.ox.ac.uk/people/x", "ac.uk"),
        ("https://www.unimelb.edu.au/x", "edu.au"),
        ("https://www.u-tokyo.ac.jp/en/", "ac.jp"),
    ],
)
def test_government_and_academic_hosts_score_090_naming_their_suffix(url: str, suffix: str) -> None:
    assert domain_authority(url, "web") == (0.90, f"government/academic (.{suffix})")


@pytest.mark.parametrize(
    "url",
    [
        "https://gov.example.com/report",
        "https://example.gov.evil.com/report",
        "https://education.com/x",
    ],
)
def test_a_gov_or_edu_label_that_is_not_the_suffix_does_not_count(url: str) -> None:
    assert domain_authority(url, "web")[0] == 0.40


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/abs/2401.00001",
        "https://dl.acm.org/doi/10.1145/1",
        "https://ieeexplore.ieee.org/document/1",
        "https://www.nature.com/articles/x",
        "https://www.sciencedirect.com/science/article/x",
        "https://journals.plos.org/plosone/article?id=x",
        "https://www.nejm.org/doi/full/x",
    ],
)
def test_publications_score_085(url: str) -> None:
    score, reason = domain_authority(url, "web")
    assert (score, reason.split(" (")[0]) == (0.85, "publication")


@pytest.mark.parametrize(
    "url",
    [
        "https://www.reuters.com/world/x",
        "https://apnews.com/article/x",
        "https://www.bbc.co.uk/news/x",
        "https://www.bbc.com/news/x",
        "https://www.nytimes.com/2024/01/01/x.html",
        "https://www.ft.com/content/x",
    ],
)
def test_major_news_scores_085(url: str) -> None:
    score, reason = domain_authority(url, "web")
    assert (score, reason.split(" (")[0]) == (0.85, "major news")


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.python.org/3/library/asyncio.html",
        "https://developer.mozilla.org/en-US/docs/Web/HTTP",
        "https://www.w3.org/TR/html52/",
        "https://www.rfc-editor.org/rfc/rfc9110",
        "https://datatracker.ietf.org/doc/html/rfc9110",
        "https://go.dev/ref/spec",
    ],
)
def test_language_and_standards_bodies_docs_score_085(url: str) -> None:
    score, reason = domain_authority(url, "web")
    assert (score, reason.split(" (")[0]) == (0.85, "standards documentation")


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.rs/tokio/latest/tokio/",
        "https://requests.readthedocs.io/en/latest/",
        "https://learn.microsoft.com/en-us/azure/x",
        "https://developer.apple.com/documentation/swiftui",
        "https://kubernetes.io/docs/concepts/",
        "https://pytorch.org/docs/stable/index.html",
        "https://www.python.org/downloads/",
        "https://go.dev/blog/x",
    ],
)
def test_official_documentation_scores_080(url: str) -> None:
    assert domain_authority(url, "web")[0] == 0.80


def test_the_most_specific_listed_suffix_wins() -> None:
    assert domain_authority("https://docs.python.org/3/", "web")[0] == 0.85
    assert domain_authority("https://www.python.org/about/", "web")[0] == 0.80


def test_a_docs_subdomain_is_official_documentation_whatever_its_parent_tier() -> None:
    assert domain_authority("https://docs.anthropic.com/en/api", "web") == (
        0.80,
        "official documentation (docs.anthropic.com)",
    )


def test_a_docs_path_on_an_unlisted_vendor_site_is_official_documentation() -> None:
    score, reason = domain_authority("https://cloud.google.com/bigquery/docs/tables", "web")
    assert (score, reason) == (0.80, "official documentation (/docs/ path on cloud.google.com)")


@pytest.mark.parametrize(
    "url",
    [
        "https://netflixtechblog.com/x",
        "https://engineering.fb.com/2024/01/01/x",
        "https://blog.cloudflare.com/x",
        "https://aws.amazon.com/blogs/machine-learning/x",
        "https://ai.googleblog.com/2023/x.html",
        "https://research.google/blog/x",
        "https://openai.com/research/gpt-4",
        "https://www.anthropic.com/news/x",
        "https://huggingface.co/blog/x",
    ],
)
def test_big_company_engineering_and_research_blogs_score_075(url: str) -> None:
    score, reason = domain_authority(url, "web")
    assert (score, reason.split(" (")[0]) == (0.75, "engineering blog")


@pytest.mark.parametrize("url", ["https://aws.amazon.com/ec2/", "https://openai.com/researchers"])
def test_a_path_listed_entry_does_not_cover_the_rest_of_its_host(url: str) -> None:
    assert domain_authority(url, "web")[0] == 0.40


@pytest.mark.parametrize(
    "url",
    [
        "https://martinfowler.com/articles/x.html",
        "https://jvns.ca/blog/x",
        "https://simonwillison.net/2024/x",
        "https://lilianweng.github.io/posts/x",
    ],
)
def test_well_known_individual_blogs_score_070(url: str) -> None:
    assert domain_authority(url, "web") == (0.70, f"individual blog ({url.split('/')[2]})")


@pytest.mark.parametrize(
    "url",
    [
        "https://blog.example.com/post",
        "https://someone.blogspot.com/2024/x.html",
        "https://myblog.net/x",
        "https://example.com/blog/post",
    ],
)
def test_other_blog_hosts_and_paths_score_065(url: str) -> None:
    assert domain_authority(url, "web")[0] == 0.65


def test_a_host_merely_containing_blog_inside_a_word_is_not_a_blog() -> None:
    assert domain_authority("https://weblogic.com/x", "web")[0] == 0.40


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://stackoverflow.com/questions/1", 0.65),
        ("https://math.stackexchange.com/questions/1", 0.65),
        ("https://en.wikipedia.org/wiki/X", 0.65),
        ("https://medium.com/@someone/x", 0.55),
        ("https://someone.medium.com/x", 0.55),
        ("https://dev.to/someone/x", 0.55),
        ("https://someone.hashnode.dev/x", 0.55),
        ("https://www.reddit.com/r/python/comments/x", 0.50),
        ("https://old.reddit.com/r/python/", 0.50),
        ("https://www.quora.com/x", 0.50),
    ],
)
def test_community_sites_score_between_050_and_065(url: str, expected: float) -> None:
    assert domain_authority(url, "web")[0] == expected


def test_an_unlisted_host_is_unknown_and_named_in_the_reason() -> None:
    assert domain_authority("https://example.com/article", "web") == (0.40, "unknown (example.com)")


def test_a_lookalike_host_does_not_inherit_a_listed_domain() -> None:
    assert domain_authority("https://evilarxiv.org/abs/1", "web")[0] == 0.40


# --- domain authority: host normalisation ------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://www.arxiv.org/abs/1",
        "https://ARXIV.ORG/abs/1",
        "HTTPS://WWW.ArXiv.Org/abs/1",
        "https://arxiv.org:443/abs/1",
        "http://arxiv.org:8080",
        "https://arxiv.org./abs/1",
        "https://user@arxiv.org/abs/1",
        "arxiv.org/abs/1",
        "  https://arxiv.org/abs/1  ",
    ],
)
def test_host_is_normalised_before_lookup(url: str) -> None:
    assert domain_authority(url, "web") == (0.85, "publication (arxiv.org)")


def test_a_subdomain_inherits_its_listed_parent() -> None:
    assert domain_authority("https://blog.arxiv.org/2024/x", "web") == (
        0.85,
        "publication (arxiv.org)",
    )


@pytest.mark.parametrize("url", ["file:///home/u/page.html", "ftp://arxiv.org/x", ""])
def test_a_web_source_without_an_http_host_is_unknown(url: str) -> None:
    assert domain_authority(url, "web")[0] == 0.40


def test_a_web_source_without_a_url_is_unknown() -> None:
    assert domain_authority(None, "web") == (0.40, "unknown (no URL)")


def test_an_unknown_kind_is_rejected() -> None:
    kind: Any = "rss"
    with pytest.raises(ValueError, match="rss"):
        domain_authority("https://arxiv.org", kind)


# --- domain authority: local documents and GitHub ---------------------------------


@pytest.mark.parametrize("url", [None, "/home/u/report.pdf", "text:My notes", "report.pdf"])
def test_a_local_document_without_a_web_url_scores_070(url: str | None) -> None:
    assert domain_authority(url, "docs") == (0.70, "local document (user-ingested)")


def test_a_local_document_ingested_from_a_web_page_is_scored_by_its_url() -> None:
    assert domain_authority("https://www.nature.com/articles/x", "docs") == (
        0.85,
        "publication (nature.com)",
    )


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("github_code", 0.60), ("github_issue", 0.50), ("github_repo", 0.70)],
)
def test_a_github_result_without_a_url_is_scored_by_its_kind(kind: Any, expected: float) -> None:
    assert domain_authority(None, kind)[0] == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/encode/httpx/blob/abc123/httpx/_client.py", 0.60),
        ("https://github.com/encode/httpx/blob/abc123/README.md", 0.70),
        ("https://github.com/encode/httpx/blob/master/docs/quickstart.md", 0.70),
        ("https://raw.githubusercontent.com/encode/httpx/master/README.md", 0.70),
    ],
)
def test_a_github_code_url_to_a_readme_or_docs_path_scores_higher(
    url: str, expected: float
) -> None:
    assert domain_authority(url, "github_code")[0] == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/encode/httpx/issues/12", 0.50),
        ("https://github.com/encode/httpx/pull/34", 0.50),
        ("https://github.com/encode/httpx/discussions/56", 0.50),
        ("https://github.com/encode/httpx", 0.70),
        ("https://github.com/encode/httpx/wiki/Home", 0.70),
        ("https://github.com/encode/httpx/blob/master/httpx/_api.py", 0.60),
    ],
)
def test_a_github_url_found_on_the_web_is_classified_by_its_path(url: str, expected: float) -> None:
    assert domain_authority(url, "web")[0] == expected


def test_a_github_kind_with_a_non_github_url_falls_back_to_its_kind() -> None:
    assert domain_authority("https://example.com/x", "github_issue")[0] == 0.50


def test_github_documentation_site_is_official_documentation_not_repository_content() -> None:
    assert domain_authority("https://docs.github.com/en/rest", "web")[0] == 0.80


# --- recency -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("published", "expected"),
    [
        (date(2024, 5, 15), 1.0),  # today
        (date(2024, 2, 15), 1.0),  # exactly 3 months: last day of the top tier
        (date(2024, 2, 14), 0.8),  # first day older than 3 months
        (date(2023, 11, 15), 0.8),  # exactly 6 months
        (date(2023, 11, 14), 0.6),
        (date(2023, 5, 15), 0.6),  # exactly 12 months
        (date(2023, 5, 14), 0.4),
        (date(2010, 1, 1), 0.4),
    ],
)
def test_recency_tiers_end_exactly_on_calendar_month_boundaries(
    published: date, expected: float
) -> None:
    assert recency_score(published, NOW) == expected


@pytest.mark.parametrize(
    ("now", "published", "expected"),
    [
        # 3 months before 31 May 2024 is 29 Feb (leap year), the day clamped to the month.
        (date(2024, 5, 31), date(2024, 2, 29), 1.0),
        (date(2024, 5, 31), date(2024, 2, 28), 0.8),
        (date(2023, 5, 31), date(2023, 2, 28), 1.0),
        (date(2023, 5, 31), date(2023, 2, 27), 0.8),
        # 6 months before 31 Aug 2024 is 29 Feb 2024.
        (date(2024, 8, 31), date(2024, 2, 29), 0.8),
        (date(2024, 8, 31), date(2024, 2, 28), 0.6),
        # 12 months before 29 Feb 2024 is 28 Feb 2023.
        (date(2024, 2, 29), date(2023, 2, 28), 0.6),
        (date(2024, 2, 29), date(2023, 2, 27), 0.4),
        # Across a year boundary: 3 months before 15 Jan 2024 is 15 Oct 2023.
        (date(2024, 1, 15), date(2023, 10, 15), 1.0),
        (date(2024, 1, 15), date(2023, 10, 14), 0.8),
    ],
)
def test_recency_clamps_month_ends_and_crosses_years(
    now: date, published: date, expected: float
) -> None:
    assert recency_score(published, now) == expected


def test_a_future_date_counts_as_fresh() -> None:
    assert recency_score(date(2024, 9, 1), NOW) == 1.0


def test_no_date_scores_060() -> None:
    assert recency_score(None, NOW) == 0.6


@pytest.mark.parametrize(
    "published",
    [
        "2024-05-01",
        "2024-05-01T10:00:00Z",
        "2024-05-01T10:00:00+00:00",
        "2024-05-01T10:00:00",
        datetime(2024, 5, 1, 10, 0),
        datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
    ],
)
def test_dates_datetimes_and_iso_strings_are_accepted(published: str | datetime) -> None:
    assert recency_score(published, NOW) == 1.0


def test_an_aware_datetime_is_compared_by_its_utc_date() -> None:
    # 23:30 on 14 Feb in New York is 15 Feb in UTC: exactly three months before NOW.
    eastern = timezone(timedelta(hours=-5))
    assert recency_score(datetime(2024, 2, 14, 23, 30, tzinfo=eastern), NOW) == 1.0
    assert recency_score("2024-02-14T23:30:00-05:00", NOW) == 1.0
    assert recency_score("2024-02-14T23:30:00+00:00", NOW) == 0.8


@pytest.mark.parametrize("published", ["last Tuesday", "", "2024-13-01", "May 2024"])
def test_an_unparseable_date_counts_as_no_date(published: str) -> None:
    assert recency_score(published, NOW) == 0.6


def test_recency_defaults_to_todays_utc_date() -> None:
    today = datetime.now(UTC).date()
    assert recency_score(today) == 1.0
    assert recency_score(today - timedelta(days=800)) == 0.4


# --- depth -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [(0, 0.4), (499, 0.4), (500, 0.6), (2000, 0.6), (2001, 0.8), (50_000, 0.8)],
)
def test_depth_tiers_by_word_count(words: int, expected: float) -> None:
    assert depth_score(words) == expected


def test_a_negative_word_count_is_rejected() -> None:
    with pytest.raises(ValueError, match="word_count"):
        depth_score(-1)


# --- final score -------------------------------------------------------------------


def test_weights_are_40_30_30() -> None:
    assert dict(WEIGHTS) == {"domain": 0.4, "recency": 0.3, "depth": 0.3}


def test_a_recent_long_gov_page_scores_the_weighted_sum() -> None:
    score = score_source(
        "https://www.nih.gov/news/x",
        kind="web",
        published=NOW - timedelta(days=7),
        word_count=2500,
        now=NOW,
    )
    assert score == SourceScore(
        final=0.9, domain=0.9, recency=1.0, depth=0.8, domain_reason="government/academic (.gov)"
    )
    assert score.final == round(0.4 * 0.9 + 0.3 * 1.0 + 0.3 * 0.8, 4)


def test_an_undated_short_page_from_an_unknown_site_scores_046() -> None:
    score = score_source(
        "https://example.com/x", kind="web", published=None, word_count=120, now=NOW
    )
    assert score.final == 0.46  # 0.4*0.4 + 0.3*0.6 + 0.3*0.4


def test_a_local_document_is_scored_with_its_own_tier() -> None:
    score = score_source(None, kind="docs", published="2023-12-01", word_count=800, now=NOW)
    assert (score.domain, score.recency, score.depth) == (0.70, 0.8, 0.6)
    assert score.final == 0.70  # 0.28 + 0.24 + 0.18


def test_the_final_score_is_rounded_to_four_decimals() -> None:
    score = score_source(
        "https://medium.com/@a/x", kind="web", published=None, word_count=600, now=NOW
    )
    assert score.final == round(score.final, 4)
    assert repr(score.final) == "0.58"


def test_scoring_with_an_injected_now_is_deterministic_and_ignores_the_clock() -> None:
    args: dict[str, Any] = {
        "kind": "web",
        "published": "2019-03-01",
        "word_count": 1000,
        "now": date(2019, 4, 1),
    }
    first = score_source("https://arxiv.org/abs/1", **args)
    assert first == score_source("https://arxiv.org/abs/1", **args)
    assert first.recency == 1.0  # fresh in April 2019, whatever today is


def test_a_source_score_is_immutable() -> None:
    score = score_source(None, kind="docs", published=None, word_count=0, now=NOW)
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.final = 1.0  # type: ignore[misc]
