"""MDX, reStructuredText and Word files as the store reads them (formats.py via load_bytes)."""

from __future__ import annotations

import io
import re

import pytest

from mcp_servers.document_store.formats import rst_to_markdown
from mcp_servers.document_store.ingest import IngestError, chunk_text, load_bytes

# --- MDX ----------------------------------------------------------------------------

MDX = b"""---
title: Getting started
status: deprecated
---
import { Note, Tabs } from "@site/components"
import Chart from "./chart"
export const meta = {
  label: "a { brace in a string",
  tags: ["a", "b"],
}

# Getting started

{/* a comment
    over two lines */}

<Note type="warning" onClick={() => go({ a: 1 })}>
  Keep the `<Foo />` example and this sentence.
</Note>

<Chart data={[1, 2]} />

Install the <Badge>beta</Badge> package.

```jsx
import React from "react"
<Note>shown as code</Note>
{/* a comment in code */}
```
"""


def test_mdx_drops_imports_exports_and_jsx_comments() -> None:
    (doc,) = load_bytes(MDX, "start.mdx")
    assert "@site/components" not in doc.content
    assert "brace in a string" not in doc.content
    assert "over two lines" not in doc.content


def test_mdx_components_keep_their_text_and_self_closing_ones_leave_nothing() -> None:
    (doc,) = load_bytes(MDX, "start.mdx")
    prose = [c.text for c in chunk_text(doc.content)]
    assert "Keep the `<Foo />` example and this sentence." in prose[0]
    assert "Install the beta package." in prose[0]
    assert "Chart" not in prose[0] and "<Note" not in prose[0].split("```")[0]


def test_mdx_code_fences_stay_whole() -> None:
    (doc,) = load_bytes(MDX, "start.mdx")
    fence = (
        '```jsx\nimport React from "react"\n<Note>shown as code</Note>\n'
        "{/* a comment in code */}\n```"
    )
    assert fence in doc.content


def test_mdx_front_matter_gives_title_and_status() -> None:
    (doc,) = load_bytes(MDX, "start.mdx")
    assert doc.title == "Getting started"
    assert doc.metadata == {"status": "deprecated"}


def test_an_mdx_heading_indented_inside_a_component_is_still_a_section() -> None:
    (doc,) = load_bytes(b"<Tab>\n  ## Linux\n  Run the installer.\n</Tab>\n", "tabs.mdx")
    assert [(c.section, c.text) for c in chunk_text(doc.content)] == [
        ("Linux", "Run the installer.")
    ]


def test_an_mdx_export_with_an_unclosed_bracket_stops_at_the_next_heading() -> None:
    (doc,) = load_bytes(b"export const broken = {\n\n# Kept\nThis text stays.\n", "x.mdx")
    assert [(c.section, c.text) for c in chunk_text(doc.content)] == [("Kept", "This text stays.")]


# --- reStructuredText -----------------------------------------------------------------

RST = b""":Status: Draft
:Date: 2024-03-05
:Deprecated: yes

=========
Tide book
=========

Tides follow the moon, see :ref:`the chapter <moon>` and :class:`~tides.Gauge`; call ``read()``.
The :doc:`/gauges/reader` is the basic tool.

Measuring
---------

.. code-block:: python

   gauge.read()

.. note:: Calibrate first.

* spring tides
* neap tides

.. versionadded:: 2.0
   Gauges report in :unit:`metres`.

.. only:: html

   .. contents::

   Read the :doc:`tables <tables>` too.

.. include:: /etc/passwd

===== ======
tide  height
===== ======
high  ``3.1``
===== ======

Ebb
~~~

ebb
   The falling tide.
"""


def test_rst_section_titles_become_markdown_headings_and_sections() -> None:
    (doc,) = load_bytes(RST, "tides.rst")
    assert doc.title == "Tide book"
    sections = [c.section for c in chunk_text(doc.content)]
    assert sections == ["Tide book", "Measuring", "Ebb"]
    assert "# Tide book" in doc.content and "## Measuring" in doc.content
    assert "### Ebb" in doc.content


