"""Turn files into documents and documents into chunks.

Formats: Markdown and MDX, reStructuredText, plain text, HTML, PDF, Word (.docx) and
JSON lines (one document a line). Each is brought to Markdown text (formats.py), then
split by section heading and by words with overlap; each chunk keeps its document title
and section so search and citations have context.
"""

from __future__ import annotations

import bisect
import hashlib
import io
import json
import re
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from marsa_common.fences import step as fence_step
from marsa_common.files import (
    SUPPORTED_SUFFIXES,
    looks_binary,
)
from marsa_common.text import RELEASE_HEADING
from mcp_servers.document_store.entities import decode_references
from mcp_servers.document_store.formats import (
    WordError,
    docx_to_markdown,
    mdx_to_markdown,
    rst_to_markdown,
)
from mcp_servers.document_store.links import reference_links
from mcp_servers.document_store.mkdocs import mkdocs_to_markdown
from mcp_servers.document_store.myst import myst_to_markdown
from mcp_servers.document_store.tables import markdown_tables

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_WORD = re.compile(r"\S+")
_SPACES = re.compile(r"[^\S\n]+")  # any whitespace but a line break (NBSP included)
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_BLANKS = re.compile(r"\n{3,}")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
WHOLE_SECTION_FACTOR = 1.5  # a section this many windows long or less is not split


class IngestError(ValueError):
    """A file or document that cannot be ingested, with what to fix."""


@dataclass
class Document:
    """One document before chunking."""

    title: str
    content: str
    source: str
    doc_id: str | None = None
    source_url: str | None = None
    published_date: str | None = None
    metadata: dict[str, str | int | float | bool] = field(default_factory=dict)

    def content_hash(self) -> str:
        return hashlib.sha256(f"{self.title}\n{self.content}".encode()).hexdigest()


@dataclass
class Chunk:
    """A piece of a document, with the section it sits in."""

    index: int
    text: str
    section: str
    word_count: int


def make_doc_id(source: str) -> str:
    """A stable id from where a document came from."""
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def normalise_date(value: Any) -> str | None:
    """An ISO date (YYYY-MM-DD) from a string that starts with one, else None."""
    if isinstance(value, str) and _DATE.match(value.strip()):
        return value.strip()[:10]
    return None


# --- chunking -------------------------------------------------------------


def _sections(text: str) -> Iterator[tuple[str, str]]:
    """(heading, body) pairs from Markdown headings; text before any heading has ''.

    A heading under a release's heading keeps the release: a changelog's "### Removed" under
    "## 1.3.0 - 2025-11-10" is the section "1.3.0 - 2025-11-10 / Removed", so that what it
    lists ("Support for Python 3.9") is known to be of that release."""
    heading, lines = "", list[str]()
    release: tuple[int, str] | None = None  # (level, heading) of the release it sits under
    fence: str | None = None
    for line in text.splitlines():
        fence, is_fence = fence_step(line, fence)
        match = None if fence is not None or is_fence else _HEADING.match(line)
        if match:
            if any(part.strip() for part in lines):
                yield heading, "\n".join(lines)
            level, heading, lines = len(match.group(1)), match.group(2).strip(), []
            if release is not None and level <= release[0]:
                release = None
            if RELEASE_HEADING.search(heading):
                release = (level, _LINK.sub(r"\1", heading))  # ("[1.3.0](…)": "1.3.0")
            elif release is not None:
                heading = f"{release[1]} / {heading}"
        else:
            lines.append(line)
    if any(part.strip() for part in lines):
        yield heading, "\n".join(lines)


def chunk_text(text: str, chunk_words: int = 200, overlap: int = 40) -> list[Chunk]:
    """Split by section, then into windows of ``chunk_words`` words overlapping by ``overlap``.

    A section up to 1.5x the window stays whole, so an abstract is one chunk: the embedder
    reads its first 256 tokens either way, and BM25 indexes all of it.
    """
    overlap = min(overlap, chunk_words // 2)
    chunks: list[Chunk] = []
    for section, body in _sections(text):
        body = _item_paragraphs(body)
        words = list(_WORD.finditer(body))
        if not words:
            continue
        if len(words) <= int(chunk_words * WHOLE_SECTION_FACTOR):
            windows = [(0, len(words))]
        else:
            step = chunk_words - overlap
            windows = []
            for start in range(0, len(words), step):
                windows.append((start, min(start + chunk_words, len(words))))
                if start + chunk_words >= len(words):
                    break
        fences = _fence_line_ends(body)
        ends = [e for e, _ in fences]
        for start, end in windows:
            begin = words[start].start()
            before = bisect.bisect_right(ends, begin)
            open_fence = fences[before - 1][1] if before % 2 else None
            piece = _tidy(body[begin : words[end - 1].end()], open_fence)
            if open_fence is not None:
                # The window starts inside a code block: reopen it (with its own fence), so
                # that readers of the chunk do not take its closing fence for an opening one.
                piece = f"{open_fence}\n" + piece
            chunks.append(Chunk(len(chunks), piece, section, end - start))
    return chunks


_ITEM_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]+\S")


