"""`marsa research` as a newcomer runs it: real subprocesses, offline engine, no keys."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from backend.graph.result import RunResult
from tests.backend.api.conftest import api_server, read_sse
from tests.backend.test_cli import marsa
from tests.helpers import assert_research_result

QUESTION = "How does MARSA check that the citations in its reports are real?"
DEMO = "How does MARSA score the quality of a source, and which agents check the claims?"
TIDES = "When do spring tides happen?"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A data directory (``home/data``, as `marsa serve` under test uses it) holding two
    short documents about tides."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "tides.md").write_text(
        "# Tides\n\nSpring tides happen a day or two after the full moon and the new moon, "
        "when the sun and the moon pull in line."
    )
    (corpus / "almanac.md").write_text(
        "# Almanac\n\nThe almanac lists spring tides shortly after each full moon and new moon."
    )
    home = tmp_path / "home"
    home.mkdir()
    ingested = marsa("ingest", str(corpus), data_dir=home / "data")
    assert ingested.returncode == 0, ingested.stderr
    return home


def test_first_research_ingests_the_projects_docs_and_prints_a_cited_report(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()  # (as scripts/demo.sh makes it: empty)
    first = marsa("research", QUESTION, data_dir=data)
    assert first.returncode == 0, first.stderr
    assert "The document store is empty: ingesting MARSA's own docs/" in first.stderr
    assert "planner" in first.stderr and "fact_checker" in first.stderr  # the live trace
    # the sources not set up (none asked for by name) are said on one line, with why
    off = [line for line in first.stderr.splitlines() if "TAVILY_API_KEY" in line]
    assert len(off) == 1 and "not searched: web (" in off[0]
    assert "searxng (" in off[0] and "unavailable" not in off[0]
    assert first.stdout.startswith("## Answer")
    assert "[1]" in first.stdout and "## Sources" in first.stdout
    # the run's id, which --follow-up takes, is said once it is kept, and the command on a
    # line of its own, whole (a narrow console broke it in two)
    kept = re.search(r"run ([0-9a-f]{12}) kept in the history; follow it up with:", first.stderr)
    assert kept
    assert f'  marsa research --follow-up {kept[1]} "…"' in first.stderr.splitlines()

    # Again, as JSON, with the README's example question: nothing is ingested twice, and
    # both asks are answered in the first lines.
    out = tmp_path / "run.json"
    second = marsa(
        "research", DEMO, "--format", "json", "--out", str(out), "--quiet", data_dir=data
    )
    assert second.returncode == 0, second.stderr
    assert "ingesting MARSA's own docs" not in second.stderr
    assert "kept in the history" not in second.stderr  # (--quiet)
    result = json.loads(out.read_text())
    assert_research_result(result)
    assert result["engine"] == "offline"
    assert RunResult.model_validate(result).as_json() == result  # the typed result, as it is
    assert "0.4 × domain authority + 0.3 × recency + 0.3 × content depth" in result["answer"]
    assert "fact-checker" in result["answer"]


def test_an_unknown_source_is_refused_with_the_configured_ones(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    result = marsa("research", "anything", "--sources", "docs,webb", data_dir=tmp_path / "data")
    assert result.returncode == 2
    configured = "configured: docs, github, scholarly, searxng, web"
    assert f"unknown source(s) webb; {configured}" in result.stderr
    # … also when no name given is one of them (no server is started for a wrong name)
    only = marsa("research", "anything", "--sources", "doc", data_dir=tmp_path / "data")
    assert only.returncode == 2
    assert f"unknown source(s) doc; {configured}" in only.stderr


def test_a_data_dir_that_does_not_exist_is_refused_and_not_made(tmp_path: Path) -> None:
    typo = tmp_path / "stor"
    result = marsa("research", "anything", "--data-dir", str(typo), data_dir=tmp_path / "data")
    assert result.returncode == 2
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stderr).split())  # (rich's error box)
    assert "does not exist, so nothing was ingested there" in said
    assert not typo.exists() and not (tmp_path / "data").exists()


def test_a_marsa_data_dir_that_does_not_exist_is_refused_and_not_made(tmp_path: Path) -> None:
    # A mistyped MARSA_DATA_DIR would otherwise make a new, empty store and answer from
    # MARSA's own docs; only the default, ~/.marsa, is made on first use.
    typo = tmp_path / "stor"
    # (wide: rich's error box would break a long path across lines)
    wide = {"COLUMNS": "1000"}
    result = marsa("research", "What is the default timeout?", data_dir=typo, extra_env=wide)
    assert result.returncode == 2
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stderr).split())  # (rich's error box)
    assert f"Invalid value for MARSA_DATA_DIR: {typo} does not exist" in said
    assert "marsa ingest PATH" in said and "ingesting MARSA's own docs" not in said
    assert not typo.exists()  # (an existing, empty one gets MARSA's own docs: the first test)


def test_max_iterations_above_the_cap_is_refused(tmp_path: Path) -> None:
    result = marsa("research", "anything", "--max-iterations", "21", data_dir=tmp_path / "data")
    assert result.returncode == 2
    assert "max-iterations" in result.stderr


def test_a_cli_run_is_in_the_apis_history_to_open_export_and_delete(
    home: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run.json"
    args = ("--sources", "docs", "--format", "json", "--out", str(out), "--quiet")
    cli = marsa("research", TIDES, *args, data_dir=home / "data")
    assert cli.returncode == 0, cli.stderr
    assert "not kept" not in cli.stderr
    result = json.loads(out.read_text())
    run_id = result["run_id"]
    with api_server(home) as server:
        history = server.client.get("/api/research").json()["items"]
        detail = server.client.get(f"/api/research/{run_id}").json()
        trace = read_sse(server.client, f"/api/research/{run_id}/events").of("trace")
        markdown = server.client.get(f"/api/research/{run_id}/report.md")
        deleted = server.client.delete(f"/api/research/{run_id}")
        after = server.client.get(f"/api/research/{run_id}")
    assert [(i["id"], i["query"], i["status"]) for i in history] == [(run_id, TIDES, "done")]
    assert history[0]["answer_found"] is result["answer_found"] is detail["answer_found"]
    assert detail["answer"] == result["answer"] and detail["report"] == result["report"]
    assert detail["claims"] == result["claims"] and detail["options"]["sources"] == ["docs"]
    assert [e["data"] for e in trace] == result["trace"]
    assert markdown.status_code == 200 and result["report"] in markdown.text
    assert deleted.status_code == 204 and after.status_code == 404


def test_a_cli_run_the_database_cannot_keep_still_prints_its_report(
    home: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database's folder should be")
    database = {"MARSA_DATABASE_URL": f"sqlite:///{blocker / 'runs.db'}"}
    cli = marsa("research", TIDES, "--quiet", data_dir=home / "data", extra_env=database)
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("## Answer") and "full moon" in cli.stdout
    assert "This run was not kept in the history" in cli.stderr
    assert "MARSA_DATABASE_URL" in cli.stderr


def test_a_follow_up_starts_from_the_earlier_cli_runs_sources_and_is_kept_linked_to_it(
    home: Path, tmp_path: Path
) -> None:
    data = home / "data"
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    args = ("--format", "json", "--quiet")
    parent_run = marsa(
        "research", TIDES, "--sources", "docs", *args, "--out", str(first), data_dir=data
    )
    assert parent_run.returncode == 0, parent_run.stderr
    parent = json.loads(first.read_text())
    child_run = marsa(
        "research",
        "Why is that?",
        "--follow-up",
        parent["run_id"],
        *args,
        "--out",
        str(second),
        data_dir=data,
    )
    assert child_run.returncode == 0, child_run.stderr
    child = json.loads(second.read_text())
    assert child["parent_run_id"] == parent["run_id"] and child["run_id"] != parent["run_id"]
    carried = {s["id"] for s in child["sources"] if s["from_run"] == parent["run_id"]}
    assert carried == {s["id"] for s in parent["sources"]}
    assert {c["source_id"] for c in child["citations"]} & carried
    assert "(spring tides happen)" in child["plan"]["query"]
    with api_server(home) as server:
        history = server.client.get("/api/research").json()["items"]
        detail = server.client.get(f"/api/research/{child['run_id']}").json()
    assert [(i["id"], i["parent_run_id"]) for i in history] == [
        (child["run_id"], parent["run_id"]),
        (parent["run_id"], None),
    ]
    assert detail["parent_run_id"] == parent["run_id"] and detail["options"]["sources"] == ["docs"]


def test_a_follow_up_of_a_run_not_in_the_history_is_refused(home: Path) -> None:
    unknown = marsa("research", "Why?", "--follow-up", "0123456789ab", data_dir=home / "data")
    assert unknown.returncode == 2
    assert "no run 0123456789ab in the history" in unknown.stderr
    malformed = marsa("research", "Why?", "--follow-up", "../x", data_dir=home / "data")
    assert malformed.returncode == 2 and "12 lowercase hex characters" in malformed.stderr


def test_the_live_trace_shows_square_brackets_in_a_message_as_written() -> None:
    from datetime import UTC, datetime

    from rich.console import Console

    from backend.research_cli import live_printer
    from backend.trace import TraceEvent

    console = Console(record=True, width=200)
    event = TraceEvent(
        run_id="r1",
        seq=1,
        ts=datetime.now(UTC),
        node="researcher",
        kind="info",
        message="found: uses [detailed validation](validation.md) by default",
    )
    live_printer(console)(event)
    assert "uses [detailed validation](validation.md) by default" in console.export_text()


def test_the_live_trace_written_to_a_file_keeps_each_event_on_one_line() -> None:
    import io
    from datetime import UTC, datetime

    from rich.console import Console

    from backend.research_cli import live_printer
    from backend.trace import TraceEvent

    buffer = io.StringIO()
    console = Console(file=buffer, width=80)  # not a terminal: a file, as `2> trace.txt`
    message = (
        "supported (0.58): Calling `close()` on an already-closed connection will not result "
        "in an exception, but will return `False`:"
    )
    event = TraceEvent(
        run_id="r1", seq=1, ts=datetime.now(UTC), node="fact_checker", kind="info", message=message
    )
    live_printer(console)(event)
    assert buffer.getvalue() == f"fact_checker {message}\n"