def test_a_text_file_written_in_rst_is_read_as_rst() -> None:
    # lxml 6.2's doc/FAQ.txt: read as plain text, its headings were lost and its code ran
    # into the prose ("XMLParser ( remove_blank_text = True ) >>> tree = …")
    faq = (
        b"==========\nlxml FAQ\n==========\n\n.. contents::\n\n"
        b"Why doesn't the ``pretty_print`` option reformat my XML output?\n"
        b"----------------------------------------------------------------\n\n"
        b"A good way is the ``remove_blank_text`` option::\n\n"
        b"    >>> parser = etree.XMLParser(remove_blank_text=True)\n\n"
        b"This will allow the parser to drop blank text nodes.\n"
    )
    (doc,) = load_bytes(faq, "FAQ.txt")
    assert doc.title == "lxml FAQ"
    sections = [c.section for c in chunk_text(doc.content)]
    assert "Why doesn't the `pretty_print` option reformat my XML output?" in sections
    assert "```" in doc.content and "``" not in doc.content.replace("```", "")
    # … and plain notes under an underlined title stay as written
    notes = b"Notes\n=====\n\nBring the ``key``.\nThe door sticks.\n"
    (plain_doc,) = load_bytes(notes, "notes.txt")
    assert plain_doc.title == "notes" and plain_doc.content == notes.decode()


def test_rst_section_numbers_of_sectnum_are_not_part_of_the_titles() -> None:
    # docutils' docs/user/config.rst (`.. sectnum::`): "1.4.12 font size" was a source's
    # title and an answer's label
    numbered = RST.replace(b"Tide book\n=========\n", b"Tide book\n=========\n\n.. sectnum::\n", 1)
    assert numbered != RST
    (doc,) = load_bytes(numbered, "tides.rst")
    assert doc.title == "Tide book"
    assert [c.section for c in chunk_text(doc.content)] == ["Tide book", "Measuring", "Ebb"]
    assert "## Measuring" in doc.content and "1.1" not in doc.content


def test_a_footnotes_mark_and_number_are_not_part_of_the_text() -> None:
    # docutils' config.rst: "… will **override earlier ones**. [#append-values]_" gave "… earlier
    # ones. 14 For example, …", a sentence opening on the footnote's number
    text = (
        b"Config\n======\n\nAll will be read and later entries will override earlier ones. "
        b"[#append-values]_\nFor example, a user entry wins.\n\n"
        b".. [#append-values] Some settings append.\n"
    )
    (doc,) = load_bytes(text, "config.rst")
    assert "override earlier ones. For example, a user entry wins." in doc.content
    assert "Some settings append." in doc.content
    assert not re.search(r"\b1\b", doc.content)


def test_an_faqs_questions_set_in_bold_head_their_answers() -> None:
    # pexpect's doc/FAQ.rst: the answer to "Why don't shell pipe and redirect work …?" sat
    # under "FAQ" with every other answer
    faq = (
        b"FAQ\n===\n\n**Q: Why don't pipes work when I spawn a command?**\n\n"
        b"A: Pexpect does not interpret shell meta characters. Start a shell.\n\n"
        b"**Q: The before and after properties sound weird.**\n\nA: As grep's -B and -A.\n\n"
        b"**Not a question, only bold.**\n\nText.\n"
    )
    (doc,) = load_bytes(faq, "FAQ.rst")
    assert [c.section for c in chunk_text(doc.content)] == [
        "Q: Why don't pipes work when I spawn a command?",
        "Q: The before and after properties sound weird.",
    ]
    assert "## Q: Why don't pipes work" in doc.content and "**Not a question" not in doc.content
    assert "Not a question, only bold." in doc.content