def _item_paragraphs(body: str) -> str:
    """A list item's later paragraphs, indented under it, joined to the item (the blank
    lines before them dropped): once :func:`_tidy` strips the indentation, "1. A context
    dictionary …\n\n   You can inspect a context …" would read as the end of the list."""
    out: list[str] = []
    fence: str | None = None
    item: int | None = None  # the indentation of the open item's bullet
    for line in body.split("\n"):
        indent = len(line) - len(line.lstrip(" \t"))
        fence, is_fence = fence_step(line, fence)
        if not is_fence and fence is None and line.strip():
            bullet = _ITEM_LINE.match(line)
            if bullet:
                item = len(bullet.group("indent"))
            elif item is not None and indent > item and indent >= 2:
                while out and not out[-1].strip():
                    out.pop()
            else:
                item = None
        out.append(line)
    return "\n".join(out)


def _fence_line_ends(body: str) -> list[tuple[int, str]]:
    """The end offsets of the lines that open or close a code block, in order, each with
    the fence of the block it opens or closes ("```", "````")."""
    ends: list[tuple[int, str]] = []
    position, fence, opened = 0, None, ""
    for line in body.splitlines(keepends=True):
        position += len(line)
        fence, is_fence = fence_step(line, fence)
        if is_fence:
            opened = fence or opened
            ends.append((position, opened))
    return ends


def _tidy(piece: str, open_fence: str | None = None) -> str:
    """Runs of spaces become one and blank-line runs one blank line, but line breaks stay:
    they tell sentences, list items, table rows and code blocks apart for the readers of
    the chunk (the offline engine's sentence splitter, the report's quotes). Inside a code
    block (``open_fence``: the piece starts in one) a line keeps its indentation, less the
    block's own: in Python it is the code's meaning."""
    out: list[str] = []
    block: list[str] = []

    def flush() -> None:
        out.extend(textwrap.dedent("\n".join(block)).split("\n") if block else [])
        block.clear()

    for line in piece.splitlines():
        open_fence, is_fence = fence_step(line, open_fence)
        if is_fence:
            flush()
            out.append(_SPACES.sub(" ", line).strip())
        elif open_fence is not None:
            block.append(line.rstrip())
        else:
            out.append(_SPACES.sub(" ", line).strip())
    flush()
    return _BLANKS.sub("\n\n", "\n".join(out))


# --- file loaders ---------------------------------------------------------


