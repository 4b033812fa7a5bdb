"""The report: answer first, cited sentences, exact quotes, contested claims, sources."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from backend.reasoning.models import Plan, Report, Source
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline.report import ONE_SOURCE_NOTE, _complete
from backend.reasoning.offline.text import split_sentences
from tests.backend.reasoning.corpus import RAG_QUESTION, magazines, rag, sectioned, source

MAGAZINES = "Which magazine was started first, Arthur's Magazine or First for Women?"


async def _run(engine: OfflineEngine, question: str, sources: list[Source]) -> tuple[Plan, Report]:
    plan = await engine.plan(question, ["docs", "web"])
    claims = await engine.extract_claims(plan, sources)
    verdicts = await engine.verify(claims, sources)
    return plan, await engine.write_report(plan, claims, verdicts, sources)


def _body(markdown: str) -> list[str]:
    """The lines between the answer heading and the sources list, headings and the report's
    own note on single-source findings excluded."""
    body = markdown.split("## Sources")[0]
    return [
        ln
        for ln in body.splitlines()
        if ln.strip() and not ln.startswith("#") and ln != ONE_SOURCE_NOTE
    ]


def _sentences(line: str) -> list[str]:
    """Sentences of a report line; a citation marker followed by a capital ends one."""
    pieces = re.split(r"(?<=\])\s+(?=[A-Z“\"])", line)
    return [s for piece in pieces for s in split_sentences(piece)]


async def test_the_report_opens_with_the_direct_answer(engine: OfflineEngine) -> None:
    _, report = await _run(engine, MAGAZINES, magazines())
    lines = report.markdown.splitlines()
    assert lines[0] == "## Answer"
    assert lines[2] == report.answer


async def test_which_first_names_the_entity_with_the_earlier_year(engine: OfflineEngine) -> None:
    _, report = await _run(engine, MAGAZINES, magazines())
    assert report.answer.startswith(
        "Arthur's Magazine was started first (1844, versus 1989 for First for Women) ["
    )


def _eiffel() -> list[Source]:
    return [
        source("S1", "Tower facts", "The Eiffel Tower was completed in 1889 in Paris.", score=0.8),
        source("S2", "Tower trivia", "The Eiffel Tower was completed in 1887 in Paris.", score=0.5),
    ]


CASES = [
    (MAGAZINES, magazines),
    (RAG_QUESTION, rag),
    ("When was the Eiffel Tower completed?", _eiffel),
]


@pytest.mark.parametrize(("question", "corpus"), CASES)
async def test_every_body_sentence_carries_a_citation(
    engine: OfflineEngine, question: str, corpus: Callable[[], list[Source]]
) -> None:
    _, report = await _run(engine, question, corpus())
    for line in _body(report.markdown):
        for sentence in _sentences(line):
            assert re.search(r"\[\d+\]", sentence), sentence


@pytest.mark.parametrize(("question", "corpus"), CASES)
async def test_every_citation_quote_is_found_in_its_source(
    engine: OfflineEngine, question: str, corpus: Callable[[], list[Source]]
) -> None:
    sources = corpus()
    _, report = await _run(engine, question, sources)
    by_id = {s.id: s for s in sources}
    assert report.citations
    for citation in report.citations:
        assert citation.quote in by_id[citation.source_id].text


async def test_citation_numbers_follow_first_use_and_match_the_sources_list(
    engine: OfflineEngine,
) -> None:
    _, report = await _run(engine, MAGAZINES, magazines())
    used = list(dict.fromkeys(int(n) for n in re.findall(r"\[(\d+)\]", report.markdown)))
    assert used == list(range(1, len(used) + 1))
    listed = re.findall(r"^(\d+)\. ", report.markdown.split("## Sources")[1], flags=re.M)
    assert [int(n) for n in listed] == used
    numbers = {c.source_id: c.n for c in report.citations}
    assert len(set(numbers.values())) == len(numbers)


async def test_the_sources_list_shows_quality_and_its_parts(engine: OfflineEngine) -> None:
    _, report = await _run(engine, MAGAZINES, magazines())
    sources_part = report.markdown.split("## Sources")[1]
    assert (
        "Arthur's Magazine — https://en.wikipedia.org/wiki/Arthur%27s_Magazine — quality 0.62 "
        "(domain 0.65, recency 0.60, depth 0.40)" in sources_part
    )


async def test_a_contradicted_claim_is_flagged_and_cites_the_contradicting_source(
    engine: OfflineEngine,
) -> None:
    sources = _eiffel()
    _, report = await _run(engine, "When was the Eiffel Tower completed?", sources)
    contested = [ln for ln in report.markdown.splitlines() if "**Contested:**" in ln]
    assert contested
    assert all("Contradicted by:" in ln for ln in contested)
    quoted = {c.quote for c in report.citations}
    assert {s.text for s in sources} <= quoted


async def test_a_claim_nobody_else_confirms_is_marked(engine: OfflineEngine) -> None:
    sources = [
        source(
            "S1",
            "Canberra",
            "Canberra is the capital city of Australia. It was founded in 1913.",
        )
    ]
    _, report = await _run(engine, "What is the capital of Australia?", sources)
    # (the report rests on that one source: one line under the answer says so, no mark)
    assert report.answer == "Canberra is the capital city of Australia. [1]"
    lines = report.markdown.splitlines()
    assert lines[2:5] == [report.answer, "", ONE_SOURCE_NOTE]


async def test_the_one_statement_a_second_source_does_not_confirm_is_marked(
    engine: OfflineEngine,
) -> None:
    """Where most statements are confirmed by a second source, the one that is not carries
    the mark, and there is no one-source note."""
    sources = [
        source(
            "S1",
            "Tower facts",
            "The Eiffel Tower was completed in 1889 in Paris. The Eiffel Tower is 330 metres "
            "tall. The Eiffel Tower was designed by the company of Gustave Eiffel.",
        ),
        source(
            "S2",
            "Tower guide",
            # (in its own words: the same sentence word for word would be a copy, no witness)
            "In Paris, the Eiffel Tower was completed in the year 1889. The Eiffel Tower is 330 "
            "metres tall, antennas included. The Eiffel Tower has a restaurant called Le Jules "
            "Verne on its second floor.",
        ),
    ]
    _, report = await _run(engine, "When was the Eiffel Tower completed?", sources)
    assert ONE_SOURCE_NOTE not in report.markdown
    marked = [ln for ln in _body(report.markdown) if "(not independently confirmed)" in ln]
    assert marked
    assert all("Le Jules Verne" in ln or "Gustave Eiffel" in ln for ln in marked), marked


async def test_findings_resting_on_one_source_get_one_note_not_a_mark_each(
    engine: OfflineEngine,
) -> None:
    text = (
        "Canberra is the capital city of Australia. Canberra was founded in 1913 as a planned "
        "city. Canberra hosts the Parliament of Australia and the High Court. Canberra lies "
        "between Sydney and Melbourne in the Australian Capital Territory. Canberra has about "
        "450,000 residents according to the census."
    )
    _, report = await _run(engine, "What is the capital of Australia?", [source("S1", "C", text)])
    findings = report.markdown.split("## Key findings")[1].split("## Sources")[0]
    items = [ln for ln in findings.splitlines() if ln.startswith("- ")]
    assert len(items) >= 3
    assert "(not independently confirmed)" not in report.markdown
    # (one line under the answer says it for the answer and the findings alike)
    lines = report.markdown.splitlines()
    assert lines[2:5] == [report.answer, "", ONE_SOURCE_NOTE]


async def test_a_yes_no_comparison_answers_yes_as_a_heuristic(engine: OfflineEngine) -> None:
    sources = [
        source(
            "S1",
            "Scott Derrickson",
            "Scott Derrickson (born July 16, 1966) is an American director, screenwriter and "
            "producer. He lives in Los Angeles, California.",
            sub_query_ids=["q2", "q1"],
        ),
        source(
            "S2",
            "Ed Wood",
            "Edward Davis Wood Jr. (October 10, 1924 – December 10, 1978) was an American "
            "filmmaker, actor, writer, producer, and director.",
            sub_query_ids=["q3", "q1"],
        ),
    ]
    _, report = await _run(
        engine, "Were Scott Derrickson and Ed Wood of the same nationality?", sources
    )
    assert report.answer.startswith("Yes (a heuristic reading of the checked claims")
    assert "American" in report.answer and "[1][2]" in report.answer


async def test_both_needs_the_whole_short_property_for_each(engine: OfflineEngine) -> None:
    sources = [
        source(
            "S1",
            "Ernst Messerschmid",
            "Ernst Messerschmid (born 21 May 1945) is a German physicist and former astronaut.",
            sub_query_ids=["q2", "q1"],
        ),
        source(
            "S2",
            "Reinhold Ewald",
            "Reinhold Ewald (born 18 December 1956) is a German physicist and ESA astronaut.",
            sub_query_ids=["q3", "q1"],
        ),
    ]
    _, report = await _run(
        engine, "Were both Ernst Messerschmid and Reinhold Ewald ESA astronauts?", sources
    )
    assert report.answer.startswith("No (a heuristic reading of the checked claims")
    assert "Ernst Messerschmid" in report.answer.split("[")[0]


async def test_is_there_any_difference_is_answered_by_how_they_differ(
    engine: OfflineEngine,
) -> None:
    sources = [
        source(
            "S1",
            "Variables",
            "You can use a dot to access attributes of a variable. For the sake of convenience, "
            "`foo.bar` checks for an attribute called bar on foo first, and then for an item. "
            "`foo['bar']` works mostly the same with a small difference in sequence: it checks "
            "for an item first, and then for an attribute.",
        ),
        source("S2", "Filters", "Filters modify variables. They are separated by a pipe symbol."),
    ]
    _, report = await _run(
        engine, "Is there any actual difference between writing foo.bar and foo['bar']?", sources
    )
    assert not report.answer.startswith(("Yes", "No"))  # not a verdict on the claims
    assert "small difference in sequence" in report.answer


async def test_a_report_without_claims_says_so_without_citing(engine: OfflineEngine) -> None:
    plan = await engine.plan("What is the capital of Australia?", ["web"])
    report = await engine.write_report(plan, [], [], [])
    assert report.citations == []
    assert "do not contain a statement" in report.answer


async def test_the_report_is_deterministic(engine: OfflineEngine) -> None:
    _, first = await _run(engine, MAGAZINES, magazines())
    _, second = await _run(OfflineEngine(), MAGAZINES, magazines())
    assert first == second


async def test_is_x_older_than_y_answers_no_when_y_came_first(engine: OfflineEngine) -> None:
    sources = [
        source(
            "S1",
            "Python (programming language)",
            "Python was first released in 1991 by Guido van Rossum. It emphasises readability.",
            sub_query_ids=["q2", "q1"],
        ),
        source(
            "S2",
            "Lisp (programming language)",
            "Lisp was specified in 1958 by John McCarthy at MIT. It is the second-oldest "
            "high-level language still in use.",
            sub_query_ids=["q3", "q1"],
        ),
    ]
    _, report = await _run(engine, "Is Python older than Lisp?", sources)
    assert report.answer.startswith("No: Lisp is older (1958, versus 1991 for Python) [")


async def test_a_multi_part_answer_answers_each_part_in_order(
    engine: OfflineEngine,
) -> None:
    plan, report = await _run(engine, RAG_QUESTION, rag())
    assert plan.kind == "multi_part"
    # The first part is answered by a definition of RAG (either source's), the second after it.
    assert re.match(r"Retrieval-augmented generation \(RAG\) is (?:a|the)\b", report.answer, re.I)
    assert "hallucinations" in report.answer.split("(RAG) is", 1)[1]
    sentences = _sentences(report.answer)
    assert len(sentences) >= 2
    for sentence in sentences:
        assert re.search(r"\[\d+\]", sentence), sentence


async def test_when_every_claim_is_contested_the_answer_says_the_sources_disagree(
    engine: OfflineEngine,
) -> None:
    _, report = await _run(engine, "When was the Eiffel Tower completed?", _eiffel())
    assert report.answer.startswith("The sources disagree: The Eiffel Tower was completed in")
    assert "Contradicted by:" in report.answer


def test_a_bare_comma_is_not_read_as_a_number_next_to_an_entity() -> None:
    from backend.reasoning.offline.answer import _value_near

    assert _value_near("Acme , founded with 1,200 staff", "Acme", [], use_years=False) == 1200.0


@pytest.mark.parametrize(
    "moon_score",
    [pytest.param(0.9, id="a better source"), pytest.param(0.0, id="an unscored source (0.5)")],
)
async def test_within_a_section_claims_from_better_sources_lead(
    engine: OfflineEngine, moon_score: float
) -> None:
    sources = [
        source("S0", "Guide", "Tides rise 2 times a day at the quay of the harbour.", score=0.9),
        source("S1", "Forum post", "Tides depend on the wind over the harbour.", score=0.45),
        source("S2", "Almanac", "Tides depend on the Moon and the Sun together.", score=moon_score),
    ]
    _, report = await _run(engine, "How many times a day do tides rise at the quay?", sources)
    body = [ln for ln in _body(report.markdown) if ln.startswith("- ")]
    order = [("Moon" in ln, "wind" in ln) for ln in body if "Moon" in ln or "wind" in ln]
    assert order == [(True, False), (False, True)], report.markdown


async def test_a_chain_question_gets_the_link_the_first_passage_leaves_out(
    engine: OfflineEngine,
) -> None:
    """The film's page names the actor; the actor's page holds the award and the play: the
    answer gives both links of the chain, each cited."""
    sources = [
        source(
            "S1",
            "The Quiet Harbour (2011 film)",
            "The Quiet Harbour is a 2011 British drama film directed by Ann Lowe and starring "
            "Maria Vance, Tom Ashby and Peter Cole. Ashby plays Freddie, a former pilot.",
        ),
        source(
            "S2",
            "Tom Ashby",
            "Thomas Ashby (born 1981) is an English actor. He won the Laurence Olivier Award "
            'for Best Newcomer in a Play for his role in "Cymbeline" in 2008.',
        ),
    ]
    question = (
        'The actor known for his role as "Freddie" in The Quiet Harbour won the Laurence '
        "Olivier Award for his role in which play?"
    )
    _, report = await _run(engine, question, sources)
    assert "Cymbeline" in report.answer
    assert "Ashby plays Freddie" in report.answer
    assert {"[1]", "[2]"} <= set(re.findall(r"\[\d\]", report.answer))
    for sentence in _sentences(report.answer):
        assert re.search(r"\[\d+\]", sentence), sentence


async def test_a_passage_that_holds_the_whole_question_gets_no_second_one(
    engine: OfflineEngine,
) -> None:
    sources = [
        source(
            "S1",
            "Timeouts",
            "The default timeout of the client is five seconds of network inactivity.",
        ),
        source("S2", "Pools", "The client keeps a pool of connections for five seconds."),
    ]
    _, report = await _run(engine, "What is the default timeout of the client?", sources)
    assert "five seconds of network inactivity" in report.answer
    assert "pool" not in report.answer


async def test_each_side_of_a_comparison_speaks_from_its_own_page(engine: OfflineEngine) -> None:
    """A page about a member of the genus names it too; the genus's own page answers."""
    sources = [
        source(
            "S1",
            "Dracula wallisii",
            'Dracula wallisii is a species of orchid belonging to the genus "Dracula".',
        ),
        source(
            "S2",
            "Dracula (plant)",
            "The orchid genus Dracula consists of 118 species native to Mexico, Central "
            "America and Peru.",
        ),
        source(
            "S3",
            "Pistacia",
            "Pistacia is a genus of flowering plants in the cashew family, Anacardiaceae.",
        ),
    ]
    _, report = await _run(engine, "Which genus has more species, Dracula or Pistacia?", sources)
    assert "consists of 118 species" in report.answer
    assert "wallisii" not in report.answer
    assert "cashew family" in report.answer


