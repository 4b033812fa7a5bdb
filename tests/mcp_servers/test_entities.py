"""Character references in Markdown and MDX prose are read as their characters."""

from __future__ import annotations

from mcp_servers.document_store.entities import decode_references
from mcp_servers.document_store.ingest import load_bytes


def test_references_in_prose_become_their_characters() -> None:
    text = "jsonrpc: &quot;2.0&quot;&nbsp;&nbsp;required &#x7B; see &mdash; below &amp; more"
    assert decode_references(text) == 'jsonrpc: "2.0"  required { see — below & more'


def test_code_keeps_its_references_as_written() -> None:
    text = "Write `&lt;b&gt;` for bold.\n```html\n&quot;quoted&quot;\n```\nAfter &amp; all."
    assert decode_references(text) == (
        "Write `&lt;b&gt;` for bold.\n```html\n&quot;quoted&quot;\n```\nAfter & all."
    )


def test_an_ampersand_that_is_no_reference_stays() -> None:
    assert decode_references("AT&T and R&D; &bogusname; stay") == "AT&T and R&D; &bogusname; stay"


def test_an_mdx_page_of_generated_html_reads_without_entity_names() -> None:
    page = (
        b"---\ntitle: Schema\n---\n\n"
        b'<div class="sig"><span>jsonrpc: &quot;2.0&quot;</span><br/>&nbsp;&nbsp;'
        b"<span>id: RequestId</span></div>\n"
    )
    (doc,) = load_bytes(page, "schema.mdx")
    assert '"2.0"' in doc.content
    assert "quot" not in doc.content and "nbsp" not in doc.content
