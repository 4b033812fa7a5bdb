"""Tables written as the statements a reader takes from them.

A reference table ("| Option | Default | Description |") holds its facts across a row and
under a header: read cell by cell, "`true`" is nobody's default and "Whether to install the
project in development mode" names no option. Each row becomes a list item that says it all
at once: its first cell, then each other cell with its column's header ("- `dev-mode`:
Default: `true`; Whether to install the project in development mode"). A header that only
says the cell describes the row ("Description", "Meaning" …) is left out. A Markdown pipe
table is rewritten in place (outside code blocks); the reStructuredText reader writes its
tables the same way.
"""

from __future__ import annotations

import re
from typing import Final

from marsa_common.fences import code_lines

_ROW: Final = re.compile(r"^\s*\|?(.+\|.*?)\|?\s*$")
_SEPARATOR: Final = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BREAK: Final = re.compile(r"(?:\s*<br\s*/?>\s*)+", re.I)  # a line break inside a cell
_DESCRIBING: Final = frozenset(
    {
        "description",
        "descriptions",
        "meaning",
        "details",
        "detail",
        "notes",
        "note",
        "summary",
        "purpose",
        "explanation",
        "comment",
        "comments",
        "what it does",
        "info",
    }
)


def row_items(header: list[str], rows: list[list[str]]) -> str:
    """Each row as a list item: its first cell, then the others, each after its header."""
    items = []
    for row in rows:
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        first, rest = cells[0], cells[1:]
        said = []
        for name, cell in zip(header[1:], rest, strict=False):
            if not cell:
                continue
            label = name.strip().strip("*_").strip()
            said.append(cell if not label or label.lower() in _DESCRIBING else f"{label}: {cell}")
        said += [c for c in rest[len(header) - 1 :] if c]  # cells beyond the header's columns
        if not first:
            items.append(f"- {'; '.join(said)}")
        elif said:
            items.append(f"- {first}: {'; '.join(said)}")
        else:
            items.append(f"- {first}")
    return "\n".join(items)


def markdown_tables(text: str) -> str:
    """The text with each Markdown pipe table (a header row, a separator row, its rows)
    written as list items (:func:`row_items`)."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    code = code_lines(lines)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        starts_table = (
            not code[i]
            and i + 1 < len(lines)
            and "|" in line
            and _ROW.match(line) is not None
            and _SEPARATOR.match(lines[i + 1]) is not None
        )
        if not starts_table:
            out.append(line)
            i += 1
            continue
        header = _cells(line)
        rows = []
        i += 2
        while i < len(lines) and lines[i].strip() and "|" in lines[i]:
            rows.append(_cells(lines[i]))
            i += 1
        if out and out[-1].strip():
            out.append("")
        out.append(row_items(header, rows))
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)


def _cells(line: str) -> list[str]:
    """A row's cells; a pipe inside code (`a | b`) or escaped (\\|) does not split them."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells: list[str] = []
    current: list[str] = []
    in_code = False
    previous = ""
    for ch in body:
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code and previous != "\\":
            cells.append("".join(current))
            current = []
        else:
            current.append(ch)
        previous = ch
    cells.append("".join(current))
    return [_BREAK.sub(" ", c).strip().replace("\\|", "|") for c in cells]
