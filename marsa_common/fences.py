"""The one fence rule for Markdown code blocks, shared by the chunker and the offline reader.

A block opens with a run of three or more backticks or tildes and closes with a run of the
same character at least as long, alone on its line (CommonMark): a ```` fence holds ``` lines
("```` md-render" around an example of fenced code), and "``` { .html }" inside it closes
nothing.
"""

from __future__ import annotations

import re
from typing import Final

FENCE: Final = re.compile(r"^\s*(`{3,}|~{3,})")
_CLOSING: Final = re.compile(r"^\s*(`{3,}|~{3,})\s*$")


def step(line: str, open_fence: str | None) -> tuple[str | None, bool]:
    """The fence open after ``line`` (None: outside code), and whether the line is a fence."""
    if open_fence is None:
        opening = FENCE.match(line)
        return (opening.group(1), True) if opening else (None, False)
    closing = _CLOSING.match(line)
    if (
        closing
        and closing.group(1)[0] == open_fence[0]
        and len(closing.group(1)) >= len(open_fence)
    ):
        return None, True
    return open_fence, False


def code_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it is inside a fenced code block or one of its fences."""
    flags: list[bool] = []
    fence: str | None = None
    for line in lines:
        fence, is_fence = step(line, fence)
        flags.append(is_fence or fence is not None)
    return flags