def test_rst_keeps_code_lists_notes_tables_and_the_text_of_unknown_roles() -> None:
    (doc,) = load_bytes(RST, "tides.rst")
    for kept in (
        "```python\ngauge.read()\n```",
        "Note: Calibrate first.",
        "- spring tides\n- neap tides",
        "- high: height: `3.1`",  # a table row under its header (tables.py)
        "see the chapter and `Gauge`; call `read()`.",  # a code object's role shows as code
        "The reader is the basic tool.",  # a document's path: its own name
        "New in version 2.0: Gauges report in metres.",
        "Read the tables too.",
        "- ebb: The falling tide.",
    ):
        assert kept in doc.content


RST_DEFINITIONS = b"""Inside macros, you have access to three special variables:

`varargs`
    Extra positional arguments, as a list.

``kwargs``:
    Like `varargs` but for keyword arguments.

    For example::

        m(a=1)

`caller`
    The caller, as a callable macro.

The default is `noopener`. Use the `validates <marshmallow.validates>` decorator.
Keep ``~/.marsa`` and ``/etc/passwd`` as written.
"""


def test_rst_definition_lists_are_list_items_after_their_lead_in() -> None:
    (doc,) = load_bytes(RST_DEFINITIONS, "macros.rst")
    assert (
        "Inside macros, you have access to three special variables:\n\n"
        "- `varargs`: Extra positional arguments, as a list.\n"
        "- `kwargs`: Like `varargs` but for keyword arguments. For example:\n"
        "  ```\n  m(a=1)\n  ```\n"
        "- `caller`: The caller, as a callable macro."
    ) in doc.content
    # The default role reads as code, shown as Sphinx shows it.
    assert "The default is `noopener`. Use the `validates` decorator." in doc.content
    assert "Keep `~/.marsa` and `/etc/passwd` as written." in doc.content  # literals as they are


SPHINX_CLASSES = b"""Globals
-------

.. class:: cycler(\\*items)

    Cycle through values.

.. class:: namespace(...)

    Creates a new container that allows attribute assignment.
"""


def test_a_sphinx_class_directive_is_an_object_named_by_its_class() -> None:
    # Not docutils' "class" directive, which would take the name for a style and drop it.
    (doc,) = load_bytes(SPHINX_CLASSES, "globals.rst")
    assert "## `cycler`\n\n`cycler(*items)`: Cycle through values." in doc.content
    # a placeholder for the parameters shows no signature
    assert "## `namespace`\n\nCreates a new container" in doc.content


PACKAGING_UTILS = b"""Utilities
=========

.. function:: canonicalize_version(version, strip_trailing_zero=True)

    This function takes a string representing a package version, and returns the
    normalized form of it. By default, it strips trailing zeros from the release segment.

    :param str version: The version to normalize.
    :raises InvalidVersion: If the version is not valid.
    :returns: The normalized version.

    .. doctest::

        >>> from packaging.utils import canonicalize_version
        >>> canonicalize_version('1.4.0.0.0')
        '1.4'
"""


def test_an_object_keeps_its_signature_and_fields_read_as_the_built_page_shows_them() -> None:
    # packaging 24.2's docs, read by a new user: `strip_trailing_zero` was nowhere in the
    # store, and ":param str version:" read "param str version: …".
    (doc,) = load_bytes(PACKAGING_UTILS, "utils.rst")
    assert (
        "## `canonicalize_version`\n\n`canonicalize_version(version, strip_trailing_zero=True)`"
        ": This function takes" in doc.content
    )
    assert "Parameter `version` (str): The version to normalize." in doc.content
    assert "Raises `InvalidVersion`: If the version is not valid." in doc.content
    assert "Returns: The normalized version." in doc.content


# aiohttp 3.14.5's web_reference.rst: the field's text wraps onto a line indented deeper
# than the `.. versionadded::` below it, and docutils reads the two lines as a definition
# list ("4" the term, "MB by default." its definition): the store read "…, 4: MB by default."
WRAPPED_FIELD = b"""WebSocketResponse
=================

.. class:: WebSocketResponse(*, compress=True, max_msg_size=4194304)

   Class for handling server-side websockets.

   :param int max_msg_size: maximum size of read websocket message, 4
                            MB by default. To disable the size limit use ``0``.

      .. versionadded:: 3.3

   :param str protocols:
      server
         the protocols the server accepts
      client
         the protocols the client asks for
"""


