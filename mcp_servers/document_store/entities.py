"""Character references in Markdown and MDX prose, read as the characters they stand for.

CommonMark and MDX both decode ``&quot;``, ``&nbsp;``, ``&#x7B;`` and the like in prose, so a
reader of the rendered page sees ``"2.0"`` where the file says ``&quot;2.0&quot;``; left
encoded, the words "quot" and "nbsp" became search terms and answer text. Code is shown as
written: fenced blocks and inline code spans keep their references.
"""

from __future__ import annotations

import html
import re
from typing import Final

from marsa_common.fences import step as fence_step

_REFERENCE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_CODE_SPAN: Final = re.compile(r"(`+)(?:(?!\1).)+?\1")


def decode_references(text: str) -> str:
    """``text`` with the character references of its prose decoded (a no-break space as a
    plain space); fenced code blocks and inline code spans unchanged."""
    if "&" not in text:
        return text
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        fence, is_fence = fence_step(line, fence)
        if is_fence or fence is not None or "&" not in line:
            out.append(line)
            continue
        out.append(_decode_prose(line))
    return "\n".join(out)


def _decode_prose(line: str) -> str:
    pieces: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(line):
        pieces.append(_decode(line[position : span.start()]))
        pieces.append(span.group(0))
        position = span.end()
    pieces.append(_decode(line[position:]))
    return "".join(pieces)


def _decode(prose: str) -> str:
    return _REFERENCE.sub(lambda m: html.unescape(m.group(0)).replace("\xa0", " "), prose)
