"""Answer-bearing passages: verbatim slices, junk left out, lists and code with their lead-in."""

from __future__ import annotations

from backend.reasoning.offline.passages import (
    MAX_CODE_LINES,
    answerable,
    clause_only,
    code_before,
    code_block,
    named_by_heading,
    passages,
    setting_entry,
    shown_for,
)
from tests.backend.reasoning.corpus import DEFAULT_SETUP as DEFAULTS
from tests.backend.reasoning.corpus import SESSIONS, sectioned, source

LIMITS = """You can control the connection pool size using the `limits` argument.
It takes instances of `httpx.Limits` which define:

- `max_keepalive_connections`, number of allowable keep-alive connections, or `None` to always
allow. (Defaults 20)
- `max_connections`, maximum number of allowable connections, or `None` for no limits.
(Default 100)
"""

HTTP2 = """And then instantiating a client with HTTP/2 support enabled:

```python
client = httpx.AsyncClient(http2=True)
...
```
"""


def test_every_passage_is_a_verbatim_slice_of_its_source() -> None:
    found = passages(source("S1", "Limits", LIMITS))
    assert found and all(p.quote in LIMITS for p in found)


def test_a_list_item_keeps_the_default_written_on_its_next_line() -> None:
    texts = [p.text for p in passages(source("S1", "Limits", LIMITS))]
    assert any(t.endswith("or `None` for no limits. (Default 100)") for t in texts)


def test_a_lead_in_line_is_taken_with_the_list_after_it() -> None:
    listed, with_context = [p for p in passages(source("S1", "Limits", LIMITS)) if p.is_list]
    assert listed.text.startswith("It takes instances of `httpx.Limits` which define: ")
    assert "`max_connections`" in listed.text and "`max_keepalive_connections`" in listed.text
    # "It takes …" leans on the sentence before: that passage is taken with it too
    assert with_context.text.startswith("You can control the connection pool size")
    assert with_context.text.endswith(listed.text) and with_context.quote in LIMITS


def test_steps_to_do_what_the_sentence_before_says_are_taken_with_it() -> None:
    """docutils 0.23's odt.rst, read by a new user: "In order to activate this, do all of the
    following:" and its steps were a passage without what "this" is, and the answer was the
    styles paragraph after them."""
    text = (
        "`odtwriter` can add syntax highlighting to code in code blocks.  In order to activate "
        "this, do all of the following:\n\n"
        "1. Install Pygments and ...\n"
        "2. Use the command line option `--add-syntax-highlighting`. Example:\n\n"
        "```\n$ rst2odt --add-syntax-highlight test.rst > test.odt\n```\n"
    )
    found = [p for p in passages(source("S1", "Syntax highlighting", text)) if p.is_list]
    whole = [p for p in found if p.sentences[0].startswith("`odtwriter` can add")]
    assert whole and whole[0].quote in text
    # each step as written: the ellipsis kept, no lead-in to code the list does not show
    assert whole[0].text == (
        "`odtwriter` can add syntax highlighting to code in code blocks. In order to activate "
        "this, do all of the following: Install Pygments and...; Use the command line option "
        "`--add-syntax-highlighting`."
    )


def test_a_lead_in_that_does_not_lean_on_what_precedes_is_taken_alone() -> None:
    text = LIMITS.replace("It takes instances", "The argument takes instances")
    assert len([p for p in passages(source("S1", "Limits", text)) if p.is_list]) == 1


def test_a_leaning_lead_in_is_taken_with_the_paragraph_before_but_not_a_heading() -> None:
    text = "The last processor adapts the event dict.\n\nIt can return:\n\n- a string\n- a tuple\n"
    found = [p.text for p in passages(source("S1", "Processors", text)) if p.is_list]
    assert any(
        t.startswith("The last processor adapts the event dict. It can return") for t in found
    )
    headed = "# The last processor adapts it\n\nIt can return:\n\n- a string\n- a tuple\n"
    assert len([p for p in passages(source("S1", "Processors", headed)) if p.is_list]) == 1


def test_a_lead_in_line_before_its_list_is_never_a_passage_alone() -> None:
    text = (
        "Every application automatically includes two pieces of middleware by default:\n\n"
        "* `ServerErrorMiddleware` - Returns a custom 500 page.\n"
        "* `ExceptionMiddleware` - Adds exception handlers.\n"
    )
    found = passages(source("S1", "Middleware", text))
    assert all(p.is_list for p in found if p.sentences[0].startswith("Every application"))
    assert any(p.is_list and "`ExceptionMiddleware`" in p.text for p in found)


def test_a_session_no_sentence_leads_into_is_led_by_its_heading() -> None:
    """humanize's README: a `>>>` session right under "### File size humanization"."""
    doc = sectioned("S1", "humanize", SESSIONS)
    made = [p for p in passages(doc) if p.is_code]
    alone = [p for p in made if p.section == "File size humanization"]
    assert len(alone) == 1
    assert alone[0].lead == "File size humanization:"
    assert "humanize.naturalsize(1_000_000, binary=True) → '976.6 KiB'" in alone[0].code
    assert alone[0].quote in doc.text and alone[0].quote.startswith("```pycon")
    # (the session a sentence leads into is that sentence's, once)
    led = [p for p in made if "naturaldelta" in p.quote]
    assert led and all(p.lead.startswith("If seconds are too large") for p in led)


def test_a_lead_in_line_is_taken_with_the_code_after_it() -> None:
    [code] = [p for p in passages(source("S1", "HTTP/2", HTTP2)) if p.is_code]
    assert code.text.endswith("`client = httpx.AsyncClient(http2=True)`")
    assert code.quote in HTTP2


def test_headings_bylines_labels_and_tables_cannot_answer() -> None:
    assert not answerable("# Version negotiation")
    assert not answerable("**Author(s)**: Jane Doe, Working Group")
    assert not answerable("Status: Draft")
    assert not answerable("| a cell of a table row with enough words in it |")
    assert not answerable('import { Tabs } from "@theme/Tabs";')
    assert answerable("**Resolution**: HTTPX does not properly support HTTPS proxies at this time.")
    # an address alone says nothing; a sentence pointing to one does
    assert not answerable("https://github.com/marshmallow-code/marshmallow/wiki/Who's-using%3F")
    assert answerable("See https://example.org/docs for the full list of options here.")
    # a directive's kind and target written out ("Setting" from ``.. setting::``) states nothing
    assert not answerable("Setting task_allow_error_cb_on_chord_header")
    assert answerable("Setting task_acks_late makes the worker acknowledge after the task runs.")
    # a title in a list of links (the link itself dropped at ingestion) states nothing
    assert not answerable("Real-World Python More Itertools")
    assert not answerable("Tour of Python Itertools (Alternate)")
    assert answerable("Python 3.9 support was dropped, since it went EOL on 2025-10-31")
    assert answerable("Yo, I heard you like decorators")
    # a row of badges (humanize's README) states nothing; a sentence with an image does
    badges = (
        "[![PyPI version](https://img.shields.io/pypi/v/humanize.svg)](https://pypi.org/p/h/)\n"
        "[![Supported Python versions](https://img.shields.io/pypi/pyversions/h.svg)](https://x/)"
        "\n![codecov](https://codecov.io/gh/python-humanize/humanize/badge.svg)"
    )
    assert not answerable(badges)
    assert answerable("The chart ![chart](chart.png) shows the time each call takes.")


