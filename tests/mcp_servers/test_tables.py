"""Tables as the statements a reader takes from them: a row's cells under their headers."""

from __future__ import annotations

from mcp_servers.document_store.ingest import chunk_text, load_bytes
from mcp_servers.document_store.tables import markdown_tables, row_items

OPTIONS = """\
## Options

| Option | Default | Description |
| --- | --- | --- |
| `dev-mode` | `true` | Whether to install the project in development mode |
| `skip-install` | | Skip installing the project<br>entirely |
| `cmd` | `a \\| b` | A command with a pipe |

Text after the table.

```
| not | a | table |
| --- | --- | --- |
```
"""


def test_a_row_says_its_first_cell_then_each_other_under_its_header() -> None:
    text = markdown_tables(OPTIONS)
    assert "- `dev-mode`: Default: `true`; Whether to install the project in development mode" in (
        text
    )
    # An empty cell says nothing; a "Description" header is left out; <br> is a space.
    assert "- `skip-install`: Skip installing the project entirely" in text
    assert "- `cmd`: Default: `a | b`; A command with a pipe" in text
    assert "\n\nText after the table." in text


def test_a_table_inside_a_code_block_stays_as_written() -> None:
    assert "| not | a | table |\n| --- | --- | --- |" in markdown_tables(OPTIONS)


def test_an_ingested_row_holds_its_option_and_its_default_in_one_sentence() -> None:
    (doc,) = load_bytes(OPTIONS.encode(), "options.md")
    (chunk,) = [c for c in chunk_text(doc.content) if c.section == "Options"]
    assert "`dev-mode`: Default: `true`; Whether to install" in chunk.text


def test_a_table_without_a_header_has_unlabelled_cells() -> None:
    assert row_items(["", ""], [["`int`", "accepts integers"]]) == "- `int`: accepts integers"


GRID_RST = """\
Converters
==========

========== ======================================
Name       Accepts
========== ======================================
``string`` any text without a slash (the default)
``int``    positive integers :attr:`see also`
========== ======================================
"""


def test_a_restructuredtext_table_is_written_the_same_way_without_docutils_notes() -> None:
    (doc,) = load_bytes(GRID_RST.encode(), "converters.rst")
    assert "- `string`: Accepts: any text without a slash (the default)" in doc.content
    assert "- `int`: Accepts: positive integers `see also`" in doc.content  # a code role
    assert "interpreted text role" not in doc.content
