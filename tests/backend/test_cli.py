"""The `marsa` command as a newcomer runs it: real subprocesses, real MCP servers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.github_api import FakeGitHub
from tests.helpers import REPO_ROOT, free_port


def marsa(
    *args: str, data_dir: Path, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MARSA_", "TAVILY", "GITHUB"))}
    env.update({"MARSA_DATA_DIR": str(data_dir), "PYTHONPATH": REPO_ROOT, **(extra_env or {})})
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
        cwd=data_dir.parent,
    )


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    (folder / "deep").mkdir(parents=True)
    (folder / "tides.md").write_text("# Tides\nThe moon's gravity raises two tidal bulges.")
    (folder / "deep" / "glaciers.txt").write_text("Glaciers flow downhill under their own weight.")
    (folder / "fake.pdf").write_bytes(b"not a pdf at all")
    (folder / "ignored.bin").write_bytes(b"\x00\x01")
    return folder


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A folder ingested once (a `marsa` process costs seconds) for the tests that only
    search it: (the folder, the data directory)."""
    root = tmp_path_factory.mktemp("searched")
    folder = root / "notes"
    (folder / "deep").mkdir(parents=True)
    (folder / "tides.md").write_text("# Tides\nThe moon's gravity raises two tidal bulges.")
    (folder / "deep" / "glaciers.txt").write_text("Glaciers flow downhill under their own weight.")
    (folder / "dispatch.md").write_text(
        "# Dispatch\n\nThe converter is backed by a [singledispatch](https://example.org/sd) "
        "function and [red]keeps[/] its hooks in order.\n"
    )
    done = marsa("ingest", str(folder), data_dir=root / "data")
    assert done.returncode == 0, done.stderr
    return folder, root / "data"


def test_ingest_reports_counts_and_names_the_file_it_could_not_read(
    notes: Path, tmp_path: Path
) -> None:
    result = marsa("ingest", str(notes), data_dir=tmp_path / "data")
    assert result.returncode == 1, result.stderr
    summary = (
        "4 files found: 2 ingested (2 documents added, 0 replaced, 0 unchanged), 0 with no text, "
        "1 skipped, 1 failed"
    )
    assert summary in result.stdout
    assert "fake.pdf" in result.stderr and "not a PDF" in result.stderr