def test_a_long_code_block_shows_the_statement_it_raises() -> None:
    text = (
        "How about dropping only entries from a certain peer?\n\n"
        "```python\n"
        "class ConditionalDropper:\n"
        "    def __init__(self, peer):\n"
        "        self._peer = peer\n\n"
        "    def __call__(self, logger, method_name, event_dict):\n"
        '        """\n        >>> cd = ConditionalDropper("127.0.0.1")\n        """\n'
        '        if event_dict.get("peer") == self._peer:\n'
        "            raise DropEvent\n\n"
        "        return event_dict\n"
        "```\n"
    )
    coded = [p for p in passages(source("S1", "Processors", text)) if p.is_code]
    assert coded
    shown = coded[0].text
    assert "class ConditionalDropper" in shown and "raise DropEvent" in shown
    assert ">>>" not in shown and "self._peer = peer" not in shown


def test_a_doctest_block_shows_its_code_not_its_output() -> None:
    text = (
        "If you'd like to enforce immutability, attrs will try to help:\n\n"
        "```{doctest}\n"
        ">>> from attrs import frozen\n"
        ">>> @frozen\n"
        "... class C:\n"
        "...     x: int\n"
        ">>> i = C(1)\n"
        "Traceback (most recent call last):\n"
        "attrs.exceptions.FrozenInstanceError: can't set attribute\n"
        "```\n"
    )
    coded = [p for p in passages(source("S1", "Examples", text)) if p.is_code]
    assert coded
    shown = coded[0].text
    assert "`@frozen`" in shown and "`class C:`" in shown
    assert "Traceback" not in shown and ">>>" not in shown


def test_a_doctest_input_shows_with_what_it_prints() -> None:
    # packaging's docs: the example's point is its result ('oslo-concurrency', True).
    text = (
        "This function returns the normalized form of a name:\n\n"
        "```\n"
        ">>> from packaging.utils import canonicalize_name\n"
        '>>> canonicalize_name("oslo.concurrency")\n'
        "'oslo-concurrency'\n"
        ">>> v1 < v2\n"
        "True\n"
        "```\n"
    )
    coded = [p for p in passages(source("S1", "Utilities", text)) if p.is_code]
    assert coded
    shown = coded[0].text
    assert "`canonicalize_name(\"oslo.concurrency\") → 'oslo-concurrency'`" in shown
    assert "`v1 < v2 → True`" in shown


def test_the_default_setup_in_code_is_one_passage_with_every_line() -> None:
    [whole] = [p for p in passages(source("S1", "Getting started", DEFAULTS)) if p.is_defaults]
    assert whole.is_code and whole.quote in DEFAULTS
    assert "utc=False" in whole.text and "PrintLoggerFactory" in whole.text  # past line 3
    assert "import logging" not in whole.text
    shown = shown_for(whole, ["default", "timestamp", "format"])
    assert shown.text == "Using the defaults, as above, is equivalent to:"
    lines = shown.block.splitlines()  # every line but the imports, indented as written
    assert lines[1] == "structlog.configure(" and lines[-2] == ")" and "…" not in lines
    assert "        structlog.dev.ConsoleRenderer()" in lines
    # the ordinary excerpt still shows only the first lines
    [short] = [
        p
        for p in passages(source("S1", "Getting started", DEFAULTS))
        if p.is_code and not p.is_defaults
    ]
    assert "PrintLoggerFactory" not in short.text


def test_code_after_a_lead_in_that_is_not_about_defaults_is_not_a_defaults_passage() -> None:
    text = DEFAULTS.replace("Using the defaults, as above, is equivalent to:", "Configure it so:")
    assert not [p for p in passages(source("S1", "Getting started", text)) if p.is_defaults]


PARTS = """As far as structlog is concerned, it consists of three parts:

1. A context dictionary that you can bind key-value pairs to.
This dictionary is merged into each log entry that is logged from this logger.
2. A list of processors that are called on every log entry. (Usually configured.)
3. And finally a logger that it's wrapping.
This wrapped logger is responsible for the output of the log entry.
"""


def test_a_list_shows_each_items_first_statement_not_its_explanation() -> None:
    (listed,) = [p for p in passages(source("S1", "Bound Loggers", PARTS)) if p.is_list]
    assert listed.text == (
        "As far as structlog is concerned, it consists of three parts: A context dictionary "
        "that you can bind key-value pairs to; A list of processors that are called on every "
        "log entry. (Usually configured.); And finally a logger that it's wrapping."
    )
    assert "merged" not in " ".join(listed.sentences) and listed.quote in PARTS


FILTER_EXAMPLE = (
    "For that, `asdict` offers a callback that decides whether an attribute is included:\n\n"
    "```{doctest}\n"
    ">>> @define\n"
    "... class User:\n"
    "...     email: str\n"
    "...     password: str\n"
    "...     name: str\n"
    "...     phone: str\n"
    "...     city: str\n"
    ">>> asdict(User('jane@doe.invalid', 's33kred'),\n"
    "...        filter=lambda attr, value: attr.name != 'password')\n"
    "{'email': 'jane@doe.invalid'}\n"
    "```\n"
)


def test_a_long_example_shows_the_lines_that_hold_the_questions_words() -> None:
    (coded,) = [p for p in passages(source("S1", "Examples", FILTER_EXAMPLE)) if p.is_code]
    assert "filter=" not in coded.text  # the usual excerpt: the example's first lines
    shown = shown_for(coded, ["drop", "password", "asdict", "conversion"])
    assert (
        shown.text
        == "For that, `asdict` offers a callback that decides whether an attribute is included:"
    )
    lines = shown.block.splitlines()
    assert lines[0] == lines[-1] == "```" and lines[1] == "@define"
    call = lines.index("asdict(User('jane@doe.invalid', 's33kred'),")
    # (the call's second line, indented as in the example, with what it prints)
    filtered = "filter=lambda attr, value: attr.name != 'password') → {'email': 'jane@doe.invalid'}"
    assert lines[call + 1] == f"       {filtered}"
    assert len([ln for ln in lines[1:-1] if ln != "…"]) == MAX_CODE_LINES  # no more


