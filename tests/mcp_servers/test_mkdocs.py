"""MkDocs Material's Markdown (admonitions, content tabs, heading attributes) as plain Markdown."""

from __future__ import annotations

from mcp_servers.document_store.ingest import chunk_text, load_bytes
from mcp_servers.document_store.mkdocs import mkdocs_to_markdown

PAGE = """\
# Metadata

## Version (*required*) ## {: #version }

=== ":octicons-file-code-16: pyproject.toml"

    === "Dynamic"
        See the dedicated versioning
        section.

        ```toml
        [project]
        dynamic = ["version"]
        ```

    === "Static"
        ```toml
        version = "0.0.1"
        ```

!!! tip "Matrix"
    Each entry of the
    matrix is its own environment.

!!! note
    The name is normalized.

--8<-- "links.txt"

*[PEP]: Python Enhancement Proposal
"""


def test_a_content_tab_becomes_its_label_before_its_first_paragraph_and_code() -> None:
    text = mkdocs_to_markdown(PAGE)
    assert "pyproject.toml: Dynamic: See the dedicated versioning section." in text
    assert '```toml\n[project]\ndynamic = ["version"]\n```' in text
    assert 'Static:\n\n```toml\nversion = "0.0.1"\n```' in text
    assert "===" not in text


def test_an_admonition_becomes_its_title_or_its_kind_before_its_body() -> None:
    text = mkdocs_to_markdown(PAGE)
    assert "Matrix: Each entry of the matrix is its own environment." in text
    assert "Note: The name is normalized." in text
    assert "!!!" not in text


def test_a_heading_loses_its_attribute_list_and_snippets_and_abbreviations_leave_nothing() -> None:
    text = mkdocs_to_markdown(PAGE)
    assert "## Version (*required*)\n" in text
    assert "{:" not in text and "--8<--" not in text and "*[PEP]" not in text


def test_an_ingested_tab_sits_in_its_section_unindented() -> None:
    (doc,) = load_bytes(PAGE.encode(), "metadata.md")
    chunks = chunk_text(doc.content, chunk_words=200, overlap=0)
    version = next(c for c in chunks if c.section == "Version (*required*)")
    assert "Dynamic: See the dedicated versioning section." in version.text


def test_plain_markdown_passes_through_unchanged() -> None:
    text = "# Title\n\n    indented code\n\nA paragraph with === inside.\n"
    assert mkdocs_to_markdown(text) == text


def test_an_include_tag_and_a_docstring_reference_leave_nothing_but_code_keeps_them() -> None:
    # humanize's docs: index.md includes the README, number.md is made from docstrings
    page = (
        "# humanize\n\nWelcome to the API reference.\n\n{%\n"
        '   include-markdown "../README.md"\n   comments=false\n%}\n\n'
        "## Number\n\n::: humanize.number\n    options:\n      show_source: false\n\n"
        "Read on.\n\n```jinja\n{% include 'base.html' %}\n```\n\n:::{note}\nMyST.\n:::\n"
    )
    text = mkdocs_to_markdown(page)
    assert "include-markdown" not in text and "comments=false" not in text
    assert "::: humanize" not in text and "show_source" not in text
    assert "Welcome to the API reference." in text and "Read on." in text
    assert "{% include 'base.html' %}" in text and ":::{note}" in text
    (doc,) = load_bytes(b"# Number\n\n::: humanize.number\n", "number.md")
    assert "humanize.number" not in doc.content
