"""MyST Markdown (Sphinx's Markdown: myst-parser) brought to plain Markdown.

Much Python documentation is written in MyST: roles (``{class}`structlog.PrintLogger` ``),
directive fences (```` ```{note} ```` or ``:::{warning}``), label lines (``(install)=``),
comment lines (``% …``) and footnote references (``[^win]``). Read as plain Markdown, a
reader sees ``{func}`~structlog.get_logger` `` in an answer and a ``{doctest}`` block as
prose. Here a role shows what Sphinx shows (its title, or the last part of a ``~`` target),
as code for the roles that name code objects; a directive keeps its body by the same rules
as the reStructuredText reader (code stays code, admonitions keep their text with a label,
"deprecated" says so, directives that only pull in files or set something for the tools
leave nothing). Plain Markdown passes through unchanged.
"""

from __future__ import annotations

import re
import textwrap
from contextvars import ContextVar
from typing import Final

from mcp_servers.document_store.formats import (
    AUTODOC_OBJECT,
    CODE_DIRECTIVES,
    DIRECTIVE_LABELS,
    SETTING_DIRECTIVES,
    SKIPPED_DIRECTIVES,
    TRANSPARENT_DIRECTIVES,
    autodoc_text,
    label_key,
    role_shown,
    rst_to_markdown,
)