def test_an_example_whose_first_lines_hold_the_words_is_shown_as_usual() -> None:
    (coded,) = [p for p in passages(source("S1", "Examples", FILTER_EXAMPLE)) if p.is_code]
    usual = ["```", "@define", "class User:", "    email: str", "    password: str", "…", "```"]
    assert shown_for(coded, ["user", "class"]).block.splitlines() == usual
    assert shown_for(coded, []).block.splitlines() == usual


LEXER_RECIPE = (
    "The following example adds support for the expression `ZORDER BY` to the lexer:\n\n"
    "```python\n"
    "import sqlparse\n"
    "from sqlparse import keywords\n"
    "from sqlparse.lexer import Lexer\n\n"
    "# get the lexer singleton object to configure it\n"
    "lex = Lexer.get_default_instance()\n"
    "lex.clear()\n"
    'my_regex = (r"ZORDER\\s+BY\\b", sqlparse.tokens.Keyword)\n'
    "lex.set_SQL_REGEX(keywords.SQL_REGEX[:38] + [my_regex] + keywords.SQL_REGEX[38:])\n"
    "lex.add_keywords(keywords.KEYWORDS_COMMON)\n"
    "lex.add_keywords(keywords.KEYWORDS_ORACLE)\n"
    "lex.add_keywords(keywords.KEYWORDS_MYSQL)\n"
    "lex.add_keywords(keywords.KEYWORDS_PLPGSQL)\n"
    "lex.add_keywords(keywords.KEYWORDS_HQL)\n"
    "lex.add_keywords(keywords.KEYWORDS)\n"
    'sqlparse.parse("select * from foo zorder by bar;")\n'
    "```\n"
)


def test_the_example_answering_how_to_do_something_is_shown_whole() -> None:
    (coded,) = [p for p in passages(source("S1", "Extending", LEXER_RECIPE)) if p.is_code]
    terms = ["teach", "lexer", "recognise", "zorder"]
    excerpt = shown_for(coded, terms).block
    assert "…" in excerpt and "lex.clear()" not in excerpt  # shortened, it cannot be run
    recipe = shown_for(coded, terms, steps=True).block.splitlines()
    assert recipe[0] == "```" and recipe[-1] == "```" and "…" not in recipe
    assert "lex.clear()" in recipe and "# get the lexer singleton object to configure it" in recipe
    assert recipe.index("lex.clear()") < recipe.index("lex.add_keywords(keywords.KEYWORDS)")
    # a doctest session is a run of demonstrations: shortened as before
    (shown,) = [p for p in passages(source("S1", "Examples", FILTER_EXAMPLE)) if p.is_code]
    assert "…" in shown_for(shown, ["user", "class"], steps=True).block


def test_a_short_example_is_shown_whole() -> None:
    short = FILTER_EXAMPLE.replace("...     name: str\n...     phone: str\n...     city: str\n", "")
    (coded,) = [p for p in passages(source("S1", "Examples", short)) if p.is_code]
    assert len(coded.code) == 6 and "filter=" not in coded.text  # scored on its first lines
    for terms in ([], ["user", "class"], ["drop", "password", "asdict"]):
        lines = shown_for(coded, terms).block.splitlines()
        assert len(lines) == 8 and "…" not in lines and "filter=lambda" in lines[-2]


def test_an_example_is_shown_as_a_block_indented_as_written() -> None:
    text = (
        "Retry only the part that talks to the network:\n\n```python\n"
        "for attempt in stamina.retry_context(on=httpx.HTTPError):\n"
        "    with attempt:\n"
        "        resp = httpx.get(url)\n"
        "        resp.raise_for_status()\n"
        "```\n"
    )
    coded = next(p for p in passages(source("S1", "Retries", text)) if p.is_code)
    shown = shown_for(coded, ["retry", "part", "network"])
    assert shown.text == "Retry only the part that talks to the network:"
    assert shown.block == (
        "```\nfor attempt in stamina.retry_context(on=httpx.HTTPError):\n    with attempt:\n"
        "        resp = httpx.get(url)\n        resp.raise_for_status()\n```"
    )


def test_a_block_marks_the_lines_left_out_and_outlasts_the_codes_own_backticks() -> None:
    lines = ["def f():", "    x = `a`", "    ```", "    return x"]
    assert code_block([lines[0], lines[3]], [0, 3], 4) == "```\ndef f():\n…\n    return x\n```"
    assert code_block(lines[:2], [0, 1], 4) == "```\ndef f():\n    x = `a`\n…\n```"
    assert code_block(lines[1:3]).startswith("````\nx = `a`\n```\n````")  # a longer fence
    assert code_block([]) == ""


def test_an_identifier_in_the_question_matches_its_parts_in_the_code() -> None:
    text = (
        "Inside the worker, the context vars are bound again:\n\n"
        "```python\n"
        "def manager(request_id):\n"
        "    log = structlog.get_logger()\n"
        "    workers = ['1', '2']\n"
        "    ctx = structlog.contextvars.get_contextvars()\n"
        "    pool.map(work, workers)\n"
        "```\n"
    )
    (coded,) = [p for p in passages(source("S1", "Threads", text)) if p.is_code]
    shown = shown_for(coded, ["request_id", "bind_contextvars", "get", "workers"])
    assert "    ctx = structlog.contextvars.get_contextvars()" in shown.block.splitlines()


def test_a_default_line_states_a_value_and_is_a_passage() -> None:
    assert answerable("Default: `False`")
    assert answerable("Default value: 31 days")
    assert not answerable("Author: Jane Doe")


def test_a_bare_code_name_is_no_statement() -> None:
    # An API page lists entries by name: "`render_to_log_kwargs`" alone says nothing.
    assert not answerable("`render_to_log_kwargs`")
    assert answerable("`render_to_log_kwargs`: Render the event dict as keyword arguments.")


def test_a_window_stays_in_its_section_though_the_text_joins_the_chunks() -> None:
    # A document's text joins its retrieved chunks without their headings.
    entry = "The edit link uses the repository's edit path.\n\ndefault: `edit/master/docs/`"
    branch = "Set the remote branch to commit to when deploying.\n\ndefault: `gh-pages`"
    doc = sectioned("S1", "Configuration", [("edit_uri", entry), ("remote_branch", branch)])
    found = passages(doc)
    assert found
    for passage in found:
        assert not ("edit/master" in passage.quote and "remote branch" in passage.quote)


def test_the_quoted_input_of_a_doctest_is_shown_with_the_exception_it_raises() -> None:
    text = (
        "`to_bool(val)` converts common strings to booleans. For example:\n\n"
        "```\n>>> @define\n... class C:\n...     x = field(converter=to_bool)\n"
        '>>> C("yes")\nC(x=True)\n>>> C(0)\nC(x=False)\n>>> C("on")\nC(x=True)\n'
        '>>> C("off")\nC(x=False)\n>>> C(1)\nC(x=True)\n>>> C("y")\nC(x=True)\n>>> C("norway")\n'
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "ValueError: Cannot convert value to bool: norway\n```\n"
    )
    coded = next(p for p in passages(source("S1", "Converters", text)) if p.is_code)
    assert "C(x=True)" not in coded.code and "Traceback" not in " ".join(coded.code)  # output
    shown = shown_for(coded, ["field", "to_bool", "string", "norway"], ("norway",))
    assert 'C("norway")\nValueError: Cannot convert value to bool: norway\n```' in shown.block
    assert "ValueError" not in shown_for(coded, ["field", "to_bool"]).block