async def test_steps_get_no_second_link_from_a_document_sharing_words(
    engine: OfflineEngine,
) -> None:
    """Click's docs: the `--version` recipe leaves "command line tool" out, and another page
    has those words about something else."""
    sources = [
        source(
            "S1",
            "Options",
            "Here an example for a `--version` flag:\n\n```\n@click.command()\n"
            "@click.option('--version', is_flag=True, callback=print_version)\n"
            "def hello():\n    click.echo('Hello World!')\n```",
        ),
        source(
            "S2",
            "Complex Applications",
            "In this example, we want to build a command line tool that resembles a version "
            "control system. Systems like Git usually provide one over-arching command that "
            "already accepts some parameters and configuration, and then have extra "
            "subcommands that do other things.",
        ),
    ]
    question = "How do I add a --version option to my command line tool?"
    _, report = await _run(engine, question, sources)
    assert "--version" in report.answer
    assert "version control system" not in report.answer


async def test_each_side_of_a_comparison_is_answered_by_a_sentence_about_it(
    engine: OfflineEngine,
) -> None:
    """structlog's docs: "you must use WriteLogger instead of PrintLogger" names both, but
    says what the reader should do; the next sentence says what PrintLogger does."""
    sources = [
        source(
            "S1",
            "Standard Library Logging",
            "If you want to use the same file for both structlog and logging output, you must "
            "use `WriteLogger` instead of `PrintLogger`. This is because `PrintLogger` uses "
            "`print()` to write the message and a newline to the stream separately. This can "
            "cause interleaving of log entries. `WriteLogger` writes log entries atomically "
            "to the file.",
        ),
    ]
    question = "How do PrintLogger and WriteLogger differ in the way they write to a file?"
    _, report = await _run(engine, question, sources)
    assert "`PrintLogger` uses `print()`" in report.answer or "PrintLogger uses print()" in (
        report.answer
    )
    assert "writes log entries atomically" in report.answer


async def test_a_side_whose_passage_opens_with_its_name_is_not_named_twice(
    engine: OfflineEngine,
) -> None:
    """waitress's arguments page: each setting's entry opens with its name, and the side's
    label before it read "outbuf_overflow: outbuf_overflow: A tempfile …"."""
    sources = [
        source(
            "S1",
            "Arguments to waitress.serve",
            "- outbuf_overflow: A tempfile should be created if the pending output is larger "
            "than outbuf_overflow, which is measured in bytes.\n"
            "- outbuf_high_watermark: The app_iter will pause when pending output is larger "
            "than this value and will resume once enough data is written to the socket.\n",
        ),
    ]
    question = "How do outbuf_overflow and outbuf_high_watermark differ once pending output grows?"
    _, report = await _run(engine, question, sources)
    assert "outbuf_overflow: A tempfile should be created" in report.answer
    assert "outbuf_overflow: outbuf_overflow" not in report.answer
    assert "outbuf_high_watermark: outbuf_high_watermark" not in report.answer


async def test_every_citation_quote_is_long_enough_to_prove_something(
    engine: OfflineEngine,
) -> None:
    """A signature line is two words; its citation quotes the words around it too."""
    from marsa_common.text import quote_holds

    text = (
        "You can raise a `WebSocketException` from a WebSocket endpoint.\n\n"
        "* `WebSocketException(code=1008, reason=None)`\n\n"
        "The default close code is a policy violation."
    )
    sources = [source("S1", "exceptions", text)]
    _, report = await _run(engine, "What does WebSocketException take?", sources)
    assert report.citations
    for citation in report.citations:
        assert quote_holds(citation.quote, text), citation.quote


def test_a_short_quote_is_widened_to_a_verbatim_slice_around_it() -> None:
    from backend.reasoning.offline.report import long_enough

    text = "Raise it with:\n\n* `WebSocketException(code=1008, reason=None)`\n\nDone."
    quote = long_enough("`WebSocketException(code=1008, reason=None)`", text)
    assert quote in text and len(quote.split()) >= 3
    assert "`WebSocketException(code=1008, reason=None)`" in quote
    assert long_enough("Defaults to 600.", "x Defaults to 600.") == "Defaults to 600."


async def test_compared_things_listed_side_by_side_are_answered_from_that_list(
    engine: OfflineEngine,
) -> None:
    """A warning elsewhere names one side more often; the list that describes both answers."""
    sources = [
        source(
            "S1",
            "Console Output",
            "## Exceptions\n\nWarning: For pretty exceptions to work, `format_exc_info` must be "
            "**absent** from the processors chain.",
        ),
        source(
            "S2",
            "Exceptions",
            "## Transformations\n\nThe most common use-cases are covered by these processors:\n\n"
            "- `structlog.processors.format_exc_info`: Formats it to a flat string like the "
            "standard library would on the console.\n"
            "- `structlog.processors.dict_tracebacks`: Uses `ExceptionDictTransformer` to give "
            "you a structured and JSON-serializable `exception` key.",
        ),
    ]
    question = (
        "For exceptions in the event dict, what's the difference between the output of "
        "format_exc_info and of dict_tracebacks?"
    )
    _, report = await _run(engine, question, sources)
    assert "flat string" in report.answer
    assert "JSON-serializable" in report.answer


