"""Which files the document store reads, which files a folder holds for it, and which it
passes over and why. The CLI walks folders and the API checks uploads with these; the store's
loaders cover exactly ``SUPPORTED_SUFFIXES`` (checked when its ingest module is imported)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILE_BYTES = 25 * 1024 * 1024
BINARY_SUFFIXES = (".pdf", ".docx")  # the other formats are text and hold no NUL byte
SUPPORTED_SUFFIXES = frozenset(
    (".md", ".markdown", ".mdx", ".rst", ".docx", ".txt", ".text", ".html", ".htm", ".pdf")
    + (".jsonl",)
)
"""The one list of file types the store reads; the CLI, the API and the web page use it."""


def looks_binary(head: bytes) -> bool:
    """Whether the first bytes of a text file show it is not text (a NUL byte)."""
    return b"\x00" in head[:4096]


@dataclass(frozen=True)
class FoundFile:
    """A file to ingest and its path within the folder it was found in. A file outside the
    folder that a document in it includes has ``included_by`` (that document's relative
    path) and a relative path such as ``../README.rst``; ``filename`` is the name the store
    reads its type from (an included ``CHANGES`` is reStructuredText, as its includer)."""

    path: Path
    relative_path: str
    included_by: str | None = None
    type_name: str | None = None

    @property
    def filename(self) -> str:
        return self.type_name or self.path.name


@dataclass(frozen=True)
class Skipped:
    """A file or folder a walk passed over, and why."""

    path: Path
    reason: str


@dataclass
class MissingInclude:
    """A file the walk's pages include that is not there (Pygments' ``authors.rst`` includes
    ``../../AUTHORS``, which its docs folder alone does not hold): no file found, and said
    once with every page that includes it."""

    path: Path
    included_by: list[str]


@dataclass
class Walk:
    """What a walk over the paths given found: files to ingest, what it skipped, and the
    included files that are not there."""

    files: list[FoundFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    missing: list[MissingInclude] = field(default_factory=list)


def walk(paths: list[Path]) -> Walk:
    """The supported files under each path (a file given by name is taken as it is, with its
    name as relative path), and every file or folder passed over with the reason: hidden,
    unsupported type, larger than MAX_FILE_BYTES, binary content, a link leading outside the
    folder, not a regular file, a second way to the same file."""
    result = Walk()
    candidates: list[FoundFile] = []
    for given in paths:
        if given.is_dir():
            root = given.resolve()
            entries = [(p, p.relative_to(given).as_posix()) for p in _under(given, result.skipped)]
        else:
            root, entries = None, [(given, given.name)]
        for path, rel in entries:
            reason = _skip_reason(path, root)
            if reason:
                result.skipped.append(Skipped(path, reason))
            else:
                candidates.append(FoundFile(path, rel))
    # A file reached twice (a link beside its target, a folder given inside another) is
    # ingested once, by its own name rather than a link's.
    kept: dict[Path, FoundFile] = {}
    for found in sorted(candidates, key=lambda f: f.path.is_symlink()):
        kept.setdefault(found.path.resolve(), found)
    chosen = {id(found) for found in kept.values()}
    for found in candidates:
        if id(found) in chosen:
            result.files.append(found)
        else:
            twin = kept[found.path.resolve()]
            result.skipped.append(Skipped(found.path, f"the same file as {twin.path}"))
    _add_included(result, [p.resolve() for p in paths if p.is_dir()])
    return result


# What a page includes is part of it, as Sphinx builds it: `.. include:: ../README.rst` in
# docs/index.rst, or MyST's ```{include} ../CHANGELOG.md``` (their :start-after: and the like
# are not applied: the whole file is a document of its own). `literalinclude`, and an include
# shown as code (:literal:, :code:), are code, not prose.
_RST_INCLUDE = re.compile(
    r"^[ \t]*\.\.[ \t]+include::[ \t]+(?P<path>\S[^\n]*?)[ \t]*\n(?P<options>(?:[ \t]+:[^\n]*\n)*)",
    re.M,
)
_MYST_INCLUDE = re.compile(
    r"^[ \t]*(?:`{3,}|:{3,})[ \t]*\{include\}[ \t]+(?P<path>\S[^\n]*?)[ \t]*\n"
    r"(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)",
    re.M,
)
# MkDocs' include-markdown plugin: `{% include-markdown "../README.md" start="…" %}` (humanize's
# docs/index.md), and its `{% include "…" %}` of a Markdown file; paths are the page's own.
_MKDOCS_INCLUDE = re.compile(
    r"\{%-?\s*include(?P<markdown>-markdown)?\s+(?P<q>[\"'])(?P<path>[^\"'\n]+)(?P=q)"
    r"(?P<options>[^%]*)-?%\}"
)
# pymdownx.snippets: `--8<-- "README.md"`, its path from where MkDocs runs (the project's root)
_SNIPPET = re.compile(r"^[ \t]*-{1,}8<-{1,}[ \t]+(?P<q>[\"'])(?P<path>[^\"'\n;]+)(?P=q)", re.M)
_AS_CODE = re.compile(r":(?:literal|code):")
# The directives whose body is code, not reStructuredText
_CODE_DIRECTIVE = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|parsed-literal|highlight|doctest|testcode|"
    r"testoutput|ipython|prompt|literalinclude)::",
    re.I,
)
_INCLUDES_FROM = frozenset((".rst", ".md", ".markdown", ".txt", ".text"))
_MARKDOWN = (".md", ".markdown")


def included_paths(text: str, suffix: str) -> list[str]:
    """The paths a page's include directives name, as written (prose includes only); a
    snippet's (``--8<--``) path is marked by a leading ``"8<"`` (it is the project's, not
    the page's)."""
    if suffix in (".rst", ".txt", ".text"):
        matches = list(_RST_INCLUDE.finditer(text + "\n"))
    else:
        matches = list(_MYST_INCLUDE.finditer(text + "\n"))
    found = []
    for match in matches:
        path = match["path"].strip()
        if path.startswith("<") or _AS_CODE.search(match["options"]):
            continue  # <isonum.txt>: docutils' own substitution sets
        if suffix in (".rst", ".txt", ".text") and _shown_as_code(text, match.start()):
            continue  # mistune's directives.rst shows `.. include:: hello.md` in a code-block
        found.append(path)
    if suffix in _MARKDOWN:
        for match in _MKDOCS_INCLUDE.finditer(text):
            path = match["path"].strip()
            if match["markdown"] or path.lower().endswith(_MARKDOWN):
                found.append(path)
        found += [
            SNIPPET_MARK + m["path"].strip()
            for m in _SNIPPET.finditer(text)
            if m["path"].strip().lower().endswith(_MARKDOWN)  # (a code file goes in a fence)
        ]
    return found