def test_the_same_sentence_under_two_headings_sits_under_each_where_it_is() -> None:
    # A reference page says "Default: `None`" under several settings: each is its own.
    first = "Where the cache lives on disk.\n\nDefault: `None`"
    second = "How cookies are sent with requests from other sites.\n\nDefault: `None`"
    doc = sectioned("S1", "Configuration", [("`CACHE_DIR`", first), ("`COOKIE_SAMESITE`", second)])
    defaults = [p for p in passages(doc) if p.quote == "Default: `None`"]
    assert [p.section for p in defaults] == ["`CACHE_DIR`", "`COOKIE_SAMESITE`"]
    # and a window does not run from one setting's entry into the next
    assert not any("Where the cache" in p.quote and "cookies" in p.quote for p in passages(doc))


def test_a_passage_under_a_code_name_heading_is_shown_with_that_name() -> None:
    text = "Enforces that all incoming requests must either be `https` or `wss`."
    cookies = "Cookies are ignored in case of an error."
    doc = sectioned("S1", "Middleware", [("HTTPSRedirectMiddleware", text), ("Cookies", cookies)])
    by_text = {p.quote: p for p in passages(doc)}
    assert named_by_heading(by_text[text]) == "HTTPSRedirectMiddleware"
    # a plain word heading is no name; a passage that names its heading needs no lead
    assert named_by_heading(by_text["Cookies are ignored in case of an error."]) == ""
    doc.chunk_sections = ["`SESSION_COOKIE_NAME`", "0.8.6"]
    assert named_by_heading(passages(doc)[0]) == "SESSION_COOKIE_NAME"
    # a function's name in lower camel case is a name too ("Unlike `classImplements`, this
    # ignores …" under `classImplementsFirst`)
    unlike = "Unlike `classImplements`, this ignores interface inheritance."
    doc = sectioned("S3", "Declarations", [("classImplementsFirst", unlike)])
    assert named_by_heading(passages(doc)[0]) == "classImplementsFirst"
    said = "Use `HTTPSRedirectMiddleware` to enforce `https`."
    doc = source("S2", "Middleware", said)
    doc.chunks, doc.chunk_sections = [said], ["HTTPSRedirectMiddleware"]
    assert named_by_heading(passages(doc)[0]) == ""


def test_a_changelog_entry_is_shown_with_its_release() -> None:
    doc = sectioned(
        "S1",
        "Changelog",
        [
            ("1.3.0 - 2025-11-10 / Removed", "Support for Python 3.9 (#1278)"),
            ("0.15.0 (2021-04-19)", "Abandon support for Python 3.5 from 0.15.0 on."),
            ("Installing", "Run pip install 2.0 to upgrade."),
        ],
    )
    shown = {p.quote: named_by_heading(p) for p in passages(doc)}
    assert shown["Support for Python 3.9 (#1278)"] == "1.3.0 - 2025-11-10 / Removed"
    # (an entry that names its release needs no lead; a heading that is no release is no name)
    assert shown["Abandon support for Python 3.5 from 0.15.0 on."] == ""
    assert shown["Run pip install 2.0 to upgrade."] == ""


WHITESPACE = """Without the `trim_blocks` option, this template:

```
<div>{% if True %}yay{% endif %}</div>
```

gets rendered with blank lines inside the div:

```
<div>

yay
</div>
```

The attrs package includes helpers for filtering attributes.

```
asdict(c)
```

attrs includes helpers for filtering the attributes.
"""


def test_the_rest_of_a_sentence_a_code_block_interrupted_is_no_passage() -> None:
    texts = [p.text for p in passages(source("S1", "Whitespace control", WHITESPACE))]
    assert not any(t.startswith("gets rendered") for t in texts)
    # A lower-case name opening a sentence after code is a subject, not a continuation.
    assert "attrs includes helpers for filtering the attributes." in texts


POLICIES = """Policies change how filters behave:

- `truncate.leeway`: Configures the leeway default for the truncate filter. The default is `5`.
- `urlize.rel`: A string that defines the items for the rel attribute. The default is `noopener`.
"""


def test_a_passage_inside_a_list_entry_is_shown_with_the_entrys_term() -> None:
    found = passages(source("S1", "Policies", POLICIES))
    later = next(p for p in found if p.text == "The default is `5`.")
    assert later.label == "`truncate.leeway`"
    assert named_by_heading(later) == "truncate.leeway"
    whole = next(p for p in found if p.text.startswith("`urlize.rel`: A string"))
    assert whole.label == "" and named_by_heading(whole) == ""


DEBUGGING = """pytest can drop into the pdb prompt at the start of each test via an option:

```bash
pytest --trace
```

This will invoke the Python debugger at the start of every test.

```python
import pdb
pdb.set_trace()
x = 1
```

This sets a breakpoint in your code.
"""


def test_a_sentence_pointing_back_at_a_short_code_block_is_shown_with_it() -> None:
    found = {p.text: p for p in passages(source("S1", "Debugging", DEBUGGING))}
    trace = found["This will invoke the Python debugger at the start of every test."]
    assert code_before(trace) == "`pytest --trace`"
    assert code_before(found["This sets a breakpoint in your code."]) == ""  # three lines


EXIT_CODES = """Don't write the files back, just return the status. The formatter will exit with:

- code 0 if nothing would change;
- code 1 if some files would be reformatted; or
- code 123 if there was an internal error

If used with `--quiet` only the exit code is returned, unless there was an internal error.
"""


def test_an_item_knows_the_lead_in_of_its_list() -> None:
    found = passages(source("S1", "The basics", EXIT_CODES))
    item = next(p for p in found if p.text.startswith("code 123"))
    assert item.intro == "The formatter will exit with:"
    after = next(p for p in found if p.text.startswith("If used with"))
    assert after.intro == ""
    assert next(p for p in found if p.is_list).intro == ""


def test_an_item_after_a_code_block_takes_no_earlier_lead_in() -> None:
    text = "Exit codes:\n\n- 0 when fine\n\n```\nblack .\n```\n\n- The cache is stored per user.\n"
    found = passages(source("S1", "Cache", text))
    later = next(p for p in found if p.text.startswith("The cache"))
    assert later.intro == ""
    assert next(p for p in found if p.text.startswith("0 when")).intro == "Exit codes:"


