"""bench/cluster.py's figures from a tiny case, so the bench cannot rot: its single-process
phase for real (a `marsa serve`, the offline engine, the bench's corpus ingested). The cluster
phases start five processes more and take about a minute; they run with the bench itself."""

from __future__ import annotations

from pathlib import Path

from bench.cluster import questions, run


def test_the_bench_counts_every_run_submitted_at_once_to_one_process(tmp_path: Path) -> None:
    figures = run(2, ["single"], deadline_s=120, home=tmp_path)
    single = figures["single"]
    assert (single["runs"], single["completed"], single["failed"], single["lost"]) == (2, 2, 0, 0)
    assert single["failures"] == []
    assert 0 < single["latency_p50_s"] <= single["latency_p95_s"] <= single["wall_s"]
    assert single["runs_per_minute"] > 0
    assert "cluster" not in figures


def test_the_bench_asks_each_run_its_own_question() -> None:
    asked = questions(23)
    assert len(set(asked)) == 23
    assert asked[0] == "When do spring tides happen? (1)"
