"""What a reader sees: Markdown, MDX and HTML markup removed from a quoted passage.

The citation keeps the verbatim words (the check finds them in the source); the report and the
direct answer show them without emphasis marks, link targets, tags or list bullets. Inline code
keeps its backticks: an identifier reads better marked as one, and Markdown renders it.
"""

from __future__ import annotations

import html
import re
from typing import Final

_IMAGE: Final = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK: Final = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_REF_LINK: Final = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
# MyST's "[](unions.md#default-union-strategy)": the page shows the target's title
_EMPTY_LINK: Final = re.compile(r"\[\]\(([^)\s]*)\)")


def _target_words(m: re.Match[str]) -> str:
    """What an empty link shows: its anchor's words ("default union strategy"), or the
    document's name ("unions")."""
    target = m.group(1)
    page, _, anchor = target.partition("#")
    name = anchor or page.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return re.sub(r"[-_]+", " ", name).strip()


_AUTOLINK: Final = re.compile(r"<(https?://[^>\s]+)>")
_JSX_COMMENT: Final = re.compile(r"\{/\*.*?\*/\}", re.S)
_TAG: Final = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*?)?/?>")
_EMPHASIS: Final = re.compile(
    r"(\*\*|\*|~~)(?=\S)(.+?)(?<=\S)\1|(?<!\w)(__|_)(?=\S)(.+?)(?<=\S)\3(?!\w)"
)
# A line that is only a bold label, the item's text on the lines below it ("- **Python 3.5
# coroutines**" / "From version 4.1 it is possible …"): shown as "Label: text"
_LABEL_LINE: Final = re.compile(
    r"^(\s*(?:[-*+]\s+)?)\*\*([^*\n]*[^*\n\s.:!?])\*\*[ \t]*\n(?=[ \t]*\w)", re.M
)
_HEADING: Final = re.compile(r"^\s{0,3}#{1,6}\s+", re.M)
_BULLET: Final = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+", re.M)
_QUOTE: Final = re.compile(r"^\s*>\s?", re.M)
# A Markdown backslash escape: an ASCII punctuation character written as itself.
_ESCAPED: Final = re.compile(r"\\([!-/:-@\[-`{-~])")
_ADMONITION: Final = re.compile(r"^\s*(?:!!!|\?\?\?|:::)\s*\w*[^\n]*$", re.M)
# An attribute list (Python-Markdown's attr_list, kramdown, MkDocs): "`lang_prefix`{#lang_prefix}:",
# "## Install { #install .wide }", "{: data-toc-label='Short' }"
_ATTR: Final = r"(?:[#.][\w-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s}]+))"
_ATTR_LIST: Final = re.compile(rf"\{{:?\s*{_ATTR}(?:\s+{_ATTR})*\s*\}}")


def without_bullets(text: str) -> str:
    """``text`` without its list markers ("- ", "1. "): a numbered item's "1." is no value."""
    return _BULLET.sub("", text)


def plain(text: str) -> str:
    """``text`` on one line, with Markdown/MDX/HTML markup removed (code spans kept)."""
    spans: list[str] = []

    def keep(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    text = re.sub(r"`[^`\n]+`", keep, text)  # code is not markup: protect it first
    text = _JSX_COMMENT.sub(" ", text)
    text = _ATTR_LIST.sub(" ", text)
    text = _IMAGE.sub(r"\1", text)
    text = _EMPTY_LINK.sub(_target_words, text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub(" ", text)
    text = _ADMONITION.sub(" ", text)
    text = _LABEL_LINE.sub(r"\1\2: ", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _BULLET.sub("", text)
    for _ in range(2):  # "***bold italic***"
        text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(4), text)
    text = _ESCAPED.sub(r"\1", text)  # "\\# of files", "\\*args": the character itself
    text = html.unescape(text)
    text = " ".join(text.split())
    # "x , y" is "x, y"; ":param:" and ".venv" open a word and keep their space. Done before
    # the code spans come back: "``expr[1, ...]``" keeps its own spacing.
    text = re.sub(r"\s+([,.;:!?])(?![\w`\x00])", r"\1", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: " ".join(spans[int(m.group(1))].split()), text)