HOSTS = """## Host Matching

Starting with Werkzeug 0.7 it's also possible to do matching on the whole host names instead
of just the subdomain. To enable this feature you need to pass `host_matching=True` to the
`Map` constructor and provide the `host` argument to all routes:

```python
url_map = Map([Rule('/', endpoint='www_index', host='www.example.com')], host_matching=True)
```

For example, the following lines can be used:

- one
- two
"""


def test_a_lead_in_to_code_ends_a_window_of_prose_and_a_list_lead_in_does_not() -> None:
    found = passages(source("S1", "URL Routing", HOSTS))
    window = [p for p in found if p.before_code]
    assert len(window) == 1 and len(window[0].sentences) == 2
    assert window[0].sentences[0].startswith("Starting with Werkzeug 0.7")
    assert window[0].text.endswith("to all routes.")  # read as a statement, without its code
    assert not any(p.before_code and "following lines" in p.quote for p in found)


OPTIONAL = """## Optional dependencies

These distributions will not be installed automatically. Werkzeug will detect and use them if
you install them.

- Colorama provides request log highlighting when using the development server on Windows.
- Watchdog provides a faster, more efficient reloader for the development server.

## Serving

The server runs one process. It restarts on changes.

- one thing here
- another thing here
"""


AMQP = """## AMQP Transports

There are 4 transports available for AMQP use.

1. ``pyamqp`` uses the pure Python library ``amqp``.
2. ``librabbitmq`` uses the high performance transport written in C.
3. ``amqp`` tries to use ``librabbitmq`` but falls back to ``pyamqp``.
4. ``qpid`` uses the pure Python library ``qpid.messaging``.

## Serving

There are 3 reasons to run one process.

- one thing here
- another thing here
"""


def test_a_paragraph_giving_the_number_of_items_after_it_leads_the_list() -> None:
    listed = [p for p in passages(source("S1", "Connections", AMQP)) if p.is_list]
    assert any(
        p.text.startswith("There are 4 transports") and "falls back" in p.text and "qpid" in p.text
        for p in listed
    )
    # three announced, two listed: not the list it counts
    assert not any("3 reasons" in p.quote for p in listed)


COMPRESSION = """## Compression

Celery can compress messages using the following builtin schemes:

- `brotli`
brotli is optimized for the web, in particular small text documents.
To use it, install Celery with:

```console
$ pip install celery[brotli]
```
- `bzip2`
bzip2 creates smaller files than gzip.
If you get the following `ImportError`:

```pycon
>>> import bz2
ImportError: No module named 'bz2'
```
it means that you should recompile your Python version with bzip2 support.
- `gzip`
gzip is suitable for systems that require a small memory footprint.

You can also create your own compression schemes.
"""


def test_a_list_whose_items_hold_code_blocks_is_read_whole() -> None:
    listed = [p for p in passages(source("S1", "Calling Tasks", COMPRESSION)) if p.is_list]
    whole = [p for p in listed if p.text.startswith("Celery can compress messages")]
    assert whole and all(f"`{name}`" in whole[0].text for name in ("brotli", "bzip2", "gzip"))
    assert "your own compression schemes" not in whole[0].quote  # (a paragraph after the list)

    # an item that leads its own code leads no list of the items after it
    pitfalls = (
        "## Pitfalls\n\n- Testing projects using Huey: Use `immediate=True`:\n"
        "```python\nhuey = RedisHuey(immediate=test_mode)\n```\n"
        "For more details, see the testing guidelines section of the guide.\n"
        "- Task decorated with `@huey.task()` blocks when called: check `immediate`.\n"
        "- ReadOnlyError after a Redis failover: huey is connected to a replica.\n"
    )
    assert not any(
        p.is_list and p.text.startswith("Testing projects")
        for p in passages(source("S2", "Troubleshooting", pitfalls))
    )


def test_a_paragraph_pointing_at_the_list_after_it_leads_the_list() -> None:
    found = passages(source("S1", "Installation", OPTIONAL))
    listed = [p for p in found if p.is_list]
    assert any(
        p.text.startswith("Werkzeug will detect and use them")
        and "Colorama provides" in p.text
        and "Watchdog provides" in p.text
        for p in listed
    )
    # a paragraph that does not point at the list after it does not lead it
    assert not any("It restarts on changes" in p.quote for p in listed)


ENTRY = """## Special HTTP Exceptions

If `title` or `body` are missing in the form, a special key error will be raised which behaves
like a `KeyError` but also a `BadRequest` exception.

`BadRequestKeyError`

Sometimes it's convenient to just raise an exception by the error code.
"""


def test_a_paragraph_is_read_with_the_object_entry_right_after_it() -> None:
    found = passages(source("S1", "HTTP Exceptions", ENTRY))
    entry = [p for p in found if "`BadRequestKeyError`" in p.quote]
    assert len(entry) == 1
    assert entry[0].text.endswith("a `BadRequest` exception: `BadRequestKeyError`.")
    assert entry[0].quote.startswith("If `title` or `body`")


def test_an_object_s_own_description_is_not_read_with_the_next_object() -> None:
    text = (
        "## Undefined Types\n\n`_fail_with_undefined_error`: When called with any arguments "
        "this method raises `_undefined_exception` with an error message.\n\n"
        "`jinja2.ChainableUndefined()`\n\nAn undefined that is chainable.\n"
    )
    found = passages(source("S1", "API", text))
    assert not any("ChainableUndefined" in p.text and "When called" in p.text for p in found)


def test_release_note_entries_are_marked_and_a_guides_instructions_are_not() -> None:
    notes = source(
        "S1", "Release Notes", "## 0.6.0\n\nAdd `starlette.concurrency.run_in_threadpool`."
    )
    assert [p.is_changelog for p in passages(notes)] == [True]  # (a dotted name's dots)
    guide = source("S2", "Tutorial", "Use `session.notify` to queue up another session.")
    assert [p.is_changelog for p in passages(guide)] == [False]
    # an entry naming its pull request is one wherever it sits
    linked = source("S3", "Middleware", "Use `ParamSpec` for `run_in_threadpool` #2375.")
    assert [p.is_changelog for p in passages(linked)] == [True]


def test_a_file_named_news_is_release_notes_whatever_its_title() -> None:
    # dateutil's NEWS, stored titled by its first heading, the latest release
    entry = "Fixed issue where passing whole number floats to the months argument failed."
    news = source("S1", "Version 4.0.0 (2026-11-01)", f"Version 2.7.0\n\n- {entry}")
    assert [p.is_changelog for p in passages(news)] == [False]
    news.path = "/tmp/python_dateutil-4.0.0/NEWS"
    assert [p.is_changelog for p in passages(news)] == [True]