def test_an_objects_fields_opening_its_body_are_kept() -> None:
    # factory_boy 3.3's orms.rst: the parameters of ImageField's __init__ (its default size
    # and colour) were read as the body's bibliographic fields and dropped
    rst = (
        ".. class:: ImageField\n\n    Custom declarations for ImageField.\n\n"
        "    .. method:: __init__(self, width=100, color='green')\n\n"
        "        :param int width: The width of the generated image (default: ``100``)\n"
        "        :param str color: The color of the generated image (default: ``'green'``)\n"
    )
    markdown = rst_to_markdown(rst).markdown
    assert "Parameter `width` (int): The width of the generated image (default: `100`)" in markdown
    assert "Parameter `color` (str): The color" in markdown
    # … while a document's own opening fields are still its date, not text
    dated = rst_to_markdown(":date: 2024-05-01\n\nTitle\n=====\n\nBody text.\n")
    assert dated.fields.get("date") == "2024-05-01" and "2024-05-01" not in dated.markdown


def test_a_field_wrapped_deeper_than_a_later_block_reads_as_one_sentence() -> None:
    (doc,) = load_bytes(WRAPPED_FIELD, "web_reference.rst")
    assert (
        "Parameter `max_msg_size` (int): maximum size of read websocket message, 4 MB by "
        "default. To disable the size limit use `0`." in doc.content
    )
    assert "New in version 3.3" in doc.content
    # a definition list that starts on the line after the field's name stays a list
    assert "Parameter `protocols` (str):\n\n- server: the protocols the server accepts" in (
        doc.content
    )
    assert "- client: the protocols the client asks for" in doc.content


OBJECTS_LISTED = b"""Globals
-------

The following functions are available in the global scope by default:

.. py:currentmodule:: jinja-globals

.. function:: range([start,] stop[, step])

    Return a list containing an arithmetic progression of integers. More follows.

.. class:: namespace(...)

    Creates a new container that allows attribute assignment using the tag:

    .. code-block:: jinja

        {% set ns = namespace() %}

Filters are helpers too:

.. autofunction:: attrs.filters.include

.. autofunction:: attrs.filters.exclude

A lone one:

.. function:: lipsum(n=5)

    Generates some lorem ipsum.
"""


def test_a_lead_in_before_object_descriptions_lists_them() -> None:
    (doc,) = load_bytes(OBJECTS_LISTED, "globals.rst")
    assert (
        "The following functions are available in the global scope by default:\n\n"
        "- `range`: Return a list containing an arithmetic progression of integers.\n"
        "- `namespace`: Creates a new container that allows attribute assignment using the tag."
    ) in doc.content
    assert "Filters are helpers too:\n\n- `attrs.filters.include`\n- `attrs.filters.exclude`" in (
        doc.content
    )
    assert "- `lipsum`" not in doc.content  # one object is no list


def test_rst_never_includes_other_files() -> None:
    (doc,) = load_bytes(RST, "tides.rst")
    assert "root:" not in doc.content and "passwd" not in doc.content


SPHINX_EXTENSIONS = b"""Commands
========

.. currentmodule:: click

.. highlight:: python

Options are added with a decorator.

.. click:example::

    @click.command()
    @click.option('--n', default=1)
    def dots(n):
        click.echo('.' * n)

And on the command line:

.. click:run::

    invoke(dots, args=['--n=2'])
"""


def test_rst_extension_code_directives_stay_code_and_settings_leave_nothing() -> None:
    (doc,) = load_bytes(SPHINX_EXTENSIONS, "commands.rst")
    assert "```\n@click.command()\n@click.option('--n', default=1)\ndef dots(n):\n" in doc.content
    assert "```\ninvoke(dots, args=['--n=2'])\n```" in doc.content
    assert "Currentmodule" not in doc.content and "Highlight" not in doc.content
    assert "Options are added with a decorator." in doc.content


