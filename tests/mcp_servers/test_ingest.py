"""Loaders and chunking of the document store (mcp_servers/document_store/ingest.py)."""

from __future__ import annotations

import json

import pytest

from backend.reasoning.offline.text import split_sentences
from mcp_servers.document_store.ingest import (
    IngestError,
    chunk_text,
    load_bytes,
    make_doc_id,
)


def words(n: int, prefix: str = "w") -> str:
    """``n`` distinct words, so any two windows share only the words they overlap on."""
    return " ".join(f"{prefix}{i}" for i in range(n))


# --- chunk_text -------------------------------------------------------------


def test_a_section_up_to_1_3_windows_long_stays_one_chunk() -> None:
    chunks = chunk_text(words(52), chunk_words=40, overlap=10)
    assert len(chunks) == 1
    assert chunks[0].word_count == 52 and chunks[0].text == words(52)


def test_long_text_becomes_windows_of_chunk_words() -> None:
    chunks = chunk_text(words(100), chunk_words=20, overlap=5)
    assert [c.word_count for c in chunks[:-1]] == [20] * (len(chunks) - 1)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert chunks[0].text.split()[0] == "w0" and chunks[-1].text.split()[-1] == "w99"


def test_consecutive_windows_share_exactly_overlap_words() -> None:
    chunks = chunk_text(words(100), chunk_words=20, overlap=5)
    assert len(chunks) > 2
    for before, after in zip(chunks, chunks[1:], strict=False):
        shared = set(before.text.split()) & set(after.text.split())
        assert len(shared) == 5
        assert before.text.split()[-5:] == after.text.split()[:5]


def test_markdown_headings_become_sections() -> None:
    text = "# Guide\nIntro words.\n## Install\nRun pip.\n### Extras\nOptional parts."
    chunks = chunk_text(text)
    assert [(c.section, c.text) for c in chunks] == [
        ("Guide", "Intro words."),
        ("Install", "Run pip."),
        ("Extras", "Optional parts."),
    ]


def test_a_heading_under_a_release_heading_keeps_the_release() -> None:
    text = (
        "# Changelog\nAll changes.\n"
        "## [1.3.0](https://example.org/1.3.0) - 2025-11-10\n"
        "### Removed\n- Support for Python 3.9\n"
        "### Added\n- Support for pytest 9\n"
        "## 1.2.0 (2025-09-12)\nA note.\n#### Fixed\n- A leak\n"
        "## Older releases\n### Misc\nSee the archive."
    )
    assert [c.section for c in chunk_text(text)] == [
        "Changelog",
        "1.3.0 - 2025-11-10 / Removed",
        "1.3.0 - 2025-11-10 / Added",
        "1.2.0 (2025-09-12)",
        "1.2.0 (2025-09-12) / Fixed",
        "Misc",  # a heading at the release's level or above ends it
    ]


def test_text_before_the_first_heading_has_no_section() -> None:
    chunks = chunk_text("Preamble here.\n## Body\nMain text.")
    assert [c.section for c in chunks] == ["", "Body"]


def test_headings_inside_code_fences_are_not_sections() -> None:
    text = "## Usage\nRun this:\n```bash\n# install the tool\npip install x\n```\nDone."
    chunks = chunk_text(text)
    assert len(chunks) == 1
    assert chunks[0].section == "Usage"
    assert "# install the tool" in chunks[0].text


def test_a_list_items_indented_paragraph_stays_in_the_item() -> None:
    text = (
        "It consists of three parts:\n\n"
        "1. A context dictionary.\n   It is merged into each entry.\n\n"
        "   You can inspect it with get_context().\n"
        "2. A list of processors.\n\n"
        "   ```python\n   x = 1\n\n       y = 2\n   ```\n\n"
        "Not indented: a new paragraph.\n"
    )
    (chunk,) = chunk_text(text)
    assert "merged into each entry.\nYou can inspect it" in chunk.text
    # a blank line inside code is the code's own; so is its indentation, less the item's
    assert "```python\nx = 1\n\n    y = 2\n```" in chunk.text
    assert "```\n\nNot indented" in chunk.text


@pytest.mark.parametrize("text", ["", "   \n\n  ", "# Only a heading\n## And another"])
def test_text_without_words_gives_no_chunks(text: str) -> None:
    assert chunk_text(text) == []


# --- load_bytes ---------------------------------------------------------------


def test_markdown_front_matter_gives_title_and_date() -> None:
    data = b"---\ntitle: 'Tide tables'\ndate: 2024-05-01T09:30:00Z\n---\n# Other heading\nBody."
    (doc,) = load_bytes(data, "notes.md", "file:notes.md")
    assert doc.title == "Tide tables"
    assert doc.published_date == "2024-05-01"
    assert doc.content.startswith("# Other heading")
    assert doc.source == "file:notes.md"