def test_a_release_notes_entry_naming_its_pull_request_is_one_whatever_its_verb() -> None:
    entry = "Schedule `BackgroundTasks` from within `BaseHTTPMiddleware` [#2688](https://github.com/encode/starlette/pull/2688)."
    notes = source("S1", "Release Notes", f"## 0.38.3\n\n{entry}")
    assert [p.is_changelog for p in passages(notes)] == [True]
    assert [p.is_changelog for p in passages(source("S2", "Middleware", entry))] == [False]


def test_a_list_in_another_section_is_not_the_list_a_paragraph_points_at() -> None:
    # The text joins retrieved chunks without their headings: the page's opening line and the
    # Logging section's options sit side by side in it.
    doc = sectioned(
        "S1",
        "Settings",
        [
            (
                "Settings",
                "Use the following options to configure Uvicorn, when running from the "
                "command line.",
            ),
            (
                "Logging",
                "* `--log-config <path>` - Logging configuration file.\n"
                "* `--log-level <str>` - Set the log level. **Default:** *'info'*.\n",
            ),
        ],
    )
    found = passages(doc)
    assert not any(p.is_list and "Use the following options" in p.quote for p in found)
    assert any(p.quote.startswith("`--log-level <str>`") for p in found)


# stamina's tutorial: the goal stands alone as a paragraph; the means follow in the next one.
PART_OF_A_FUNCTION = """Sometimes you only want to retry a part of a function.

Since iterators can't catch exceptions and context managers can't execute the same block \
multiple times, we need to combine them to achieve that.
*stamina* gives you the `stamina.retry_context()` iterator which yields the necessary context \
managers:

```python
for attempt in stamina.retry_context(on=httpx.HTTPError):
    with attempt:
        resp = httpx.get(f"https://httpbin.org/status/404")
```
"""

# Jinja's "Switching from Mako": the paragraph before the lead-in says something else.
MAKO = """Jinja does not support embedded Python code, so you would have to move that out of \
the template. You could either process the data with the same code before rendering.

The syntax for defs is different too. The following Mako template:

```
<%def name="title()">Page Title</%def>
```
"""


def test_code_is_read_with_the_one_sentence_paragraph_that_says_what_it_is_for() -> None:
    code = [p for p in passages(source("S1", "Tutorial", PART_OF_A_FUNCTION)) if p.is_code]
    assert any(p.sentences[0].startswith("Sometimes you only want") for p in code)
    assert all(p.quote in PART_OF_A_FUNCTION for p in code)
    other = [p for p in passages(source("S2", "Switching", MAKO)) if p.is_code]
    assert other and not any(p.sentences[0].startswith(("Jinja", "You could")) for p in other)


def test_a_long_release_notes_entry_opening_with_its_change_is_one() -> None:
    entry = (
        "Fixed processes spawned by `anyio.to_process()` being lost as unusable to the process "
        "pool when processes that have idled over 5 minutes are pruned, leading to increased "
        "memory consumption (PR by Anael Gorfinkel)"
    )
    assert [p.is_changelog for p in passages(source("S1", "Version history", entry))] == [True]
    tagged = "BACKWARDS INCOMPATIBLE Removed the `Event.clear()` method from every event class."
    assert [p.is_changelog for p in passages(source("S1", "Version history", tagged))] == [True]
    # in a guide, a long sentence opening with "Use" is an instruction
    guide = source("S2", "Subprocesses", entry.replace("Fixed", "Use"))
    assert [p.is_changelog for p in passages(guide)] == [False]
    # and a capitalised opening word is no tag
    notes = source("S3", "Version history", "You can use `to_process.run_sync` for this.")
    assert [p.is_changelog for p in passages(notes)] == [False]


def test_a_four_line_example_is_shown_whole() -> None:
    # Werkzeug's debugger docs: the middleware line and the trusted hosts line both matter.
    text = (
        "To change this further, use the debug middleware directly rather than through "
        "`use_debugger=True`.\n\n```python\n"
        'if os.environ.get("USE_DEBUGGER") in {"1", "true"}:\n'
        "    app = DebuggedApplication(app, evalex=True)\n"
        "    app.trusted_hosts = [...]\n\n"
        'run_simple("localhost", 8080, app)\n```\n'
    )
    coded = next(p for p in passages(source("S1", "Debugging Applications", text)) if p.is_code)
    shown = shown_for(coded, ["debugger", "accept", "host", "name"]).block
    assert "    app = DebuggedApplication(app, evalex=True)" in shown.splitlines()
    assert "trusted_hosts" in shown and "run_simple" in shown and "…" not in shown


def test_a_passage_under_a_command_line_options_entry_is_shown_with_its_flags() -> None:
    timeout = "Set a default command execution timeout of INT seconds."
    pyc = "By default, Invoke disables bytecode caching. The `--write-pyc` flag turns it on."
    doc = sectioned(
        "S1",
        "Command-line",
        [("`-T INT, --command-timeout=INT`", timeout), ("`--write-pyc`", pyc), ("Flags", timeout)],
    )
    by_section = {(p.section, p.quote): p for p in passages(doc)}
    assert named_by_heading(by_section["`-T INT, --command-timeout=INT`", timeout]) == (
        "-T INT, --command-timeout=INT"
    )
    # the passage names its flag already; a plain heading names none
    wrote = next(p for (s, q), p in by_section.items() if s == "`--write-pyc`" and "flag" in q)
    assert named_by_heading(wrote) == ""
    assert named_by_heading(by_section["Flags", timeout]) == ""


def test_a_settings_own_entry_is_known_by_the_setting_it_describes() -> None:
    body = "Maximum number of bytes in request body (integer). Default: `1073741824` (1GB)"
    prose = "Waitress serves WSGI applications over HTTP."
    doc = sectioned("S1", "Arguments", [("`max_request_body_size`", body), ("Overview", prose)])
    by_text = {p.quote: p for p in passages(doc)}
    assert setting_entry(by_text[body]) == "max_request_body_size"
    assert setting_entry(by_text[prose]) == ""  # a plain heading is no setting
    # an entry that opens with the setting's name, in backticks or not, or its flag
    for opening, name in (
        ("`max_body_size` (default 100MB) is the largest response body accepted.", "max_body_size"),
        (
            "max_request_body_size: Maximum number of bytes in request body.",
            "max_request_body_size",
        ),
        ("`--unix-socket-perms=PERMS`: Octal permissions for the socket.", "--unix-socket-perms"),
    ):
        assert setting_entry(passages(source("S2", "Reference", opening))[0]) == name
    # a sentence that only starts with code, or with a plain word and a colon, is no entry
    for sentence in (
        "`serve()` then calls the application for each request it reads.",
        "Note: the socket is created before the workers start.",
    ):
        assert setting_entry(passages(source("S3", "Guide", sentence))[0]) == ""