def _title_from_markdown(text: str, fallback: str) -> str:
    """The first level-1 heading outside code blocks (a shell or Python comment in a fenced
    block is not a title), else the fallback (the file's name). A changelog's first heading
    is its latest release, not its title: dateutil's NEWS was listed as "Version 4.0.0
    (2026-11-01)"; its name says what it is."""
    fence: str | None = None
    for line in text.splitlines():
        fence, is_fence = fence_step(line, fence)
        if is_fence:
            continue
        match = None if fence is not None else _HEADING.match(line)
        if match and len(match.group(1)) == 1:
            heading = match.group(2).strip()
            return fallback if RELEASE_HEADING.match(heading) else heading
    return fallback


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    """A minimal YAML front matter reader: the top-level `key: value` lines of a `---`
    block (lists and nested mappings are passed over)."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 3)
    if end == -1:
        return {}, text
    meta = {}
    for line in text[4:end].splitlines():
        if line[:1].isspace() or line.startswith(("#", "-")):
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip():
            meta[key.strip().lower().replace("-", "_")] = value.strip().strip("'\"")
    return meta, text[end + 4 :].lstrip("\n")


LIFECYCLE_KEYS = ("status", "draft", "deprecated", "superseded_by")
"""Front matter / RST fields kept as metadata: the report marks drafts, proposals,
deprecated and superseded documents by them."""
_FALSE = {"", "false", "no", "off", "0", "~", "null"}
_TRUE = {"true", "yes", "on", "1"}


def lifecycle_metadata(meta: Mapping[str, str]) -> dict[str, str | bool]:
    """The fields that say a document is a draft, a proposal, deprecated or superseded,
    from front matter or RST fields; yes/no values become booleans."""
    kept: dict[str, str | bool] = {}
    for key in LIFECYCLE_KEYS:
        value = str(meta.get(key, "")).strip()
        if not value:
            continue
        lowered = value.lower()
        if key in ("draft", "deprecated") and lowered in _TRUE | _FALSE:
            kept[key] = lowered in _TRUE
        else:
            kept[key] = value
    return kept


def _load_markdown(data: bytes, name: str, source: str) -> list[Document]:
    meta, text = _front_matter(_decode(data, name).replace("\r\n", "\n"))
    if Path(name).suffix.lower() == ".mdx":
        text = mdx_to_markdown(text)
    text = reference_links(markdown_tables(mkdocs_to_markdown(myst_to_markdown(text))))
    text = decode_references(text)
    title = meta.get("title") or _title_from_markdown(text, Path(name).stem)
    date = normalise_date(meta.get("date") or meta.get("published") or meta.get("updated"))
    return [
        Document(
            title=title,
            content=text,
            source=source,
            published_date=date,
            source_url=meta.get("url") or meta.get("source_url"),
            metadata=dict(lifecycle_metadata(meta)),
        )
    ]


def _load_rst(data: bytes, name: str, source: str) -> list[Document]:
    converted = rst_to_markdown(_decode(data, name))
    fields = converted.fields
    title = fields.get("title") or _title_from_markdown(converted.markdown, Path(name).stem)
    return [
        Document(
            title=title,
            content=converted.markdown,
            source=source,
            published_date=normalise_date(fields.get("date")),
            metadata=dict(lifecycle_metadata(fields)),
        )
    ]


def _load_docx(data: bytes, name: str, source: str) -> list[Document]:
    if not data.startswith(b"PK"):
        raise IngestError(
            f"{name} is not a Word .docx file (it is not a zip archive); an old .doc file "
            "must be saved as .docx first"
        )
    try:
        converted = docx_to_markdown(data)
    except WordError as exc:
        raise IngestError(f"{name} could not be read as a Word document: {exc}") from exc
    if not converted.markdown.strip():
        raise IngestError(f"{name} has no text")
    return [
        Document(
            title=converted.title or Path(name).stem,
            content=converted.markdown,
            source=source,
            published_date=converted.date,
        )
    ]


def _load_text(data: bytes, name: str, source: str) -> list[Document]:
    text = _decode(data, name)
    if looks_like_rst(text):  # lxml, docutils and zope ship their docs as .txt
        return _load_rst(data, name, source)
    return [Document(title=Path(name).stem, content=text, source=source)]


# reStructuredText's marks: a title over- or underlined with one punctuation character, a
# directive ("..  sourcecode:: pycon"), a literal block's "::", an inline literal (``x``)
_RST_UNDERLINE: Final = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_RST_DIRECTIVE: Final = re.compile(r"^\.\.\s+[\w:-]+::", re.M)
_RST_LITERAL: Final = re.compile(r"::\s*$|``[^`\n]+``", re.M)


def looks_like_rst(text: str) -> bool:
    """Is a text file written in reStructuredText: a title underlined to its length, and a
    directive, a literal block or inline literals? (Plain notes underline a title too.)"""
    lines = text.splitlines()
    titled = any(
        _RST_UNDERLINE.match(line)
        and (title := lines[i - 1].strip())
        and not _RST_UNDERLINE.match(title)
        and len(title) <= len(line.strip())
        for i, line in enumerate(lines[1:], 1)
    )
    return titled and (
        _RST_DIRECTIVE.search(text) is not None or len(_RST_LITERAL.findall(text)) >= 2
    )


def _load_html(data: bytes, name: str, source: str) -> list[Document]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(_decode(data, name), "html.parser")
    for tag in soup(["script", "style", "noscript", "nav", "footer"]):
        tag.decompose()
    title = soup.title.get_text(strip=True) if soup.title else Path(name).stem
    parts: list[str] = []
    body = soup.body or soup
    for element in body.find_all(["h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "pre", "td"]):
        text = element.get_text(" ", strip=True)
        if not text:
            continue
        if element.name and element.name[0] == "h" and element.name[1:].isdigit():
            parts.append(f"{'#' * int(element.name[1:])} {text}")
        else:
            parts.append(text)
    content = "\n\n".join(parts) or body.get_text(" ", strip=True)
    date = None
    for meta in soup.find_all("meta"):
        prop = str(meta.get("property") or meta.get("name") or "").lower()
        if prop in ("article:published_time", "date", "dc.date", "pubdate"):
            date = normalise_date(str(meta.get("content") or ""))
    return [
        Document(
            title=title or Path(name).stem, content=content, source=source, published_date=date
        )
    ]


def _load_pdf(data: bytes, name: str, source: str) -> list[Document]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    if not data.startswith(b"%PDF-"):
        raise IngestError(
            f"{name} is not a PDF (it does not start with %PDF-); "
            "check the file or give it its real extension"
        )
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
        info = reader.metadata
    except (PdfReadError, ValueError, KeyError, OSError) as exc:
        raise IngestError(f"{name} could not be read as a PDF: {exc}") from exc
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise IngestError(f"{name} has no extractable text (a scanned PDF needs OCR first)")
    title = (info.title if info and info.title else None) or Path(name).stem
    date = None
    if info and info.creation_date:
        date = info.creation_date.date().isoformat()
    return [Document(title=title, content=text, source=source, published_date=date)]


_TEXT_KEYS = ("content", "text", "abstract", "body")
_ID_KEYS = ("doc_id", "id", "_id")


def document_from_record(record: dict[str, Any], source: str, line: int) -> Document:
    """A document from one JSON object: title, content|text|abstract, optional id/url/date."""
    text_value = next((record[k] for k in _TEXT_KEYS if k in record), None)
    if isinstance(text_value, list):
        text_value = " ".join(str(part) for part in text_value)
    if not isinstance(text_value, str) or not text_value.strip():
        raise IngestError(
            f"{source} line {line}: needs a non-empty 'content', 'text' or 'abstract'"
        )
    raw_id = next((record[k] for k in _ID_KEYS if k in record), None)
    metadata = {
        k: v
        for k, v in record.items()
        if isinstance(v, str | int | float | bool) and k not in (*_TEXT_KEYS, *_ID_KEYS, "title")
    }
    return Document(
        title=str(record.get("title") or f"{Path(source).stem} #{line}"),
        content=text_value,
        source=source,
        doc_id=str(raw_id) if raw_id is not None else None,
        source_url=record.get("source_url") or record.get("url"),
        published_date=normalise_date(record.get("published_date") or record.get("date")),
        metadata={
            k: v
            for k, v in metadata.items()
            if k not in ("source_url", "url", "published_date", "date")
        },
    )


def _load_jsonl(data: bytes, name: str, source: str) -> list[Document]:
    docs = []
    for number, line in enumerate(_decode(data, name).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise IngestError(f"{name} line {number} is not JSON: {exc.msg}") from exc
        if not isinstance(record, dict):
            raise IngestError(f"{name} line {number} must be a JSON object")
        docs.append(document_from_record(record, source, number))
    return docs


def _decode(data: bytes, name: str) -> str:
    if looks_binary(data):
        raise IngestError(
            f"{name} looks binary; supported: {', '.join(sorted(SUPPORTED_SUFFIXES))}"
        )
    return data.decode("utf-8", errors="replace")


_LOADERS = {
    ".md": _load_markdown,
    ".markdown": _load_markdown,
    ".mdx": _load_markdown,
    ".rst": _load_rst,
    ".docx": _load_docx,
    ".txt": _load_text,
    ".text": _load_text,
    ".html": _load_html,
    ".htm": _load_html,
    ".pdf": _load_pdf,
    ".jsonl": _load_jsonl,
}
if frozenset(_LOADERS) != SUPPORTED_SUFFIXES:  # one list: marsa_common.files names them
    raise RuntimeError(f"loaders {sorted(_LOADERS)} differ from SUPPORTED_SUFFIXES")


def load_bytes(data: bytes, filename: str, source: str | None = None) -> list[Document]:
    """Documents from a file's bytes; the loader is chosen by the file's extension."""
    suffix = Path(filename).suffix.lower()
    loader = _LOADERS.get(suffix)
    if loader is None:
        raise IngestError(
            f"{filename}: unsupported file type {suffix or '(none)'}; "
            f"supported: {', '.join(sorted(SUPPORTED_SUFFIXES))}"
        )
    return loader(data, filename, source or filename)
