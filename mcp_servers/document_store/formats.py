"""MDX, reStructuredText and Word files turned into Markdown text.

The chunker splits by Markdown headings, so every format is brought to that shape:
section titles become ``#`` headings, code stays in fenced blocks, tables become rows
of cells separated by `` | ``.
"""

from __future__ import annotations

import io
import re
import textwrap
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Final

from marsa_common.fences import step as fence_step
from mcp_servers.document_store.tables import row_items

_ESM = re.compile(r"^(?:import|export)\s")
_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`""")
# A Markdown heading at the start of a line ends an import/export whose brackets never
# closed, so one stray bracket cannot swallow the rest of the file.
_HEADING_LINE = re.compile(r"^#{1,6}\s")

# One pass over MDX prose: inline code spans are kept as they are; JSX comments and JSX/HTML
# tags (opening, closing, self-closing, fragments) are dropped. Attribute values may hold
# quoted strings or {expressions} one level deep, and a tag may span lines.
_ATTRIBUTES = r"""(?:[^<>{}"']|"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})*"""
_MDX_INLINE = re.compile(
    r"(?P<code>(?P<ticks>`+)[^`](?:(?!\n[^\S\n]*\n).)*?(?P=ticks))"
    r"|(?P<comment>\{/\*.*?\*/\})"
    rf"|(?P<tag></?(?:[A-Za-z][\w.-]*(?:\s{_ATTRIBUTES})?\s*/?)?>)",
    re.DOTALL,
)


def mdx_to_markdown(text: str) -> str:
    """MDX without its ESM imports/exports, JSX comments and JSX tags. Code blocks are kept
    whole; a component's children (``<Note>text</Note>``) keep their text; a self-closing
    component (``<Chart />``) leaves nothing."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    depth = 0  # brackets still open in an import/export statement spanning lines
    for line in text.splitlines():
        if fence is not None:
            out.append(line)
            fence, _ = fence_step(line, fence)
            continue
        if depth > 0 and not _HEADING_LINE.match(line):
            depth += _bracket_balance(line)
            continue
        depth = 0
        if _ESM.match(line):
            depth = max(0, _bracket_balance(line))
            continue
        opened, _ = fence_step(line, None)
        if opened is not None:
            out.append(_strip_jsx("\n".join(prose)))
            prose = []
            out.append(line)
            fence = opened
            continue
        prose.append(line)
    out.append(_strip_jsx("\n".join(prose)))
    return "\n".join(out)


def _bracket_balance(line: str) -> int:
    """Brackets opened minus closed, outside string literals."""
    code = _STRING.sub("", line)
    return sum(code.count(c) for c in "{[(") - sum(code.count(c) for c in "}])")


def _strip_jsx(prose: str) -> str:
    # A tag that sat on its own line leaves a blank line, which keeps the paragraphs around
    # it apart; one inside a sentence leaves nothing.
    stripped = _MDX_INLINE.sub(lambda m: m.group("code") or "", prose)
    lines = []
    for line in stripped.split("\n"):
        # Children of a component are often indented; a heading must start the line.
        lines.append(line.lstrip() if line.lstrip().startswith("#") else line)
    return "\n".join(lines)


# --- reStructuredText ---------------------------------------------------------

# Roles Sphinx shows as code: a Python object, an option, a file name …
CODE_ROLES = re.compile(
    r"^(?:py:)?(?:func|meth|class|attr|mod|obj|data|exc|const|any|type|envvar|option|"
    r"program|command|code|literal|samp|file|kbd|makevar|regexp|token|keyword|paramref)$"
)
# Roles naming a Python object, which Sphinx looks up from the end when written `.name`
_OBJECT_ROLES = re.compile(
    r"^(?:py:)?(?:func|meth|class|attr|mod|obj|data|exc|const|any|paramref)$"
)
_ROLE = re.compile(r"^:(?P<role>[\w:+.-]+):`(?P<text>.*)`$", re.DOTALL)
_TITLED_TARGET = re.compile(r"^(?P<title>.+?)\s*<[^<>]+>$", re.DOTALL)
_DIRECTIVE = re.compile(r"^\.\.\s+(?P<name>[\w:+.-]+)::\s*(?P<args>.*)$")
# Sphinx directives whose body is not prose: lists of documents or objects to pull in.
SKIPPED_DIRECTIVES = re.compile(r"^(?:toctree|auto\w*|\w*include|raw|image|figure|todo)$")
# autodoc's directive for one object ("autofunction:: attrs.validators.max_len"): its
# docstring is not in the file, but the built page shows its name and what the file adds
# below it (an example): the name as code, then that body.
AUTODOC_OBJECT = re.compile(
    r"^auto(?:function|class|method|attribute|data|exception|decorator|property|"
    r"classmethod|staticmethod|pydantic_model|typeddict)$"
)


def autodoc_text(args: str, body: str) -> str:
    """An autodoc directive as a reader sees it: the object's name as code (its first
    argument), or its signature when one with parameters is written, its body's first
    paragraph on the same line ("`attrs.validators.max_len`: For example:" then the
    example), so neither is read without the other."""
    signature = _with_parameters(args)
    if signature:
        # "RedisJobStore(db=0, jobs_key='apscheduler.jobs', …)": the built page shows the
        # parameters and their defaults, often the only place the file gives them
        return _code_led(signature[: signature.rindex(")") + 1], body)
    name = args.split("(")[0].split()[0] if args.split() else ""
    return _code_led(name, body)


def _with_parameters(args: str) -> str:
    """A directive's signature, escapes undone ("cycler(\\*items)"), when it has parameters
    ("canonicalize_version(version, strip_trailing_zero=True)"); '' for a bare name or
    "name(...)"."""
    args = re.sub(r"\\(.)", r"\1", " ".join(args.split()))
    inner = args.partition("(")[2].rpartition(")")[0].strip()
    return args if inner and inner not in ("...", "…") else ""


def _code_led(code: str, body: str) -> str:
    """``code`` (a name or a signature) as code before the body's first sentence ("`name`:
    Does …"), or on a line of its own before a block."""
    label, body = (f"`{code}`" if code else ""), body.strip()
    if not body or not label:
        return label or body
    if body.startswith(("```", "- ", "* ", "|", "#")):
        return f"{label}:\n\n{body}"
    return f"{label}: {body}"


# Sphinx's object descriptions ("py:data:: SESSION_COOKIE_NAME", "function:: url_for(…)",
# "confval:: …"): the built page shows the object's name as a term with its description
# below, a sub-section of its own. Written as a heading, every sentence of the description
# ("Default: `'session'`") sits under the name it describes.
OBJECT_DIRECTIVE = re.compile(
    r"^(?:data|function|class|method|attribute|exception|decorator|property|classmethod|"
    r"staticmethod|type|var|member|macro|struct|confval|envvar|option|describe|object)$"
)


# Sphinx directives (and extensions' ones: `click:example`, `jupyter-execute`) whose body is
# code to show or to run: it stays a code block, never read as prose.
CODE_DIRECTIVES = re.compile(
    r"^(?:example|run|code|code-block|sourcecode|doctest|testcode|testoutput|testsetup|"
    r"ipython|jupyter-execute|execute|prompt|console|terminal|program-output|command-output)$"
)
# Directives that only set something for the tools ("currentmodule click", "highlight
# python"): a reader has nothing to read in them.
SETTING_DIRECTIVES = re.compile(
    r"^(?:currentmodule|module|highlight|index|meta|default-role|default-domain|role|"
    r"rst-class|cssclass|tabularcolumns|sectionauthor|moduleauthor|codeauthor)$"
)
# Sphinx directives shown by their body alone, or with a label a reader knows.
TRANSPARENT_DIRECTIVES = {"only", "ifconfig", "tabs", "tab-set", "container"}
# One tab of sphinx-tabs or sphinx-design: its title says what the body is for.
TAB_DIRECTIVES = {"tab", "group-tab", "tab-item"}
DIRECTIVE_LABELS = {
    "versionadded": "New in version {}",
    "versionchanged": "Changed in version {}",
    "deprecated": "Deprecated since version {}",
    "seealso": "See also {}",
}
_VERSION_DIRECTIVES = {"versionadded", "versionchanged", "deprecated", "versionremoved"}
_ADMONITIONS = {
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "note",
    "tip",
    "warning",
}
_DOCINFO_SCALARS = {"date", "status", "version", "author", "organization", "revision"}


@dataclass
class RstDocument:
    """An RST file as Markdown, with the bibliographic fields it declares (:Date: …)."""

    markdown: str
    fields: dict[str, str] = field(default_factory=dict)


_SPHINX_CLASS = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+class::", re.M)


def rst_to_markdown(text: str, nested: bool = False) -> RstDocument:
    """Parse with docutils (no file inclusion, no raw passthrough) and write Markdown;
    ``nested`` for the body of a directive, which writes no heading of its own."""
    from docutils.core import publish_doctree

    tree = publish_doctree(
        # Sphinx reads `.. class:: namespace(...)` as a Python class; docutils' own "class"
        # directive would take the name for a style and the reader would lose it.
        _SPHINX_CLASS.sub(r"\g<indent>.. py:class::", text),
        settings_overrides={
            "report_level": 5,
            "halt_level": 5,
            "warning_stream": False,
            # `.. include:: /etc/passwd` must not read the server's files.
            "file_insertion_enabled": False,
            "raw_enabled": False,
            # Keep the first title a section, so it becomes the `# Title` heading.
            "doctitle_xform": False,
            "sectsubtitle_xform": False,
            # A directive's body opening with its fields (":param str from_path: …" under
            # ".. method:: __init__(…)") keeps them: only a document's own opening fields
            # are its bibliographic ones (date, status).
            "docinfo_xform": not nested,
            "syntax_highlight": "none",
            "input_encoding": "unicode",
        },
    )
    fields: dict[str, str] = {}
    blocks = list(_rst_blocks(tree, 0, fields, nested))
    # docutils keeps an escaped character as a NUL before it ("\\-\\-include" in a
    # definition's term is "\x00-\x00-include"); a reader sees the character itself.
    markdown = _unescaped("\n\n".join(b for b in blocks if b.strip()))
    return RstDocument(markdown, fields)


# An escaped character that would be Markdown where it stands ("\\# of files" at a line's
# start, "\\*args") stays escaped, the Markdown way; any other is the character itself.
_ESCAPED_MARKUP: Final = re.compile(r"\x00([`*_#<\[\]\\|])|(?m:^([ \t]*)\x00([-+>]))")


def _unescaped(markdown: str) -> str:
    from docutils.nodes import unescape

    markdown = _ESCAPED_MARKUP.sub(
        lambda m: "\\" + m.group(1) if m.group(1) else f"{m.group(2)}\\{m.group(3)}", markdown
    )
    return unescape(markdown)


def _rst_blocks(
    node: Any, depth: int, fields: dict[str, str], nested: bool = False
) -> Iterator[str]:
    from docutils import nodes

    in_object = False  # the last block written was an object description's (its heading's)
    for index, child in enumerate(node.children):
        if in_object and not isinstance(child, nodes.system_message | nodes.section):
            yield from _after_object(node, depth, in_object)
            in_object = False
        if isinstance(child, nodes.docinfo):
            _read_docinfo(child, fields)
        elif isinstance(child, nodes.section):
            title = next((c for c in child.children if isinstance(c, nodes.title)), None)
            if title is not None:
                yield f"{'#' * min(depth + 1, 6)} {_inline(title)}"
            yield from _rst_blocks(child, depth + 1, fields, nested)
        elif isinstance(child, nodes.title) and isinstance(node, nodes.section | nodes.Admonition):
            continue  # written as the section's heading or the admonition's label
        elif isinstance(
            child,
            nodes.comment
            | nodes.target
            | nodes.substitution_definition
            | nodes.raw
            | nodes.image
            | nodes.transition
            | nodes.pending,
        ):
            continue
        elif isinstance(child, nodes.topic) and "contents" in child.get("classes", []):
            continue  # a table of contents repeats the headings
        elif isinstance(child, nodes.label) and isinstance(node, nodes.footnote):
            continue  # a footnote's number: its mark in the text is not kept either
        elif isinstance(child, nodes.system_message):
            described = _object_description(child)
            if described is not None:
                name, body, signature = described
                if nested:  # inside a directive or a list: the name leads its description
                    yield autodoc_text(name, body)
                    continue
                yield f"{'#' * min(depth + 1, 6)} `{name}`"
                if signature:  # its parameters, as the built page shows them: a keyword a
                    # reader looks for (`strip_trailing_zero`) is then in the text
                    body = _code_led(signature, body)
                if body:
                    yield body
                in_object = True
                continue
            recovered = _unknown_directive(child)
            if recovered:
                yield from _after_object(node, depth, in_object)
                in_object = False
                yield recovered
        elif isinstance(child, nodes.literal_block | nodes.doctest_block):
            yield _fenced(child)
        elif isinstance(child, nodes.bullet_list | nodes.enumerated_list):
            yield _list(child, fields)
        elif isinstance(child, nodes.definition_list):
            yield _definitions(child, depth, fields)
        elif isinstance(child, nodes.field_list):
            for item in child.children:
                name, body = item.children[0], item.children[1]
                label = field_label(_inline(name))
                yield labelled(label, _field_body(item, body, depth, fields))
        elif isinstance(child, nodes.table):
            yield _table(child)
        elif isinstance(child, nodes.Admonition):
            titled = next((c for c in child.children if isinstance(c, nodes.title)), None)
            name = str(child.tagname)
            label = name.capitalize() if name in _ADMONITIONS else ""
            if titled is not None:
                label = _inline(titled)
            yield labelled(label, list(_rst_blocks(child, depth, fields, True)))
        elif not nested and _bold_question(child):
            # "**Q: Why don't shell pipe and redirect (| and >) work when I spawn a command?**"
            # (pexpect's FAQ): a question set in bold heads its answer, as a heading would
            yield f"{'#' * min(depth + 1, 6)} {_inline(child.children[0])}"
        elif isinstance(child, nodes.TextElement):
            text = _inline(child)
            yield text
            if isinstance(child, nodes.paragraph) and text.endswith(":"):
                yield _objects_listed(node.children[index + 1 :])
        elif isinstance(child, nodes.Element):
            yield from _rst_blocks(child, depth, fields, nested)


def _bold_question(node: Any) -> bool:
    """Is the node a paragraph that is one question set in bold, on its own ("**Q: …?**",
    "**Q: The `before` and `after` properties sound weird.**")?"""
    from docutils import nodes

    return (
        isinstance(node, nodes.paragraph)
        and len(node.children) == 1
        and isinstance(node.children[0], nodes.strong)
        and (node.astext().rstrip().endswith("?") or node.astext().startswith("Q:"))
    )


def _field_body(field: Any, body: Any, depth: int, fields: dict[str, str]) -> list[str]:
    """A field's body as blocks. Its text wrapped onto a line indented deeper than a later
    block of the body (``:param int max_msg_size: maximum size …, 4`` / ``MB by default.``
    with a ``.. versionadded::`` below) parses as a definition list whose term sits on the
    field's own line: that is one sentence run on, not "4: MB by default"."""
    from docutils import nodes

    first = body.children[0] if body.children else None
    if not (
        isinstance(first, nodes.definition_list)
        and first.children
        and field.line is not None
        and first.children[0].line == field.line
    ):
        return list(_rst_blocks(body, depth, fields, True))
    entry, *rest = first.children
    term = next((c for c in entry.children if isinstance(c, nodes.term)), None)
    said = [
        b
        for d in entry.children
        if isinstance(d, nodes.definition)
        for b in _rst_blocks(d, depth, fields, True)
    ]
    head = " ".join(filter(None, [_inline(term) if term is not None else "", *said[:1]]))
    blocks = [head, *said[1:]]
    if rest:
        first.children = rest
        blocks.append(_definitions(first, depth, fields))
    after = nodes.container()
    after.children = body.children[1:]
    return [*blocks, *_rst_blocks(after, depth, fields, True)]


_BLOCK_START = re.compile(r"^(?:```|~~~|[-*+] |\d+\. |#{1,6} )")


def labelled(label: str, blocks: list[str]) -> str:
    """A label ("Note", a defined term, a field name) and its body: the paragraphs run on after
    "Label: " as one, and a code block, list or table keeps its own lines after them (joined
    into the paragraph, a code fence would lose its line and the rest of the page would read
    as code)."""
    out: list[str] = []
    prose: list[str] = []
    for block in (b.strip() for b in blocks):
        if not block:
            continue
        if "\n" in block or _BLOCK_START.match(block) or " | " in block:
            if prose:
                out.append(" ".join(prose))
                prose = []
            out.append(block)
        else:
            prose.append(block)
    if prose:
        out.append(" ".join(prose))
    if not label:
        return "\n\n".join(out)
    if not out:
        return label
    if "\n" in out[0] or _BLOCK_START.match(out[0]):
        return "\n\n".join([f"{label}:", *out])
    return "\n\n".join([f"{label}: {out[0]}", *out[1:]])


def _objects_listed(following: list[Any]) -> str:
    """The objects a lead-in introduces ("The following functions are available in the
    global scope by default:" before `range`, `lipsum`, `dict` …), as list items with each one's
    first sentence, so the lead-in is read with what it announces; '' unless two or more
    object descriptions follow it."""
    from docutils import nodes

    items: list[str] = []
    for sibling in following:
        if isinstance(sibling, nodes.comment | nodes.target):
            continue
        if not isinstance(sibling, nodes.system_message):
            break
        directive = _directive(sibling)
        if directive is None:
            continue  # docutils' own note ("No directive entry for …")
        if not (
            (OBJECT_DIRECTIVE.match(directive.name) and directive.args.strip())
            or (AUTODOC_OBJECT.match(directive.name) and directive.object_name)
        ):
            if SETTING_DIRECTIVES.match(directive.name):
                continue  # ".. py:currentmodule:: x" says nothing
            break
        name, body = directive.object_name, directive.body()
        prose = next((b for b in body.split("\n\n") if b.strip() and b[0].isalnum()), "")
        first = re.split(r"(?<=[.!?])\s+", " ".join(prose.split()), maxsplit=1)[0]
        first = first[:-1] + "." if first.endswith(":") else first  # "… the `{% set %}` tag:"
        items.append(f"- `{name}`: {first}" if first else f"- `{name}`")
    return "\n".join(items) if len(items) >= 2 else ""


def _after_object(node: Any, depth: int, in_object: bool) -> Iterator[str]:
    """The section's own heading again when its text goes on after an object description
    (whose heading would otherwise take that text in)."""
    from docutils import nodes

    if not in_object or not isinstance(node, nodes.section):
        return
    title = next((c for c in node.children if isinstance(c, nodes.title)), None)
    if title is not None and depth > 0:
        yield f"{'#' * min(depth, 6)} {_inline(title)}"


def _inline(node: Any) -> str:
    """A text element's words, inline code kept as `code`; an unknown role (Sphinx's :ref:,
    :class:) keeps its text."""
    return re.sub(r"\s+", " ", _inline_text(node)).strip()


def _inline_text(node: Any) -> str:
    from docutils import nodes

    parts: list[str] = []
    for child in node.children:
        if isinstance(child, nodes.Text):
            parts.append(str(child))
        elif isinstance(child, nodes.literal):
            parts.append(f"`{child.astext()}`")
        elif isinstance(child, nodes.problematic):
            parts.append(role_shown(child.astext(), _section_titles(child.document)))
        elif isinstance(child, nodes.title_reference):
            # `name` in single backticks (the default role: "The default is `noopener`."):
            # Sphinx projects mean code by it; shown as Sphinx shows it (`Title <target>`).
            parts.append(f"`{role_text(child.astext())}`")
        elif isinstance(child, nodes.system_message):
            continue  # docutils' own note ("Unknown interpreted text role …"), not the text
        elif isinstance(child, nodes.footnote_reference):
            # "… will override earlier ones. [#append-values]_" is a superscript mark on the
            # built page; as text, its number ran into the next sentence ("14 For example, …")
            continue
        elif isinstance(child, nodes.generated) and "sectnum" in child["classes"]:
            # `.. sectnum::` numbers the titles ("1.4.12 font size"): a number of the built
            # page's layout, which a heading, a source's title and an answer's label do not say
            continue
        elif isinstance(child, nodes.Element):
            parts.append(_inline_text(child))
    return "".join(parts)


def role_shown(source: str, titles: dict[str, str] | None = None) -> str:
    """A role as a reader of the built page sees it: a code object's name as `code`
    (:class:`~tides.Gauge` → `Gauge`), a cross-reference's title as words. A bare :ref: to a
    label of the document's own (``titles``: label → title) shows the title of the section
    it labels, as Sphinx does ("See :ref:`error-handling`" → "See Error handling"); a label
    of another document stays as written (its words alone, "guide routing", read no better)."""
    role = _ROLE.match(source)
    name = role.group("role").lower() if role else ""
    if role and name in ("ref", "std:ref") and not _TITLED_TARGET.match(role.group("text")):
        title = (titles or {}).get(label_key(role.group("text")))
        if title:
            return title
    shown = role_text(source)
    return f"`{shown}`" if CODE_ROLES.match(name) and "`" not in shown else shown


def label_key(label: str) -> str:
    return " ".join(label.lower().split())


def _section_titles(document: Any) -> dict[str, str]:
    """Each label of the document that names a section (``.. _error-handling:`` above
    "Error handling"), with the section's title: what a bare :ref: to it shows."""
    from docutils import nodes

    if document is None:
        return {}
    cached = getattr(document, "_marsa_titles", None)
    if cached is not None:
        return cached
    titles: dict[str, str] = {}
    document._marsa_titles = titles  # (a title's own :ref: finds it filling, not again)
    for name, node_id in document.nameids.items():
        target = document.ids.get(node_id) if node_id else None
        if isinstance(target, nodes.section) and target.children:
            first = target.children[0]
            if isinstance(first, nodes.title):
                titles[label_key(name)] = _inline(first)
    return titles


def role_text(source: str) -> str:
    """What Sphinx shows for a role: `Title <target>` → Title, ~a.b.Name → Name."""
    role = _ROLE.match(source)
    shown = role.group("text") if role else source
    titled = _TITLED_TARGET.match(shown)
    if titled:
        return titled.group("title")
    if shown.startswith("~"):  # (":func:`~move_on_after`" has no dot: the name, no tilde)
        return shown[1:].rpartition(".")[2]
    if "/" in shown and role and role.group("role") == "doc" or shown.startswith("/"):
        # :doc:`/signer`, :doc:`../middleware/proxy_fix`: the document's own name ("The
        # signer is …")
        return shown.rstrip("/").rpartition("/")[2]
    shown = shown.lstrip("!")
    if role and _OBJECT_ROLES.match(role.group("role").lower()) and re.match(r"\.\w", shown):
        # :meth:`.Operations.f`: Sphinx looks the name up from the end, shown without the dot
        return shown[1:]
    return shown


def _fenced(node: Any) -> str:
    text = node.astext().rstrip("\n")
    classes = [c for c in node.get("classes", []) if c != "code"]
    fence = "~~~~" if "```" in text else "```"
    return f"{fence}{classes[0] if classes else ''}\n{text}\n{fence}"


_NESTED_ITEM: Final = re.compile(r"^(?:-|\d+\.) ")


def _list(node: Any, fields: dict[str, str]) -> str:
    from docutils import nodes

    lines = []
    for number, item in enumerate(node.children, start=1):
        marker = f"{number}." if isinstance(node, nodes.enumerated_list) else "-"
        blocks: list[str] = []
        for block in _rst_blocks(item, 0, fields, True):
            if blocks and _NESTED_ITEM.match(blocks[-1]) and not _NESTED_ITEM.match(block):
                # a paragraph after the item's own list is no line of that list's last item
                # ("Note that `expr[..., n]` does not raise …" after pyparsing's examples)
                blocks.append("")
            blocks.append(block)
        body = "\n".join(blocks).splitlines() or [""]
        lines.append(f"{marker} {body[0]}")
        lines.extend(f"  {line}" for line in body[1:])
    return "\n".join(lines)


def _definitions(node: Any, depth: int, fields: dict[str, str]) -> str:
    """A definition list as list items, "- term: definition", as MyST's are read: each entry
    is one item ("Inside macros, you have access to three special variables:" keeps its
    `varargs`, `kwargs` and `caller` after it), and an entry never runs into the next."""
    from docutils import nodes

    lines = []
    for item in node.children:
        term = next((c for c in item.children if isinstance(c, nodes.term)), None)
        definitions = [c for c in item.children if isinstance(c, nodes.definition)]
        blocks = [b for d in definitions for b in _rst_blocks(d, depth, fields, True)]
        label = _inline(term).rstrip(":").rstrip() if term is not None else ""  # ``x``:
        # Its later blocks (a code example, a second list) stay in the item: no blank line,
        # but for a paragraph after the item's own list, which is no line of that list's last
        # item (sqlparse's "These limits can be modified …" after its two limits)
        body = []
        in_list = False
        for ln in (ln for ln in labelled(label, blocks).splitlines() if ln.strip()):
            if _NESTED_ITEM.match(ln):
                in_list = True
            elif in_list and not ln.startswith(" "):
                body.append("")
                in_list = False
            body.append(ln)
        body = body or [""]
        lines.append(f"- {body[0]}")
        lines.extend(f"  {line}" for line in body[1:])
    return "\n".join(lines)


def _table(node: Any) -> str:
    """A table as list items, one per body row, each cell after its column's header
    (``tables.row_items``); a table without a header row has unlabelled cells."""
    from docutils import nodes

    def cells(row: Any) -> list[str]:
        return [
            " ".join(
                _inline(block)
                for block in entry.children
                if not isinstance(block, nodes.system_message)
            )
            for entry in row.children
        ]

    head = [cells(r) for t in node.findall(nodes.thead) for r in t.findall(nodes.row)]
    body = [cells(r) for t in node.findall(nodes.tbody) for r in t.findall(nodes.row)]
    width = max((len(r) for r in head + body), default=0)
    return row_items(head[0] if head else [""] * width, body)


def _read_docinfo(node: Any, fields: dict[str, str]) -> None:
    from docutils import nodes

    for child in node.children:
        if isinstance(child, nodes.field):
            name, body = child.children[0].astext(), child.children[1].astext()
            fields[name.strip().lower()] = body.strip()
        elif child.tagname in _DOCINFO_SCALARS:
            fields[child.tagname] = child.astext().strip()


@dataclass(frozen=True)
class _Directive:
    """A directive docutils reported as unknown: its name (domain dropped, lower-case), its
    arguments and its body's source (options left out)."""

    name: str
    args: str
    source: str

    @property
    def object_name(self) -> str:
        """The object it documents: its signature before any parameters ("url_for" of
        "url_for(endpoint, **values)")."""
        return self.args.split("(", 1)[0].strip() or self.args.strip()

    def body(self) -> str:
        return rst_to_markdown(self.source, nested=True).markdown


def _directive(message: Any) -> _Directive | None:
    """The unknown directive a docutils error message quotes; None for any other message."""
    from docutils import nodes

    if message.get("type") != "ERROR":
        return None
    block = next((c for c in message.children if isinstance(c, nodes.literal_block)), None)
    if block is None:
        return None
    first, *rest = block.astext().splitlines() or [""]
    matched = _DIRECTIVE.match(first.strip())
    if matched is None:
        return None
    while rest and rest[0].strip().startswith(":"):
        rest = rest[1:]  # the directive's options (":type: int", ":noindex:")
    return _Directive(
        matched.group("name").split(":")[-1].lower(),
        matched.group("args"),
        textwrap.dedent("\n".join(rest)).strip("\n"),
    )


# Sphinx's info fields (":param str version:", ":raises InvalidName:", ":rtype:") as the
# built page words them, not "param str version: …".
_PARAM_FIELD = re.compile(
    r"^(?:param|parameter|arg|argument|key|keyword)\s+(?:(?P<type>.+?)\s+)?(?P<name>[\w*]+)$"
)
_RAISES_FIELD = re.compile(r"^(?:raises|raise|except|exception)(?:\s+(?P<name>[\w.]+))?$")
_FIELD_WORDS = {"returns": "Returns", "return": "Returns", "rtype": "Return type"}


def field_label(name: str) -> str:
    """A field's name as a reader of the built page sees it: "Parameter `version` (str)",
    "Raises `InvalidName`", "Returns", "Return type"; other fields as written."""
    plain = name.replace("`", "").strip()
    if param := _PARAM_FIELD.match(plain):
        kind = f" ({param.group('type')})" if param.group("type") else ""
        return f"Parameter `{param.group('name')}`{kind}"
    if raises := _RAISES_FIELD.match(plain):
        return f"Raises `{raises.group('name')}`" if raises.group("name") else "Raises"
    if plain.startswith("type ") and len(plain.split()) == 2:
        return f"Type of `{plain.split()[1]}`"
    return _FIELD_WORDS.get(plain, name)


def _object_description(message: Any) -> tuple[str, str, str] | None:
    """An object description docutils does not know ("py:data:: SESSION_COOKIE_NAME" with its
    description): the object's name, the description as Markdown and its signature when it
    has parameters ("canonicalize_version(version, strip_trailing_zero=True)", else '');
    None for any other message."""
    directive = _directive(message)
    if (
        directive is None
        or not directive.args.strip()
        or not OBJECT_DIRECTIVE.match(directive.name)
    ):
        return None
    return directive.object_name, directive.body(), _with_parameters(directive.args)


def _unknown_directive(message: Any) -> str:
    """The body of a directive docutils does not know (Sphinx's versionadded, deprecated,
    seealso, only…), itself read as RST; directives that pull in other files or objects
    leave nothing."""
    directive = _directive(message)
    if directive is None:
        return ""
    name, source = directive.name, directive.source
    if SKIPPED_DIRECTIVES.match(name) and not AUTODOC_OBJECT.match(name):
        return ""
    if AUTODOC_OBJECT.match(name):
        return autodoc_text(directive.args, directive.body())
    if CODE_DIRECTIVES.match(name):
        return f"```\n{source}\n```" if source.strip() else ""
    if name == "code-tab":  # sphinx-tabs: ".. code-tab:: console Environment variables"
        label = directive.args.strip().partition(" ")[2].strip()
        code = f"```\n{source}\n```" if source.strip() else ""
        return f"{label}:\n\n{code}" if label and code else code
    if name in TAB_DIRECTIVES:  # a tab's title leads its body
        body, label = directive.body(), directive.args.strip()
        return f"{label}:\n\n{body}" if label and body else body
    if name in TRANSPARENT_DIRECTIVES:
        return directive.body()
    if SETTING_DIRECTIVES.match(name):
        return ""
    args = directive.args.strip()
    if name in _VERSION_DIRECTIVES and len(args.split(None, 1)) == 2:
        # ".. versionchanged:: 1.17.1  This recipe is now part of the ``alembic current``" with
        # "command using …" on the next lines: one paragraph after the version, markup and all
        args, said = args.split(None, 1)
        directive = replace(directive, source=f"{said}\n{directive.source}".strip())
    body = directive.body()
    label = DIRECTIVE_LABELS.get(name, name.capitalize() + " {}").format(args).strip()
    if not body:
        return label
    # the label leads the body's first paragraph; a block (code, a list) starts its own
    block = re.match(r"(?:```|~~~|[-*+] |\d+[.)] |#|\|)", body)
    return f"{label}: {body}" if not block else f"{label}:\n\n{body}"


# --- Word ----------------------------------------------------------------------


@dataclass
class WordDocument:
    """A .docx file as Markdown, with its title and date properties."""

    markdown: str
    title: str | None
    date: str | None


class WordError(ValueError):
    """The bytes are not a Word document python-docx can read."""


_HEADING_STYLE = re.compile(r"^Heading (\d)$")


def docx_to_markdown(data: bytes) -> WordDocument:
    """Headings become Markdown headings (the Title style a level-1 one), list paragraphs
    ``-`` items, tables rows of cells separated by `` | ``."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise WordError(str(exc) or type(exc).__name__) from exc
    blocks: list[str] = []
    first_heading = None
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            blocks.append(_word_table(block))
            continue
        text = block.text.strip()
        if not text:
            continue
        style = block.style.name if block.style is not None else ""
        heading = _HEADING_STYLE.match(style or "")
        if style == "Title" or heading:
            level = int(heading.group(1)) if heading else 1
            blocks.append(f"{'#' * min(max(level, 1), 6)} {text}")
            first_heading = first_heading or text
        elif (style or "").startswith("List"):
            blocks.append(f"- {text}")
        else:
            blocks.append(text)
    props = document.core_properties
    stamp = props.modified or props.created
    return WordDocument(
        markdown="\n\n".join(blocks),
        title=(props.title or "").strip() or first_heading,
        date=stamp.date().isoformat() if stamp else None,
    )


def _word_table(table: Any) -> str:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            if previous is not None and cell._tc is previous:
                continue  # a merged cell is returned once for each grid column it spans
            previous = cell._tc
            cells.append(" ".join(cell.text.split()))
        rows.append(" | ".join(cells))
    return "\n".join(rows)