def test_a_second_links_label_is_its_title_as_a_reader_sees_it() -> None:
    from backend.reasoning.offline.answer import hop_label
    from backend.reasoning.offline.passages import passages
    from backend.reasoning.offline.pick import Choice

    example = source("S1", "*attrs* by Example", "To do this, define a post-init method.")
    hop = Choice(passages(example)[0], 0.5, 0.5, 0.5, True)
    assert hop_label(hop) == "attrs by Example:"
    named = source("S2", "Tom Ashby", "Tom Ashby is an English actor.")
    assert hop_label(Choice(passages(named)[0], 0.5, 0.5, 0.5, True)) == ""


@pytest.mark.parametrize(
    ("question", "passage", "coverage", "lead"),
    [
        ("Does the server restart workers?", "The server does not restart workers.", 0.9, "No:"),
        ("Does the server restart workers?", "The server restarts workers.", 0.9, "Yes:"),
        # a passage holding less than half of what is asked is about something nearby: no lead
        ("Does the server restart workers?", "The server reads its config file.", 0.3, ""),
        # a choice between alternatives is answered by one of them, not by yes or no
        ("Are the timestamps UTC or local time?", "Timestamps are not in UTC.", 0.9, ""),
        ("Does the validator get the string or the int?", "Validators run after it.", 0.9, ""),
        ("Is the key set or not?", "The key is not set.", 0.9, "No:"),
        # "still" is answered "no" by a deprecation or removal, which has no "not" in it
        ("Is nesting by name still the way?", "Nesting by name is deprecated.", 0.9, "No:"),
        ("Is nesting by name still supported?", "Nesting by name is supported.", 0.9, "Yes:"),
        # an aside says no to nothing the sentence states
        (
            "Is there a helper that loads a script's dependencies?",
            "A helper loads the dependency list (to prepare an environment without installing "
            "the package).",
            0.9,
            "Yes:",
        ),
        ("Does it run with no config?", "It runs without a config file.", 0.9, "Yes:"),
        # another package pointed to does it, not the one asked about (httpx's docs)
        (
            "Does httpx cache responses?",
            "If you use `requests-cache` to add HTTP Caching support to the `requests` "
            "library, you can use [Hishel](https://hishel.com) for HTTPX.",
            0.9,
            "",
        ),
        ("Does httpx cache responses?", "You can use `hishel` to cache responses.", 0.9, ""),
        ("Can I use the stat reloader?", "You can use the `stat` reloader instead.", 0.9, "Yes:"),
        # asked whether two things differ, a passage not saying how alike they are says
        # neither (more-itertools' changelog)
        (
            "Is more_itertools.batched actually any different from itertools.batched?",
            "For Python 3.12 and above, use `itertools.batched` instead.",
            0.9,
            "",
        ),
        (
            "Is more_itertools.batched any different from itertools.batched?",
            "On Python 3.12 and above, `batched` is an alias of `itertools.batched`.",
            0.9,
            "No:",
        ),
        (
            "Is `Form` the same as `BaseForm`?",
            "`Form` differs from `BaseForm` in two ways.",
            0.9,
            "No:",
        ),
        # uvicorn's docs: two options that do not go together
        (
            "Can I use --workers together with --reload?",
            "Note: The `--reload` and `--workers` arguments are mutually exclusive.",
            0.9,
            "No:",
        ),
    ],
)
def test_a_yes_no_lead_only_where_yes_or_no_answers(
    question: str, passage: str, coverage: float, lead: str
) -> None:
    from backend.reasoning.offline.answer import _yes_or_no
    from backend.reasoning.offline.passages import passages
    from backend.reasoning.offline.pick import Choice

    (found,) = passages(source("S1", "Server", passage))
    assert _yes_or_no(question, Choice(found, 0.6, 0.6, coverage, True)) == lead


CONVERTERS = (
    "# Converters In-Depth\n\n"
    "Larger applications are encouraged to create private instances of `Converter`.\n\n"
    "`Converter` differs from the `BaseConverter` in the following ways:\n\n"
    "- structuring is slower the first time, but faster every subsequent time\n"
    "- structuring and unstructuring can be customized\n\n"
    "The `BaseConverter` is a simpler and slower converter variant.\n\n"
    "It does no code generation, so it may be faster on first use.\n"
)


async def test_a_passage_setting_the_compared_things_against_each_other_answers(
    engine: OfflineEngine,
) -> None:
    question = "What is the difference between Converter and BaseConverter?"
    _, report = await _run(engine, question, [source("S1", "Converters In-Depth", CONVERTERS)])
    answer = report.markdown.split("\n\n")[1]
    assert answer.startswith("`Converter` differs from the `BaseConverter` in the following ways:")
    assert "faster every subsequent time" in answer


@pytest.mark.parametrize(
    ("question", "kind", "cue", "coverage", "wanted"),
    [
        # a value asked for and held by a passage holding half the question: nothing beside it
        ("Which port does the server listen on by default?", "simple", True, 0.6, False),
        # ... unless the question is a chain: the value may be the first link's
        ("When was the director of Inception born?", "multi_hop", True, 0.6, True),
        # ... or the passage holds little of the question: the value may be another thing's
        ("Which port does the server listen on by default?", "simple", True, 0.3, True),
        # a value not found yet: another document may hold it
        ("Which port does the server listen on by default?", "simple", False, 0.6, True),
        # steps and yes/no questions take no second document's passage
        ("How do I change the port?", "simple", True, 0.6, False),
        ("Does the server listen on IPv6?", "simple", True, 0.6, False),
    ],
)
def test_a_complement_joins_only_where_the_best_passage_leaves_the_ask_open(
    question: str, kind: str, cue: bool, coverage: float, wanted: bool
) -> None:
    from backend.reasoning.models import Plan
    from backend.reasoning.offline.answer import wants_complement
    from backend.reasoning.offline.passages import passages
    from backend.reasoning.offline.pick import Choice
    from backend.reasoning.offline.question import analyse

    (found,) = passages(source("S1", "Server", "The server listens on port 8000 by default."))
    plan = Plan(query=question, kind=kind, sub_queries=[], key_terms=[], entities=[])
    best = Choice(found, 0.6, 0.6, coverage, cue)
    assert wants_complement(analyse(question), plan, best) is wanted


async def test_no_sentence_is_shown_for_two_sides_of_a_comparison(engine: OfflineEngine) -> None:
    """attrs' docs: the FrozenAttributeError sentence leans on the FrozenInstanceError one;
    the window of both had answered the second side, repeating the first side's sentence."""
    sources = [
        source(
            "S1",
            "Immutability",
            "Sometimes you want objects that can't be changed after creation. "
            "attrs attaches a `__setattr__` method that raises `FrozenInstanceError` whenever "
            "anyone tries to set an attribute of a frozen instance. The same is true if you "
            "freeze individual attributes with a setter hook, except that the exception becomes "
            "`FrozenAttributeError`.",
        ),
    ]
    question = "FrozenInstanceError vs FrozenAttributeError: when does attrs raise which?"
    _, report = await _run(engine, question, sources)
    assert report.answer.count("whenever anyone tries to set an attribute") == 1
    assert "except that the exception becomes" in report.answer


async def test_an_ask_for_a_release_in_a_two_part_question_is_answered_by_a_release(
    engine: OfflineEngine,
) -> None:
    sources = [
        source(
            "S1",
            "Hashing",
            "The hash argument is called `unsafe_hash` nowadays.\n\n"
            "We renamed the hash argument in April 2022 after a long discussion.\n\n"
            "Other arguments kept their names: the field-level one is still `hash`.",
        ),
        source(
            "S2",
            "Changelog",
            "Release 22.2.0 brings many changes.\n\n"
            "The `unsafe_hash` name for the hash argument arrived in 22.2.0.",
        ),
    ]
    question = "What is the hash argument called nowadays, and in which release was it renamed?"
    _, report = await _run(engine, question, sources)
    assert "unsafe_hash" in report.answer and "22.2.0" in report.answer


async def test_a_comparison_also_answers_what_else_it_asks_of_both(engine: OfflineEngine) -> None:
    sources = [
        source(
            "S1",
            "Immutability",
            "attrs attaches a `__setattr__` method that raises `FrozenInstanceError` whenever "
            "anyone tries to set an attribute of a frozen instance.\n\n"
            "If you freeze only individual attributes with a setter hook, the exception "
            "becomes `FrozenAttributeError`.\n\n"
            "Slotted classes use a different technique in `__init__`.",
        ),
        source(
            "S2",
            "Exceptions",
            "Every exception of attrs lives in `attrs.exceptions`.\n\n"
            "Both frozen exception classes subclass `FrozenError`, one base class to catch.",
        ),
    ]
    question = (
        "FrozenInstanceError vs FrozenAttributeError: when does attrs raise which, and is "
        "there one exception class I can catch for both?"
    )
    _, report = await _run(engine, question, sources)
    assert "raises `FrozenInstanceError`" in report.answer
    assert "becomes `FrozenAttributeError`" in report.answer
    assert "subclass `FrozenError`" in report.answer


async def test_an_answer_under_a_code_name_heading_says_the_name(engine: OfflineEngine) -> None:
    redirect = "Enforces that all incoming requests must either be `https` or `wss`."
    cors = "Adds appropriate CORS headers to outgoing responses."
    doc = source("S1", "Middleware", f"{redirect}\n\n{cors}")
    doc.chunks, doc.chunk_sections = [redirect, cors], ["HTTPSRedirectMiddleware", "CORSMiddleware"]
    _, report = await _run(engine, "Which middleware makes all incoming requests use https?", [doc])
    assert report.answer.startswith("HTTPSRedirectMiddleware: Enforces that all incoming")


LINTERS = """Flake8 wraps several linters, pycodestyle among them.

It's recommended to use the Bugbear plugin and enable its B950 check instead of using \
Flake8's E501, because it aligns with the formatter's 10% rule.

Install Bugbear and use the following config:

```
[flake8]
max-line-length = 80
extend-select = B950
```
"""


