"""bench/answer_replay.py: a capture of the report step's input, replayed with the current code,
scores each answer as `marsa eval qa` does (a whole run through the real MCP server)."""

from __future__ import annotations

import json
from pathlib import Path

from backend.reasoning.offline.embedding import SentenceVectors
from bench.answer_replay import capture, figures, replay

QUESTIONS = [
    {
        "id": "lookup-high-tides",
        "question": "How many high tides does the harbour get each day?",
        "type": "lookup",
        "must_include": [["two"]],
        "gold_files": ["tides.md"],
    },
    {
        "id": "unanswerable-kerberos",
        "question": "Which Kerberos realm does the harbour master's office use?",
        "type": "unanswerable",
        "must_include": [],
        "gold_files": [],
    },
]


def test_a_captured_set_replays_to_the_answers_the_whole_run_gave(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "tides.md").write_text(
        "# Tides\n\nThe harbour gets two high tides each day, about twelve hours apart.\n"
        "Spring tides come after the new and the full moon.\n",
        encoding="utf-8",
    )
    (corpus / "boats.md").write_text(
        "# Boats\n\nFerries leave the harbour at seven in the morning and at noon.\n",
        encoding="utf-8",
    )
    questions = tmp_path / "toy_questions.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    captures = tmp_path / "captures"

    capture("toy", tmp_path / "store", captures, corpus, questions)
    rows = replay("toy", captures, SentenceVectors())

    assert [r["id"] for r in rows] == ["lookup-high-tides", "unanswerable-kerberos"]
    assert "two high tides" in rows[0]["answer"]
    assert rows[0]["ok"] and rows[0]["found"]
    assert rows[1]["ok"] and not rows[1]["found"]
    assert figures(rows) == {
        "answer_correct": 1.0,
        "not_found_right": 1.0,
        "not_found_on_answerable": 0.0,
        "n": 2,
    }


def test_hotpotqa_questions_are_captured_and_scored_by_the_gold_answer(tmp_path: Path) -> None:
    question = {
        "_id": "q1",
        "question": "Which river flows through the town where the harbour lies?",
        "answer": "the Avon",
        "type": "bridge",
        "level": "easy",
        "supporting_facts": [["Harbour", 0], ["Avon", 0]],
        "context": [
            ["Harbour", ["The harbour lies in Bristol, a town in England."]],
            ["Avon", ["The Avon flows through Bristol to the sea."]],
        ],
    }
    data = tmp_path / "dev.jsonl"
    data.write_text(json.dumps(question) + "\n", encoding="utf-8")
    captures = tmp_path / "captures"

    capture("hotpotqa", tmp_path / "store", captures, None, data)
    (row,) = replay("hotpotqa", captures, SentenceVectors())

    assert row["id"] == "q1" and row["type"] == "hotpotqa"
    assert row["ok"] is ("Avon" in row["answer"])
    assert figures([row])["answer_correct"] == float(row["ok"])
