"""Reading a specification's pages: requirement keywords, prohibitions, names written apart."""

from __future__ import annotations

from backend.reasoning.models import Plan
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline.passages import passages
from backend.reasoning.offline.pick import (
    _documents_named,
    _does_the_avoided,
    _leans_back,
    choose,
    coverage,
    unknown_names,
)
from backend.reasoning.offline.question import analyse
from backend.reasoning.offline.text import key_terms
from tests.backend.reasoning.corpus import sectioned, source

CANCELLATION = sectioned(
    "S1",
    "Cancellation",
    [
        (
            "Cancellation Flow",
            "When a party wants to cancel an in-progress request, it sends a "
            "`notifications/cancelled` notification containing the ID of the request to cancel.",
        ),
        (
            "Behavior Requirements",
            "- Cancellation notifications **MUST** only reference requests that were previously "
            "issued in the same direction and are believed to still be in-progress\n"
            "- The `initialize` request **MUST NOT** be cancelled by clients\n"
            "- Receivers of cancellation notifications **SHOULD** stop processing the request",
        ),
    ],
)


async def _pick(engine: OfflineEngine, question: str):  # type: ignore[no-untyped-def]
    plan: Plan = await engine.plan(question, ["docs"])
    return choose(analyse(question), plan, [CANCELLATION], engine.vectors)


async def test_a_prohibition_of_the_deed_asked_about_denies_the_premise(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(
        engine, "How does a client cancel an initialize request that's taking too long?"
    )
    assert pick.denial is not None
    assert "MUST NOT" in pick.denial.passage.quote


async def test_a_prohibition_of_another_thing_denies_nothing(engine: OfflineEngine) -> None:
    pick = await _pick(engine, "How does a client cancel a tools/call request that hangs?")
    assert pick.denial is None
    assert pick.found and pick.best is not None


def test_a_requirement_keyword_in_capitals_holds_required() -> None:
    idf = {"": 1.0}
    text = "`uri`: Unique identifier for the root. This **MUST** be a `file://` URI."
    assert coverage(["required"], text, "", idf) > 0.5
    # the word as any sentence uses it is not the specification's keyword
    assert coverage(["required"], "You must be careful with roots.", "", idf) == 0.0


def test_a_hyphenated_name_the_documents_write_apart_is_no_unknown_name() -> None:
    sources = [
        source(
            "S1",
            "Elicitation",
            "Servers MAY send a notification when an interaction started by URL mode "
            "elicitation is completed.",
        )
    ]
    asked = "How does a client find out that a URL-mode elicitation has finished?"
    assert unknown_names(asked, sources) == []
    assert unknown_names("Is a form-mode elicitation signed?", sources) == ["form-mode"]


def test_a_filler_adverb_is_no_key_term() -> None:
    terms = key_terms("How does a client find out that an elicitation has actually finished?")
    assert "actually" not in terms
    assert "finished" in terms


DEPRECATION = sectioned(
    "S1",
    "SEP-2577: Deprecate Roots, Sampling, and Logging",
    [
        (
            "Abstract",
            "This SEP deprecates the following core protocol features:\n\n"
            "- Roots (`roots/list`)\n- Sampling (`sampling/createMessage`)\n"
            "- Logging (`logging/setLevel`)",
        ),
        (
            "Capability negotiation",
            "During the deprecation period, clients and servers that support deprecated "
            "features SHOULD continue to declare the corresponding capabilities.",
        ),
    ],
)
POLICY = sectioned(
    "S2",
    "SEP-2596: Specification Feature Lifecycle and Deprecation Policy",
    [
        (
            "Features on the way out",
            "The core features on the way out, the features SEPs deprecate, are:\n\n"
            "- JSON-RPC batching\n- The HTTP+SSE transport\n- Resource templates",
        )
    ],
)


async def test_a_document_the_question_names_by_number_answers_before_others(
    engine: OfflineEngine,
) -> None:
    question = (
        "We heard some core features are on the way out. Which features does SEP-2577 deprecate?"
    )
    plan: Plan = await engine.plan(question, ["docs"])
    pick = choose(analyse(question), plan, [POLICY, DEPRECATION], engine.vectors)
    assert pick.best is not None
    assert pick.best.passage.source.id == "S1"
    assert "Roots" in pick.best.passage.text and "Logging" in pick.best.passage.text


def test_a_document_number_names_only_the_documents_carrying_it() -> None:
    assert _documents_named("What does SEP 2577 deprecate?", [POLICY, DEPRECATION]) == {"S1"}
    assert _documents_named("Which features are deprecated?", [POLICY, DEPRECATION]) == set()
    assert _documents_named("What does PEP 8 say?", [POLICY, DEPRECATION]) == set()


def test_a_text_naming_itself_does_not_lean_on_what_came_before() -> None:
    (lead, *_) = passages(source("S1", "SEP", "This SEP deprecates three features."))
    assert not _leans_back(lead)
    (pointer, *_) = passages(source("S1", "SEP", "This means three features go."))
    assert _leans_back(pointer)


TASKS = sectioned(
    "S1",
    "Tasks",
    [
        (
            "Task Status",
            "Tasks can be in one of the following states:\n\n"
            "- `working`: The request is currently being processed.\n"
            "- `input_required`: The receiver needs input, even though the task has not "
            "reached a terminal state.\n"
            "- `completed`: The request completed successfully.\n"
            "- `failed`: The associated request did not complete successfully.\n"
            "- `cancelled`: The request was cancelled before completion.",
        ),
        (
            "Task Status Lifecycle",
            "Tasks with a `completed`, `failed`, or `cancelled` status are in a terminal state "
            "and **MUST NOT** transition to any other status.",
        ),
    ],
)


async def test_a_list_is_qualified_by_its_lead_in_not_by_a_word_of_one_item(
    engine: OfflineEngine,
) -> None:
    question = "Which task statuses are terminal?"
    plan: Plan = await engine.plan(question, ["docs"])
    pick = choose(analyse(question), plan, [TASKS], engine.vectors)
    assert pick.found and pick.best is not None
    assert "terminal state" in pick.best.passage.text
    assert "working" not in pick.best.passage.text


def test_a_means_named_for_the_deed_avoided_is_no_way_around_it() -> None:
    # cachetools, read by a new user: "… drop one cached result … without clearing
    # everything?" was answered with the `cache_clear()` the question ruled out.
    offered = (
        "For the common use case of clearing or invalidating the cache, the decorator also "
        "provides a `cache_clear()` function which takes no arguments."
    )
    assert _does_the_avoided(("clear",), offered)
    assert not _does_the_avoided(("clear",), "Pop the key with `cache.pop(key)` instead.")
    assert not _does_the_avoided((), offered)