async def test_a_passage_two_parts_rank_first_is_shown_once(engine: OfflineEngine) -> None:
    question = (
        "flake8 + bugbear setup: what max-line-length should flake8 be given alongside the "
        "formatter, and which bugbear check takes over from E501?"
    )
    plan, report = await _run(engine, question, [source("S1", "Using other tools", LINTERS)])
    assert plan.kind == "multi_part"
    b950 = "enable its B950 check instead of using Flake8's E501"
    assert report.answer.count(b950) == 1, report.answer


async def test_a_part_whose_premise_the_sources_deny_denies_the_question(
    engine: OfflineEngine,
) -> None:
    from tests.backend.reasoning.test_pick import push_sources

    question = (
        "We've turned on HTTP/2 in gunicorn and want to use server push for our CSS. Which "
        "setting enables push, and how many pushed streams are allowed per response?"
    )
    plan, report = await _run(engine, question, push_sources())
    assert plan.kind == "multi_part"
    assert not report.answer_found
    assert report.answer.startswith("The sources contradict the question's premise: Server Push")


def test_a_finding_that_opens_a_chunk_cut_inside_a_sentence_is_left_out() -> None:
    from backend.reasoning.models import Claim
    from backend.reasoning.offline.report import _cut_where_a_chunk_began

    cut = "least one citation after the citation check when there are sources."
    whole = "The guard keeps a report with at least one citation after the check."
    later = "Each source is scored by domain authority, recency and depth."
    text = f"{cut}\n\n{later}\n\n{whole}"
    doc = source("S1", "Architecture", text).model_copy(
        update={"chunks": [f"{cut}\n\n{later}", whole], "chunk_sections": ["Guard", "Guard"]}
    )
    sources = {"S1": doc}

    def claim(words: str) -> Claim:
        return Claim(id="C1", text=words, source_ids=["S1"])

    assert _cut_where_a_chunk_began(claim(cut), sources)
    assert not _cut_where_a_chunk_began(claim(whole), sources)  # begins as a sentence does
    assert not _cut_where_a_chunk_began(claim(later), sources)
    # lower case inside a chunk is a sentence of its own ("urllib3 is …" mid-text)
    inside = "urllib3 is a powerful HTTP client for Python."
    doc = doc.model_copy(update={"text": f"Intro.\n\n{inside}", "chunks": [f"Intro.\n\n{inside}"]})
    assert not _cut_where_a_chunk_began(claim(inside), {"S1": doc})


async def _two_asks(engine: OfflineEngine, question: str):  # type: ignore[no-untyped-def]
    """The question's plan and its two asks."""
    from backend.reasoning.offline.asks import asks

    plan = await engine.plan(question, ["docs"])
    several = asks(question)
    assert len(several) == 2
    return plan, several


