"""bench/corpus.py: a pinned sdist's docs folder, only the files a corpus names."""

from __future__ import annotations

import io
import tarfile
from dataclasses import replace
from pathlib import Path

import pytest

from bench.corpus import CORPORA, Corpus, CorpusError, download, extract_docs, obtain


def _sdist(path: Path, files: dict[str, str]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def _files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_a_corpus_limited_to_some_folders_extracts_only_those(tmp_path: Path) -> None:
    sdist = _sdist(
        tmp_path / "pkg-1.0.tar.gz",
        {
            "pkg-1.0/doc/en/how-to/fixtures.rst": "Fixtures",
            "pkg-1.0/doc/en/changelog.rst": "Changes",
            "pkg-1.0/doc/en/reference/fixtures.rst": "Reference",
            "pkg-1.0/doc/en/reference/reference.rst": "Everything",
            "pkg-1.0/doc/en/how-to/notes.txt": "Not a doc",
        },
    )
    corpus = Corpus(
        "pkg",
        "1.0",
        "",
        docs="doc/en",
        suffixes=(".rst",),
        only=("how-to/", "reference/fixtures.rst"),
    )
    folder = extract_docs(corpus, sdist, tmp_path / "cache")
    found = _files_in(folder)
    assert found == ["how-to/fixtures.rst", "reference/fixtures.rst"]


def test_a_corpus_can_leave_out_some_files(tmp_path: Path) -> None:
    sdist = _sdist(
        tmp_path / "pkg-1.0.tar.gz",
        {
            "pkg-1.0/doc/config.rst": "Configuration",
            "pkg-1.0/doc/changes.rst": "Fifteen thousand words of changes",
            "pkg-1.0/doc/api/changes.rst": "Kept: only the top-level change log is named",
        },
    )
    corpus = Corpus("pkg", "1.0", "", docs="doc", suffixes=(".rst",), skip=("changes.rst",))
    folder = extract_docs(corpus, sdist, tmp_path / "cache")
    found = _files_in(folder)
    assert found == ["api/changes.rst", "config.rst"]


def test_a_corpus_kept_in_this_repository_is_checked_and_extracted(tmp_path: Path) -> None:
    folder = obtain("mcp", tmp_path / "cache")
    found = _files_in(folder)
    assert "specification/basic/lifecycle.mdx" in found
    assert len(found) == 64 and all(name.endswith(".mdx") for name in found)
    # nothing is downloaded: the cache holds only what was extracted
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["mcp-spec-b0f60ba5"]


def test_a_kept_archive_that_does_not_match_its_checksum_is_refused(tmp_path: Path) -> None:
    corpus = replace(CORPORA["mcp"], sha256="0" * 64)
    with pytest.raises(CorpusError, match="sha256"):
        download(corpus, tmp_path / "cache")