SPHINX_TABS = b"""Sessions
========

You can choose to run a particular set of them using ``--session``:

.. tabs::

   .. code-tab:: console CLI options

         nox --session tests

   .. code-tab:: console Environment variables

         NOXSESSION=tests nox

   .. tab:: Windows

      Use ``py -m nox`` instead.

Nox runs these sessions in order.
"""


def test_sphinx_tabs_show_each_tab_s_title_before_its_code_or_text() -> None:
    # nox's docs: the environment variable was read as prose after "Code-tab console".
    (doc,) = load_bytes(SPHINX_TABS, "usage.rst")
    assert "CLI options:\n\n```\nnox --session tests\n```" in doc.content
    assert "Environment variables:\n\n```\nNOXSESSION=tests nox\n```" in doc.content
    assert "Windows:\n\nUse `py -m nox` instead." in doc.content
    assert "Code-tab" not in doc.content


def test_rst_field_list_gives_date_and_status() -> None:
    (doc,) = load_bytes(RST, "tides.rst")
    assert doc.published_date == "2024-03-05"
    assert doc.metadata == {"status": "Draft", "deprecated": True}


# --- Word -------------------------------------------------------------------------------


def make_docx() -> bytes:
    import docx

    document = docx.Document()
    document.core_properties.title = "Harbour plan"
    document.add_heading("Harbour plan", 0)
    document.add_heading("Dredging", 1)
    document.add_paragraph("The channel is dredged every spring.")
    document.add_paragraph("check the buoys", style="List Bullet")
    document.add_heading("Costs", 2)
    table = document.add_table(rows=3, cols=2)
    for row, (item, cost) in enumerate([("item", "cost"), ("dredger", "40k"), ("total", "")]):
        table.cell(row, 0).text, table.cell(row, 1).text = item, cost
    table.cell(2, 0).merge(table.cell(2, 1)).text = "total 40k"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_docx_headings_become_sections_and_tables_rows_of_text() -> None:
    (doc,) = load_bytes(make_docx(), "plan.docx")
    assert doc.title == "Harbour plan"
    chunks = chunk_text(doc.content)
    assert [c.section for c in chunks] == ["Dredging", "Costs"]
    assert chunks[0].text == "The channel is dredged every spring.\n\n- check the buoys"
    assert chunks[1].text == "item | cost\ndredger | 40k\ntotal 40k"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xd0\xcf\x11\xe0 an old .doc", "not a Word .docx file"),
        (b"PK\x03\x04 a broken zip", "could not be read as a Word document"),
    ],
)
def test_a_file_that_is_not_a_docx_is_an_error_saying_so(data: bytes, message: str) -> None:
    with pytest.raises(IngestError, match=message):
        load_bytes(data, "notes.docx")


# --- MyST Markdown (Sphinx's Markdown) -------------------------------------------

MYST = b"""(install)=
# Getting started

% a comment for the writers only

The default logger is {class}`structlog.PrintLogger`; see {doc}`the guide <testing>`
and {func}`~structlog.processors.format_exc_info`.[^win]

:::{warning}
For pretty exceptions, {func}`format_exc_info` must be **absent**.
:::

::::{important}
Outer text.

:::{note}
Inner text.
:::
::::

```{doctest}
>>> import structlog
>>> structlog.get_logger().info("hi")
```

```{code-block} python
:caption: example.py

import structlog
```

```{toctree}
:maxdepth: 2

api
```

:::{deprecated} 22.1.0
Use `contextvars` instead.
:::

```{eval-rst}
.. note::

   Written in *RST*.
```

[^win]: Colorama is needed on Windows.
"""


def test_myst_roles_show_what_sphinx_shows_as_code_for_code_objects() -> None:
    (doc,) = load_bytes(MYST, "start.md")
    assert "The default logger is `structlog.PrintLogger`; see the guide" in doc.content
    assert "and `format_exc_info`." in doc.content
    assert "{class}" not in doc.content and "{func}" not in doc.content
    assert "[^win]" not in doc.content
    assert "Colorama is needed on Windows." in doc.content