def test_markdown_front_matter_keeps_status_draft_deprecated_and_superseded_by() -> None:
    data = (
        b"---\r\ntitle: Old API\r\nstatus: Proposal\r\ndraft: yes\r\ndeprecated: false\r\n"
        b"superseded-by: new-api.md\r\ntags:\r\n  - api\r\nauthor: Ann\r\n---\r\nBody."
    )
    (doc,) = load_bytes(data, "old.md")
    assert doc.title == "Old API"
    assert doc.metadata == {
        "status": "Proposal",
        "draft": True,
        "deprecated": False,
        "superseded_by": "new-api.md",
    }
    assert doc.content == "Body."


def test_a_comment_in_a_code_block_is_not_the_title() -> None:
    data = b"Intro.\n\n```python\n# Ensure that all requests are secure\napp = App()\n```\n"
    (doc,) = load_bytes(data, "middleware.md")
    assert doc.title == "middleware"


def test_markdown_without_front_matter_takes_its_title_from_the_first_h1() -> None:
    (doc,) = load_bytes(b"Some text.\n## Minor\n# Main title\nMore.", "x.md")
    assert doc.title == "Main title"
    assert doc.published_date is None


@pytest.mark.parametrize(
    ("data", "name", "title"),
    [
        (
            b"Version 4.0.0 (2026-11-01)\n==========================\n\n- Fixed x.\n",
            "NEWS.rst",
            "NEWS",
        ),
        (b"# 1.3.0 - 2025-11-10\n\n- Add y.\n", "CHANGES.md", "CHANGES"),
        (b"# v2.1\n\nFixed z.\n", "history.md", "history"),
        (b"# Python 3 support\n\nText.\n", "py3.md", "Python 3 support"),
    ],
)
def test_a_changelog_is_titled_by_its_name_not_its_latest_release(
    data: bytes, name: str, title: str
) -> None:
    (doc,) = load_bytes(data, name)
    assert doc.title == title


def test_html_drops_script_and_style_and_maps_h2_to_a_section() -> None:
    html = (
        b"<html><head><title>Field notes</title><style>p{color:red}</style>"
        b'<script>var hidden = "tracker";</script></head><body>'
        b"<h2>Methods</h2><p>We counted birds.</p><script>alert('popup')</script>"
        b"</body></html>"
    )
    (doc,) = load_bytes(html, "page.html")
    assert doc.title == "Field notes"
    for gone in ("tracker", "popup", "color:red"):
        assert gone not in doc.content
    assert [(c.section, c.text) for c in chunk_text(doc.content)] == [
        ("Methods", "We counted birds.")
    ]


def test_html_published_time_meta_becomes_the_date() -> None:
    html = (
        b'<html><head><meta property="article:published_time" content="2023-11-02T08:00">'
        b"</head><body><p>News.</p></body></html>"
    )
    (doc,) = load_bytes(html, "news.htm")
    assert doc.published_date == "2023-11-02"


def test_jsonl_reads_scifact_records_with_their_id_and_extra_metadata() -> None:
    record = {
        "doc_id": 4983,
        "title": "Microstructural development",
        "abstract": ["Alterations of the architecture.", "Were measured by MRI."],
        "structured": False,
        "journal": "Pediatrics",
        "url": "https://example.org/4983",
    }
    (doc,) = load_bytes(json.dumps(record).encode(), "corpus.jsonl")
    assert doc.doc_id == "4983"
    assert doc.title == "Microstructural development"
    assert doc.content == "Alterations of the architecture. Were measured by MRI."
    assert doc.source_url == "https://example.org/4983"
    assert doc.metadata == {"structured": False, "journal": "Pediatrics"}


def test_jsonl_gives_one_document_a_line_and_skips_blank_lines() -> None:
    lines = [{"id": "a1", "text": "first"}, {"text": "second", "date": "2020-02-02"}]
    data = ("\n".join(json.dumps(line) for line in lines) + "\n\n").encode()
    docs = load_bytes(data, "rows.jsonl")
    assert [d.doc_id for d in docs] == ["a1", None]
    assert docs[1].title == "rows #2"
    assert docs[1].published_date == "2020-02-02"


def test_a_jsonl_line_without_content_is_an_error_naming_the_line() -> None:
    data = b'{"title": "fine", "text": "ok"}\n{"title": "empty"}\n'
    with pytest.raises(IngestError, match=r"line 2: needs a non-empty 'content'"):
        load_bytes(data, "rows.jsonl")


def test_a_jsonl_line_that_is_not_json_is_an_error_naming_the_line() -> None:
    with pytest.raises(IngestError, match="rows.jsonl line 1 is not JSON"):
        load_bytes(b"{not json", "rows.jsonl")


