"""Sentence splitting, key terms and entity candidates."""

from __future__ import annotations

from backend.reasoning.offline.text import (
    capitalised_spans,
    entity_candidates,
    key_terms,
    mentions,
    split_sentences,
)


def test_a_code_name_is_mentioned_only_as_written() -> None:
    text = "The include_schemas flag filters objects both from the MetaData and the database."
    assert not mentions(text, "include_object")
    assert mentions("Use the `include_object` hook.", "include_object")
    assert mentions("The Include Object hook", "include object")  # plain words: most of them
    # a dotted path is named on the page by its last part (Sphinx's ``~``), when that is a
    # code name, not a plain word
    assert mentions(
        "defines two classes; `SimpleQueue`, and `SimpleBuffer`.", "kombu.simple.SimpleQueue"
    )
    assert not mentions("Join the two paths.", "os.path.join")
    assert not mentions("Each simple queue is a SimpleQueueFactory.", "kombu.simple.SimpleQueue")


def test_a_sentence_ends_at_etc_when_a_pronoun_pointing_back_opens_the_next() -> None:
    text = (
        "It may run twice or miss jobs, etc. This is because it has no lock. Use A, B etc. Python."
    )
    assert split_sentences(text) == [
        "It may run twice or miss jobs, etc.",
        "This is because it has no lock.",
        "Use A, B etc. Python.",
    ]


def test_sentences_do_not_split_after_abbreviations_initials_or_decimals() -> None:
    text = (
        "Dr. Smith moved to the U.S. in 1990, e.g. for work. J. R. R. Tolkien earned 3.5 "
        "million pounds. Did it sell well? It did!"
    )
    assert split_sentences(text) == [
        "Dr. Smith moved to the U.S. in 1990, e.g. for work.",
        "J. R. R. Tolkien earned 3.5 million pounds.",
        "Did it sell well?",
        "It did!",
    ]


def test_sentences_are_exact_slices_of_the_text() -> None:
    text = 'He said "It works." Then he left.\n\n- A list item\n- Another item with T.S. Eliot'
    for sentence in split_sentences(text):
        assert sentence in text


def test_key_terms_drop_question_and_comparison_words() -> None:
    terms = key_terms("Which magazine was started first, Arthur's Magazine or First for Women?")
    assert terms == ["magazine", "started", "arthur", "women"]


def test_capitalised_spans_join_connectors_and_leading_numbers() -> None:
    spans = capitalised_spans("Are Random House Tower and 888 7th Avenue both in New York City?")
    assert spans == ["Random House Tower", "888 7th Avenue", "New York City"]


def test_a_comma_ends_a_name() -> None:
    spans = capitalised_spans("He was born in Westminster, London, and studied at Oxford.")
    assert spans == ["Westminster", "London", "Oxford"]


def test_entity_candidates_include_quoted_titles_and_years() -> None:
    found = entity_candidates('Who directed "Big Stone Gap", released in 2014 by Picturehouse?')
    assert found == ["Big Stone Gap", "Picturehouse", "2014"]


def test_list_items_are_sentences_without_their_bullets() -> None:
    text = "Scores come from three parts:\n- domain authority\n- recency of the page\n1. depth"
    assert split_sentences(text) == [
        "Scores come from three parts:",
        "domain authority",
        "recency of the page",
        "depth",
    ]


def test_each_long_table_cell_is_read_on_its_own_and_code_fences_are_skipped() -> None:
    text = (
        "Intro here. Then more.\n| module | what it holds |\n| --- | --- |\n"
        "| `citations.py` | the citation check of the report. Failures are always removed. |\n"
        "```\nrun this. And this.\n```\nAfter the code."
    )
    sentences = split_sentences(text)
    assert sentences == [
        "Intro here.",
        "Then more.",
        "the citation check of the report.",
        "Failures are always removed.",
        "After the code.",
    ]
    assert all(s in text for s in sentences)


def test_a_case_name_with_v_is_one_sentence() -> None:
    question = "Which case came first, Craig v. Boren or United States v. Paramount Pictures?"
    assert split_sentences(question) == [question]


def test_a_name_wrapped_over_two_lines_is_one_name_on_one_line() -> None:
    assert "GitHub Pages" in capitalised_spans("You deploy it to GitHub\nPages with one command.")


def test_a_closing_aside_in_brackets_stays_with_its_sentence() -> None:
    # Jinja's loop variables: "(0 indexed)" is what tells `loop.index0` from `loop.index`.
    items = (
        "- `loop.index`: The current iteration of the loop. (1 indexed)\n"
        "- `loop.index0`: The current iteration of the loop. (0 indexed)\n"
    )
    assert split_sentences(items) == [
        "`loop.index`: The current iteration of the loop. (1 indexed)",
        "`loop.index0`: The current iteration of the loop. (0 indexed)",
    ]
    # an aside with more after it is a sentence of its own
    assert split_sentences("It is fast. (See the benchmarks.) It is small.") == [
        "It is fast.",
        "(See the benchmarks.)",
        "It is small.",
    ]


def test_a_full_stop_inside_inline_code_ends_no_sentence() -> None:
    # decorator's docs: the message quoted as code runs over a line and holds a full stop
    text = (
        "The usual ``??`` trick gives the message ``Dynamically generated\n"
        "function. No source code available``.\nHowever, there is a workaround."
    )
    assert split_sentences(text) == [
        "The usual ``??`` trick gives the message ``Dynamically generated\n"
        "function. No source code available``.",
        "However, there is a workaround.",
    ]
    assert split_sentences("Call `f`. Then `g.h`. Done.") == ["Call `f`.", "Then `g.h`.", "Done."]
    # (a long span is one span: its closing mark opens no span with the next one's opening)
    signature = "`Consumer(" + ", ".join(f"option_{i}={i}" for i in range(30)) + ")`"
    text = f"{signature}: Runs the workers. This is what the `huey_consumer` tool runs."
    assert split_sentences(text) == [
        f"{signature}: Runs the workers.",
        "This is what the `huey_consumer` tool runs.",
    ]