def test_a_bare_myst_ref_shows_the_title_of_the_section_it_labels() -> None:
    text = (
        b"# Guide\n\nSee {ref}`install` first, then {ref}`custom_processors`.\n\n"
        b"(install)=\n\n## Installing it\n\nRun pip.\n"
    )
    (doc,) = load_bytes(text, "guide.md")
    assert "See Installing it first, then custom_processors." in doc.content


def test_myst_labels_and_comments_leave_nothing() -> None:
    (doc,) = load_bytes(MYST, "start.md")
    assert "(install)=" not in doc.content
    assert "writers only" not in doc.content
    assert doc.title == "Getting started"


def test_myst_admonitions_keep_their_text_with_a_label_and_nest() -> None:
    (doc,) = load_bytes(MYST, "start.md")
    assert "Warning: For pretty exceptions, `format_exc_info` must be **absent**." in doc.content
    assert "Outer text." in doc.content and "Note: Inner text." in doc.content
    assert ":::" not in doc.content
    assert "Deprecated since version 22.1.0: Use `contextvars` instead." in doc.content


def test_myst_code_directives_stay_code_and_tool_directives_leave_nothing() -> None:
    (doc,) = load_bytes(MYST, "start.md")
    assert '```\n>>> import structlog\n>>> structlog.get_logger().info("hi")\n```' in doc.content
    assert "```python\nimport structlog\n```" in doc.content
    assert ":caption:" not in doc.content
    assert "maxdepth" not in doc.content and "{toctree}" not in doc.content
    prose = " ".join(c.text for c in chunk_text(doc.content) if "```" not in c.text)
    assert "get_logger().info" not in prose


def test_myst_eval_rst_blocks_are_read_as_rst() -> None:
    (doc,) = load_bytes(MYST, "start.md")
    assert "Note: Written in RST." in doc.content
    assert "eval-rst" not in doc.content and ".. note::" not in doc.content


def test_plain_markdown_is_not_touched_by_the_myst_reader() -> None:
    text = b"# Title\n\n% of users said yes. A {brace} and [^not-a-ref] stay.\n\n```\nx\n```\n"
    (doc,) = load_bytes(text, "plain.md")
    assert "% of users said yes. A {brace} and [^not-a-ref] stay." in doc.content


MYST_DEFINITIONS = b"""# Exceptions

The most common use-cases are covered by the following processors:

{func}`structlog.processors.format_exc_info`

: Formats it to a flat string like the standard library would.

{class}`structlog.dev.RichTracebackFormatter`

: Uses Rich to render a colorful traceback.
  It's a class because it allows for customizing the output.
: It's the default if Rich is installed.

**event_dict**

: Current context together with the current event.
"""


def test_myst_definition_lists_keep_each_definition_with_its_term() -> None:
    (doc,) = load_bytes(MYST_DEFINITIONS, "exceptions.md")
    assert (
        "- `structlog.processors.format_exc_info`: Formats it to a flat string like the "
        "standard library would." in doc.content
    )
    assert (
        "- `structlog.dev.RichTracebackFormatter`: Uses Rich to render a colorful traceback. "
        "It's a class because it allows for customizing the output. It's the default if Rich "
        "is installed." in doc.content
    )
    assert "- **event_dict**: Current context together with the current event." in doc.content
    assert "\n: " not in doc.content


AUTODOC_RST = b"""Validators
==========

.. automodule:: attrs.validators
   :members:

.. autofunction:: attrs.validators.max_len

   For example:

   .. doctest::

      >>> C("bacon")
      ValueError: Length of 'x' must be <= 4: 5

.. autoclass:: attrs.Attribute
"""


