"""Which lines of a Markdown text are code: the one fence rule the Markdown passes share."""

from __future__ import annotations

import re
from typing import Final

FENCE: Final = re.compile(r"^\s*(?:`{3,}|~{3,})")


def code_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it is inside a fenced code block or one of its fences."""
    flags: list[bool] = []
    inside = False
    for line in lines:
        if FENCE.match(line):
            flags.append(True)
            inside = not inside
        else:
            flags.append(inside)
    return flags