def test_ingest_names_a_file_whose_text_another_file_already_holds(
    notes: Path, tmp_path: Path
) -> None:
    (notes / "fake.pdf").unlink()
    (notes / "copy.md").write_text((notes / "tides.md").read_text())
    result = marsa("ingest", str(notes), data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    assert (
        "4 files found: 3 ingested (2 documents added, 0 replaced, 0 unchanged, "
        "1 the same as another file), 0 with no text, 1 skipped, 0 failed"
    ) in result.stdout
    first, second = sorted([notes / "copy.md", notes / "tides.md"])
    assert f"stored once {second}: the same text as {first.resolve()}" in " ".join(
        result.stderr.split()
    )


def test_ingest_lists_each_skipped_file_with_its_reason(notes: Path, tmp_path: Path) -> None:
    (notes / ".drafts").mkdir()
    (notes / ".drafts" / "wip.md").write_text("not yet")
    result = marsa("ingest", str(notes), data_dir=tmp_path / "data")
    skipped = [line for line in result.stdout.splitlines() if line.startswith("skipped ")]
    assert skipped == [
        f"skipped {notes / '.drafts'}: hidden",
        f"skipped {notes / 'ignored.bin'}: unsupported type .bin",
    ]


def test_search_hits_show_the_path_relative_to_the_ingested_folder(
    searched: tuple[Path, Path],
) -> None:
    notes, data = searched
    result = marsa("search", "glaciers flow downhill", "--json", data_dir=data)
    hit = json.loads(result.stdout)["results"][0]
    assert hit["relative_path"] == "deep/glaciers.txt"
    assert hit["source"] == str((notes / "deep" / "glaciers.txt").resolve())


def test_ingest_progress_is_plain_lines_with_rate_and_time_left_when_not_a_terminal(
    notes: Path, tmp_path: Path
) -> None:
    result = marsa("ingest", str(notes), "--progress-every", "0.1", data_dir=tmp_path / "data")
    lines = [line for line in result.stderr.splitlines() if line.startswith("ingesting: ")]
    assert lines, result.stderr
    shape = re.compile(
        r"^ingesting: [0-3]/3 files · \d+\.\d files/s · "
        r"(about \d+ (s|min \d+ s) left|starting, \d+ s so far \(the store and its "
        r"embedding model load first\); time left known after the first file|"
        r"time left known after the next file|done)$"
    )
    assert [line for line in lines if not shape.match(line)] == []


def test_ingesting_again_adds_nothing(notes: Path, tmp_path: Path) -> None:
    (notes / "fake.pdf").unlink()
    marsa("ingest", str(notes), data_dir=tmp_path / "data")
    again = marsa("ingest", str(notes), data_dir=tmp_path / "data")
    assert again.returncode == 0, again.stderr
    summary = (
        "3 files found: 2 ingested (0 documents added, 0 replaced, 2 unchanged), 0 with no text, "
        "1 skipped, 0 failed"
    )
    assert summary in again.stdout


def test_search_finds_an_ingested_document_through_the_mcp_server(
    searched: tuple[Path, Path],
) -> None:
    notes, data = searched
    log = data / "logs" / "docs.jsonl"

    def searches() -> int:
        lines = log.read_text().splitlines() if log.exists() else []
        return sum(json.loads(line)["tool"] == "search_documents" for line in lines)

    before = searches()
    result = marsa("search", "why are there tides?", "--json", data_dir=data)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["results"][0]["title"] == "Tides"
    assert payload["results"][0]["source"] == str((notes / "tides.md").resolve())
    assert searches() == before + 1  # the server logged this search


def test_search_with_no_hits_says_whether_the_store_is_empty(notes: Path, tmp_path: Path) -> None:
    # A new user searched a store of 16 documents for a missing word and was told to ingest.
    empty = marsa("search", "tides", "--mode", "keyword", data_dir=tmp_path / "empty")
    assert empty.returncode == 0, empty.stderr
    assert "the store is empty" in empty.stdout
    marsa("ingest", str(notes / "tides.md"), data_dir=tmp_path / "data")
    missing = marsa("search", "zeppelin", "--mode", "keyword", data_dir=tmp_path / "data")
    assert missing.returncode == 0, missing.stderr
    assert "no results in the 1 document stored" in missing.stdout
    assert "ingest" not in missing.stdout


def test_search_with_an_unknown_filter_prints_the_servers_message(tmp_path: Path) -> None:
    result = marsa("search", "x", "--filter", "colour=red", data_dir=tmp_path / "data")
    assert result.returncode == 2
    assert "unknown filter key 'colour'" in result.stderr


def test_servers_lists_every_source_up_and_says_what_limits_them(tmp_path: Path) -> None:
    github = FakeGitHub().start()
    try:
        result = marsa(
            "servers",
            "--json",
            data_dir=tmp_path / "data",
            extra_env={"MARSA_GITHUB_BASE_URL": github.url},
        )
    finally:
        github.stop()
    assert result.returncode == 0, result.stderr
    rows = {row["server"]: row for row in json.loads(result.stdout)}
    assert set(rows) == {"docs", "web", "github", "scholarly", "searxng"}
    assert all(row["status"] == "up" for row in rows.values())
    assert "search_documents" in rows["docs"]["tools"]
    assert "TAVILY_API_KEY" in rows["web"]["note"]
    assert "GITHUB_TOKEN" in rows["github"]["note"]
    assert "MARSA_SCHOLARLY_EMAIL" in rows["scholarly"]["note"]
    assert "MARSA_SEARXNG_URL" in rows["searxng"]["note"]


def test_servers_shows_a_server_whose_api_cannot_be_reached_as_degraded(tmp_path: Path) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    result = marsa(
        "servers", "--json", data_dir=tmp_path / "data", extra_env={"MARSA_GITHUB_BASE_URL": closed}
    )
    assert result.returncode == 0, result.stderr  # degraded is shown, not fatal
    rows = {row["server"]: row for row in json.loads(result.stdout)}
    assert rows["github"]["status"] == "degraded"
    assert f"{closed} cannot be reached" in rows["github"]["note"]


def test_servers_passes_the_key_to_the_web_server_subprocess(tmp_path: Path) -> None:
    result = marsa(
        "servers", "--json", data_dir=tmp_path / "data", extra_env={"TAVILY_API_KEY": "tvly-test"}
    )
    rows = {row["server"]: row for row in json.loads(result.stdout)}
    assert "TAVILY_API_KEY" not in rows["web"]["note"]


def test_servers_reports_a_server_that_cannot_be_reached_and_exits_non_zero(tmp_path: Path) -> None:
    result = marsa(
        "servers",
        "--json",
        data_dir=tmp_path / "data",
        extra_env={"MARSA_WEB_SERVER_URL": "http://127.0.0.1:9/mcp"},
    )
    assert result.returncode == 1
    rows = {row["server"]: row for row in json.loads(result.stdout)}
    assert rows["web"]["status"] == "down" and rows["web"]["transport"] == "http"
    assert rows["docs"]["status"] == "up"


def test_search_shows_square_brackets_in_a_document_as_written(
    searched: tuple[Path, Path],
) -> None:
    result = marsa("search", "what backs the converter?", data_dir=searched[1])
    assert result.returncode == 0, result.stderr
    assert "[singledispatch](https://example.org/sd)" in result.stdout
    assert "[red]keeps[/]" in result.stdout


def test_ingest_names_a_file_that_held_nothing_to_search(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "api.rst").write_text("API\n===\n\n.. automodule:: cattrs.gen\n   :members:\n")
    (folder / "guide.md").write_text("# Guide\n\nConverters structure and unstructure data.\n")
    result = marsa("ingest", str(folder), data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith(
        "2 files found: 1 ingested (1 documents added, 0 replaced, 0 unchanged), 1 with no text, "
        "0 skipped, 0 failed"
    )
    assert (
        f"nothing indexed {folder / 'api.rst'}: no text to search in it (its text is made from "
        "the code's docstrings (cattrs.gen), which are not read)"
    ) in " ".join(result.stderr.split())


def test_ingest_takes_a_file_outside_the_folder_that_a_page_includes(tmp_path: Path) -> None:
    """`marsa ingest docs` where docs/index.rst is `.. include:: ../README.rst` (arrow,
    requests-toolbelt): the README is ingested too, said so, and searchable; the server still
    reads nothing else outside the folder."""
    (tmp_path / "proj" / "docs").mkdir(parents=True)
    (tmp_path / "proj" / "README.rst").write_text(
        "Toolbelt\n========\n\nThe threaded pool uses one thread per CPU by default.\n"
    )
    (tmp_path / "proj" / "secret.rst").write_text("Not included anywhere.\n")
    folder = tmp_path / "proj" / "docs"
    (folder / "index.rst").write_text("Home\n====\n\n.. include:: ../README.rst\n")
    # (and MkDocs' include-markdown, as humanize's docs/index.md: the tag is no text)
    (tmp_path / "proj" / "USAGE.md").write_text("# Usage\n\nCall it with a size in bytes.\n")
    (folder / "usage.md").write_text('# Usage\n\n{%\n  include-markdown "../USAGE.md"\n%}\n')
    # (an include that is not there, as Pygments' doc/docs/authors.rst of ../../AUTHORS, from
    # two pages: no file found, said once)
    for page in ("authors.rst", "credits.rst"):
        (folder / page).write_text(f"{page[:-4].title()}\n=======\n\n.. include:: ../../AUTHORS\n")
    result = marsa("ingest", str(folder), data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    readme = (tmp_path / "proj" / "README.rst").resolve()
    assert f"included {readme}: index.rst includes it" in result.stdout
    gone = (tmp_path / "AUTHORS").resolve()
    assert f"include not found: {gone} (authors.rst and 1 other page include it)" in result.stdout
    assert "\nskipped " not in f"\n{result.stdout}"
    assert (
        "6 files found (2 outside the folder, included by its pages): 2 ingested "
        "(2 documents added, 0 replaced, 0 unchanged), 4 with no text, 0 skipped, 0 failed; "
        "1 included file not found"
    ) in result.stdout
    hits = json.loads(
        marsa("search", "threads per CPU", "--json", data_dir=tmp_path / "data").stdout
    )["results"]
    assert (
        f"nothing indexed {folder / 'index.rst'}: no text to search in it (its text is in what "
        "it includes: ../README.rst)"
    ) in " ".join(result.stderr.split())
    assert (
        f"nothing indexed {folder / 'usage.md'}: no text to search in it (its text is in what "
        "it includes: ../USAGE.md)"
    ) in " ".join(result.stderr.split())
    assert hits[0]["relative_path"] == "../README.rst"
    assert hits[0]["source"] == str(readme)
    assert all("Not included" not in h["text"] for h in hits)


def test_data_dir_option_chooses_the_store_like_the_environment_variable(
    notes: Path, tmp_path: Path
) -> None:
    (notes / "fake.pdf").unlink()
    default = tmp_path / "default"  # MARSA_DATA_DIR, which --data-dir overrides
    store = tmp_path / "own-store"
    result = marsa("ingest", str(notes), "--data-dir", str(store), data_dir=default)
    assert result.returncode == 0, result.stderr
    assert (store / "chroma").is_dir() and not (default / "chroma").exists()
    found = marsa("search", "glaciers", "--json", "--data-dir", str(store), data_dir=default)
    assert json.loads(found.stdout)["results"][0]["relative_path"] == "deep/glaciers.txt"
    empty = marsa("search", "glaciers", "--json", data_dir=default)
    assert json.loads(empty.stdout)["results"] == []


def test_ingest_names_a_markdown_file_that_only_includes_another(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "contributing.md").write_text('--8<-- "CONTRIBUTING.md"\n')
    (folder / "guide.md").write_text("# Guide\n\nConverters structure and unstructure data.\n")
    result = marsa("ingest", str(folder), data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    assert "1 ingested (1 documents added, 0 replaced, 0 unchanged), 1 with no text" in (
        result.stdout
    )
    assert f"nothing indexed {folder / 'contributing.md'}" in result.stderr


def test_help_shows_a_flag_without_a_value_and_the_question_as_an_argument(
    tmp_path: Path,
) -> None:
    done = marsa("research", "--help", data_dir=tmp_path / "data", extra_env={"COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    quiet = next(line for line in done.stdout.splitlines() if "--quiet" in line)
    assert "<bool>" not in quiet and "BOOLEAN" not in quiet, quiet  # a flag takes no value
    assert "[OPTIONS] QUERY" in done.stdout and "{query}" not in done.stdout