async def test_an_unanswered_first_ask_is_not_answered_by_what_a_later_ask_shares(
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backend.reasoning.offline import answer as answer_module
    from backend.reasoning.offline.passages import passages

    question = (
        "Which Application setting caps the requests per client IP per minute, and what is "
        "its default limit?"
    )
    plan, several = await _two_asks(engine, question)
    curl = "`CurlAsyncHTTPClient(max_clients=10)`: `libcurl`-based HTTP client."
    shown = passages(source("S1", "CurlAsyncHTTPClient", curl))[0]
    # the first ask finds nothing that answers; the second's best is that same passage
    by_ask = {
        several[0].text: answer_module.Answer(
            curl, [], passage=shown, found=False, basis={"score": 0.45}
        ),
        several[1].text: answer_module.Answer(
            curl, [], passage=shown, found=True, basis={"score": 0.48}
        ),
    }
    monkeypatch.setattr(answer_module, "_ask_answer", lambda _p, ask, *a, **k: by_ask[ask.text])
    answered = answer_module._passage_per_ask(plan, several, [], {}, [], engine.vectors)
    assert answered is not None and not answered.found
    assert answered.lead == answer_module.NOT_FOUND


async def test_the_passage_answering_a_yes_or_no_ask_and_the_next_answers_the_question(
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backend.reasoning.offline import answer as answer_module
    from backend.reasoning.offline.asks import asks
    from backend.reasoning.offline.passages import passages

    vendored = (
        'Changed in version 1.2.0: Waitress has now "vendored" `asyncore` into itself as '
        "`waitress.wasyncore`."
    )
    shown = passages(source("S1", "Glossary", vendored))[0]

    def per_ask(question: str) -> answer_module.Answer | None:
        several = asks(question)
        assert len(several) == 2
        by_ask = {
            ask.text: answer_module.Answer(
                vendored, [], passage=shown, found=True, basis={"score": 0.5 + k / 10}
            )
            for k, ask in enumerate(several)
        }
        monkeypatch.setattr(answer_module, "_ask_answer", lambda _p, ask, *a, **k: by_ask[ask.text])
        return answer_module._passage_per_ask(plan, several, [], {}, [], engine.vectors)

    question = (
        "Does waitress still need the stdlib asyncore module, and since which waitress "
        "release has that been the case?"
    )
    plan = await engine.plan(question, ["docs"])
    answered = per_ask(question)
    assert answered is not None and answered.found and answered.text == vendored
    # a first ask that is no yes-or-no one is not taken as answered by the second's passage
    question = (
        "Which asyncore module does waitress use, and since which waitress release has that "
        "been the case?"
    )
    plan = await engine.plan(question, ["docs"])
    assert per_ask(question) is None


async def test_a_passage_holding_the_first_asks_answer_and_more_answers_the_next_ask_too(
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backend.reasoning.offline import answer as answer_module
    from backend.reasoning.offline.passages import passages

    question = "Which limit are we hitting, what is its default, and how do we lift it?"
    plan, several = await _two_asks(engine, question)
    cap = (
        "If the form has more than `client_max_fields` fields (1000 by default, `0` disables "
        "the cap), `post` raises `HTTPRequestEntityTooLarge`."
    )
    more = f"{cap} For efficiency use `multipart`."
    first = passages(source("S1", "Server Reference", more))
    short = next(p for p in first if p.quote == cap)
    long = next(p for p in first if p.quote.startswith(cap) and p.quote != cap)
    by_ask = {
        several[0].text: answer_module.Answer(
            cap, [], passage=short, found=True, basis={"score": 0.49}
        ),
        several[1].text: answer_module.Answer(
            more, [], passage=long, found=False, basis={"score": 0.45}
        ),
    }
    monkeypatch.setattr(answer_module, "_ask_answer", lambda _p, ask, *a, **k: by_ask[ask.text])
    answered = answer_module._passage_per_ask(plan, several, [], {}, [], engine.vectors)
    assert answered is not None and answered.found and answered.text == more


async def test_one_premise_that_two_asks_take_for_granted_is_denied_once(
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backend.reasoning.offline import answer as answer_module
    from backend.reasoning.offline.passages import passages

    question = (
        "Our platform team only runs Python services under uWSGI. Which aiohttp wrapper "
        "exposes an Application as a WSGI app, and which gunicorn sync worker goes with it?"
    )
    plan, several = await _two_asks(engine, question)
    dropped = "WSGI support has been dropped, as well as gunicorn wsgi support."
    shown = passages(source("S1", "Migration to 2.x", dropped))[0]
    denial = answer_module.Answer(
        dropped, [], passage=shown, found=False, lead=answer_module.DENIED, basis={"score": 0.5}
    )
    monkeypatch.setattr(answer_module, "_ask_answer", lambda *a, **k: denial)
    answered = answer_module._passage_per_ask(plan, several, [], {}, [], engine.vectors)
    assert answered is not None and not answered.found and not answered.parts
    assert answered.lead == answer_module.DENIED and answered.text == dropped


def _shown(text: str, title: str, score: float, found: bool = True):  # type: ignore[no-untyped-def]
    """One ask's answer: the text, shown as its own source's passage."""
    from backend.reasoning.offline import answer as answer_module
    from backend.reasoning.offline.passages import passages

    passage = passages(source(title, title, text))[0]
    return answer_module.Answer(text, [], passage=passage, found=found, basis={"score": score})


async def _answered_by_asks(  # type: ignore[no-untyped-def]
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch, question: str, first, second
):
    """The question's answer by its two asks, when the first ask picks ``first`` and the
    second ``second``."""
    from backend.reasoning.offline import answer as answer_module

    plan, several = await _two_asks(engine, question)
    picks = {several[0].text: first, several[1].text: second}
    monkeypatch.setattr(answer_module, "_ask_answer", lambda _p, ask, *a, **k: picks[ask.text])
    return answer_module._passage_per_ask(plan, several, [], {}, [], engine.vectors)


async def test_the_setting_whose_entry_gave_the_value_is_the_one_that_changes_it(
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = "max_request_body_size: Maximum bytes in a request body. Default: `1073741824` (1GB)"
    first = _shown(entry, "Arguments", 0.5)
    other = "The default is conservative, but you may need to increase the file descriptors."
    nearby = _shown(other, "Limits", 0.51, found=False)
    for question, found in (
        ("What is the default ceiling on a request body, and which setting raises it?", True),
        (
            "What is the default ceiling on a request body, and what do I pass to lift the cap?",
            True,
        ),
        # not a setting asked for, or not one that changes what was answered
        ("What is the default ceiling on a request body, and why is it that high?", False),
        ("What is the default ceiling on a request body, and which settings exist?", False),
    ):
        answered = await _answered_by_asks(engine, monkeypatch, question, first, nearby)
        assert answered is not None and answered.found is found, question
        if found:  # the entry answers both: the setting is shown by name with its default
            assert answered.text == entry and not answered.parts
    # the entry must be one: a sentence that gives the value without naming a setting is not
    plain = _shown("Request bodies are capped at 1GB by default.", "Limits2", 0.5)
    question = "What is the default ceiling on a request body, and which setting raises it?"
    answered = await _answered_by_asks(engine, monkeypatch, question, plain, nearby)
    assert answered is not None and not answered.found


async def test_the_error_shown_with_its_message_answers_what_the_message_is(
    engine: OfflineEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = "Removing it is not possible: `ValueError: Can only remove directly provided ones.`"
    nearby = "Removing an interface that is provided through the class is not possible."
    other = _shown(nearby, "API", 0.47, found=False)
    question = "What exception comes back, and what is its message?"
    for first_text, found in ((shown, True), (nearby, False)):
        first = _shown(first_text, "README", 0.52)
        answered = await _answered_by_asks(engine, monkeypatch, question, first, other)
        # the message is the one shown with the error; a sentence without one shows none
        assert answered is not None and answered.found is found


async def test_not_covered_says_only_part_when_the_answer_does(engine: OfflineEngine) -> None:
    from backend.reasoning.offline.answer import Answer
    from backend.reasoning.offline.report import _not_covered

    plan = await engine.plan("What is the default port, and how do I change it?", ["docs"])
    part = Answer("The default port is 8000.", [], found=True)
    missing = Answer("Nothing on changing it.", [], found=False)
    partly = Answer("", [], found=False, parts=(part, missing))
    assert _not_covered(plan, [], partly)[0].endswith("The documents found answer only part of it.")
    nothing = Answer("", [], found=False)
    assert _not_covered(plan, [], nothing)[0].endswith("The documents found do not answer it.")
    # what is asked, without the scene set before it
    plan = await engine.plan(
        "We run nightly lint jobs on a big monorepo. Can the tasks run in parallel?", ["docs"]
    )
    assert _not_covered(plan, [], nothing)[0] == (
        "- Can the tasks run in parallel? The documents found do not answer it."
    )
    # … as a sentence of its own, though the question went on after a comma
    plan = await engine.plan(
        "Since sqlparse checks that SQL is valid, what exception does it raise for bad SQL?",
        ["docs"],
    )
    assert _not_covered(plan, [], nothing)[0] == (
        "- What exception does it raise for bad SQL? The documents found do not answer it."
    )


OPTIONAL_DEPENDENCIES = (
    "## Optional dependencies\n\nThese distributions will not be installed automatically. "
    "Werkzeug will detect and use them if you install them.\n\n"
    "- Colorama provides request log highlighting when using the development server on "
    "Windows.\n- Watchdog provides a faster, more efficient reloader for the development "
    "server.\n"
)
EXTENDING = (
    "## Extending\n\nTo extend the capabilities, subclass `Request` and add or extend methods. "
    "Werkzeug doesn't enforce any dependencies."
)


async def test_a_later_part_pointing_back_is_answered_with_what_it_points_at(
    engine: OfflineEngine,
) -> None:
    # "Which ones" are the extra packages of the first part: the list of them answers both.
    _, report = await _run(
        engine,
        "Are there any extra packages Werkzeug will use on its own if I install them? Which "
        "ones, and what does each add?",
        [
            source("S1", "Installation", OPTIONAL_DEPENDENCIES),
            source("S2", "Request objects", EXTENDING),
        ],
    )
    assert "Colorama" in report.answer and "Watchdog" in report.answer
    assert "subclass" not in report.answer


RELOADER = (
    "## Reloader\n\nThe Werkzeug reloader constantly monitors modules and paths of your web "
    "application, and restarts the server if any of the observed files change.\n\n"
    "Since version 0.10, there are two backends the reloader supports: `stat` and `watchdog`.\n\n"
    "- The default `stat` backend simply checks the `mtime` of all files in a regular "
    "interval. This is sufficient for most cases.\n"
    "- The `watchdog` backend uses filesystem events, and is much faster than `stat`. It "
    "requires the watchdog module to be installed.\n"
)


async def test_each_side_is_answered_by_a_passage_about_it_not_one_listing_both(
    engine: OfflineEngine,
) -> None:
    _, report = await _run(
        engine,
        "The dev server's auto-reloader can use either the stat backend or the watchdog "
        "backend. How do the two detect file changes differently?",
        [source("S1", "Serving WSGI Applications", RELOADER)],
    )
    assert "`mtime`" in report.answer and "filesystem events" in report.answer


PEEWEE_TRANSACTIONS = (
    "# Transactions\n\n"
    "`Database.atomic` is the recommended transaction API.\n\n"
    "## Nesting\n\n"
    "Any nested `atomic()` blocks create savepoints instead of transactions, so an inner "
    "block can be rolled back on its own.\n\n"
    "## Explicit transactions\n\n"
    "If you attempt to nest transactions with peewee using the `transaction` context manager, "
    "only the outer-most transaction will be used. A transaction is a unit of work."
)


async def test_a_side_called_on_the_askers_object_is_named_by_its_member_as_code(
    engine: OfflineEngine,
) -> None:
    """peewee: "db.transaction()" is named by "the `transaction` context manager" (the
    comparison showed db.atomic()'s side alone)."""
    _, report = await _run(
        engine,
        "What is the practical difference between db.atomic() and db.transaction() in peewee, "
        "particularly when blocks are nested inside each other?",
        [source("S1", "Transactions", PEEWEE_TRANSACTIONS)],
    )
    assert "savepoints" in report.answer and "outer-most transaction" in report.answer


async def test_a_follow_up_the_engine_chose_is_not_listed_as_not_covered(
    engine: OfflineEngine,
) -> None:
    from backend.reasoning.models import SubQuery

    question = "When was the Eiffel Tower completed?"
    plan = await engine.plan(question, ["docs"])
    found_by = [plan.sub_queries[0].id]  # what the question's own search found
    sources = [
        source(
            "S1", "Tower facts", "The Eiffel Tower was completed in 1889.", sub_query_ids=found_by
        )
    ]
    bridge = SubQuery(
        id="q9", text="NamedTuples completed", sources=["docs"], hop=2, purpose="bridge: x"
    )
    bridge.purpose = "bridge: NamedTuples"
    plan = plan.model_copy(update={"sub_queries": [bridge, *plan.sub_queries]})
    claims = await engine.extract_claims(plan, sources)
    verdicts = await engine.verify(claims, sources)
    report = await engine.write_report(plan, claims, verdicts, sources)
    assert "NamedTuples" not in report.markdown  # not asked: not "not covered"


def test_a_compared_name_is_the_subject_only_as_a_whole_name() -> None:
    from backend.reasoning.offline.answer import _is_subject

    others = ["BackgroundTasks"]
    entry = "Fix bug on which `BackgroundTasks` were cancelled when using `BaseHTTPMiddleware`."
    assert not _is_subject(entry, "BackgroundTask", others)
    assert _is_subject(entry, "BackgroundTasks", ["BackgroundTask"])
    assert _is_subject("The `BackgroundTask` class runs one task.", "BackgroundTask", others)
    # (a call is named by its callable: mistune's comparison of html() and create_markdown()
    # showed "`mistune.html()` does not enable this plugin by default." for html())
    legacy = "The global `mistune.html` object is a legacy parser created with `escape=False`."
    assert _is_subject(legacy, "mistune.html()", ["mistune.create_markdown()"])
    assert not _is_subject(legacy, "mistune.htm()", [])


async def test_a_later_asks_pronoun_is_answered_about_the_first_asks_names(
    engine: OfflineEngine,
) -> None:
    """ "… which max_age do I give SessionMiddleware, and what package must be installed for
    it?": the second ask is about SessionMiddleware, not about the cookie the setting wants."""
    from tests.backend.reasoning.corpus import sectioned

    middleware = sectioned(
        "S1",
        "Middleware",
        [
            (
                "SessionMiddleware",
                "Adds signed cookie-based HTTP sessions. Session data is readable but not "
                "modifiable.\n\n* `max_age` - Session expiry time in seconds. Defaults to 2 "
                "weeks. If set to `None` then the cookie will last as long as the browser "
                "session.\n* `same_site` - SameSite flag prevents the browser from sending "
                "session cookie along with cross-site requests. Defaults to `'lax'`.",
            )
        ],
    )
    introduction = sectioned(
        "S2",
        "Introduction",
        [
            (
                "Dependencies",
                "Starlette only requires `anyio`, and the following dependencies are "
                "optional:\n\n* `httpx` - Required if you want to use the `TestClient`.\n"
                "* `jinja2` - Required if you want to use `Jinja2Templates`.\n"
                "* `itsdangerous` - Required for `SessionMiddleware` support.",
            )
        ],
    )
    _, report = await _run(
        engine,
        "I want a session cookie that disappears when the browser closes: which max_age do I "
        "give SessionMiddleware, and what package must be installed for it?",
        [middleware, introduction],
    )
    assert "`None`" in report.answer
    assert "itsdangerous" in report.answer


async def test_a_compared_side_is_answered_by_what_its_own_section_says(
    engine: OfflineEngine,
) -> None:
    """Under "Background Task", "Used to add a single background task …" speaks for
    `BackgroundTask` though it does not name it; its signature line says nothing of it."""
    from tests.backend.reasoning.corpus import sectioned

    background = sectioned(
        "S1",
        "Background Tasks",
        [
            (
                "",
                "Starlette includes a `BackgroundTask` class for in-process background tasks.",
            ),
            (
                "Background Task",
                "Used to add a single background task to a response.\n\nSignature: "
                "`BackgroundTask(func, *args, **kwargs)`",
            ),
            (
                "BackgroundTasks",
                "Used to add multiple background tasks to a response.\n\nSignature: "
                "`BackgroundTasks(tasks=[])`\n\nImportant: The tasks are executed in order.",
            ),
        ],
    )
    notes = source("S2", "Release notes", "Add `BackgroundTasks` for multiple tasks.")
    _, report = await _run(
        engine,
        "What's the difference between BackgroundTask and BackgroundTasks?",
        [background, notes],
    )
    assert "a single background task" in report.answer
    assert "Signature" not in report.answer


TIMEOUTS = (
    "Networked operations can often take a long time, and you usually want to set up some kind "
    "of a timeout to ensure that your application doesn't stall forever. There are two "
    "principal ways to do this: `~move_on_after` and `~fail_after`. Both are used as "
    "synchronous context managers. The difference between these two is that the former simply "
    "exits the context block prematurely on a timeout, while the other raises a "
    "`TimeoutError`.\n\n"
    "Both methods create a new cancel scope, and you can check the deadline by accessing the "
    "`deadline` attribute. Note, however, that an outer cancel scope may have an earlier "
    "deadline than your current cancel scope.\n\n"
    "Here's how you typically use timeouts:\n\n"
    "```\nwith move_on_after(1) as scope:\n    await sleep(2)\n```\n\n"
    "Note: It's recommended not to directly cancel a scope from `~fail_after`, as that may "
    "currently result in `TimeoutError` being erroneously raised if exiting the scope is "
    "delayed long enough for the deadline to be exceeded."
)


async def test_a_stated_difference_after_naming_both_sides_answers_the_comparison(
    engine: OfflineEngine,
) -> None:
    sources = [sectioned("S1", "Cancellation and timeouts", [("Timeouts", TIMEOUTS)])]
    _, report = await _run(
        engine,
        "What is the difference between move_on_after and fail_after when the timeout expires?",
        sources,
    )
    assert "the former simply exits the context block" in report.answer.split("\n")[0]


SIMPLE = (
    "The simple interface defines two classes; `SimpleQueue`, and `SimpleBuffer`. The former "
    "is used for persistent messages, and the latter is used for transient, buffer-like "
    "queues. They both have the same interface, so you can use them interchangeably.\n\n"
    "Here is an example using the `SimpleQueue` class to produce and consume logging "
    "messages."
)


async def test_sides_named_by_their_dotted_path_are_found_by_their_last_part(
    engine: OfflineEngine,
) -> None:
    # the question writes `kombu.simple.SimpleQueue`; the page shows it as `SimpleQueue`
    sources = [sectioned("S1", "Simple Interface", [("Simple Interface", SIMPLE)])]
    _, report = await _run(
        engine,
        "For a quick script I'm choosing between kombu.simple.SimpleQueue and SimpleBuffer. "
        "What's the intended difference between the two in terms of message durability?",
        sources,
    )
    first = report.answer.split("\n")[0]
    assert "persistent messages" in first and "transient" in first
    assert report.answer_found  # the difference is stated outright


def test_a_statement_begun_inside_a_parenthesis_is_a_fragment_not_a_finding() -> None:
    cut = (
        "plan and claims cut twice, verify gave back the example, and the report's answer ran "
        "past the 60 s timeout on both tries, so the model was given up.)"
    )
    assert not _complete(cut)
    assert _complete("The model was given up (it timed out twice).")
    assert _complete("Pick one: a) the default, or b) a path of your own.")


def test_a_sentence_naming_both_sides_speaks_for_neither() -> None:
    from backend.reasoning.offline.answer import _naming
    from backend.reasoning.offline.passages import passages
    from backend.reasoning.offline.pick import Choice, Pick

    text = (
        "Now try replacing `open_memory_channel(math.inf)` with `open_memory_channel(0)`.\n\n"
        "At the other extreme, you can make the buffer unbounded by using "
        "`open_memory_channel(math.inf)`. In this case, `send` always returns immediately."
    )
    doc = source("S1", "Channels", text)
    found = {p.quote: p for p in passages(doc)}
    both = found["Now try replacing `open_memory_channel(math.inf)` with `open_memory_channel(0)`."]
    one = next(p for q, p in found.items() if q.startswith("At the other") and "immediately" in q)
    # the best names it late; the one naming it first also names the other side
    ranked = [Choice(one, 0.60, 0.5, 0.4, True), Choice(both, 0.59, 0.5, 0.3, True)]
    pick = Pick(ranked[0], True, None, ranked)
    chosen = _naming(pick, "open_memory_channel(math.inf)", [], ["open_memory_channel(0)"])
    assert chosen is not None and chosen.passage is one


RETRY_DOCS = (
    "Sometimes you only want to retry a part of a function. Use a retry context and wrap "
    "the network call in each attempt, like this:\n\n```python\n"
    "for attempt in stamina.retry_context(on=httpx.HTTPError):\n"
    "    with attempt:\n"
    "        resp = httpx.get(url)\n"
    "        resp.raise_for_status()\n"
    "```\n"
)


async def test_code_in_the_answer_is_a_block_after_the_words_that_cite_it(
    engine: OfflineEngine,
) -> None:
    question = "How do I retry only the network call of a function, not the whole function?"
    docs = [source("S1", "Retrying part of a function", RETRY_DOCS)]
    _, report = await _run(engine, question, docs)
    prose, _, block = report.answer.partition("\n\n")
    # (the marks a citation gets stand before the code, with the words it cites)
    assert re.search(r"like this: \[1\](?: \(not independently confirmed\))?$", prose), prose
    assert block.splitlines() == [
        "```",
        "for attempt in stamina.retry_context(on=httpx.HTTPError):",
        "    with attempt:",
        "        resp = httpx.get(url)",
        "        resp.raise_for_status()",
        "```",
    ]
    assert f"## Answer\n\n{report.answer}\n" in report.markdown


def test_parts_run_on_as_one_paragraph_but_a_block_ends_its_own() -> None:
    from backend.reasoning.offline.report import _run_on

    block = "Call it so: [1]\n\n```\nf(x)\n```"
    assert _run_on(["A. [1]", "B. [2]"]) == "A. [1] B. [2]"
    assert _run_on([block, "B. [2]"]) == f"{block}\n\nB. [2]"
    assert _run_on(["A `x` [1]", "B. [2]"]) == "A `x` [1] B. [2]"


def test_a_second_source_sharing_only_the_runs_topic_words_is_not_cited() -> None:
    """Flask-WTF 1.3's docs, read by a new user: "The same CSRF token is generated for the
    lifetime of a request. [1][4]": [1] (csrf.rst) only says "… before checking for the CSRF
    token.", words every page of the run uses."""
    from backend.reasoning.models import Claim, EvidenceItem, Verdict
    from backend.reasoning.offline.report import _Citations

    claim_text = "The same CSRF token is generated for the lifetime of a request."
    witness = (
        "This also enables you to do some pre-processing on the requests before checking for "
        "the CSRF token."
    )
    sources = [
        source("S1", "CSRF Protection", f"Any view is protected. {witness}"),
        source("S2", "Configuration", "Max age of a CSRF token for a request, in seconds."),
        source("S3", "Quickstart", "Each request renders the form's CSRF token field."),
        source("S4", "Changes", f"Version 0.9. {claim_text}"),
    ]
    claim = Claim(id="C1", text=claim_text, source_ids=["S4"])
    verdict = Verdict(
        claim_id="C1",
        verdict="supported",
        confidence=0.6,
        evidence=[EvidenceItem(source_id="S1", quote=witness, stance="supports", weight=0.5)],
    )
    registry = _Citations(sources)
    assert registry.for_claim(claim, verdict) == ["[1]"]
    assert [c.source_id for c in registry.citations] == ["S4"]
    # … while one that says what only it and the claim say is cited
    said = "A CSRF token generated once lasts the lifetime of the request."
    sources[0] = source("S1", "CSRF Protection", f"Any view is protected. {said}")
    verdict.evidence[0].quote = said
    registry = _Citations(sources)
    assert registry.for_claim(claim, verdict) == ["[1]", "[2]"]


def test_a_second_source_says_the_same_only_with_the_same_code_names_and_numbers() -> None:
    from backend.reasoning.offline.report import says_the_same

    claim = "Those functions can be used as the `before` keyword argument of `tenacity.retry`."
    assert says_the_same(claim, claim)
    other = "Those functions can be used as the `stop` keyword argument of `tenacity.retry`."
    assert not says_the_same(other, claim)
    plain_names = "Those functions can be used as the before keyword argument of tenacity.retry."
    assert says_the_same(plain_names, claim)  # the same names, without their backticks
    flag = "`--ident=STR`: Server identity used in the 'Server' header in responses."
    assert says_the_same('ident: Server identity (string) used in "Server:" header.', flag)
    ten = "By default the client waits 10 seconds for the server to answer."
    assert not says_the_same("By default the client waits 30 seconds for the server.", ten)
    assert says_the_same("The client waits 10 seconds for the server by default.", ten)


def test_a_second_source_does_not_say_the_same_by_sharing_a_few_words_of_it() -> None:
    from backend.reasoning.offline.report import says_the_same

    # schedule's docs: the installation page's sentence, and the pages that share its topic
    installed = "Schedule is now installed."
    assert says_the_same("Schedule is now installed.", installed)
    assert not says_the_same(
        "However, for larger installations it might be desirable to have multiple schedulers.",
        installed,
    )
    serial = "By default, schedule executes all jobs serially."
    other = "Schedule does not account for the time it takes for the job function to execute."
    assert not says_the_same(other, serial)
    assert says_the_same("By default, schedule executes all of the jobs serially.", serial)
    # portalocker's docs: a changelog line about the same class, lock file and held lock
    temporary = (
        "`TemporaryFileLock` is a `Lock` whose lock file only exists while the lock is held."
    )
    fixed = (
        "Behaviour change: fixed `TemporaryFileLock.acquire` destroying a held lock when a third "
        "party unlinked or replaced the lock file (a tmp cleaner sweeping `/tmp` is enough)."
    )
    assert not says_the_same(fixed, temporary)
    # … while a longer sentence that says it, and more, still does
    longer = (
        "A `TemporaryFileLock` is a `Lock` whose lock file only exists while the lock is held, "
        "and it is removed again on release."
    )
    assert says_the_same(longer, temporary)


async def test_a_later_ask_is_answered_by_the_sentence_right_after_the_earlier_asks(
    engine: OfflineEngine,
) -> None:
    """Documentation answers the follow-up question next: "QTrio - Integration between Trio
    and … Qt wrapper libraries. Uses Trio's guest mode." for "Is there a library that glues
    Trio to Qt, and what Trio mechanism does it rely on?" (trio's docs), not the library line
    alone because it also scores best for the second ask."""
    libs = sectioned(
        "S1",
        "Awesome Trio Libraries",
        [
            (
                "GUI",
                "Libraries that integrate Trio with graphical toolkits.\n\n"
                "* QTrio - Integration between Trio and either the PyQt or PySide Qt wrapper "
                "libraries. Uses Trio's guest mode.\n"
                "* trio-click - Python composable command line utility, trio-compatible "
                "version.\n"
                "* urwid - Urwid is a console user interface library for Python.",
            )
        ],
    )
    files = sectioned(
        "S2",
        "Trio's core functionality",
        [
            (
                "Asynchronous file I/O",
                "For reading and writing to files and file-like objects, Trio also provides a "
                "mechanism for wrapping any synchronous file-like object into an asynchronous "
                "interface.",
            )
        ],
    )
    _, report = await _run(
        engine,
        "Our desktop tool uses PySide for its UI and we'd like to write the networking side "
        "with Trio. Is there an existing library that glues Trio to Qt, and what Trio "
        "mechanism does it rely on?",
        [libs, files],
    )
    assert report.answer_found
    assert "QTrio - Integration between Trio" in report.answer
    assert "Uses Trio's guest mode." in report.answer
    assert "wrapping any synchronous file-like object" not in report.answer


async def test_an_ask_answered_by_another_asks_passage_is_not_called_unanswered(
    engine: OfflineEngine,
) -> None:
    """aiohttp's "How long does the default connector keep a resolved address, and which
    connector argument changes it?": the first ask's own best passage names no duration, while
    the passage found for the second ask ("… resolutions will be cached by default for `10`
    seconds. This behavior can be changed with the `ttl_dns_cache` argument.") answers both.
    The answer is found, and the passage that answers neither is not shown."""
    usage = sectioned(
        "S1",
        "Advanced Client Usage",
        [
            (
                "Resolving using custom nameservers",
                "By default `TCPConnector` comes with the DNS cache table enabled, and "
                "resolutions will be cached by default for `10` seconds. This behavior can be "
                "changed with the `ttl_dns_cache` argument.",
            ),
        ],
    )
    reference = sectioned(
        "S2",
        "Client Reference",
        [("Resolvers", "The default connector keeps a resolved address in its DNS cache table.")],
    )
    _, report = await _run(
        engine,
        "Our aiohttp client keeps connecting to old addresses after a DNS change. How long "
        "does the default connector keep a resolved address, and which connector argument "
        "changes it?",
        [usage, reference],
    )
    assert report.answer_found
    assert "cached by default for `10` seconds" in report.answer
    assert "keeps a resolved address in its DNS cache table" not in report.answer


async def test_a_noun_phrase_of_a_list_is_no_finding_of_its_own(engine: OfflineEngine) -> None:
    text = (
        "python-dotenv reads key-value pairs from a `.env` file and can set them as "
        "environment variables.\n\n"
        "python-dotenv can interpolate variables using POSIX variable expansion.\n\n"
        "With `load_dotenv(override=True)` or `dotenv_values()`, the value of a variable is "
        "the first of the values defined in the following list:\n\n"
        "- Value of that variable in the `.env` file.\n"
        "- Value of that variable in the environment.\n"
        "- Default value, if provided.\n"
        "- Empty string.\n"
    )
    question = "Can a value in my .env file refer to another variable?"
    _, report = await _run(engine, question, [source("S1", "python-dotenv", text)])
    body = _body(report.markdown)
    assert not any(line.lstrip("- ").startswith("Value of that variable") for line in body), body
    assert not report.answer.split(":", 1)[-1].lstrip().startswith("Value of that variable")


JSONSCHEMA_EMAIL = (  # jsonschema 4.26.0's docs/validate.rst, cut short
    "## Validating Formats\n\n"
    'Since in most cases "validating" an email address is an attempt instead to confirm '
    "that mail sent to it will deliver to a recipient, and that that recipient is the correct "
    "one the email is intended for, and since many valid email addresses are in many places "
    "incorrectly rejected, and many invalid email addresses are in many places incorrectly "
    "accepted, the `email` format keyword only provides a sanity check, not full RFC 5322 "
    "validation. The same applies to the `idn-email` format.\n\n"
    "If you indeed want a particular well-specified set of emails to be considered valid, you "
    "can use `FormatChecker.checks` to provide your specific definition.\n"
)


async def test_a_why_question_whose_opening_premise_the_sources_deny_is_denied(
    engine: OfflineEngine,
) -> None:
    question = (
        "Since the email format does full RFC 5322 validation, why does something like "
        '"a@b" get through? Which strictness option am I missing?'
    )
    _, report = await _run(engine, question, [source("S1", "Schema Validation", JSONSCHEMA_EMAIL)])
    assert not report.answer_found
    assert report.answer.startswith("The sources contradict the question's premise:")
    assert "not full RFC 5322 validation" in report.answer


@pytest.mark.parametrize("title", ["Retry notes", "Python"])
async def test_a_follow_up_heads_its_findings_only_when_it_found_a_page_about_its_name(
    engine: OfflineEngine, title: str
) -> None:
    # tenacity, read as a new user would: "### Follow-up: Python" headed findings that came
    # from the library's own pages, none about Python
    from backend.reasoning.models import SubQuery

    question = "How long does the library wait between two attempts by default?"
    plan = await engine.plan(question, ["docs"])
    bridge = SubQuery(
        id="q9", text="Python wait attempts default", sources=["docs"], hop=2, purpose="x"
    )
    bridge.purpose = "bridge: Python"
    plan = plan.model_copy(update={"sub_queries": [*plan.sub_queries, bridge]})
    first = [plan.sub_queries[0].id]
    sources = [
        source(
            "S1",
            "Waiting",
            "By default the library does not wait at all between two attempts. "
            "A fixed wait of two seconds between attempts is set with `wait_fixed(2)`.",
            sub_query_ids=first,
        ),
        source(
            "S2",
            title,
            "Python programs that call remote services often need to retry failed calls. "
            "An exponential wait doubles the pause after every failed attempt.",
            sub_query_ids=["q9"],
        ),
    ]
    claims = await engine.extract_claims(plan, sources)
    verdicts = await engine.verify(claims, sources)
    report = await engine.write_report(plan, claims, verdicts, sources)
    assert "An exponential wait doubles the pause" in report.markdown
    assert ("### Follow-up: Python" in report.markdown) == (title == "Python")


STARLETTE_NOTES = (  # starlette 0.46.2's docs/release-notes.md, cut short
    "## 0.21.0\n\n"
    "This release replaces the underlying HTTP client used on the `TestClient` (`requests` "
    "to `httpx`), and as those clients differ a bit on their API, your test suite will likely "
    "break.\n\n"
    "* Replace `requests` with `httpx` in `TestClient` "
    "[#1376](https://github.com/encode/starlette/pull/1376).\n"
    "* Add `TemplateResponse` to the templates module.\n"
)
STARLETTE_TESTCLIENT = (
    "The test client allows you to make requests against your ASGI application, using the "
    "`httpx` library.\n\n"
    "The test client exposes the same interface as any other `httpx` session.\n"
)


@pytest.mark.parametrize(
    ("question", "listed"),
    [
        ("How do I send requests to my app from a test with the httpx test client?", False),
        ("In which release did the TestClient move from requests to httpx?", True),
    ],
)
async def test_a_release_note_entry_is_a_finding_only_for_a_question_about_changes(
    engine: OfflineEngine, question: str, listed: bool
) -> None:
    sources = [
        source("S1", "testclient", STARLETTE_TESTCLIENT, score=0.8),
        source("S2", "Release Notes", STARLETTE_NOTES, score=0.7),
    ]
    _, report = await _run(engine, question, sources)
    body = "\n".join(_body(report.markdown))
    entry = "Replace `requests` with `httpx` in `TestClient`"
    assert (entry in body or entry in report.answer) is listed, report.markdown


H11_PIPELINING = (  # h11 0.16.0's docs/api.rst, cut short
    "h11 supports pipelining on the server side. As a client, h11 does not support "
    "pipelining. This is enforced by the structure of the state machine.\n\n"
    "Connection re-use works after the response is complete.\n"
)


async def test_a_denied_premise_is_the_answer_not_a_question_left_uncovered(
    engine: OfflineEngine,
) -> None:
    question = (
        "How do I turn on pipelining in h11's client mode so I can send several requests "
        "before reading any responses?"
    )
    _, report = await _run(engine, question, [source("S1", "API documentation", H11_PIPELINING)])
    assert report.answer.startswith("The sources contradict the question's premise:")
    assert "The documents found do not answer it" not in report.markdown, report.markdown


def test_a_sentence_s_markers_read_in_the_order_of_their_numbers() -> None:
    from backend.reasoning.models import Claim, EvidenceItem, Verdict
    from backend.reasoning.offline.report import _Citations

    said = "The worker retries a failed job three times before giving up."
    registry = _Citations(
        [
            source("S1", "Guide", f"Jobs run in workers. {said}"),
            source("S2", "Reference", f"Retries are counted per job. {said}"),
        ]
    )
    assert registry.cite("S1", "Jobs run in workers.") == "[1]"  # the guide is cited first
    claim = Claim(id="C1", text=said, source_ids=["S2"])  # … the claim comes from the reference
    verdict = Verdict(
        claim_id="C1",
        verdict="supported",
        confidence=0.9,
        evidence=[EvidenceItem(source_id="S1", quote=said, stance="supports")],
    )
    assert registry.for_claim(claim, verdict) == ["[1]", "[2]"]  # not "[2][1]"


async def test_a_how_to_answer_shows_its_recipe_whole(engine: OfflineEngine) -> None:
    from tests.backend.reasoning.test_passages import LEXER_RECIPE

    sources = [source("S1", "Extending sqlparse", LEXER_RECIPE)]
    _, report = await _run(
        engine, "How do I teach sqlparse's lexer to recognise the ZORDER BY clause?", sources
    )
    assert "adds support for the expression `ZORDER BY`" in report.answer
    assert "lex.clear()" in report.answer and "…" not in report.answer


def test_a_side_s_label_is_not_said_twice_before_a_passage_that_opens_with_it() -> None:
    from backend.reasoning.offline.answer import _says_its_label

    # PyJWT 2.15.1's algorithms list: "RS256: RS256 - RSASSA-PKCS1-v1_5 …" said the name twice
    assert _says_its_label("RS256:", "RS256 - RSASSA-PKCS1-v1_5 signature algorithm")
    assert _says_its_label("`lock_task`:", "`lock_task`: a lock for one task")
    assert not _says_its_label("RS256:", "RS256-based signatures are the most common.")
    assert not _says_its_label("PS256:", "RS256 - RSASSA-PKCS1-v1_5 signature algorithm")


async def test_steps_of_one_task_joined_by_and_then_are_answered_by_the_whole_questions_passage(
    engine: OfflineEngine,
) -> None:
    """schedule: "How do I make a scheduled job execute a single time and then drop out of the
    scheduler?" is one task: the passage answering it whole is the answer, not a passage per
    step (the first step's was on running many jobs from a single scheduler)."""
    examples = (
        "# Examples\n\n## Run a job once\n\n"
        "Return `schedule.CancelJob` from a job to remove it from the scheduler.\n\n"
        "```python\ndef job_that_executes_once():\n    return schedule.CancelJob\n\n"
        "schedule.every().day.at('22:30').do(job_that_executes_once)\n```\n"
    )
    many = (
        "# Multiple schedulers\n\n"
        "You can run as many jobs from a single scheduler as you wish. However, for larger "
        "installations it might be desirable to have multiple schedulers. This is supported."
    )
    sources = [
        source("S1", "Examples", examples),
        source("S2", "Multiple schedulers", many),
    ]
    question = (
        "How do I make a scheduled job execute a single time and then drop out of the scheduler?"
    )
    plan, report = await _run(engine, question, sources)
    assert plan.kind == "multi_part"
    assert report.answer.startswith("Return `schedule.CancelJob` from a job")
    assert report.answer_found
    assert "single scheduler" not in report.answer


async def test_a_passage_contrasting_both_sides_with_however_answers_a_comparison(
    engine: OfflineEngine,
) -> None:
    """Pygments 2.21's quickstart, read by a new user: the sentence pair that answers "How do
    get_lexer_for_filename and guess_lexer_for_filename differ …?" was the first side's
    answer, and the second side got the API page's list of functions."""
    quickstart = (
        "All lexers have two different filename pattern lists: the primary and the secondary "
        "one. The `get_lexer_for_filename()` function only uses the primary list, whose "
        "entries are supposed to be unique among all lexers. `guess_lexer_for_filename()`, "
        "however, will first loop through all lexers and look at the primary and secondary "
        "filename patterns if the filename matches."
    )
    api = (
        "Functions from `pygments.lexers`: `get_lexer_by_name`; `get_lexer_for_filename`; "
        "`guess_lexer`; `guess_lexer_for_filename`; `get_all_lexers`."
    )
    _, report = await _run(
        engine,
        "How do get_lexer_for_filename and guess_lexer_for_filename differ in which filename "
        "patterns they look at?",
        [source("S1", "Introduction and Quickstart", quickstart), source("S2", "The API", api)],
    )
    assert "only uses the primary list" in report.answer
    assert "look at the primary and secondary filename patterns" in report.answer
    assert "Functions from" not in report.answer
    assert not report.answer.startswith("get_lexer_for_filename:")


async def test_a_sentence_sending_the_reader_elsewhere_does_not_answer_a_comparison(
    engine: OfflineEngine,
) -> None:
    """docutils 0.23's html.rst, read by a new user: "What markup standard does the html5
    writer's output follow, compared with the html4css1 writer's output?" was answered with
    "See the HTML5 test page … for differences to the html4css1 writer." """
    html = sectioned(
        "S1",
        "Docutils HTML writers",
        [
            (
                "html5",
                "The html5 writer generates valid XML that conforms to the HTML standard "
                "(polyglot HTML). See the HTML5 test page (and the sources html5-features.rst) "
                "for differences to the html4css1 writer.",
            ),
            (
                "html4css1",
                "The html4css1 writer generates output that conforms to the XHTML 1 "
                "Transitional specification.",
            ),
        ],
    )
    _, report = await _run(
        engine,
        "What markup standard does the html5 writer's output follow, compared with the "
        "html4css1 writer's output?",
        [html],
    )
    assert not report.answer.startswith("See the HTML5 test page")
    assert "XHTML 1 Transitional" in report.answer and "HTML standard" in report.answer


async def test_a_thing_said_to_be_the_same_as_the_other_but_for_a_difference_answers(
    engine: OfflineEngine,
) -> None:
    """isort 9's multi_line_output modes, read by a new user: "Same as Mode 3 - Vertical Hanging
    Indent but the closing parentheses on the last line is indented." under "8 - Vertical
    Hanging Indent Bracket" states the difference; the page's opening line was the answer."""
    modes = sectioned(
        "S1",
        "Multi line output modes",
        [
            (
                "Multi line output modes",
                "This config option defines how from imports wrap when they extend past the "
                "line_length limit and has 12 possible settings.",
            ),
            ("3 - Vertical Hanging Indent", "Each import goes on its own line, indented."),
            (
                "8 - Vertical Hanging Indent Bracket",
                "Same as Mode 3 - Vertical Hanging Indent but the closing parentheses on the "
                "last line is indented.",
            ),
            (
                "10 - Hanging Indent With Parentheses",
                "Same as Mode 2 - Hanging Indent but uses parentheses instead of backslash for "
                "wrapping long lines.",
            ),
        ],
    )
    plan, report = await _run(
        engine,
        "What is the difference between multi_line_output mode 3 and mode 8 in how wrapped "
        "from-imports look?",
        [modes],
    )
    assert plan.kind == "comparison"
    assert report.answer.startswith(
        "8 - Vertical Hanging Indent Bracket: Same as Mode 3 - Vertical Hanging Indent but the "
        "closing parentheses"
    )
    assert report.answer_found


async def test_a_side_named_by_its_module_is_answered_by_what_its_own_class_does(
    engine: OfflineEngine,
) -> None:
    """marshmallow's docs say "A `Method` field will serialize …": no sentence but a renamed
    parameter's names "fields.Method", and that was shown for the comparison."""
    fields = sectioned(
        "S1",
        "Custom fields",
        [
            (
                "Method fields",
                "A `Method` field will serialize to the value returned by a method of the "
                "Schema. The method must take an `obj` parameter which is the object to be "
                "serialized.",
            ),
            (
                "Function fields",
                "A `Function` field will serialize the value of a function that is passed "
                "directly to it. Like a `Method` field, the function must take a single "
                "argument `obj`.",
            ),
        ],
    )
    upgrading = source(
        "S2",
        "Upgrading to newer releases",
        "The `func` parameter of `fields.Function` was renamed to `serialize`. Similarly, the "
        "`method_name` of `fields.Method` was also renamed to `serialize`.",
    )
    plan, report = await _run(
        engine,
        "How do fields.Method and fields.Function differ when I compute an output value?",
        [fields, upgrading],
    )
    assert plan.kind == "comparison"
    assert "a method of the Schema" in report.answer
    assert "passed directly" in report.answer
    assert "renamed" not in report.answer


async def test_a_side_is_answered_by_what_it_does_not_by_how_else_it_is_spelled(
    engine: OfflineEngine,
) -> None:
    """nox's config page: "`nox.options.force_venv_backend` is equivalent to specifying -fb or
    --force-venv-backend." answered for --force-venv-backend; its usage page says what it
    does."""
    usage = source(
        "S1",
        "Command-line usage",
        "By default Nox uses `virtualenv` as the virtual environment backend for the sessions. "
        "You can change the default behaviour by using `-db <backend>` or "
        "`--default-venv-backend <backend>`. Note that using this option does not change the "
        "backend for sessions where `venv_backend` is explicitly set.\n\n"
        "You might wish to get a quick way to execute the same tasks but on a different venv "
        "backend. For this purpose, you can temporarily force the backend used by all sessions "
        "in the current Nox execution by using `-fb <backend>` or "
        "`--force-venv-backend <backend>`. No exceptions are made, the backend will be forced "
        "for all sessions run whatever the other options values and Noxfile configuration.\n\n"
        "You can also set this option in the Noxfile with `nox.options.force_venv_backend`.",
    )
    config = source(
        "S2",
        "Configuration & API",
        "The following options can be specified in the Noxfile:\n\n"
        "- `nox.options.default_venv_backend` is equivalent to specifying -db or "
        "--default-venv-backend.\n"
        "- `nox.options.force_venv_backend` is equivalent to specifying -fb or "
        "--force-venv-backend.\n",
    )
    plan, report = await _run(
        engine,
        "What is the difference between --default-venv-backend and --force-venv-backend?",
        [usage, config],
    )
    assert plan.kind == "comparison"
    forced = report.answer.split("--force-venv-backend:", 1)[-1]
    assert "used by all sessions" in forced
    assert "equivalent to specifying" not in forced


async def test_a_notes_label_is_not_shown_in_the_answer_and_a_warnings_is(
    engine: OfflineEngine,
) -> None:
    """urllib3's "Note: Zstandard support in urllib3 requires …" was shown as "Yes: Note: …"."""
    doc = source(
        "S1",
        "Installation",
        "Brotli and Zstandard are optional extras. Note: Zstandard support in urllib3 requires "
        "v0.18.0 or later of the `zstandard` package.\n\nWarning: Disabling certificate "
        "verification with `cert_reqs='CERT_NONE'` exposes every request to interception.",
    )
    _, report = await _run(
        engine, "Which zstandard package version does urllib3's Zstandard support need?", [doc]
    )
    assert "v0.18.0" in report.answer and "Note:" not in report.answer
    _, report = await _run(
        engine, "What happens if I disable certificate verification with cert_reqs?", [doc]
    )
    assert report.answer.startswith("Warning: Disabling certificate verification")


async def test_a_thing_said_to_differ_only_in_what_not_how_states_no_difference(
    engine: OfflineEngine,
) -> None:
    """huey's "`RedisExpireHuey`: Identical to `RedisHuey` except for the way task result values
    are stored." names what differs, not how: each side is answered by what it does."""
    huey = sectioned(
        "S1",
        "API",
        [
            (
                "RedisExpireHuey",
                "Identical to `RedisHuey` except for the way task result values are stored. "
                "`RedisExpireHuey` stores task results in ordinary Redis keys that expire.",
            ),
            (
                "RedisHuey",
                "`RedisHuey` keeps all task results in a Redis hash, and a result is removed "
                "from the hash when it is read.",
            ),
        ],
    )
    _, report = await _run(
        engine,
        "How do RedisHuey and RedisExpireHuey differ in how they keep task results?",
        [huey],
    )
    assert not report.answer.startswith("RedisExpireHuey: Identical to")
    assert "Redis hash" in report.answer


async def test_a_question_of_two_asks_neither_answered_says_the_documents_do_not_answer_it(
    engine: OfflineEngine,
) -> None:
    """greenlet 3.5, read by a new user: "What is the default stack size reserved for each
    greenlet, and how can I configure it?" (the docs do not say) began "The documents found
    answer only part of this.", read as a part answered."""
    text = (
        "# Greenlets\n\n"
        "A greenlet is a small independent pseudo-thread. Greenlets switch cooperatively.\n\n"
        "Remember, switches are not calls, but transfer of execution between parallel stack "
        "frames."
    )
    _, report = await _run(
        engine,
        "What is the default heap quota reserved for each worker process, and how can I "
        "configure the quota?",
        [source("S1", "Greenlets", text)],
    )
    assert not report.answer_found
    assert report.answer.startswith("The documents found do not answer this directly.")
    assert "only part" not in report.answer
