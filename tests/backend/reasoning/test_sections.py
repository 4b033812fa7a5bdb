"""A short section read whole answers "how does X work?" when its heading names X."""

from __future__ import annotations

from backend.reasoning.models import Plan
from backend.reasoning.offline import OfflineEngine
from backend.reasoning.offline.pick import choose
from backend.reasoning.offline.question import analyse
from backend.reasoning.offline.sections import section_passages
from tests.backend.reasoning.corpus import sectioned

NEGOTIATION = (
    "In the `initialize` request, the client **MUST** send a protocol version it supports. "
    "This **SHOULD** be the _latest_ version supported by the client.\n\n"
    "If the server supports the requested protocol version, it **MUST** respond with the same "
    "version. Otherwise, the server **MUST** respond with another protocol version it "
    "supports.\n\n"
    "If the client does not support the version in the server's response, it **SHOULD** "
    "disconnect."
)
LIFECYCLE = sectioned(
    "S1",
    "Lifecycle",
    [
        ("Version Negotiation", NEGOTIATION),
        ("Operation", "During the operation phase, the client and server exchange messages."),
    ],
)
TRANSPORTS = sectioned(
    "S2",
    "Transports",
    [
        (
            "Protocol Version Header",
            "The protocol version sent by the client **SHOULD** be the one negotiated during "
            "version negotiation at initialization.",
        )
    ],
)


def test_a_short_section_of_prose_is_one_passage_from_its_first_sentence_to_its_last() -> None:
    (whole,) = section_passages(LIFECYCLE)
    assert whole.whole_section and whole.section == "Version Negotiation"
    assert len(whole.sentences) == 5
    assert whole.text.startswith("In the `initialize` request")
    assert whole.text.endswith("it SHOULD disconnect.")


def test_a_section_with_code_or_a_list_lead_in_is_not_read_whole() -> None:
    coded = sectioned(
        "S3",
        "Ping",
        [
            (
                "Overview",
                "Either side can send a ping. The receiver responds at once. It may "
                "disconnect otherwise. The request looks like this:\n\n```json\n"
                '{"method": "ping"}\n```\n\nPings are cheap.',
            )
        ],
    )
    assert section_passages(coded) == []


async def _pick(engine: OfflineEngine, question: str):  # type: ignore[no-untyped-def]
    plan: Plan = await engine.plan(question, ["docs"])
    return choose(analyse(question), plan, [TRANSPORTS, LIFECYCLE], engine.vectors)


async def test_how_a_mechanism_works_is_answered_by_the_section_named_for_it(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(engine, "How does version negotiation work?")
    assert pick.found and pick.best is not None
    assert pick.best.passage.whole_section
    assert "same version" in pick.best.passage.text and "disconnect" in pick.best.passage.text


async def test_steps_to_take_are_not_answered_by_a_section_read_whole(
    engine: OfflineEngine,
) -> None:
    pick = await _pick(engine, "How do I make the client disconnect?")
    assert pick.best is not None and not pick.best.passage.whole_section
