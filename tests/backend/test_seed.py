"""What first use ingests from MARSA's own docs/."""

from __future__ import annotations

from pathlib import Path

from backend.seed import PROJECT_DOCS, seed_files


def test_first_use_ingests_the_docs_but_not_the_evaluation_journal() -> None:
    seeded = [p.relative_to(PROJECT_DOCS).as_posix() for p in seed_files(PROJECT_DOCS)]
    assert "evaluation.md" in seeded and "scoring.md" in seeded and "architecture.md" in seeded
    assert (PROJECT_DOCS / "journal" / "answers.md").is_file()
    assert not [name for name in seeded if name.startswith("journal/")]


def test_a_folder_named_journal_below_the_top_is_still_ingested(tmp_path: Path) -> None:
    (tmp_path / "journal").mkdir()
    (tmp_path / "guide" / "journal").mkdir(parents=True)
    for name in ("a.md", "journal/log.md", "guide/journal/entry.md", "guide/notes.txt"):
        (tmp_path / name).write_text("# x\n")
    assert [p.relative_to(tmp_path).as_posix() for p in seed_files(tmp_path)] == [
        "a.md",
        "guide/journal/entry.md",
    ]