def test_an_autodoc_object_shows_its_name_with_what_the_file_says_of_it() -> None:
    (doc,) = load_bytes(AUTODOC_RST, "api.rst")
    assert '`attrs.validators.max_len`: For example:\n\n```\n>>> C("bacon")' in doc.content
    assert "`attrs.Attribute`" in doc.content
    assert "automodule" not in doc.content.lower() and ":members:" not in doc.content


def test_an_autodoc_signature_shows_its_parameters_and_defaults() -> None:
    text = (
        b"API\n===\n\n.. autoclass:: RedisJobStore(db=0, jobs_key='apscheduler.jobs', "
        b"pickle_protocol=pickle.HIGHEST_PROTOCOL, \\**connect_args)\n    :show-inheritance:\n\n"
        b".. autofunction:: pkg.run()\n"
    )
    (doc,) = load_bytes(text, "redis.rst")
    assert (
        "`RedisJobStore(db=0, jobs_key='apscheduler.jobs', "
        "pickle_protocol=pickle.HIGHEST_PROTOCOL, **connect_args)`" in doc.content
    )
    assert "`pkg.run`" in doc.content and "show-inheritance" not in doc.content


def test_a_myst_autodoc_object_shows_its_name_with_its_body() -> None:
    text = b"# API\n\nIntro {class}`x`.\n\n```{autofunction} pkg.mod.f\n\nIt returns 3.\n```\n"
    (doc,) = load_bytes(text, "api.md")
    assert "`pkg.mod.f`: It returns 3." in doc.content


CONFIG_RST = """\
Configuration
=============

Builtin values
--------------

These are the values the framework uses.

.. py:data:: SESSION_COOKIE_NAME

    The name of the session cookie.

    Default: ``'session'``

.. py:data:: USE_X_SENDFILE
    :type: bool

    Serve files through the web server.

    Default: ``False``

Other values may be set by extensions.

Loading
-------

Load values from a file.
"""


def test_an_object_description_is_a_sub_section_named_by_the_object() -> None:
    (doc,) = load_bytes(CONFIG_RST.encode(), "config.rst")
    text = doc.content
    sections = [c.section for c in chunk_text(text, chunk_words=12, overlap=0)]
    by_section = {c.section: c.text for c in chunk_text(text, chunk_words=200, overlap=0)}
    assert "Default: `'session'`" in by_section["`SESSION_COOKIE_NAME`"]
    assert "Default: `False`" in by_section["`USE_X_SENDFILE`"]
    assert ":type:" not in text
    # The section's text after the last description is under the section again.
    assert "Other values may be set by extensions." in by_section["Builtin values"]
    assert sections[-1] == "Loading"


ADMONITION_WITH_CODE = """\
Guide
=====

.. admonition:: From a dictionary

    You can build one from a dictionary.

    .. code-block:: python

        # {"name": "Ken"}
        Schema.from_dict({"name": fields.Str()})

    It is useful at run time.

Dumping
-------

Dump objects.
"""


def test_an_admonition_holding_code_keeps_the_code_block_whole() -> None:
    (doc,) = load_bytes(ADMONITION_WITH_CODE.encode(), "guide.rst")
    text = doc.content
    assert "From a dictionary: You can build one from a dictionary.\n\n```python\n" in text
    # The code's comment is no heading: the next section is still "Dumping".
    sections = [c.section for c in chunk_text(text, chunk_words=200, overlap=0)]
    assert sections == ["Guide", "Dumping"]


def test_an_escaped_character_in_rst_is_the_character_itself() -> None:
    text = "\\-\\-include is ignored because \\-\\-source is set\n  Both were given.\n"
    markdown = rst_to_markdown(text).markdown
    assert markdown == "- --include is ignored because --source is set: Both were given."
    assert "\x00" not in rst_to_markdown("A backslash-space joins a\\ b.\n").markdown
    # an escaped character that would be Markdown where it stands stays escaped, as Markdown
    assert rst_to_markdown("\\# of files is counted per run.\n").markdown == (
        "\\# of files is counted per run."
    )
    assert rst_to_markdown("Pass \\*args on.\n").markdown == "Pass \\*args on."