SNIPPET_MARK = "8<"


def _shown_as_code(text: str, start: int) -> bool:
    """True when the (indented) line at ``start`` is inside a literal block (after a line
    ending "::") or in the body of a code directive: an example of the markup, not markup."""
    line = text[start:].split("\n", 1)[0]
    indent = len(line) - len(line.lstrip())
    if not indent:
        return False
    for above in reversed(text[:start].split("\n")):
        if not above.strip():
            continue
        if (outer := len(above) - len(above.lstrip())) >= indent:
            continue
        # a block's opening line: a literal block's, a code directive's, or the prose or
        # directive (`.. note::`) that holds this block
        if _CODE_DIRECTIVE.match(above) or (
            above.rstrip().endswith("::") and not _DIRECTIVE_LINE.match(above)
        ):
            return True
        if not outer:
            return False
        indent = outer
    return False


_DIRECTIVE_LINE = re.compile(r"^[ \t]*\.\.[ \t]+[\w:-]+::[ \t]*$")

# A reference made from the code's docstrings when the docs are built: mkdocstrings'
# `::: humanize.number`, Sphinx autodoc's `.. automodule:: humanize.number`
_FROM_CODE = re.compile(
    r"^(?::::[ \t]+|[ \t]*\.\.[ \t]+auto(?:module|class|function|data|exception)::[ \t]+)"
    r"(?P<name>[\w.]+)[ \t]*$",
    re.M,
)


def made_from_code(text: str) -> list[str]:
    """The modules or objects whose docstrings a page shows, by its autodoc directives."""
    return [m["name"] for m in _FROM_CODE.finditer(text)]


def _add_included(result: Walk, roots: list[Path]) -> None:
    """Add the files outside the folders that the walk's pages include (and what those
    include), each once; an included file the walk skipped for its type is taken after all."""
    seen = {f.path.resolve() for f in result.files}
    queue = list(result.files)
    # the folder each page was found from (an included file's, its includer's)
    home = {
        f.path: next((r for r in roots if f.path.resolve().is_relative_to(r)), None) for f in queue
    }
    missing: dict[Path, MissingInclude] = {}
    while queue:
        page = queue.pop(0)
        suffix = page.path.suffix.lower()
        if suffix not in _INCLUDES_FROM:
            continue
        try:
            text = page.path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        for written in included_paths(text, suffix):
            root = home[page.path]
            target = _included_target(written, page.path, root)
            if target in missing:
                if page.relative_path not in missing[target].included_by:
                    missing[target].included_by.append(page.relative_path)
                continue
            if target in seen:
                continue
            if not target.exists():
                missing[target] = MissingInclude(target, [page.relative_path])
                result.missing.append(missing[target])
                continue
            reason = (
                _skip_reason(target, None, any_type=True)
                if target.is_file()
                else "not a regular file"
            )
            if reason:  # (said once, as Sphinx warns of an include it cannot read)
                seen.add(target)
                result.skipped.append(
                    Skipped(target, f"{page.relative_path} includes it: {reason}")
                )
                continue
            inside = next((r for r in roots if target.is_relative_to(r)), None)
            if inside is not None:
                # in the folder but skipped for its type (an `.inc` fragment): taken now
                result.skipped = [s for s in result.skipped if s.path.resolve() != target]
                rel = target.relative_to(inside).as_posix()
                found = FoundFile(target, rel, page.relative_path, _typed(target, suffix))
            else:
                rel = os.path.relpath(target, root or page.path.parent)
                found = FoundFile(
                    target, Path(rel).as_posix(), page.relative_path, _typed(target, suffix)
                )
            seen.add(target)
            home[target] = root
            result.files.append(found)
            queue.append(found)


