"""The report as safe HTML: Markdown rendered with raw HTML off, then sanitized.

Everything in a report came from documents or the web, so it is untrusted: markdown-it
escapes raw HTML, nh3 (ammonia) keeps only harmless tags, attributes and URL schemes, and
citation markers [n] become links to their source in the page (``#src-<source id>``).
"""

from __future__ import annotations

import re
from typing import Any

import nh3
from markdown_it import MarkdownIt

from backend.reasoning.citations import CODE

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_MARKER = re.compile(r"(?<!\\)\[(\d{1,4})\](?![(:])")
_TAGS = {
    "a", "p", "ul", "ol", "li", "strong", "em", "code", "pre", "blockquote",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "br", "table", "thead", "tbody",
    "tr", "th", "td", "del", "sup", "sub",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
_SCHEMES = {"http", "https", "mailto"}


def _link_markers(markdown: str, citations: list[dict[str, Any]]) -> str:
    targets = {int(c["n"]): str(c["source_id"]) for c in citations}

    def link(match: re.Match[str]) -> str:
        n = int(match.group(1))
        source = targets.get(n)
        if source is None or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", source):
            return match.group(0)
        return f"[\\[{n}\\]](#src-{source})"

    # (not in code: `items[1]` and a block's `row[2]` index lists)
    out, done = [], 0
    for code in CODE.finditer(markdown):
        out += [_MARKER.sub(link, markdown[done : code.start()]), code.group(0)]
        done = code.end()
    return "".join([*out, _MARKER.sub(link, markdown[done:])])


def report_html(markdown: str, citations: list[dict[str, Any]]) -> str:
    """Sanitized HTML for a report; citation markers link to ``#src-<id>``."""
    html = _MD.render(_link_markers(markdown, citations))
    clean = nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    return clean.replace('<a href="#src-', '<a class="cite" href="#src-')
