"""Ranking metrics, the SciFact query loaders of the retrieval benchmark, and the tests of
what a reader sees that the QA benchmarks score with."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from backend.evals.metrics import (
    answer_found,
    cites_gold_file,
    is_gold_file,
    meets_must_include,
    mentions_phrase,
    ndcg_at_k,
    percentile,
    plain_text,
    recall_at_k,
    share,
)
from backend.evals.retrieval import doc_ranking, load_queries

# --- ndcg_at_k ------------------------------------------------------------------


def test_ndcg_of_a_single_relevant_document_at_rank_two() -> None:
    # DCG = 1/log2(3); the ideal ranking puts it first: IDCG = 1/log2(2) = 1.
    assert ndcg_at_k(["a", "b", "c"], {"b"}) == pytest.approx(1 / math.log2(3))


def test_ndcg_of_two_relevant_documents_at_ranks_one_and_three() -> None:
    dcg = 1 + 1 / math.log2(4)
    ideal = 1 + 1 / math.log2(3)
    assert ndcg_at_k(["a", "b", "c", "d"], {"a", "c"}) == pytest.approx(dcg / ideal)
    assert dcg / ideal == pytest.approx(0.919720, abs=1e-6)


def test_ndcg_of_a_perfect_ranking_is_one() -> None:
    assert ndcg_at_k(["a", "b", "x"], {"a", "b"}) == pytest.approx(1.0)


def test_ndcg_ignores_documents_below_k() -> None:
    assert ndcg_at_k(["x", "y", "a"], {"a"}, k=2) == 0.0


def test_ndcg_ideal_counts_at_most_k_relevant_documents() -> None:
    # Three relevant, k=2: both top places relevant is already ideal.
    assert ndcg_at_k(["a", "b"], {"a", "b", "c"}, k=2) == pytest.approx(1.0)


def test_ndcg_without_relevant_documents_is_zero() -> None:
    assert ndcg_at_k(["a", "b"], set()) == 0.0


# --- recall_at_k ----------------------------------------------------------------


def test_recall_counts_the_relevant_documents_within_k() -> None:
    ranked = ["a", "b", "c", "d"]
    relevant = {"a", "c", "z"}
    assert recall_at_k(ranked, relevant, 1) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, relevant, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, relevant, 3) == pytest.approx(2 / 3)


def test_recall_without_relevant_documents_is_zero() -> None:
    assert recall_at_k(["a"], set(), 10) == 0.0


# --- percentile -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([4.0, 1.0, 3.0, 2.0], 50, 2.5),
        ([4.0, 1.0, 3.0, 2.0], 0, 1.0),
        ([4.0, 1.0, 3.0, 2.0], 100, 4.0),
        ([10.0, 20.0], 95, 19.5),
        ([1.0, 2.0, 3.0, 4.0, 5.0], 25, 2.0),
        ([7.0], 99, 7.0),
    ],
)
def test_percentile_interpolates_linearly_between_sorted_values(
    values: list[float], q: float, expected: float
) -> None:
    assert percentile(values, q) == pytest.approx(expected)


def test_percentile_of_no_values_is_zero() -> None:
    assert percentile([], 50) == 0.0


# --- load_queries and doc_ranking ---------------------------------------------------


def write_claims(path: Path) -> Path:
    claims = [
        {"id": 1, "claim": "Tides follow the moon."},
        {"id": 2, "claim": "The sea is made of cheese."},
        {"id": 3, "claim": "A claim nobody judged."},
    ]
    path.write_text("\n".join(json.dumps(c) for c in claims) + "\n\n")
    return path


def test_load_queries_keeps_judged_claims_and_drops_zero_scores(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims.jsonl")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\n1\t10\t1\n1\t11\t1\n2\t12\t0\n4\t13\t1\n")
    queries, relevant = load_queries(claims, qrels)
    assert queries == {"1": "Tides follow the moon."}
    assert relevant == {"1": {"10", "11"}, "4": {"13"}}


def test_load_queries_reads_the_first_line_when_there_is_no_header(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims.jsonl")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("2\t12\t1\n1\t10\t1\n")
    queries, relevant = load_queries(claims, qrels)
    assert set(queries) == {"1", "2"}
    assert relevant == {"1": {"10"}, "2": {"12"}}


def test_doc_ranking_keeps_each_document_at_its_first_place() -> None:
    hits = ["d1", "d2", "d1", "d3", "d2", "d4"]
    assert doc_ranking(hits, 10) == ["d1", "d2", "d3", "d4"]


def test_doc_ranking_cuts_at_k_documents_not_k_hits() -> None:
    assert doc_ranking(iter(["d1", "d1", "d1", "d2", "d3"]), 2) == ["d1", "d2"]


# --- what a reader sees: phrases, must_include groups, gold files, "not found" ----------


def test_plain_text_drops_markup_case_and_extra_whitespace() -> None:
    text = "## Use **`follow_redirects`**\n\n* see [the _guide_](http://x.org/a)  now"
    assert plain_text(text) == "use follow_redirects see the guide now"


def test_a_phrase_is_found_through_markup_and_line_breaks() -> None:
    assert mentions_phrase("Set `max_age` to\n**2 weeks**.", "max_age to 2 WEEKS")


def test_an_upper_case_name_with_underscores_is_not_emphasis() -> None:
    # "_JOB_" inside EVENT_JOB_MAX_INSTANCES is part of the name, as "_job_" in event_job_x is
    assert mentions_phrase("Listen for EVENT_JOB_MAX_INSTANCES here.", "EVENT_JOB_MAX_INSTANCES")
    assert plain_text("A _NOTE_ here") == "a note here"


def test_a_phrase_must_stand_as_whole_words() -> None:
    assert not mentions_phrase("status 3080 was sent", "308")
    assert mentions_phrase("status 308, permanent", "308")


def test_a_phrase_ending_in_punctuation_may_run_into_the_next_word() -> None:
    assert mentions_phrase("call str(settings.KEY)", "str(")


def test_must_include_needs_one_alternative_of_every_group() -> None:
    groups = [["follow_redirects", "follow redirects"], ["308"]]
    assert meets_must_include("Pass follow redirects=True; the code is 308.", groups)
    assert not meets_must_include("Pass follow_redirects=True.", groups)


def test_must_include_without_groups_never_passes() -> None:
    assert not meets_must_include("anything at all", [])


@pytest.mark.parametrize(
    "source",
    [
        {"id": "S1", "path": "/home/me/.cache/docs/guide/intro.md"},
        {"id": "S1", "path": "guide/intro.md"},
        {"id": "S1", "path": None, "relative_path": "guide/intro.md"},
    ],
)
def test_a_gold_file_matches_by_path_end_or_relative_path(source: dict[str, Any]) -> None:
    assert is_gold_file(source, ["guide/intro.md"])


def test_a_gold_file_does_not_match_a_file_whose_name_merely_ends_the_same() -> None:
    assert not is_gold_file({"id": "S1", "path": "/docs/guide/my-intro.md"}, ["intro.md"])


def test_only_a_cited_source_counts_as_citing_a_gold_file() -> None:
    result = {
        "sources": [
            {"id": "S1", "path": "/docs/intro.md"},
            {"id": "S2", "path": "/docs/other.md"},
        ],
        "citations": [{"n": 1, "source_id": "S2", "quote": "…"}],
    }
    assert not cites_gold_file(result, ["intro.md"])
    assert cites_gold_file(result, ["other.md"])


def test_a_result_without_answer_found_counts_as_an_answer() -> None:
    assert answer_found({"answer": "x"}) is True
    assert answer_found({"answer": "x", "answer_found": False}) is False


def test_share_is_none_when_there_is_nothing_to_count() -> None:
    assert share([]) is None
    assert share([True, False, False]) == pytest.approx(0.3333)


def test_a_leading_underscore_of_a_name_is_kept() -> None:
    # "_type" is a name: "type" somewhere in the answer is not it
    assert not mentions_phrase("The tag value is the type of the union member.", "_type")
    assert mentions_phrase("By default, the tag field name is `_type`.", "_type")
    assert not mentions_phrase("Call init() on it.", "__init__")
    assert mentions_phrase("The generated `__init__` calls it.", "__init__")
    assert plain_text("see _the guide_ and __this__") == "see the guide and this"
