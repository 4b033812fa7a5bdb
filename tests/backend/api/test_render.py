"""The report as HTML is safe whatever the documents held, and its citations link."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from backend.api.export import report_markdown, report_pdf
from backend.api.render import report_html

CITES = [{"n": 1, "source_id": "S1", "quote": "q"}, {"n": 2, "source_id": "S2", "quote": "q"}]


def test_raw_html_from_a_document_is_shown_as_text_not_run() -> None:
    html = report_html('A <script>alert(1)</script> and <img src=x onerror="alert(2)"> [1]', CITES)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


def test_javascript_links_lose_their_target() -> None:
    html = report_html("[click](javascript:alert(1)) and [ok](https://example.org/a)", CITES)
    assert 'href="javascript' not in html
    assert 'href="https://example.org/a"' in html and "noopener" in html


def test_adjacent_citation_markers_each_link_to_their_source() -> None:
    html = report_html("Spring tides follow the full moon. [1][2]", CITES)
    assert '<a class="cite" href="#src-S1"' in html and '<a class="cite" href="#src-S2"' in html


def test_a_marker_without_a_citation_stays_plain_text() -> None:
    assert "href" not in report_html("Unknown [7].", CITES)


def test_the_pdf_export_holds_every_page_of_a_long_report() -> None:
    body = "## Answer\n\n" + "\n".join(f"- Finding {i} about tides. [1]" for i in range(200))
    run = {"id": "r1", "query": "Tides — ünïcode?", "status": "done", "created_at": "now"}
    pdf = report_pdf({**run, "report": body})
    pages = re.search(rb"/Count (\d+)", pdf)
    assert pdf.startswith(b"%PDF-") and pages is not None and int(pages.group(1)) >= 3
    assert report_markdown({**run, "report": body}).startswith("# Tides — ünïcode?\n")


def naive_viewer(markdown: str) -> str:
    """What a Markdown viewer that passes HTML through and links any URL would show."""
    viewer = MarkdownIt("commonmark", {"html": True})
    viewer.validateLink = lambda url: True  # type: ignore[method-assign]
    return viewer.render(markdown)


def test_the_markdown_export_shows_raw_html_as_text_and_keeps_the_markdown() -> None:
    body = (
        "## Answer\n\nBores <script>alert(1)</script> come with the tide [1]. "
        "<img src=x onerror=alert(2)> and 3 < 4.\n\n## Sources\n\n1. Bores — https://e.org/b\n"
    )
    run = {"id": "r1", "query": "Bores <b>now</b>?", "status": "done", "created_at": "now"}
    text = report_markdown({**run, "report": body})
    html = naive_viewer(text)
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "3 &lt; 4" in html
    assert "<h2>Answer</h2>" in html and "<li>Bores — https://e.org/b</li>" in html


def test_the_markdown_export_turns_script_links_into_their_text() -> None:
    body = "See [x](javascript:alert(1)), [d](data:text/html,hi) and [ok](https://e.org/a).\n"
    run = {"id": "r1", "query": "q", "status": "done", "created_at": "now"}
    html = naive_viewer(report_markdown({**run, "report": body}))
    assert 'href="javascript:' not in html and 'href="data:' not in html
    assert "[x](javascript:alert(1))" in html
    assert '<a href="https://e.org/a">ok</a>' in html


def test_a_code_block_in_the_pdf_is_monospaced_without_its_fences() -> None:
    run = {"id": "r1", "query": "Retry?", "status": "done", "created_at": "now"}
    code = "## Answer\n\nLike this: [1]\n\n```\nfor attempt in retry():\n    with attempt:\n```\n"
    prose = "## Answer\n\nLike this: [1]\n\n- for attempt in retry()\n"
    with_code, without = report_pdf({**run, "report": code}), report_pdf({**run, "report": prose})
    # the code's font, embedded (DejaVu Sans Mono beside DejaVu Sans; else the core Courier)
    assert b"Mono" in with_code or b"/Courier" in with_code
    assert b"Mono" not in without and b"/Courier" not in without


def test_a_code_block_renders_as_one_and_its_indexes_are_no_citations() -> None:
    html = report_html("Like this: [1]\n\n```\nfirst = rows[1]\n    keep(first)\n```", CITES)
    assert '<a class="cite" href="#src-S1"' in html
    assert "<pre><code>first = rows[1]\n    keep(first)\n</code></pre>" in html
    assert "<code>rows[2]</code>" in report_html("Take `rows[2]` [2].", CITES)
