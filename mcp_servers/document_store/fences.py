"""Which lines of a Markdown text are code: the one fence rule the Markdown passes share
(:mod:`marsa_common.fences`)."""

from __future__ import annotations

from marsa_common.fences import FENCE, code_lines

__all__ = ["FENCE", "code_lines"]
