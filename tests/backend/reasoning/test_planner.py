"""The offline planner: question kinds, sub-queries and routing; refine's follow-up hops."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from backend.reasoning.models import QuestionKind, Verdict
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline.planner import is_standalone, plan_question, usable_name
from backend.reasoning.offline.text import key_terms
from tests.backend.reasoning.corpus import INCEPTION, INCEPTION_MUSIC, NOLAN, source

ALL = ["docs", "web", "github"]

Expected = list[str] | Callable[[list[str]], bool]


def each_contains(*terms: str) -> Callable[[list[str]], bool]:
    """Two or more added sub-queries, each holding every one of ``terms`` (any case)."""

    def check(added: list[str]) -> bool:
        return len(added) >= 2 and all(t.lower() in a.lower() for a in added for t in terms)

    return check


# Each row: the question, the kind expected, and the sub-queries expected after the question
# itself (the first sub-query of every plan), or a predicate on them.
SHAPES: list[tuple[str, QuestionKind, Expected]] = [
    # Engineering documentation: one ask, not split.
    ("How does the citation check work?", "simple", []),
    ("What is the default timeout of the document store?", "simple", []),
    ("What is the default value of MARSA_MAX_ROUNDS?", "simple", []),
    ("Why does the researcher retry a failed search?", "simple", []),
    ("How do I configure timeouts and retries in httpx?", "simple", []),
    ("Does `follow_redirects` default to True?", "simple", []),
    ("Is Client.send() safe to call from several threads?", "simple", []),
    ('What happened on 4 June 2024 to the "stable" channel?', "simple", []),
    # Lists: the question alone is right.
    ("Which task statuses are terminal?", "list", []),
    ("Which transports are supported?", "list", []),
    ("What are the supported Python versions?", "list", []),
    ("Which formats does the store support?", "list", []),
    ("List the environment variables the API server reads.", "list", []),
    # Comparisons: one search per side, each with the question's key terms.
    (
        "How do httpx timeouts differ from requests timeouts?",
        "comparison",
        ["httpx timeouts", "requests timeouts"],
    ),
    (
        "Compare Chroma and FAISS for vector search.",
        "comparison",
        ["Chroma vector search", "FAISS vector search"],
    ),
    # Said in so many words, a comparison's sides may be plain words, or share a head.
    (
        "What's the difference between decline and cancel in an elicitation response?",
        "comparison",
        each_contains("elicitation", "response"),
    ),
    (
        "How do the subscribe and listChanged flags differ?",
        "comparison",
        ["subscribe flags", "listChanged flags"],
    ),
    (
        "LangGraph vs CrewAI: which is better for multi-agent apps?",
        "comparison",
        ["LangGraph multi-agent apps", "CrewAI multi-agent apps"],
    ),
    ("Which is faster, Chroma or FAISS?", "comparison", ["Chroma faster", "FAISS faster"]),
    # (the same thing of each, by its owner: docutils' writers)
    (
        "What markup standard does the html5 writer's output follow, compared with the "
        "html4css1 writer's output?",
        "comparison",
        [
            "html5 writer markup standard output follow",
            "html4css1 writer markup standard output follow",
        ],
    ),
    ("Compare sync and async clients.", "comparison", ["sync clients", "async clients"]),
    # (two flags sharing a head word are each named by itself: watchmedo's options)
    (
        "In watchmedo shell-command, what is the difference between the --wait and --drop "
        "options when events arrive while the command is still running?",
        "comparison",
        lambda added: (
            [a.split()[:2] for a in added] == [["--wait", "watchmedo"], ["--drop", "watchmedo"]]
        ),
    ),
    # (a flag alone is a name that stands alone as a search: nox's backends)
    (
        "What is the difference between --default-venv-backend and --force-venv-backend?",
        "comparison",
        ["--default-venv-backend", "--force-venv-backend"],
    ),
    # (sides ending in one word's two forms are parallel: dateutil's relativedelta)
    (
        "In relativedelta, what is the difference between passing singular arguments like "
        "year=/month= and plural ones like years=/months=?",
        "comparison",
        each_contains("relativedelta"),
    ),
    (
        "What is the difference between `Client.send()` and `Client.request()`?",
        "comparison",
        ["Client.send()", "Client.request()"],
    ),
    # (sides that each make one call are that call: Babel's locales)
    (
        "What's the difference between creating a locale with Locale('en', 'US') and with "
        "Locale.parse('EN_us') when it comes to upper/lower case in the identifier?",
        "comparison",
        lambda added: [a.split()[0] for a in added] == ["Locale", "Locale.parse"],
    ),
    (
        "Which came first, Python 2.0 or Java 1.0?",
        "comparison",
        ["Python 2.0 came", "Java 1.0 came"],
    ),
    (
        "Is Pydantic 2.0 faster than Pydantic 1.10?",
        "comparison",
        ["Pydantic 2.0 faster", "Pydantic 1.10 faster"],
    ),
    (
        'Which is older, "Counting Crows" or "Third Eye Blind"?',
        "comparison",
        ["Counting Crows older", "Third Eye Blind older"],
    ),
    ("How does Chroma compare to FAISS in terms of speed?", "comparison", each_contains("speed")),
    (
        "What are the differences between the offline and the LLM engine?",
        "comparison",
        ["offline engine", "LLM engine"],
    ),
    # Two code names and a word that says they are compared.
    (
        "How do PrintLogger and WriteLogger differ in the way they write to a file?",
        "comparison",
        ["PrintLogger way write file", "WriteLogger way write file"],
    ),
    (
        "When nothing is found, how do find_object and ensure_object behave differently?",
        "comparison",
        ["find_object nothing found behave", "ensure_object nothing found behave"],
    ),
    (
        "Reading the request with .stream() versus .body(): what changes?",
        "comparison",
        each_contains("request"),
    ),
    (
        "What's the difference between the output of format_exc_info and of dict_tracebacks?",
        "comparison",
        ["format_exc_info output", "dict_tracebacks output"],
    ),
    (
        "What happens to positional arguments with render_to_log_args_and_kwargs compared with "
        "render_to_log_kwargs?",
        "comparison",
        each_contains("positional arguments"),
    ),
    # Sides written as code: template tags, subscripts, commands in backticks.
    (
        "What's the difference between {% include %} and {% import %} in terms of which "
        "variables the other template can see?",
        "comparison",
        ["{% include %} variables template see", "{% import %} variables template see"],
    ),
    (
        "Is there any actual difference between writing foo.bar and foo['bar'] in a template?",
        "comparison",
        ["foo.bar actual writing template", "foo['bar'] actual writing template"],
    ),
    (
        "Does it make any difference whether I launch my tests with plain `pytest` or with "
        "`python -m pytest`?",
        "comparison",
        each_contains("launch tests"),
    ),
    # A side whose code opens with a word that would cut a phrase ("to", "from")
    (
        "Is to_thread.run_sync or to_process.run_sync the better way to offload it?",
        "comparison",
        ["to_thread.run_sync way offload", "to_process.run_sync way offload"],
    ),
    # Calls with an argument are the sides, and a scene's words are left to the question
    (
        "I'm sizing a memory channel between a fast log producer and a slow uploader. What's "
        "the difference in how send() behaves with open_memory_channel(0) versus "
        "open_memory_channel(math.inf)?",
        "comparison",
        [
            "What's the difference in how send() behaves with open_memory_channel(0) versus "
            "open_memory_channel(math.inf)?",
            "open_memory_channel(0) send behaves",
            "open_memory_channel(math.inf) send behaves",
        ],
    ),
    ("Should my validator return `True` or `False`?", "simple", []),
    ("How do I install PrintLogger and WriteLogger?", "simple", []),
    # Shapes that look like comparisons but whose sides are not nameable things.
    ("What is the difference between a process and a thread?", "simple", []),
    ("How do the uses differ?", "simple", []),
    ("Does the client work with MCP, or without protocol work?", "simple", []),
    ("Was Chroma 0.5 released in May or June?", "simple", []),
    ("What changed between httpx 0.27 and 0.28?", "simple", []),
    ("What was released in 2023 and 2024?", "simple", []),
    # Two asks: each part with its subject resolved.
    (
        "How is the document store configured and what is its default timeout?",
        "multi_part",
        ["How is the document store configured", "What is the document store's default timeout?"],
    ),
    (
        "What is Chroma and how does it store vectors?",
        "multi_part",
        ["What is Chroma", "How does Chroma store vectors?"],
    ),
    (
        "What is retrieval-augmented generation? How does it reduce hallucinations?",
        "multi_part",
        [
            "What is retrieval-augmented generation?",
            "How does retrieval-augmented generation reduce hallucinations?",
        ],
    ),
    (
        "What is the hash argument called nowadays, and in which release was it renamed?",
        "multi_part",
        [
            "What is the hash argument called nowadays",
            "In which release was the hash argument renamed?",
        ],
    ),
    (
        "What causes inflation; and how do central banks respond to it?",
        "multi_part",
        ["What causes inflation", "How do central banks respond to inflation?"],
    ),
    (
        "How is source quality scored, and why do GitHub issues score lower than READMEs?",
        "multi_part",
        ["How is source quality scored", "Why do GitHub issues score lower than READMEs?"],
    ),
    (
        "What does Client.send() return and when does it raise?",
        "multi_part",
        ["What does Client.send() return", "When does Client.send() raise?"],
    ),
    (
        "1) How is a run started? 2) How is it cancelled?",
        "multi_part",
        ["How is a run started?", "How is a run cancelled?"],
    ),
    (
        "What is the default timeout? And how do I change it?",
        "multi_part",
        ["What is the default timeout?", "How do I change the default timeout?"],
    ),
    (
        "Can the API run behind a proxy, and what headers does it trust?",
        "multi_part",
        ["Can the API run behind a proxy", "What headers does the API trust?"],
    ),
    (
        "When was Python 3.12 released and what changed in it?",
        "multi_part",
        ["When was Python 3.12 released", "What changed in Python 3.12?"],
    ),
    (
        "How are sources scored and what weight does recency get?",
        "multi_part",
        ["How are sources scored", "What weight does recency get?"],
    ),
    # "they" after a plural noun of its own part means that noun, not the first part's name.
    (
        "Which helper tells me where the config file belongs on each OS, and what do I give "
        "the loaded values to so they become the defaults?",
        "multi_part",
        [
            "Which helper tells me where the config file belongs on each OS",
            "What do I give the loaded values to so they become the defaults?",
        ],
    ),
    # Statements before the asking sentence are its scene, not asks of their own, and do not
    # name what a later ask's pronoun means.
    (
        "In staging we keep DEBUG logs; in production only warnings. Which setting controls "
        "the level, and which environment variable overrides it?",
        "simple",  # "it" is the setting asked about, not the scene's DEBUG: no guess, no split;
        # the asking sentence is searched alone too (verbatim, no guess)
        ["Which setting controls the level, and which environment variable overrides it?"],
    ),
    # A scene first: the asking sentence is searched alone too, unless it points back with
    # few words of its own; the scene's "True or False" compares nothing.
    (
        "Our field validators are lambdas that just return True or False. Since which release "
        "is returning False deprecated, and what should a validator do instead?",
        "multi_part",
        [
            "Since which release is returning False deprecated, and what should a validator do "
            "instead?",
            "Our field validators are lambdas that just return True or False. Since which "
            "release is returning False deprecated",
            "What should a validator do instead?",
        ],
    ),
    ("Our app builds its config in a factory. How do I do that?", "simple", []),
    ("Should a validator return True or False?", "simple", []),
    # Two asks whose pronoun has no certain subject: not split into parts (no guess for the
    # pronoun); a later ask is searched with the names it carries, when it carries any.
    ("What did the team ship in June, and how does it handle retries?", "simple", []),
    (
        "How do Chroma and FAISS store vectors, and how are they indexed?",
        "simple",
        ["Chroma FAISS How are they indexed?"],
    ),
    (
        "I want a session cookie that ends with the browser: which max_age do I give "
        "SessionMiddleware, and what package must be installed for it?",
        "multi_hop",
        [
            # (the setting's words would find the first ask's page again)
            "max_age SessionMiddleware What package must be installed for it?"
        ],
    ),
    (
        "If a background task raises after the response went out, does the client see my "
        "500 page, and do the other tasks still run?",
        "simple",
        ["If a background task raises after the response went out Do the other tasks still run?"],
    ),
    # HotpotQA comparisons.
    (
        "Which magazine was started first, Arthur's Magazine or First for Women?",
        "comparison",
        ["Arthur's Magazine started", "First for Women started"],
    ),
    (
        "Who was born first, Albert Einstein or Niels Bohr?",
        "comparison",
        ["Albert Einstein born", "Niels Bohr born"],
    ),
    (
        "Were both Ernst Messerschmid and Reinhold Ewald ESA astronauts?",
        "comparison",
        ["Ernst Messerschmid esa astronauts", "Reinhold Ewald esa astronauts"],
    ),
    (
        "Are Sutera and Rhodotypos both types of shrub?",
        "comparison",
        ["Sutera types shrub", "Rhodotypos types shrub"],
    ),
    (
        "Which case came first, Craig v. Boren or United States v. Paramount Pictures, Inc.?",
        "comparison",
        ["Craig v. Boren case came", "United States v. Paramount Pictures, Inc. case came"],
    ),
    (
        "Are Aladdin and Song of the South produced by the same company?",
        "comparison",
        ["Aladdin produced company", "Song of the South produced company"],
    ),
    (
        "Were the Commodore 16 and Prológica CP-400 from the same country?",
        "comparison",
        ["Commodore 16 country", "Prológica CP-400 country"],
    ),
    (
        "What film came out first, All the Marbles or What Ever Happened to Baby Jane?",
        "comparison",
        each_contains("film came"),
    ),
    # HotpotQA questions that must not be split.
    (
        "Both Andrew and Jeremy Get Married and The Last Lions are what type of films?",
        "simple",
        [],
    ),
    (
        "What guitarist played with both Device and the American industrial rock group whose "
        'debut album was named "Short Bus"?',
        "simple",
        [],
    ),
    (
        "Which two teams did the the head coach of The 2007 San Diego State Aztecs play for "
        "professionally?",
        "list",
        [],
    ),
    # HotpotQA bridges: the question is hop 1; hops come from the results.
    ("Where was the director of Inception born?", "multi_hop", []),
    ("Who directed the 2001 film that featured Yu Rongguang?", "multi_hop", []),
    ("When was the pianist who recorded Live at Shelly's Manne-Hole born?", "multi_hop", []),
    ("In which country is the company that makes the Model S headquartered?", "multi_hop", []),
    # HotpotQA yes/no questions asked in two parts.
    (
        "Is the Virgilia found in Africa? And is Koeleria found all over?",
        "multi_part",
        ["Is the Virgilia found in Africa?", "Is Koeleria found all over?"],
    ),
]
_DATE_OR_NUMBER = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|v?\d[\d.,]*", re.I
)
_IDS = [question[:60] for question, _, _ in SHAPES]


@pytest.mark.parametrize(("question", "kind", "expected"), SHAPES, ids=_IDS)
def test_each_question_shape_gets_its_kind_and_sub_queries(
    question: str, kind: QuestionKind, expected: Expected
) -> None:
    plan = plan_question(question, ["docs"])
    added = [sq.text for sq in plan.sub_queries[1:]]
    assert plan.kind == kind
    if callable(expected):
        assert expected(added), added
    else:
        assert added == expected


@pytest.mark.parametrize("question", [q for q, _, _ in SHAPES], ids=_IDS)
def test_every_plan_starts_with_the_whole_question(question: str) -> None:
    plan = plan_question(question, ["docs"])
    first = plan.sub_queries[0]
    assert (first.id, first.text, first.purpose) == ("q1", plan.query, "whole question")


@pytest.mark.parametrize("question", [q for q, _, _ in SHAPES], ids=_IDS)
def test_no_added_sub_query_is_a_date_or_a_fragment(question: str) -> None:
    plan = plan_question(question, ["docs"])
    for sq in plan.sub_queries[1:]:
        tokens = sq.text.split()
        # (a call or a long flag is a name searched alone: "Client.send()", "--force-python")
        assert len(tokens) >= 2 or sq.text.endswith("()") or sq.text.startswith("--"), sq.text
        assert not all(_DATE_OR_NUMBER.fullmatch(t.strip("?,.")) for t in tokens), sq.text
        assert set(key_terms(sq.text)) & set(key_terms(question)), sq.text


@pytest.mark.parametrize(
    "fragment", ["June", "2024", "Uses differ", "Without protocol work", "0.28"]
)
def test_dates_numbers_and_cut_off_pieces_do_not_stand_alone(fragment: str) -> None:
    question = "How do the uses differ without protocol work in June 2024 and in 0.28?"
    assert not is_standalone(fragment, question, min_words=3)


def test_a_question_not_split_says_why_in_its_rationale() -> None:
    plan = plan_question("What did the team ship in June, and how does it handle retries?", [])
    assert "not split into 2 parts" in plan.rationale


async def test_a_comparison_keeps_its_entities_and_purposes(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "Which magazine was started first, Arthur's Magazine or First for Women?", ALL
    )
    assert plan.entities == ["Arthur's Magazine", "First for Women"]
    assert [sq.purpose for sq in plan.sub_queries] == [
        "whole question",
        "entity: Arthur's Magazine",
        "entity: First for Women",
    ]


async def test_the_parts_of_a_multi_part_question_are_numbered(engine: OfflineEngine) -> None:
    plan = await engine.plan(
        "What is retrieval-augmented generation? How does it reduce hallucinations?", ALL
    )
    assert [sq.purpose for sq in plan.sub_queries] == ["whole question", "part 1", "part 2"]


async def test_a_code_question_goes_to_github_when_it_is_available(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("How does the retry logic in the httpx library work?", ALL)
    assert plan.sub_queries[0].sources == ["docs", "github", "web"]


async def test_a_code_question_skips_github_when_it_is_not_available(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("How does the retry logic in the httpx library work?", ["docs"])
    assert plan.sub_queries[0].sources == ["docs"]


async def test_a_question_that_is_not_about_code_never_goes_to_github(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("What is the function of the liver?", ALL)
    assert plan.sub_queries[0].sources == ["docs", "web"]


async def test_web_is_searched_only_when_available(engine: OfflineEngine) -> None:
    without = await engine.plan("What is the capital of Australia?", ["docs", "github"])
    assert without.sub_queries[0].sources == ["docs"]


async def test_extra_servers_are_not_routed_by_default(engine: OfflineEngine) -> None:
    plan = await engine.plan("What is the capital of Australia?", ["docs", "web", "arxiv"])
    assert plan.sub_queries[0].sources == ["docs", "web"]


async def test_refine_builds_a_hop_two_query_from_a_name_in_the_top_source(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    sources = [
        source("S1", "Inception", INCEPTION, sub_query_ids=["q1"], retrieval_score=0.9),
        source("S2", "Inception (soundtrack)", INCEPTION_MUSIC, sub_query_ids=["q1"]),
    ]
    new = await engine.refine(plan, sources, [], 1)
    assert [(sq.text, sq.hop, sq.purpose) for sq in new] == [
        ("Christopher Nolan born", 2, "bridge: Christopher Nolan")
    ]
    assert new[0].id == "q2" and new[0].sources == ["web"]


async def test_refine_never_repeats_a_sub_query_and_stops_when_the_hop_is_answered(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    first_hop = [source("S1", "Inception", INCEPTION, sub_query_ids=["q1"])]
    hop_two = await engine.refine(plan, first_hop, [], 1)
    plan = plan.model_copy(update={"sub_queries": [*plan.sub_queries, *hop_two]})
    again = await engine.refine(plan, first_hop, [], 2)
    assert not {sq.text for sq in again} & {sq.text for sq in plan.sub_queries}
    answered = [*first_hop, source("S3", "Christopher Nolan", NOLAN, sub_query_ids=["q2"])]
    assert await engine.refine(plan, answered, [], 2) == []


async def test_refine_never_builds_a_bridge_from_a_month(engine: OfflineEngine) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    text = "Nolan made the film, directed in June 2010 in London, for Warner Bros."
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    bridges = [sq.purpose.removeprefix("bridge: ") for sq in new]
    assert bridges and "June" not in bridges and all("2010" not in b for b in bridges)


async def test_a_bridge_query_carries_the_question_terms_when_its_sentence_holds_them(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Where was the director of Inception born?", ["web"])
    text = "Inception was directed by Christopher Nolan, born in 1970."
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    assert [(sq.text, sq.purpose) for sq in new] == [
        ("Christopher Nolan director born", "bridge: Christopher Nolan")
    ]


async def test_a_list_question_may_follow_a_bridge_like_a_simple_one(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Which awards did the film about dreams win?", ["web"])
    text = "Inception, a film about dreams, was released in 2010 to wide acclaim."
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    assert plan.kind == "list"
    assert [sq.purpose for sq in new] == ["bridge: Inception"]


async def test_refine_retries_a_compared_entity_nobody_wrote_about(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Who was born first, Albert Einstein or Niels Bohr?", ["web"])
    only_einstein = [
        source(
            "S1",
            "Albert Einstein",
            "Albert Einstein (14 March 1879 – 18 April 1955) was a German-born theoretical "
            "physicist who developed the theory of relativity.",
            sub_query_ids=["q1", "q2"],
        )
    ]
    new = await engine.refine(plan, only_einstein, [], 1)
    assert [(sq.text, sq.purpose) for sq in new] == [("Niels Bohr", "entity: Niels Bohr (retry)")]


async def test_refine_expands_the_question_when_most_claims_are_unverifiable(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("What is the capital of Australia?", ["web"])
    sources = [
        source(
            "S1",
            "Canberra",
            "Canberra is the capital city of Australia. Canberra was chosen as a compromise "
            "between Sydney and Melbourne, the two largest cities, in 1908.",
            sub_query_ids=["q1"],
        )
    ]
    verdicts = [Verdict(claim_id="C1", verdict="unverifiable", confidence=0.0)]
    new = await engine.refine(plan, sources, verdicts, 1)
    assert len(new) == 1
    assert new[0].purpose == "expanded"
    assert new[0].text.startswith(plan.query) and "canberra" in new[0].text.lower()
    supported = [Verdict(claim_id="C1", verdict="supported", confidence=0.6)]
    assert await engine.refine(plan, sources, supported, 1) == []


async def test_the_best_source_gives_its_two_nearest_names_to_follow(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan(
        "What is the birthday of the man who played Lex Luthor in Superman IV?", ["docs"]
    )
    text = (
        "Gene Hackman returned as Lex Luthor, who creates an evil solar-powered version of "
        "Superman called Nuclear Man."
    )
    sources = [source("S1", "Superman IV", text, sub_query_ids=["q1"])]
    bridges = [sq.purpose for sq in await engine.refine(plan, sources, [], 1)]
    assert "bridge: Gene Hackman" in bridges and len(bridges) == 2


@pytest.mark.parametrize(
    "text",
    [
        "Enforces that all incoming requests must be https, redirecting the rest.",
        "However, the client keeps every connection alive between requests.",
    ],
)
async def test_a_verb_or_connective_opening_a_sentence_is_no_bridge(
    engine: OfflineEngine, text: str
) -> None:
    plan = await engine.plan("Which requests does the middleware redirect?", ["web"])
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    assert not [sq for sq in new if sq.purpose.startswith("bridge: ")]


async def test_a_comparative_opening_a_sentence_is_no_bridge(engine: OfflineEngine) -> None:
    # cattrs: "Larger applications …" had become the findings heading "Follow-up: Larger"
    question = "Is one shared converter thread-safe when hooks are generated on first use?"
    text = (
        "Larger applications are strongly encouraged to create and customize different, "
        "private instances of the converter."
    )
    plan = await engine.plan(question, ["web"])
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    assert "bridge: Larger" not in [sq.purpose for sq in new]


@pytest.mark.parametrize(
    ("text", "opener"),
    [
        # tenacity, huey, attrs, read as a new user would: "Follow-up: Depending",
        # "Follow-up: Caution", "Follow-up: Optionally" had headed sections of findings
        ("Depending on your workload, you may prefer threads to processes.", "Depending"),
        ("Caution: processes cannot share state with each other.", "Caution"),
        ("- **Added** in 2.1: a pool of greenlets.", "Added"),
    ],
)
async def test_a_word_capitalised_only_where_a_line_or_sentence_opens_is_no_bridge(
    engine: OfflineEngine, text: str, opener: str
) -> None:
    plan = await engine.plan("How many workers does the huey consumer start by default?", ["web"])
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    assert f"bridge: {opener}" not in [sq.purpose for sq in new]


async def test_a_name_capitalised_inside_a_sentence_or_opening_a_page_is_still_a_bridge(
    engine: OfflineEngine,
) -> None:
    # HotpotQA: a Wikipedia page opens on its own subject ("Rugrats is …"), and a name
    # stands capitalised inside other sentences too ("… voice roles in "Rugrats" …")
    plan = await engine.plan("Which network first aired the show Tara Strong voiced?", ["web"])
    sources = [
        source(
            "S1",
            "Tara Strong",
            'Tara Strong has done voice roles in "Rugrats" and many other series.',
            sub_query_ids=["q1"],
        ),
        source("S2", "Cartoons", "Rugrats ran for nine seasons.", sub_query_ids=["q1"]),
    ]
    bridges = [sq.purpose for sq in await engine.refine(plan, sources, [], 1)]
    assert "bridge: Rugrats" in bridges


async def test_a_page_title_its_text_never_uses_is_no_bridge(engine: OfflineEngine) -> None:
    plan = await engine.plan("Which requests does the middleware redirect?", ["web"])
    text = "# Introduction\n\nThe middleware redirects every plain http request to https."
    new = await engine.refine(
        plan, [source("S1", "Introduction", text, sub_query_ids=["q1"])], [], 1
    )
    assert "bridge: Introduction" not in [sq.purpose for sq in new]


@pytest.mark.parametrize(
    "text",
    [
        "Reimplement `popitem` in a subclass to be told which item was evicted.",
        "Inserting or updating a cache item via `LFUCache.__setitem__` counts as a use.",
    ],
)
async def test_a_verb_before_code_or_a_gerund_opening_a_sentence_is_no_bridge(
    engine: OfflineEngine, text: str
) -> None:
    # cachetools, read by a new user: "Reimplement get callback log line …" and "Inserting
    # get callback log line …" were searched as follow-ups
    plan = await engine.plan(
        "How can I get a callback whenever the cache evicts an entry?", ["web"]
    )
    new = await engine.refine(plan, [source("S1", "notes.md", text, sub_query_ids=["q1"])], [], 1)
    opener = text.split()[0]
    assert f"bridge: {opener}" not in [sq.purpose for sq in new]


async def test_a_one_word_heading_the_sources_write_in_lower_case_is_no_bridge(
    engine: OfflineEngine,
) -> None:
    plan = await engine.plan("Which hooks run when an instance is created?", ["web"])
    text = "# Initialization\n\nInitialization runs the validators; initialization also runs hooks."
    new = await engine.refine(
        plan, [source("S1", "Initialization", text, sub_query_ids=["q1"])], [], 1
    )
    assert "bridge: Initialization" not in [sq.purpose for sq in new]


@pytest.mark.parametrize(
    ("name", "usable"),
    [("True", False), ("`None`", False), ("Hashing", True), ("Christopher Nolan", True)],
)
def test_a_code_literal_is_no_name_to_follow_up(name: str, usable: bool) -> None:
    assert usable_name(name) is usable


def test_an_ask_about_the_two_compares_what_the_scene_names() -> None:
    plan = plan_question(
        "The dev server's auto-reloader can use either the stat backend or the watchdog "
        "backend. How do the two detect file changes differently?",
        ALL,
    )
    assert plan.kind == "comparison"
    assert plan.entities == ["stat backend", "watchdog backend"]
    # names the question gives in code are the sides, whole ("env.py" does not end a side)
    hooks = plan_question(
        "I can filter them out with either include_name or include_object in env.py. What's "
        "the practical difference between the two hooks?",
        ALL,
    )
    assert hooks.entities == ["include_name", "include_object"]
    # a scene naming two things, with an ask that is not about both, compares nothing
    other = plan_question(
        "Our validators return True or False. Since which release is that supported?", ALL
    )
    assert other.kind != "comparison"


def test_an_ask_about_each_of_them_compares_the_two_the_scene_names() -> None:
    plan = plan_question(
        "While tuning the server I found two output-side settings, outbuf_overflow and "
        "outbuf_high_watermark. What does each of them do once pending output grows?",
        ALL,
    )
    assert plan.kind == "comparison"
    assert plan.entities == ["outbuf_overflow", "outbuf_high_watermark"]
    assert [sq.text.split()[0] for sq in plan.sub_queries[-2:]] == plan.entities
    # "each" said of something else ("each response") points at no pair
    other = plan_question(
        "Our client talks to a server that drops the TCP connection and the TLS session at "
        "the end of each response. How do I make the client tolerate that?",
        ALL,
    )
    assert other.kind != "comparison"


def test_a_sentence_s_opening_word_is_no_name_to_follow() -> None:
    assert not usable_name("Since")
    assert not usable_name("However")
    assert usable_name("Nolan")
