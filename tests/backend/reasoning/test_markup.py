"""What a reader sees has Markdown, MDX and HTML markup removed."""

from __future__ import annotations

import pytest

from backend.reasoning.offline.markup import plain


@pytest.mark.parametrize(
    ("marked", "shown"),
    [
        ("**Author(s)**: Jane Doe", "Author(s): Jane Doe"),
        ("See [the guide](https://x.org/guide) first.", "See the guide first."),
        ("<Note>Keep the key secret.</Note>", "Keep the key secret."),
        ("{/* hidden */}Visible text.", "Visible text."),
        (
            "HTTPX does **not follow redirects by default**.",
            "HTTPX does not follow redirects by default.",
        ),
        ("- `max_connections`, maximum\n(Default 100)", "`max_connections`, maximum (Default 100)"),
        ("A snake_case name and _emphasis_ here.", "A snake_case name and emphasis here."),
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ("## A heading", "A heading"),
        # attribute lists (attr_list, kramdown); braces of code or of a format are kept
        ("* **`lang_prefix`**{#lang_prefix}: The prefix.", "`lang_prefix`: The prefix."),
        ("## Install { #install .wide }", "Install"),
        ("A {: data-toc-label='Short' } label", "A label"),
        ("Use {name} in `{lang_prefix}{lang}`", "Use {name} in `{lang_prefix}{lang}`"),
    ],
)
def test_markup_is_removed_and_code_spans_kept(marked: str, shown: str) -> None:
    assert plain(marked) == shown


def test_a_backslash_escape_shows_the_character_and_code_keeps_its_backslashes() -> None:
    assert plain(r"\# of files, \*args and a\_b") == "# of files, *args and a_b"
    assert plain(r"Use `C:\path\*` as is.") == r"Use `C:\path\*` as is."


def test_a_word_opening_with_punctuation_keeps_the_space_before_it() -> None:
    assert plain("lines that say see :param: and :return: here .") == (
        "lines that say see :param: and :return: here."
    )
    assert plain("Create it in the .venv folder , then") == "Create it in the .venv folder, then"


def test_code_keeps_its_own_spacing_and_the_space_before_punctuation_after_it_goes() -> None:
    # pyparsing's docs: the space inside the code is part of the code
    shown = "``expr[1, ...]`` is equivalent to ``OneOrMore(expr)``"
    assert plain(shown) == shown
    assert plain("`expr * ...` are equivalent") == "`expr * ...` are equivalent"
    assert plain("see `x` , and `y` .") == "see `x`, and `y`."
    assert plain("run `a   b`\nnow") == "run `a b` now"


def test_an_empty_link_shows_what_it_points_at() -> None:
    assert (
        plain("see [](unions.md#default-union-strategy) for details, or [](preconf.md).")
        == "see default union strategy for details, or preconf."
    )


def test_a_bold_label_on_its_own_line_reads_as_a_label_before_its_text() -> None:
    # decorator's "What's new": "- **Python 3.5 coroutines**" / "From version 4.1 …"
    item = "- **Python 3.5 coroutines**\n  From version 4.1 it is possible to decorate them."
    assert plain(item) == "Python 3.5 coroutines: From version 4.1 it is possible to decorate them."
    # a label with its own stop, or bold inside a line, is left as it is
    assert plain("**Note:**\nIt is slow.") == "Note: It is slow."
    assert plain("It is **not** slow.\nIt is fast.") == "It is not slow. It is fast."
