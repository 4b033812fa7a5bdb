"""MkDocs Markdown (Python-Markdown's extensions, as MkDocs Material uses them) brought to plain
Markdown.

Read as plain Markdown, an admonition (``!!! tip "Title"`` with its indented body) or a content
tab (``=== "pyproject.toml"``) puts its marker line before the first sentence of its body
("=== "Dynamic" See the dedicated versioning section."), and the body's four-space indent
makes its text a stranger to the section it sits in. A heading with an attribute list
(``## Version ## {: #version }``) carries the list into the section's name. Here an
admonition or a tab becomes its label and its body ("Tip: …", "Dynamic: …", as the
reStructuredText reader writes a label), de-indented, nested ones too; a heading loses its
attribute list and closing hashes; snippet includes (``--8<--``), template tags
(``{% include-markdown "../README.md" %}``), mkdocstrings' ``::: module`` and abbreviation
definitions (``*[HTML]: …``) leave nothing (what an include names is a document of its
own); inline code's highlighting prefix (`` `#!python False` ``) is dropped. Plain Markdown
passes through unchanged.
"""

from __future__ import annotations

import re
from typing import Final

from marsa_common.fences import FENCE, code_lines

_BLOCK: Final = re.compile(
    r"^(?P<indent>[ \t]*)(?P<marker>!!!|\?\?\?\+?|===\+?)[ \t]*(?P<kind>[\w-]+)?[ \t]*"
    r'(?:"(?P<title>[^"]*)")?[ \t]*$'
)
_HEADING_ATTRIBUTES: Final = re.compile(
    r"^(?P<head>#{1,6}[ \t]+.*?)(?:[ \t]+#+)?[ \t]*\{[:#][^}]*\}[ \t]*$"
)
_CLOSING_HASHES: Final = re.compile(r"^(?P<head>#{1,6}[ \t]+.*?\S)[ \t]+#+[ \t]*$")
_SNIPPET: Final = re.compile(r"^[ \t]*-{2}8<-{2}")
# A template tag at a line's start (MkDocs' include-markdown plugin, mkdocs-macros):
# `{% include-markdown "../README.md" %}`, over several lines too
_TEMPLATE_TAG: Final = re.compile(r"^[ \t]*\{%")
# mkdocstrings' `::: humanize.number` (the reference made from the code's docstrings)
_AUTODOC: Final = re.compile(r"^:::[ \t]+[\w.]+[ \t]*$")
_ABBREVIATION: Final = re.compile(r"^\*\[[^\]]+\]:")
_INLINE_HIGHLIGHT: Final = re.compile(r"`#!\w+[ \t]+")
BODY_INDENT: Final = 4


def mkdocs_to_markdown(text: str) -> str:
    """The text with MkDocs' block extensions written as plain Markdown."""
    text = _INLINE_HIGHLIGHT.sub("`", text)  # `#!python False` shows as `False`
    markers = ("!!!", "???", "===", "{:", "{#", "--8<--", "*[", "{%", ":::")
    if not any(marker in text for marker in markers):
        return text
    return "\n".join(_convert(text.split("\n")))


def _convert(lines: list[str]) -> list[str]:
    out: list[str] = []
    code = code_lines(lines)  # a block's body holds its fences in pairs: the flags stay true
    i = 0
    while i < len(lines):
        line = lines[i]
        block = None if code[i] else _BLOCK.match(line)
        if block is None:
            if not code[i] and (_SNIPPET.match(line) or _ABBREVIATION.match(line)):
                i += 1
                continue
            if not code[i] and _TEMPLATE_TAG.match(line):
                while i < len(lines) and "%}" not in lines[i]:
                    i += 1  # the tag's lines, to the one that closes it
                i += 1
                continue
            if not code[i] and _AUTODOC.match(line):
                _, i = _body(lines, i + 1, BODY_INDENT)  # with its indented options
                continue
            out.append(line if code[i] else _heading(line))
            i += 1
            continue
        indent = len(block.group("indent").expandtabs(4))
        body, i = _body(lines, i + 1, indent + BODY_INDENT)
        label = _label(block)
        converted = _labelled(label, _paragraphs(_convert(body)))
        out.extend(" " * indent + row if row.strip() else "" for row in converted.split("\n"))
        out.append("")
    return out


def _body(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The block's lines (blank, or indented at least ``indent``), de-indented, and where the
    block ends."""
    body: list[str] = []
    i = start
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        body.append(line.expandtabs(4)[indent:] if line.strip() else "")
        i += 1
    while body and not body[-1].strip():
        body.pop()
    return body, i


def _labelled(label: str, blocks: list[str]) -> str:
    """The label before the body's first paragraph ("Tip: …"), on a line of its own before a
    code block or list; the other paragraphs (a nested tab's among them) stay apart."""
    if not blocks:
        return label
    if not label:
        return "\n\n".join(blocks)
    if _keeps_lines(blocks[0]):
        return "\n\n".join([f"{label}:", *blocks])
    return "\n\n".join([f"{label}: {blocks[0]}", *blocks[1:]])


def _label(block: re.Match[str]) -> str:
    """What a reader sees above the block: its title ("Dynamic"), else its kind ("Tip"); an
    empty title ("") shows none."""
    title = block.group("title")
    if title is not None:
        return re.sub(r":[\w-]+:\s*", "", title).strip()  # ":octicons-file-code-16: x" → "x"
    kind = block.group("kind") or ""
    return kind.capitalize()


def _paragraphs(lines: list[str]) -> list[str]:
    """Blocks separated by blank lines outside code fences; a fence stays one block."""
    blocks: list[str] = []
    current: list[str] = []
    for line, is_code in zip(lines, code_lines(lines), strict=True):
        if not line.strip() and not is_code:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    # A paragraph's wrapped lines are one paragraph: joined, it reads as prose (a list, a
    # table or code keeps its lines).
    return [b if _keeps_lines(b) else " ".join(b.split()) for b in blocks]


def _keeps_lines(block: str) -> bool:
    first = block.lstrip()
    return bool(FENCE.match(block) or re.match(r"(?:[-*+]|\d+\.)\s|\||#|>", first))


def _heading(line: str) -> str:
    """A heading without its attribute list or closing hashes."""
    match = _HEADING_ATTRIBUTES.match(line) or _CLOSING_HASHES.match(line)
    return match.group("head").rstrip() if match else line
