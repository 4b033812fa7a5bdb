"""Markdown reference links as the words a reader sees.

A reference link names its target elsewhere in the file: ``[the standard][pep621]``,
``[PEP 517][]`` or the shortcut ``[Node.js]``, with ``[node.js]: https://nodejs.org/`` in a
list of definitions (often at the end of the page). Read as plain text, the shortcut keeps its
brackets ("requires that [Node.js] be installed") and the definitions are a list of URLs under
the last section. Here a reference whose label is defined becomes its text, and the definition
lines go; brackets whose label nothing defines (``[x]`` in prose, a TOML table in a code
block) stay as written.
"""

from __future__ import annotations

import re
from typing import Final

from marsa_common.fences import code_lines

_DEFINITION: Final = re.compile(r"^ {0,3}\[(?P<label>[^\]^][^\]]*)\]:[ \t]*\S.*$")
_REFERENCE: Final = re.compile(
    r"(?<![!\]\\])\[(?P<text>[^\]\[]+)\](?:\[(?P<label>[^\]]*)\])?(?![(:\[])"
)
_CODE_SPAN: Final = re.compile(r"(`+)(?:.+?)\1")


def _key(label: str) -> str:
    return " ".join(label.lower().split())


def reference_links(text: str) -> str:
    """The text with defined reference links written as their text and their definitions
    removed (outside code blocks and code spans)."""
    if "]:" not in text:
        return text
    lines = text.split("\n")
    code = code_lines(lines)
    defined: set[str] = set()
    for line, is_code in zip(lines, code, strict=True):
        if not is_code and (match := _DEFINITION.match(line)):
            defined.add(_key(match.group("label")))
    if not defined:
        return text

    def link(match: re.Match[str]) -> str:
        label = match.group("label")
        key = _key(label if label else match.group("text"))
        return match.group("text") if key in defined else match.group(0)

    out: list[str] = []
    for line, is_code in zip(lines, code, strict=True):
        if is_code:
            out.append(line)
            continue
        definition = _DEFINITION.match(line)
        if definition and _key(definition.group("label")) in defined:
            continue
        # Code spans keep their brackets: split them out, rewrite the rest.
        pieces: list[str] = []
        last = 0
        for span in _CODE_SPAN.finditer(line):
            pieces.append(_REFERENCE.sub(link, line[last : span.start()]))
            pieces.append(span.group(0))
            last = span.end()
        pieces.append(_REFERENCE.sub(link, line[last:]))
        out.append("".join(pieces))
    return "\n".join(out)