def test_roles_show_as_the_built_page_shows_them() -> None:
    text = (
        "Title\n=====\n\nWrap it with the :doc:`../middleware/proxy_fix` middleware. Use the "
        ":paramref:`.EnvironmentContext.configure.include_name` hook, :meth:`.Operations.f` "
        "and :file:`.nox`.\n"
    )
    shown = rst_to_markdown(text).markdown
    assert "with the proxy_fix middleware" in shown  # a relative document: its name
    assert "`EnvironmentContext.configure.include_name` hook" in shown  # code, no leading dot
    assert "`Operations.f`" in shown
    assert "`.nox`" in shown  # a file's own dot stays


def test_a_paragraph_after_a_defined_term_s_own_list_is_no_line_of_its_last_item() -> None:
    text = (
        "Limits\n======\n\n**Grouping Limits**\n  The parser includes limits:\n\n"
        "  - ``MAX_DEPTH`` (default: 100) - Limits recursion depth\n"
        "  - ``MAX_TOKENS`` (default: 10,000) - Limits the tokens of one grouping\n"
        "    operation\n\n"
        "  These limits can be modified by changing the constants.\n"
    )
    shown = rst_to_markdown(text).markdown
    assert "one grouping operation\n  \n  These limits can be modified" in shown
    assert shown.startswith("# Limits\n\n- Grouping Limits: The parser includes limits:\n  - `MAX")


def test_a_bare_ref_shows_the_title_of_the_section_it_labels() -> None:
    text = (
        "Events\n======\n\nThe diagram is accurate. See :ref:`error-handling`, and "
        ":ref:`keepalive-and-pipelining` elsewhere.\n\n"
        ".. _error-handling:\n\nWhen things go wrong\n--------------------\n\nText.\n"
    )
    shown = rst_to_markdown(text).markdown
    assert "See When things go wrong, and" in shown  # this document's section, by its title
    assert "keepalive-and-pipelining elsewhere" in shown  # another document's: as written
    assert "error-handling" not in shown


def test_a_version_note_s_text_on_its_first_line_is_one_paragraph_with_the_rest() -> None:
    text = (
        "Recipe\n======\n\n"
        ".. versionchanged:: 1.17.1  This recipe is now part of the ``alembic current``\n"
        "   command, available from the command line as ``--check-heads``:\n\n"
        "   .. sourcecode::\n\n       alembic current --check-heads\n"
    )
    shown = rst_to_markdown(text).markdown
    assert (
        "Changed in version 1.17.1: This recipe is now part of the `alembic current` command, "
        "available from the command line as `--check-heads`:\n\n```"
    ) in shown


def test_a_tilde_role_without_a_dot_shows_the_bare_name() -> None:
    shown = rst_to_markdown(
        "Use :func:`~move_on_after` or :class:`~anyio.abc.TaskGroup`.\n"
    ).markdown
    assert "`move_on_after`" in shown and "`TaskGroup`" in shown
    assert "~" not in shown


RST_NESTED_LIST = b"""Notes
=====

- Repetition can be indicated using ``*`` or ``[]`` notation. See the following
  examples:

  - ``expr*3`` is equivalent to ``expr + expr + expr``

  - ``expr[1, ...]`` is equivalent to ``OneOrMore(expr)``

  Note that ``expr[..., n]`` does not raise an exception if more than n exprs
  exist in the input stream.

- Or expressions evaluate all of the specified subexpressions.
"""


def test_a_paragraph_after_an_items_own_list_is_no_line_of_that_lists_last_item() -> None:
    # pyparsing 3.3.3's docs/HowToUsePyparsing.rst: the note is the outer item's, after
    # the examples, not the end of the last example
    (doc,) = load_bytes(RST_NESTED_LIST, "usage.rst")
    (chunk,) = chunk_text(doc.content)
    assert (
        "- `expr[1, ...]` is equivalent to `OneOrMore(expr)`\n\n"
        "Note that `expr[..., n]` does not raise"
    ) in chunk.text