def test_a_bare_condition_is_no_statement_without_its_list_or_its_code() -> None:
    text = (
        "Starlette uses a thread pool in several scenarios to avoid blocking the event loop:\n\n"
        "- When you create a synchronous endpoint using `def` instead of `async def`\n"
        "- When serving files with `FileResponse`\n\n"
        "If you need more threads, raise the limiter's total tokens to a higher number.\n\n"
        "When nginx handles SSL and forwards to Gunicorn:\n\n"
        "```nginx\nserver {\n    listen 443 ssl;\n}\n```\n\n"
        "If set to `None` then the cookie will last as long as the browser session.\n"
    )
    found = passages(source("S1", "Threads", text))
    alone = [p.text for p in found if len(p.sentences) == 1 and not p.is_code]
    assert not any(t.startswith(("When you create", "When nginx")) for t in alone), alone
    assert any(p.is_list and "When you create a synchronous endpoint" in p.text for p in found)
    coded = next(p for p in found if p.is_code)
    assert coded.lead == "When nginx handles SSL and forwards to Gunicorn:"
    # a condition with what follows from it is a statement
    assert any(t.startswith("If set to `None` then the cookie") for t in alone)
    assert any(t.startswith("If you need more threads, raise") for t in alone)
    assert clause_only("When serving files with `FileResponse`")
    # (a long one likely says what follows: no comma needed)
    assert not clause_only(
        "If an incorrect PIN is entered too many times the server needs to be restarted."
    )


def test_a_bare_noun_phrase_item_is_no_statement_without_its_list() -> None:
    text = (
        "With `load_dotenv(override=True)` or `dotenv_values()`, the value of a variable is "
        "the first of the values defined in the following list:\n\n"
        "- Value of that variable in the `.env` file.\n"
        "- Value of that variable in the environment.\n"
        "- Default value, if provided.\n\n"
        "The username is derived from the following sources, in order of precedence:\n\n"
        "- The `--user` / `-u` cli option.\n"
        "- The `HATCH_INDEX_USER` environment variable.\n"
        "- Use `__token__` when nothing else is set.\n"
        "- It's not possible to pickle the request object.\n"
        "- Maximum 100 items per response\n"
        "- `max_age` - Session expiry time in seconds.\n"
        "- Decline: User explicitly declined the request\n"
    )
    found = passages(source("S1", "Config", text))
    alone = [p.text for p in found if len(p.sentences) == 1 and not p.is_code]
    for phrase in ("Value of that variable", "Default value", "The `HATCH_INDEX_USER`"):
        assert not any(t.startswith(phrase) for t in alone), (phrase, alone)
    # ... the list with its lead-in says it
    listed = [p.quote for p in found if p.is_list]
    assert any("- Value of that variable in the `.env` file." in q for q in listed)
    assert any("- The `HATCH_INDEX_USER`" in q for q in listed)
    # an instruction, a clause, a value and a defined term stand alone
    standing = ("Use `__token__`", "It's not possible", "Maximum 100", "`max_age` -", "Decline:")
    for statement in standing:
        assert any(t.startswith(statement) for t in alone), (statement, alone)


def test_a_blank_line_between_two_lines_shown_stays() -> None:
    text = (
        "If you want to retry just one call, wrap it in a caller like this:\n\n```python\n"
        "def fetch(url):\n    return httpx.get(url)\n\n"
        "# five attempts\n"
        "rc = stamina.RetryingCaller(attempts=5)\n"
        "rc(httpx.HTTPError, fetch, url)\n"
        "```\n"
    )
    coded = next(p for p in passages(source("S1", "Retries", text)) if p.is_code)
    lines = shown_for(coded, []).block.splitlines()
    # (a short example is shown as written: the comment after the blank line too)
    assert lines == [
        "```",
        "def fetch(url):",
        "    return httpx.get(url)",
        "",
        "# five attempts",
        "rc = stamina.RetryingCaller(attempts=5)",
        "rc(httpx.HTTPError, fetch, url)",
        "```",
    ]


def test_a_question_the_documents_ask_is_no_answer() -> None:
    asked = "How will the `image_id` field, matched from a string path segment, become a `UUID`?"
    assert not answerable(asked)
    assert answerable(asked.replace("How will", "This is how").rstrip("?") + ".")
    doc = source("S1", "Tutorial", f"{asked} Falcon's default router converts the field for you.")
    assert all(not p.quote.startswith("How will") for p in passages(doc))


CONVERTERS = (
    "- `int`: Class: `IntConverter`; Example: `/teams/{tid:int(8)}`\n"
    "- `uuid`: Class: `UUIDConverter`; Example: `/diff/{left:uuid}`\n"
    "- `float`: Class: `FloatConverter`; Example: `/versions/{version:float}`\n"
)


def test_a_list_that_opens_its_section_is_read_with_the_heading_as_its_lead_in() -> None:
    intro = "Converters transform a URI template field value before it reaches the responder."
    doc = sectioned(
        "S1", "Routing", [("Field Converters", intro), ("Built-in Converters", CONVERTERS)]
    )
    listed = [p for p in passages(doc) if p.is_list]
    assert len(listed) == 1
    assert listed[0].text.startswith("Built-in Converters: `int`: Class:")
    assert "`float`" in listed[0].text and listed[0].quote in doc.text
    # items that are not entries named in code (a page's links, a release's changes) are not
    links = CONVERTERS.replace("`int`", "int").replace("`uuid`", "uuid")
    doc = sectioned("S2", "Routing", [("Field Converters", intro), ("Built-in Converters", links)])
    assert not [p for p in passages(doc) if p.is_list]
    # a list after a lead-in line of its own is read with that line
    led = f"These converters ship with Falcon:\n\n{CONVERTERS}"
    doc = sectioned("S3", "Routing", [("Built-in Converters", led)])
    assert [p.text.split(":")[0] for p in passages(doc) if p.is_list] == [
        "These converters ship with Falcon"
    ]


ROTATION = """Key rotation works with a list of keys:

```python
from itsdangerous import URLSafeSerializer

SECRET_KEYS = ["2b9cd98e", "169d7886"]

# sign some data with the latest key
s = URLSafeSerializer(
    SECRET_KEYS
)
```
"""


def test_a_short_example_is_shown_as_written_with_its_comments_and_closing_lines() -> None:
    (code,) = [p for p in passages(source("S1", "Serializer", ROTATION)) if p.is_code]
    shown = shown_for(code, ["keys"])
    body = shown.block.splitlines()[1:-1]
    assert body == [
        "from itsdangerous import URLSafeSerializer",
        "",
        'SECRET_KEYS = ["2b9cd98e", "169d7886"]',
        "",
        "# sign some data with the latest key",
        "s = URLSafeSerializer(",
        "    SECRET_KEYS",
        ")",
    ]
    # what the passage is read by leaves the import, the comment and the bare ")" out
    assert ")" not in code.code and not any(ln.startswith("#") for ln in code.code)