def test_binary_data_in_a_text_file_is_an_error() -> None:
    with pytest.raises(IngestError, match="looks binary"):
        load_bytes(b"header\x00\x01\x02payload", "data.txt")


def test_an_unsupported_extension_is_an_error_listing_the_supported_ones() -> None:
    with pytest.raises(IngestError) as info:
        load_bytes(b"PK\x03\x04", "report.odt")
    message = str(info.value)
    assert "unsupported file type .odt" in message
    for suffix in (".docx", ".html", ".jsonl", ".md", ".mdx", ".pdf", ".rst", ".txt"):
        assert suffix in message


# --- ids ---------------------------------------------------------------------


def test_make_doc_id_is_a_stable_16_hex_digest_of_the_source() -> None:
    assert make_doc_id("https://example.org/a") == "b5b10dd0429e69ac"
    assert make_doc_id("https://example.org/a") == make_doc_id("https://example.org/a")
    assert make_doc_id("https://example.org/b") != make_doc_id("https://example.org/a")


def test_chunks_keep_their_line_breaks_but_not_runs_of_spaces() -> None:
    text = "## Results\nFirst  line\there.\n\n\n\n| a | b |\n| --- | --- |\n- item   one"
    (chunk,) = chunk_text(text)
    assert chunk.text == "First line here.\n\n| a | b |\n| --- | --- |\n- item one"
    assert chunk.word_count == 16


def test_a_window_that_starts_inside_a_code_block_reopens_it() -> None:
    code = " ".join(f"c{i}" for i in range(60))
    text = f"{words(30)}\n```\n{code}\n```\nCanberra is the capital."
    chunks = chunk_text(text, chunk_words=40, overlap=10)
    # Read as the offline engine reads a chunk: code is skipped, the prose after it is kept.
    sentences = [s for c in chunks for s in split_sentences(c.text)]
    assert "Canberra is the capital." in sentences
    assert not [s for s in sentences if "c59" in s or "c30" in s]
    assert chunks[-1].text.startswith("```\n") and not chunks[0].text.startswith("```")


def test_a_longer_fence_holds_shorter_fences_and_what_follows_is_prose() -> None:
    # Python-Markdown's docs show fenced code inside a ```` block
    text = (
        "## Fenced code\nThe language goes after the fence:\n\n"
        "```` md-render\n``` { .html }\n# not a heading\n<p>HTML Document</p>\n```\n````\n\n"
        "While `language` is the default prefix, the prefix may be overridden using the "
        "`lang_prefix` configuration option.\n"
    )
    (chunk,) = chunk_text(text)
    assert chunk.section == "Fenced code"
    sentences = split_sentences(chunk.text)
    assert any(s.startswith("While `language` is the default prefix") for s in sentences)
    assert not [s for s in sentences if "HTML Document" in s or "not a heading" in s]
    code = " ".join(f"c{i}" for i in range(60))
    long = f"{words(30)}\n````\n```\n{code}\n```\n````\nCanberra is the capital."
    chunks = chunk_text(long, chunk_words=40, overlap=10)
    assert chunks[-1].text.startswith("````\n")  # reopened with its own fence


def test_headings_inside_tilde_fences_are_not_sections() -> None:
    text = "## Usage\nRun this:\n~~~\n# a shell comment\n~~~\nDone."
    assert [c.section for c in chunk_text(text)] == ["Usage"]


def test_no_break_spaces_and_carriage_returns_become_plain_spaces_and_line_breaks() -> None:
    (chunk,) = chunk_text("one\u00a0two  three\r\nfour")
    assert chunk.text == "one two three\nfour"


def test_code_blocks_keep_their_indentation_and_prose_is_tidied() -> None:
    """In Python the indentation is the code's meaning: a chunk's code lines keep it (less
    the block's own), also in a window that starts inside the block; prose lines lose
    their stray spaces as before."""
    code = (
        "for attempt in Retrying():\n    with attempt:\n        raise Exception('My code is "
        "failing!')\n"
    )
    text = f"Retry   a block:\n\n```python\n{code}```\n\n   Then  it stops."
    (chunk,) = chunk_text(text)
    assert f"```python\n{code}```" in chunk.text
    assert "Retry a block:" in chunk.text and "\nThen it stops." in chunk.text
    # a long block split into windows: the later window reopens the block, indented as it was
    body = "\n".join(f"def f{n}(x):\n    return x + {n}" for n in range(80))
    chunks = chunk_text(f"Functions:\n\n```python\n{body}\n```\n", chunk_words=60, overlap=10)
    assert len(chunks) > 2
    for later in chunks[1:]:
        assert later.text.startswith("```\n")
        assert "\n    return x + " in later.text
