"""bench/cluster.py's figures from a tiny case, so the bench cannot rot: its single-process
phase for real (a `marsa serve`, the offline engine, the bench's corpus ingested). The cluster
phases start five processes more and take about a minute; they run with the bench itself."""

from __future__ import annotations

from pathlib import Path

from bench.cluster import questions, read_questions, run, taken_over_after


def test_the_bench_counts_every_run_submitted_at_once_to_one_process(tmp_path: Path) -> None:
    figures = run(2, ["single"], deadline_s=120, home=tmp_path)
    single = figures["single"]
    assert (single["runs"], single["completed"], single["failed"], single["lost"]) == (2, 2, 0, 0)
    assert single["failures"] == []
    assert 0 < single["latency_p50_s"] <= single["latency_p95_s"] <= single["wall_s"]
    assert single["runs_per_minute"] > 0
    assert single["cpu_s_by_process"]["serve"] > 0  # the process and its MCP servers
    assert single["cpu_s"] >= single["cpu_s_by_process"]["serve"]
    assert "cluster" not in figures


def test_the_bench_asks_each_run_its_own_question() -> None:
    asked = questions(23)
    assert len(set(asked)) == 23
    assert asked[0] == "When do spring tides happen? (1)"


def test_the_bench_runs_on_a_corpus_and_questions_it_is_given(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "kiln.md").write_text(
        "# Kilns\n\nA kiln fires clay at about 1,200 degrees. Stoneware is fired twice.\n"
    )
    (tmp_path / "home").mkdir()
    listed = tmp_path / "questions.jsonl"
    listed.write_text('{"question": "How hot does a kiln fire clay?"}\n')
    assert read_questions(listed) == ["How hot does a kiln fire clay?"]
    figures = run(
        2,
        ["single"],
        deadline_s=120,
        home=tmp_path / "home",
        corpus=corpus,
        asked_from=read_questions(listed),
    )
    single = figures["single"]
    assert (figures["corpus"], figures["distinct_questions"]) == (str(corpus), 1)
    assert (single["completed"], single["failed"], single["lost"]) == (2, 0, 0)


def test_the_bench_times_a_take_over_from_the_kill_to_the_event_that_says_so() -> None:
    killed_at = 1_800_000_000.0  # 2027-01-15T08:00:00Z
    trace = [
        {"ts": "2027-01-15T07:59:59+00:00", "message": "research: q"},
        {
            "ts": "2027-01-15T08:00:01.500000+00:00",
            "message": "taken over from a stopped worker (w)",
        },
    ]
    assert taken_over_after(trace, killed_at) == 1.5
    assert taken_over_after(trace[:1], killed_at) is None
