"""Reports as files: Markdown, JSON, and PDF (drawn by backend.api.pdf, imported on use)."""

from __future__ import annotations

import re
from typing import Any

_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
"""A ``<`` that HTML reads as the start of a tag, end tag, comment or declaration; any
other ``<`` ("a < b", "<3") is text to HTML too and stays as written."""
_SAFE_TARGET = r"(?!\s*<?\s*(?:https?://|mailto:|#))"
_UNSAFE_LINK = re.compile(r"\]\(" + _SAFE_TARGET)
_UNSAFE_REFERENCE = re.compile(r"^( {0,3})\[([^\]\n]+)\]:" + _SAFE_TARGET, re.MULTILINE)


def markdown_safe(text: str) -> str:
    """Markdown from documents made safe for a viewer that renders HTML: raw HTML becomes
    text (``<`` → ``&lt;``, which every Markdown flavour shows as ``<``), and a link whose
    target is not http(s), mailto or an anchor in the page (``javascript:``, ``data:``…)
    becomes its text. Headings, lists, emphasis, citations and web links are untouched."""
    text = _UNSAFE_LINK.sub(r"]\\(", text)
    text = _UNSAFE_REFERENCE.sub(r"\1\\[\2]:", text)
    return _TAG_START.sub("&lt;", text)


def _unescaped_markdown(run: dict[str, Any]) -> str:
    head = [
        f"# {run['query']}",
        "",
        f"*MARSA run {run['id']} · {run['status']} · {run['created_at']}"
        + (f" · follow-up of run {run['parent_run_id']}" if run.get("parent_run_id") else "")
        + "*",
        "",
    ]
    return (
        "\n".join(head) + "\n" + (run.get("report") or "_No report: the run has not finished._\n")
    )


def report_markdown(run: dict[str, Any]) -> str:
    """The report with a title and the run's particulars on top, safe to render as HTML
    (:func:`markdown_safe`: the question and the report come from people and documents)."""
    return markdown_safe(_unescaped_markdown(run))


def report_pdf(run: dict[str, Any]) -> bytes:
    """The report as a PDF: headings, paragraphs and lists; citations stay as [n]."""
    # Imported here: fpdf2 takes a second or more to import, and only a PDF export needs
    # it, not every `marsa serve` start.
    from backend.api.pdf import markdown_pdf

    return markdown_pdf(_unescaped_markdown(run))  # a PDF runs no markup