def test_code_blocks_one_after_another_are_one_example() -> None:
    text = (
        "On unsigning you can validate that the timestamp is not older than a given age.\n\n"
        "```python\ns = TimestampSigner('secret-key')\nstring = s.sign('foo')\n```\n\n"
        "```python\ns.unsign(string, max_age=5)\nTraceback (most recent call last):\n  ...\n"
        "itsdangerous.exc.SignatureExpired: Signature age 15 > 5 seconds\n```\n\n"
        "Something else is said here.\n\n```python\nunrelated()\n```\n"
    )
    (code,) = [p for p in passages(source("S1", "Timestamps", text)) if p.is_code][:1]
    assert code.code[-1].startswith("itsdangerous.exc.SignatureExpired")
    assert "unrelated()" not in code.code and code.quote in text
    assert shown_for(code, []).block.splitlines()[3] == ""  # the blank between the two blocks


def test_a_code_block_under_a_longer_fence_ends_at_that_fence() -> None:
    # "```` md-render" holds a whole fenced example; the prose after it is a statement
    text = (
        "So long as the language is the only option specified, the dot may be excluded:\n\n"
        "```` md-render\n``` html\n<p>HTML Document</p>\n```\n````\n\n"
        "While `language` is the default prefix, the prefix may be overridden using the "
        "`lang_prefix` configuration option."
    )
    found = passages(source("S1", "Fenced Code Blocks", text))
    [code] = [p for p in found if p.is_code]
    assert "<p>HTML Document</p>" in code.code and "While" not in " ".join(code.code)
    assert any(
        not p.is_code and p.text.startswith("While `language` is the default prefix") for p in found
    )


def test_a_note_that_only_names_the_same_thing_elsewhere_states_nothing() -> None:
    assert not answerable("Note: In the CLI: sqlite-utils create-index and sqlite-utils drop-index")
    assert not answerable("In Python: table.upsert() CLI reference: sqlite-utils upsert")
    assert answerable("In Python, the upsert method updates the rows that already exist.")


ORDERED = """## Call receivers in order of registration

It can be advantageous to call a signal's receivers in the order they
were registered. To achieve this the storage class for receivers should
be changed from an (unordered) set to an ordered set,

```python
Signal.set_class = OrderedSet
```

Please note that the package is not installed with the library itself.
"""


def test_a_paragraph_ending_in_a_comma_before_code_leads_into_it_and_reads_as_a_statement() -> None:
    # (blinker 1.9's docs end the paragraph before its code block with a comma)
    found = passages(source("S1", "Blinker", ORDERED))
    assert not any(p.text.rstrip().endswith(",") for p in found)
    lead = [p for p in found if p.before_code]
    assert lead and lead[0].text.endswith("to an ordered set.")
    assert any(p.is_code and "Signal.set_class = OrderedSet" in p.text for p in found)
    # a comma at the end of a paragraph with no code after it is no lead-in
    no_code = ORDERED.replace("```python", "Text").replace("```", "")
    plain_end = passages(source("S1", "Blinker", no_code))
    assert not any(p.before_code for p in plain_end)


UNFINISHED = """## Running tests

The packaging unit tests are found in the `tests/` directory and are designed to be run
using pytest. Pytest will discover the tests automatically, so all you have to do is:

```console
$ python -m pytest
```

## Schema

The native format is described by a published JSON Schema (Draft 2020-12) and identified by:

```text
https://example.org/statechart.schema.json
```
"""


def test_a_lead_in_that_says_nothing_without_its_code_is_shown_with_it() -> None:
    # ("… so all you have to do is." read as a statement says nothing; packaging 26.4's docs)
    found = passages(source("S1", "Getting started", UNFINISHED))
    prose = [p for p in found if not p.is_code and "all you have to do is" in p.quote]
    assert any(p.before_code for p in prose) and any(not p.before_code for p in prose)
    assert all(p.code == ("$ python -m pytest",) for p in prose)
    assert all(p.text.endswith("all you have to do is:") for p in prose)
    assert all(shown_for(p, []).block.count("$ python -m pytest") == 1 for p in prose)
    [alone] = [p for p in found if not p.is_code and "identified by" in p.quote]
    assert alone.text.endswith("identified by:") and "statechart.schema.json" in alone.code[0]
    # a lead-in that says something itself is still a statement, without the code
    stated = UNFINISHED.replace("so all you have to do is:", "so running it needs no setup:")
    found = passages(source("S1", "Getting started", stated))
    prose = [p for p in found if not p.is_code and "needs no setup" in p.quote]
    assert any(p.before_code for p in prose)
    assert all(not p.code and p.text.endswith("needs no setup.") for p in prose)


def test_a_lead_in_that_says_nothing_without_its_one_item_is_read_with_it() -> None:
    # (cattrs 26.2's "… can handle the following type:" and its one item; a list of one
    # after a lead-in that says something itself is not read as its list)
    text = (
        "## Union passthrough\n\nSo, cattrs preconfigured JSON converters can handle the "
        "following type:\n\n- `bool | int | float | str | None`\n\nContinuing the JSON example, "
        "this strategy also enables structuring subsets of unions of these values.\n"
    )
    found = passages(source("S1", "Strategies", text))
    [listed] = [p for p in found if p.is_list]
    assert "`bool | int | float | str | None`" in listed.text
    assert not any(p.text.endswith("the following type.") for p in found)
    said = text.replace("can handle the following type:", "can handle one union out of the box:")
    assert not any(p.is_list for p in passages(source("S1", "Strategies", said)))


TOX_FILES = (
    "- -r, --recreate: recreate the tox environments\n\n"
    "- tox.toml: Primary configuration file in TOML format (recommended).\n"
    "- tox.ini: Configuration file in INI format (deprecated).\n"
    "- pyproject.toml: Alternative configuration location under the `[tool.tox]` section.\n"
    "- setup.cfg: Legacy configuration location (deprecated).\n\n"
    "The configuration files are searched in the order listed above. The first file found is "
    "used."
)


def test_a_sentence_about_the_list_above_it_is_read_with_that_list() -> None:
    """tox's FILES: "The configuration files are searched in the order listed above." says
    nothing alone; read after the items (not the options' list before them) it answers."""
    pointed = [p for p in passages(source("S1", "tox", TOX_FILES)) if "listed above" in p.text]
    listed = [p for p in pointed if p.is_list]
    assert len(listed) == 1
    assert listed[0].text.startswith("tox.toml: Primary configuration file")
    assert "setup.cfg: Legacy configuration location (deprecated). The configuration" in (
        listed[0].text
    )
    assert listed[0].text.endswith("The first file found is used.")
    assert "--recreate" not in listed[0].text
    assert listed[0].quote in TOX_FILES
    # (a sentence after the list saying nothing of it is no such passage)
    plain_after = TOX_FILES.replace("in the order listed above", "in a fixed order")
    assert not [p for p in passages(source("S1", "tox", plain_after)) if p.is_list]