def _included_target(written: str, page: Path, root: Path | None) -> Path:
    """The file an include names: from the page's folder (from the walk's folder when it opens
    with "/"); a snippet's from the project's root (the folder above the docs), else the
    page's or the docs' own, whichever holds it."""
    if written.startswith(SNIPPET_MARK):
        written = written[len(SNIPPET_MARK) :]
        bases = [b for b in (root.parent if root else None, page.parent, root) if b is not None]
        targets = [(b / written).resolve() for b in bases]
        return next((t for t in targets if t.is_file()), targets[0])
    base = root if written.startswith("/") and root else page.parent
    return (base / written.lstrip("/")).resolve()


def _typed(target: Path, includer_suffix: str) -> str | None:
    """The name to read an included file's type from: its own when the store reads it,
    else its includer's (an included ``CHANGES`` or ``intro.inc`` is written as its includer is)."""
    if target.suffix.lower() in SUPPORTED_SUFFIXES:
        return None
    return target.name + includer_suffix


# A documentation tool's own folders (Sphinx's): page templates such as `layout.html`, static
# files and built output, not documents; a new user's peewee docs brought two templates in.
TOOL_FOLDERS = frozenset({"_build", "_static", "_templates", "_themes"})
TOOL_FOLDER_REASON = "a documentation tool's templates, static files or built pages"


def _under(folder: Path, skipped: list[Skipped]) -> Iterator[Path]:
    """Every entry below a folder in name order; hidden ones and links to folders are
    reported, not entered."""
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as exc:  # a folder this user may not list
        skipped.append(Skipped(folder, f"not readable ({exc.strerror or exc})"))
        return
    for entry in entries:
        if entry.name.startswith("."):
            skipped.append(Skipped(entry, "hidden"))
        elif entry.name in TOOL_FOLDERS and entry.is_dir() and not entry.is_symlink():
            skipped.append(Skipped(entry, TOOL_FOLDER_REASON))
        elif entry.is_symlink() and entry.is_dir():
            skipped.append(Skipped(entry, "link to a folder (links to folders are not followed)"))
        elif entry.is_dir():
            yield from _under(entry, skipped)
        else:
            yield entry


def _skip_reason(path: Path, root: Path | None, any_type: bool = False) -> str | None:
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES and not any_type:
        return f"unsupported type {suffix or '(no extension)'}"
    real = path.resolve()
    if root is not None and not real.is_relative_to(root):
        return "link to a file outside the folder"
    if not real.is_file():
        return "not a regular file" if real.exists() else "broken link"
    size = real.stat().st_size
    if size > MAX_FILE_BYTES:
        return f"too large ({size / 2**20:.1f} MiB; the limit is {MAX_FILE_BYTES // 2**20} MiB)"
    try:
        with real.open("rb") as handle:
            head = handle.read(4096)
    except OSError as exc:  # a file this user may not read
        return f"not readable ({exc.strerror or exc})"
    if suffix not in BINARY_SUFFIXES and looks_binary(head):
        return "binary content in a text file"
    if root is not None and _REQUIREMENTS_NAME.match(path.name) and _pins_only(head):
        return REQUIREMENTS_REASON  # docs/requirements.txt: what builds the docs, not a document
    return None


REQUIREMENTS_REASON = "a pip requirements file (package pins, not a document)"
_REQUIREMENTS_NAME = re.compile(r"^(?:requirements|constraints)[\w.-]*\.txt$", re.I)
# A line of a requirements file: a comment, an option ("-r base.txt", "--hash …"), or a
# package with its version and markers ("sphinx>=7", "furo==2024.1.29; python_version<'3.12'")
_PIN_LINE = re.compile(r"^\s*(?:#.*|-.*|[A-Za-z0-9][\w.\[\],-]*\s*(?:[<>=!~;@].*)?)?$")


def _pins_only(head: bytes) -> bool:
    """Is every line of the file's start a requirements line (and at least one a package)?"""
    lines = head.decode("utf-8", "replace").splitlines()
    if len(head) == 4096 and lines:
        lines = lines[:-1]  # (the last line may be cut)
    packages = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith(("#", "-"))]
    return bool(packages) and all(_PIN_LINE.match(ln) for ln in lines)
