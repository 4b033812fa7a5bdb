"""`marsa eval qa` end to end: a real subprocess ingests a three-file folder through the
document-store server and asks each question through the whole graph (offline engine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import REPO_ROOT

CORPUS = Path(__file__).parent / "corpus"

QUESTIONS = [
    {
        "id": "glacier-speed",
        "question": "How fast does the Halvard glacier move at its snout?",
        "type": "lookup",
        "must_include": [["40 metres", "40 meters"]],
        "gold_files": ["glaciers.md"],
    },
    {
        "id": "lamp-period",
        "question": "How often does the Skerry Point lighthouse lamp turn?",
        "type": "lookup",
        "must_include": [["12 seconds"]],
        "gold_files": ["lighthouses.md"],
    },
    {
        # A key no answer can meet: the benchmark must report it as a miss, by example.
        "id": "tide-wrong-key",
        "question": "When do boats leave the harbour at Wrenmouth?",
        "type": "how",
        "must_include": [["at midnight"]],
        "gold_files": ["guide/tides.md"],
    },
]


def test_eval_qa_scores_answers_gold_files_and_lists_the_misses(tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    details = tmp_path / "details.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MARSA_", "TAVILY", "GITHUB"))}
    env.update({"MARSA_DATA_DIR": str(tmp_path / "unused"), "PYTHONPATH": REPO_ROOT})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "backend.cli",
            "eval",
            "qa",
            "--corpus",
            str(CORPUS),
            "--questions",
            str(questions),
            "--details",
            str(details),
            "--data-dir",
            str(tmp_path / "store"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)

    assert report["corpus"]["files"] == 3 and report["corpus"]["not_ingested"] == []
    assert report["questions"] == 3 and report["failed_runs"] == 0
    # Two of three keys can be met by the direct answer; the third cannot.
    assert report["answer_correct"] == round(2 / 3, 4), report["failures"]
    assert report["gold_file_cited"] == 1.0
    assert [f["id"] for f in report["failures"]] == ["tide-wrong-key"]
    assert report["failures"][0]["expected"] == "at midnight"
    assert "ebb" in report["failures"][0]["answer"].lower()

    lines = [json.loads(line) for line in details.read_text().splitlines()]
    assert [line["id"] for line in lines] == [q["id"] for q in QUESTIONS]
    assert "40 metres" in lines[0]["answer"]
    assert any(s["path"].endswith("/glaciers.md") for s in lines[0]["sources"])
