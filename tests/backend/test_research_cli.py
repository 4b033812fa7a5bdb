"""`marsa research` as a newcomer runs it: real subprocesses, offline engine, no keys."""

from __future__ import annotations

import json
from pathlib import Path

from tests.backend.test_cli import marsa
from tests.helpers import assert_research_result

QUESTION = "How does MARSA check that the citations in its reports are real?"


def test_first_research_ingests_the_projects_docs_and_prints_a_cited_report(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = marsa("research", QUESTION, data_dir=data)
    assert first.returncode == 0, first.stderr
    assert "The document store is empty: ingesting MARSA's own docs/" in first.stderr
    assert "planner" in first.stderr and "fact_checker" in first.stderr  # the live trace
    assert first.stdout.startswith("## Answer")
    assert "[1]" in first.stdout and "## Sources" in first.stdout

    out = tmp_path / "run.json"
    second = marsa(
        "research", QUESTION, "--format", "json", "--out", str(out), "--quiet", data_dir=data
    )
    assert second.returncode == 0, second.stderr
    assert "ingesting MARSA's own docs" not in second.stderr
    result = json.loads(out.read_text())
    assert_research_result(result)
    assert result["engine"] == "offline"


def test_an_unknown_source_is_refused_with_the_configured_ones(tmp_path: Path) -> None:
    result = marsa("research", "anything", "--sources", "docs,webb", data_dir=tmp_path / "data")
    assert result.returncode == 2
    assert "unknown source(s) webb" in result.stderr


def test_max_iterations_above_the_cap_is_refused(tmp_path: Path) -> None:
    result = marsa("research", "anything", "--max-iterations", "21", data_dir=tmp_path / "data")
    assert result.returncode == 2
    assert "max-iterations" in result.stderr
