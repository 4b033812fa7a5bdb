"""Which files a folder walk sends to the store and what it passes over, with reasons."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from marsa_common import files as walk_module
from marsa_common.files import included_paths, walk


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def reasons(root: Path, found: walk_module.Walk) -> dict[str, str]:
    return {s.path.relative_to(root).as_posix(): s.reason for s in found.skipped}


def test_a_folder_gives_its_supported_files_with_paths_relative_to_it(tmp_path: Path) -> None:
    root = tree(tmp_path / "docs", {"a.md": b"a", "guide/b.mdx": b"b", "guide/deep/c.rst": b"c"})
    found = walk([root])
    assert [f.relative_path for f in found.files] == ["a.md", "guide/b.mdx", "guide/deep/c.rst"]
    assert found.files[1].path == root / "guide" / "b.mdx"
    assert found.skipped == []


def test_a_file_given_by_name_has_its_name_as_relative_path(tmp_path: Path) -> None:
    file = tree(tmp_path, {"notes/one.md": b"x"}) / "notes" / "one.md"
    assert [(f.path, f.relative_path) for f in walk([file]).files] == [(file, "one.md")]


def test_every_skipped_file_is_listed_with_its_reason(tmp_path: Path) -> None:
    root = tree(
        tmp_path / "docs",
        {
            "ok.md": b"fine",
            "logo.png": b"\x89PNG",
            "Makefile": b"all:",
            "data.txt": b"text\x00with a NUL",
            ".hidden.md": b"secret",
            ".git/config.md": b"never listed one by one",
            "_themes/flask/layout.html": b"<html>{% block body %}{% endblock %}</html>",
            "_build/html/index.html": b"<html>built</html>",
        },
    )
    found = walk([root])
    assert [f.relative_path for f in found.files] == ["ok.md"]
    assert reasons(root, found) == {
        ".git": "hidden",
        "_build": "a documentation tool's templates, static files or built pages",
        "_themes": "a documentation tool's templates, static files or built pages",
        ".hidden.md": "hidden",
        "Makefile": "unsupported type (no extension)",
        "data.txt": "binary content in a text file",
        "logo.png": "unsupported type .png",
    }


def test_a_file_over_the_size_limit_is_skipped_as_too_large(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(walk_module, "MAX_FILE_BYTES", 1024)
    root = tree(tmp_path / "docs", {"big.md": b"x" * 2048, "small.md": b"x"})
    found = walk([root])
    assert [f.relative_path for f in found.files] == ["small.md"]
    assert reasons(root, found)["big.md"].startswith("too large")


def test_links_out_of_the_folder_and_links_to_folders_are_skipped(tmp_path: Path) -> None:
    outside = tree(tmp_path / "outside", {"secret.md": b"s", "more/x.md": b"x"})
    root = tree(tmp_path / "docs", {"real.md": b"r"})
    (root / "secret.md").symlink_to(outside / "secret.md")
    (root / "more").symlink_to(outside / "more", target_is_directory=True)
    (root / "again.md").symlink_to(root / "real.md")
    (root / "dangling.md").symlink_to(root / "missing.md")
    found = walk([root])
    assert [f.relative_path for f in found.files] == ["real.md"]
    assert reasons(root, found) == {
        "again.md": f"the same file as {root / 'real.md'}",
        "dangling.md": "broken link",
        "more": "link to a folder (links to folders are not followed)",
        "secret.md": "link to a file outside the folder",
    }


def test_a_file_given_twice_is_ingested_once(tmp_path: Path) -> None:
    root = tree(tmp_path / "docs", {"a.md": b"a", "sub/b.md": b"b"})
    found = walk([root, root / "sub"])
    assert [f.relative_path for f in found.files] == ["a.md", "sub/b.md"]
    assert reasons(root, found) == {"sub/b.md": f"the same file as {root / 'sub' / 'b.md'}"}


def test_a_named_pipe_is_skipped_not_read(tmp_path: Path) -> None:
    root = tree(tmp_path / "docs", {"ok.md": b"x"})
    os.mkfifo(root / "pipe.md")
    found = walk([root])
    assert reasons(root, found) == {"pipe.md": "not a regular file"}


def test_files_and_folders_that_cannot_be_read_are_skipped_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root, which reads every file whatever its mode: the refusals are played.
    root = tree(tmp_path / "docs", {"ok.md": b"x", "locked.md": b"y", "closed/inner.md": b"z"})
    denied = {(root / "locked.md").resolve(), root / "closed"}
    real_open, real_iterdir = Path.open, Path.iterdir

    def refuse(path: Path) -> None:
        if path in denied:
            raise PermissionError(13, "Permission denied", str(path))

    def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
        refuse(self)
        return real_open(self, *args, **kwargs)

    def iterdir(self: Path) -> Any:
        refuse(self)
        return real_iterdir(self)

    monkeypatch.setattr(Path, "open", open_)
    monkeypatch.setattr(Path, "iterdir", iterdir)
    found = walk([root])
    assert [f.relative_path for f in found.files] == ["ok.md"]
    assert reasons(root, found) == {
        "closed": "not readable (Permission denied)",
        "locked.md": "not readable (Permission denied)",
    }


def test_a_pip_requirements_file_in_a_folder_is_no_document(tmp_path: Path) -> None:
    root = tree(
        tmp_path / "docs",
        {
            "index.rst": b"Title\n=====\n",
            "requirements-docs.txt": b"# docs\nsphinx>=7\nfuro==2024.1.29; python_version<'3.12'\n"
            b"-r ../requirements.txt\n",
            "requirements-notes.txt": b"The requirements we gathered from users.\n",
        },
    )
    found = walk([root])
    assert reasons(root, found) == {"requirements-docs.txt": walk_module.REQUIREMENTS_REASON}
    # prose under the same kind of name stays, and a file given by name is taken as it is
    assert [f.relative_path for f in found.files] == ["index.rst", "requirements-notes.txt"]
    assert walk([root / "requirements-docs.txt"]).skipped == []


def test_a_file_outside_the_folder_that_a_page_includes_is_found_with_its_includer(
    tmp_path: Path,
) -> None:
    """Sphinx builds docs/index.rst with ../README.rst in it (arrow, requests-toolbelt): the
    walk finds the README too, and what it includes, once each. An include shown as code is
    not prose, and a MyST page's include is followed like reStructuredText's."""
    project = tree(
        tmp_path / "proj",
        {
            "README.rst": b"Arrow\n=====\n\n.. include:: CHANGES\n",
            "CHANGES": b"1.0\n---\n\n- Dropped Python 2.\n",
            "setup.py": b"print('setup')\n",
            "docs/index.rst": b"Home\n====\n\n.. include:: ../README.rst\n"
            b"   :start-after: .. start\n\n.. include:: ../setup.py\n   :literal:\n"
            b".. include:: <isonum.txt>\n",
            "docs/guide.md": b"# Guide\n\n```{include} ../README.rst\n```\n",
        },
    )
    found = walk([project / "docs"])
    assert [(f.relative_path, f.included_by, f.filename) for f in found.files] == [
        ("guide.md", None, "guide.md"),
        ("index.rst", None, "index.rst"),
        ("../README.rst", "guide.md", "README.rst"),
        # (read as its includer is written)
        ("../CHANGES", "../README.rst", "CHANGES.rst"),
    ]
    assert found.skipped == []


def test_a_mkdocs_page_includes_what_its_include_markdown_and_snippets_name(
    tmp_path: Path,
) -> None:
    """humanize's docs/index.md is `{% include-markdown "../README.md" start=… %}`: the README
    is the page's text. A snippet (`--8<-- "CHANGELOG.md"`) names a file from the project's
    root, where MkDocs runs; a snippet or plain include of code is not prose."""
    project = tree(
        tmp_path / "proj",
        {
            "README.md": b"# humanize\n\nIt formats numbers.\n",
            "CHANGELOG.md": b"# Changes\n\n- Dropped Python 3.8.\n",
            "example.py": b"print(1)\n",
            "docs/index.md": b'# humanize\n\n{%\n   include-markdown "../README.md"\n'
            b'   start="<!-- usage-start -->"\n   comments=false\n%}\n',
            "docs/changes.md": b'# Changes\n\n--8<-- "CHANGELOG.md"\n\n```python\n'
            b'--8<-- "example.py"\n```\n{% include "../example.py" %}\n',
        },
    )
    found = walk([project / "docs"])
    assert [(f.relative_path, f.included_by) for f in found.files] == [
        ("changes.md", None),
        ("index.md", None),
        ("../CHANGELOG.md", "changes.md"),
        ("../README.md", "index.md"),
    ]
    assert found.skipped == []


def test_an_included_fragment_in_the_folder_is_taken_though_its_type_is_not_read(
    tmp_path: Path,
) -> None:
    root = tree(
        tmp_path / "docs",
        {"index.rst": b"Home\n====\n\n.. include:: parts/intro.inc\n", "parts/intro.inc": b"Hi."},
    )
    found = walk([root])
    assert [(f.relative_path, f.included_by, f.filename) for f in found.files] == [
        ("index.rst", None, "index.rst"),
        ("parts/intro.inc", "index.rst", "intro.inc.rst"),
    ]
    assert found.skipped == []


def test_an_include_that_cannot_be_read_is_listed_as_skipped(tmp_path: Path) -> None:
    root = tree(
        tmp_path / "docs",
        {
            "index.rst": b"Home\n====\n\n.. include:: ../README.rst\n\n.. include:: ../logo.rst\n",
            "guide.rst": b".. include:: ../README.rst\n",
        },
    )
    (tmp_path / "logo.rst").write_bytes(b"\x00\x01PNG")
    found = walk([root])
    assert [f.relative_path for f in found.files] == ["guide.rst", "index.rst"]
    assert [(s.path, s.reason) for s in found.skipped] == [
        ((tmp_path / "logo.rst").resolve(), "index.rst includes it: binary content in a text file"),
    ]
    # one that is not there is no file found: said once, with every page including it
    assert [(m.path, m.included_by) for m in found.missing] == [
        ((tmp_path / "README.rst").resolve(), ["guide.rst", "index.rst"]),
    ]


def test_an_include_shown_as_code_is_not_followed(tmp_path: Path) -> None:
    # mistune's directives.rst shows `.. include:: hello.md` in a code-block: an example of
    # the markup, which ingest said it skipped ("no such file")
    root = tree(
        tmp_path / "docs",
        {
            "directives.rst": (
                b"Include\n-------\n\n.. code-block:: text\n\n    .. include:: hello.md\n\n"
                b"Or as a literal block::\n\n    Text\n        .. include:: deeper.rst\n\n"
                b".. note::\n\n    .. include:: notes.rst\n"
            ),
            "notes.rst": b"A note.",
        },
    )
    found = walk([root])
    assert [(f.relative_path, f.included_by) for f in found.files] == [
        ("directives.rst", None),
        ("notes.rst", None),
    ]
    assert found.skipped == []
    assert included_paths((root / "directives.rst").read_text(), ".rst") == ["notes.rst"]
