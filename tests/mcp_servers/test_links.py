"""Markdown reference links as the words a reader sees."""

from __future__ import annotations

from mcp_servers.document_store.links import reference_links

PAGE = """\
# Search

The index needs [Node.js] and the [prebuild option][prebuild] to be set; see [PEP 517][].
A list like [x] that nothing defines stays, and so does `[project]` in code.

```toml
[tool.hatch]
```

[node.js]: https://nodejs.org/
[prebuild]: #prebuild_index
[PEP 517]: https://peps.python.org/pep-0517/
"""


def test_a_defined_reference_becomes_its_text_and_its_definition_goes() -> None:
    text = reference_links(PAGE)
    assert "The index needs Node.js and the prebuild option to be set; see PEP 517." in text
    assert "https://" not in text


def test_brackets_nothing_defines_and_code_keep_their_brackets() -> None:
    text = reference_links(PAGE)
    assert "A list like [x] that nothing defines stays, and so does `[project]` in code." in text
    assert "```toml\n[tool.hatch]\n```" in text


def test_a_page_without_definitions_is_unchanged() -> None:
    text = "Use [x] and [y][z].\n"
    assert reference_links(text) == text