_DIRECTIVE_FENCE: Final = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<name>[\w:+.-]+)\}[ \t]*(?P<args>.*)$"
)
_CODE_FENCE: Final = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})(?!.*\{)")
_LABEL_LINE: Final = re.compile(r"^[ \t]*\([\w:.+-]+\)=[ \t]*$")
_COMMENT_LINE: Final = re.compile(r"^%")
_BLOCK_BREAK: Final = re.compile(r"^\+\+\+\s*(?:\{.*\})?\s*$")
_ROLE: Final = re.compile(r"\{(?P<role>[\w:+.-]+)\}(?P<ticks>`+)(?P<text>.+?)(?P=ticks)")
_FOOTNOTE_REF: Final = re.compile(r"\[\^[\w-]+\](?!:)")
_FOOTNOTE_DEF: Final = re.compile(r"^\[\^[\w-]+\]:\s*", re.M)
_ITEM: Final = "- "  # a definition list's item, as this reader writes it
_NOT_A_TERM: Final = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|>|\||```|~~~)")
_LIST_START: Final = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_OPTION_LINE: Final = re.compile(r"^\s*:[\w-]+:(?:\s.*)?$")
# Roles that name code objects (Python domain and friends): shown as code.
_DEFINITION: Final = re.compile(r"^:[ \t]+(?P<text>\S.*)$")
_MYST_SIGNS: Final = re.compile(
    r"\{[\w:+.-]+\}`|^[ \t]*(?:`{3,}|~{3,}|:{3,})\{[\w:+.-]+\}|^[ \t]*\([\w:.+-]+\)=[ \t]*$"
    r"|^:[ \t]+\S",
    re.M,
)


def is_myst(text: str) -> bool:
    """Does the text use MyST's own syntax (a role, a directive fence or a label line)?"""
    return _MYST_SIGNS.search(text) is not None


def myst_to_markdown(text: str) -> str:
    """The text with MyST's roles, directives, labels, comments and footnote markers turned
    into what a reader of the built page sees; plain Markdown is returned as it is."""
    if not is_myst(text):
        return text
    lines = text.splitlines()
    token = _TITLES.set(_section_titles(lines))
    try:
        return "\n".join(_blocks(lines))
    finally:
        _TITLES.reset(token)


# The document's labelled sections (label → title), for a bare {ref} to one of them
_TITLES: ContextVar[dict[str, str] | None] = ContextVar("myst_titles", default=None)
_HEADING: Final = re.compile(r"^#{1,6}\s+(?P<title>\S.*?)\s*#*\s*$")


def _section_titles(lines: list[str]) -> dict[str, str]:
    """Each ``(label)=`` line right above a heading, with the heading's title."""
    titles: dict[str, str] = {}
    for i, line in enumerate(lines):
        if not _LABEL_LINE.match(line):
            continue
        following = next((ln for ln in lines[i + 1 :] if ln.strip()), "")
        heading = _HEADING.match(following)
        if heading:
            titles[label_key(line.strip()[1:-2])] = heading.group("title")
    return titles


def _blocks(lines: list[str]) -> list[str]:
    out: list[str] = []
    defining = False  # the last item written is a definition: indented lines continue it
    i = 0
    while i < len(lines):
        line = lines[i]
        if defining and line.strip() and line[:1] in (" ", "\t") and out and out[-1].strip():
            out[-1] = f"{out[-1]} {_inline(line.strip())}"
            i += 1
            continue
        defining = defining and not line.strip()
        directive = _DIRECTIVE_FENCE.match(line)
        if directive:
            end = _closing(lines, i + 1, directive.group("fence"))
            body = textwrap.dedent("\n".join(lines[i + 1 : end]))
            name = directive.group("name").split(":")[-1].lower()
            shown = _directive(name, directive.group("args").strip(), body)
            if shown:
                out.extend(["", *shown.splitlines(), ""])
            i = end + 1
            continue
        code = _CODE_FENCE.match(line)
        if code:
            end = _closing(lines, i + 1, code.group("fence"))
            out.extend(lines[i : end + 1])
            i = end + 1
            continue
        definition = _DEFINITION.match(line)
        if definition and _define(out, _inline(definition.group("text"))):
            defining = True
            i += 1
            continue
        if not (_LABEL_LINE.match(line) or _COMMENT_LINE.match(line) or _BLOCK_BREAK.match(line)):
            out.append(_inline(line))
        i += 1
    return out


def _define(out: list[str], text: str) -> bool:
    """A definition list's ``: definition`` line joins its term as one list item
    ("- `format_exc_info`: Formats it to a flat string …"), so neither is read without the
    other; a second definition of the same term joins the same item. False when no term
    stands before it (the line is then kept as it is)."""
    at = len(out) - 1
    while at >= 0 and not out[at].strip() and len(out) - at <= 2:
        at -= 1
    if at < 0 or not out[at].strip():
        return False
    term = out[at]
    if term.startswith(_ITEM):
        out[at] = f"{term} {text}"
    elif _NOT_A_TERM.match(term):
        return False
    else:
        out[at] = f"{_ITEM}{term.strip().rstrip(':')}: {text}"
    del out[at + 1 :]
    return True


def _closing(lines: list[str], start: int, fence: str) -> int:
    """The index of the line that closes a fence opened with ``fence`` (the last line when
    it is never closed). A fence of the same character at least as long closes it; a
    directive opened inside with a longer fence of that character nests."""
    char, size = fence[0], len(fence)
    depth = 0
    for j in range(start, len(lines)):
        stripped = lines[j].strip()
        opened = _DIRECTIVE_FENCE.match(lines[j])
        if opened and opened.group("fence")[0] == char and len(opened.group("fence")) >= size:
            depth += 1
            continue
        if stripped and set(stripped) == {char} and len(stripped) >= size:
            if depth == 0:
                return j
            depth -= 1
    return len(lines)


def _directive(name: str, args: str, body: str) -> str:
    """What a reader sees of one directive, by the reStructuredText reader's rules."""
    body = _without_options(body).strip("\n")
    if name == "eval-rst":
        return rst_to_markdown(body, nested=True).markdown
    if CODE_DIRECTIVES.match(name) or name == "code-cell":
        language = args.split()[0] if args and name in ("code", "code-block", "sourcecode") else ""
        return f"```{language}\n{body}\n```" if body.strip() else ""
    if AUTODOC_OBJECT.match(name):
        return autodoc_text(args, "\n".join(_blocks(body.splitlines())))
    if SKIPPED_DIRECTIVES.match(name) or SETTING_DIRECTIVES.match(name):
        return ""
    inner = "\n".join(_blocks(body.splitlines())).strip()
    if name in TRANSPARENT_DIRECTIVES or name in ("tab-item", "dropdown", "card", "grid-item"):
        return inner
    label = DIRECTIVE_LABELS.get(name, name.capitalize() + " {}").format(args).strip()
    if not inner:
        return label
    # A body of one paragraph reads as the label's sentence; a list or several paragraphs
    # stay blocks of their own.
    block = "\n\n" in inner or _LIST_START.match(inner) is not None
    return f"{label}:\n\n{inner}" if block else f"{label}: {inner}"


def _without_options(body: str) -> str:
    """A directive's body without its options (``:caption: …`` lines or a YAML block)."""
    lines = body.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((j for j in range(1, len(lines)) if lines[j].strip() == "---"), None)
        if end is not None:
            return "\n".join(lines[end + 1 :])
    while lines and _OPTION_LINE.match(lines[0]):
        lines = lines[1:]
    return "\n".join(lines)


def _inline(line: str) -> str:
    """Roles shown as Sphinx shows them; footnote markers dropped."""
    line = _ROLE.sub(_role, line)
    line = _FOOTNOTE_DEF.sub("", line)
    return _FOOTNOTE_REF.sub("", line)


def _role(match: re.Match[str]) -> str:
    return role_shown(f":{match.group('role')}:`{match.group('text')}`", _TITLES.get())
