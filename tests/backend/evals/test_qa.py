"""Scoring of `marsa eval qa`: question files, answers, gold files and "not found"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from backend.evals.qa import (
    QuestionFileError,
    failed_run_row,
    load_questions,
    measures,
    score_question,
    summarise,
)


def question(kind: str = "lookup", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": f"{kind}-1",
        "question": "How often does the lamp turn?",
        "type": kind,
        "must_include": [["12 seconds", "twelve seconds"]] if kind != "unanswerable" else [],
        "gold_files": ["lighthouses.md"] if kind != "unanswerable" else [],
    }
    return {**base, **fields}


def result(answer: str, *, cited_path: str = "/c/lighthouses.md", **fields: Any) -> dict[str, Any]:
    return {
        "answer": answer,
        "report": f"## Answer\n\n{answer}\n\n## Details\n\nThe lamp turns every 12 seconds.",
        "sources": [{"id": "S1", "title": "Lighthouses", "path": cited_path}],
        "citations": [{"n": 1, "source_id": "S1", "quote": "turns once every 12 seconds"}],
        "citation_check": {"checked": 1, "removed": 0},
        **fields,
    }


def write_lines(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_an_answer_is_scored_on_the_direct_answer_not_the_report() -> None:
    row = score_question(question(), result("Keepers logged the weather."))
    assert row["answer_correct"] is False
    assert row["report_correct"] is True


def test_a_cited_gold_file_is_counted_for_an_answerable_question() -> None:
    assert score_question(question(), result("Every 12 seconds."))["gold_file_cited"] is True
    other = result("Every 12 seconds.", cited_path="/c/tides.md")
    assert score_question(question(), other)["gold_file_cited"] is False


def test_not_found_counts_as_right_only_for_unanswerable_and_false_premise_questions() -> None:
    not_found = {"answer_found": False}
    rows = [
        score_question(question("unanswerable", id="u"), result("No.", **not_found)),
        score_question(question("false_premise", id="f"), result("It does.")),
        score_question(question("lookup", id="a"), result("Unknown.", **not_found)),
        score_question(question("lookup", id="b"), result("Every 12 seconds.")),
    ]
    figures = measures(rows)
    assert figures["not_found_correct"] == 0.5
    assert figures["not_found_on_answerable"] == 0.5
    assert figures["answer_correct"] == 0.5


def test_a_result_from_before_answer_found_existed_never_counts_as_not_found() -> None:
    rows = [score_question(question("unanswerable"), result("Something."))]
    assert measures(rows)["not_found_correct"] == 0.0


def test_a_failed_run_is_a_miss_and_not_a_not_found() -> None:
    rows = [
        failed_run_row(question("lookup", id="a"), "RuntimeError: boom"),
        failed_run_row(question("unanswerable", id="u"), "RuntimeError: boom"),
    ]
    figures = measures(rows)
    assert figures["answer_correct"] == 0.0
    assert figures["not_found_correct"] == 0.0
    assert figures["not_found_on_answerable"] == 0.0


def test_the_summary_lists_each_miss_with_what_was_expected_and_the_answer() -> None:
    asked = [question("lookup", id="a"), question("unanswerable", id="u")]
    rows = [
        score_question(asked[0], result("It turns slowly.")),
        score_question(asked[1], result("The lamp is red.", answer_found=False)),
    ]
    report = summarise(asked, rows, [1.0, 3.0], {"a": "It turns slowly.", "u": "x"})
    assert [f["id"] for f in report["failures"]] == ["a"]
    assert report["failures"][0]["expected"] == "12 seconds | twelve seconds"
    assert report["failures"][0]["answer"] == "It turns slowly."
    assert report["by_type"]["unanswerable"]["not_found_correct"] == 1.0
    assert report["p50_seconds"] == 2.0


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"id": "x", "question": "?", "type": "trivia"}, "type must be one of"),
        ({"id": "x", "question": "?", "type": "lookup", "gold_files": ["a.md"]}, "must_include"),
        (
            {"id": "x", "question": "?", "type": "list", "must_include": [[]], "gold_files": ["a"]},
            "non-empty strings",
        ),
    ],
)
def test_a_question_the_benchmark_cannot_score_is_refused(
    tmp_path: Path, row: dict[str, Any], message: str
) -> None:
    with pytest.raises(QuestionFileError, match=message):
        load_questions(write_lines(tmp_path / "q.jsonl", [row]))


def test_a_repeated_question_id_is_refused(tmp_path: Path) -> None:
    rows = [question(), question()]
    with pytest.raises(QuestionFileError, match="repeated id"):
        load_questions(write_lines(tmp_path / "q.jsonl", rows))
