"""A follow-up run: a new question that starts from an earlier run's sources and answer.

The earlier run's sources (each document with its text, quotes still checkable against it,
and its quality score) are in the new run's state before the researcher searches, under
their own ids, so a citation of one means the same document in both reports and a document
found again is numbered once. The earlier question and answer go with the run as context:
the planner reads "it", "that" or a bare "why?" with the earlier question's key terms (so the
offline engine, which sees only a question, searches for the right thing), and an engine
that can take context (the LLM engine) is given both.
"""

from __future__ import annotations

import re
from typing import Any, Final, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from backend.graph.result import ResultSource
from backend.graph.state import AgentState
from backend.reasoning.engine import ReasoningEngine
from backend.reasoning.models import Source
from backend.reasoning.offline.text import key_terms, word_set, words

MAX_CONTEXT_ANSWER_CHARS: Final = 1200
"""The earlier answer given to an engine as context is cut here (it is a summary, not a
source: the sources themselves are in the state)."""

_PRONOUN: Final = re.compile(
    r"\b(?P<p>it|its|they|them|their|this|that|these|those)\b(?P<after>\s*(?P<next>[\w']+)?)",
    re.IGNORECASE,
)
# After "this"/"that"/"these"/"those" these words make it a pronoun ("why is that so?",
# "does that work?"), not a determiner ("that glacier") or a conjunction ("so that the …").
_AFTER_DEMONSTRATIVE: Final = word_set("""
is was are were does do did has have had mean means meant work works worked happen happens
happened matter matters cause causes caused affect affects change changes apply applies so
still also true right
""")
# What opens a question without being its subject: "How fast are", "When do", "What is",
# "What causes", "What limits".
_OPENING: Final = re.compile(
    r"^\W*(?:and\s+|so\s+|but\s+)?(?:(?:when|how|what|why|which|who|where|whose)"
    r"(?:\s+(?:fast|much|many|long|often|far|big|old|well|exactly|else))?\s+)?"
    r"(?:(?:do|does|did|is|are|was|were|can|could|should|will|would|has|have|had"
    r"|causes|caused|makes|drives|affects|determines|limits|controls)\s+)?",
    re.IGNORECASE,
)
# "it" that points at nothing ("is it true that …", "is it possible to …").
_EXPLETIVE_AFTER_IT: Final = word_set("true possible likely necessary worth important safe")
_WHAT_ABOUT: Final = re.compile(r"^\W*(?:and\s+|but\s+)?(?:what|how)\s+about\b", re.IGNORECASE)
_OWN_TERMS: Final = 2
"""A follow-up with fewer key terms than this and no pronoun ("why?") gets the earlier
question's subject as context too."""


class FollowUpError(ValueError):
    """The earlier run cannot be followed up (it has nothing to start from)."""


class EarlierRun(BaseModel):
    """What a follow-up starts from: the earlier run's question, answer, terms and sources."""

    run_id: str
    query: str
    answer: str = ""
    key_terms: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    sources: list[ResultSource] = Field(default_factory=list)

    @classmethod
    def of(cls, run_id: str, query: str, status: str, result: dict[str, Any] | None) -> EarlierRun:
        """The earlier run as a follow-up's starting point, from its stored result. A run
        with no result, or a failed one with no sources, cannot be followed up."""
        if result is None:
            raise FollowUpError(f"run {run_id} is {status}: it has no answer to follow up yet")
        sources = [ResultSource.model_validate(s) for s in result.get("sources", [])]
        if status == "failed" and not sources:
            raise FollowUpError(
                f"run {run_id} failed with no sources: there is nothing to follow up"
            )
        plan = result.get("plan") or {}
        return cls(
            run_id=run_id,
            query=query,
            answer=result.get("answer") or "",
            key_terms=list(plan.get("key_terms") or []),
            entities=list(plan.get("entities") or []),
            sources=sources,
        )

    def context(self) -> dict[str, Any]:
        """What the state keeps of it besides the sources (``AgentState.earlier_run``)."""
        return self.model_dump(mode="json", exclude={"sources"})


def carried_source(source: ResultSource, run_id: str) -> dict[str, Any]:
    """An earlier run's source as a source of this run, under the same id.

    A result keeps a document's joined text, not its chunks: the text stands for its first
    chunk and the others are held empty, so a chunk found again is known, and a new chunk of
    the same document joins the text (after a blank line, as any chunk that does not follow
    on), every sentence still a verbatim slice of what was retrieved."""
    fields = source.model_dump(mode="json", exclude_none=True)
    ids = list(source.chunk_ids)
    if ids:
        fields["chunks"] = [source.text] + [""] * (len(ids) - 1)
        fields["chunk_sections"] = [source.sections[0] if source.sections else ""] + [""] * (
            len(ids) - 1
        )
    fields["word_count"] = len(source.text.split())
    return Source.model_validate(fields).model_dump(mode="json") | {"from_run": run_id}


def follow_up_state(query: str, max_iterations: int, earlier: EarlierRun) -> AgentState:
    """The state a follow-up starts from: the earlier run's sources and its context."""
    sources = {s.id: carried_source(s, earlier.run_id) for s in earlier.sources}
    return {
        "query": query,
        "max_iterations": max_iterations,
        "iteration_count": 0,
        "status": "planning",
        "earlier_run": earlier.context(),
        "sources": sources,
        "source_scores": {
            sid: {"score": s["score"], **(s.get("score_breakdown") or {})}
            for sid, s in sources.items()
        },
    }


def subject_of(earlier: dict[str, Any]) -> str:
    """What the earlier question was about, in its own words: the question without its
    opening ("How fast are", "When do") and final mark, e.g. "glaciers in the Alps
    retreating"; the key terms when nothing is left."""
    question = str(earlier.get("query", "")).strip()
    body = _OPENING.sub("", question, count=1).rstrip(" ?!.")
    if len(words(body)) >= 1:
        return body
    return " ".join(earlier.get("key_terms") or [])


def resolve_references(question: str, earlier: dict[str, Any]) -> str:
    """The follow-up with what its "it", "they", "that" or "this" refers to spelled out,
    from the earlier question: "Why is that?" after "When do spring tides happen?" becomes
    "Why is that (spring tides happen)?". A follow-up that already names the earlier
    question's terms is left as it is; one with no pronoun and under two key terms of its
    own ("Why?"), or that asks "what about …", gets the earlier subject as context too."""
    subject = subject_of(earlier)
    if not subject:
        return question
    earlier_terms = {t.lower() for t in earlier.get("key_terms") or []} or set(key_terms(subject))
    own = key_terms(question)
    if earlier_terms and len(earlier_terms & set(own)) >= min(2, len(earlier_terms)):
        return question  # it says what it is about already
    for match in _PRONOUN.finditer(question):
        word = match.group("p").lower()
        following = (match.group("next") or "").lower()
        if (
            word in ("this", "that", "these", "those")
            and following
            and (following not in _AFTER_DEMONSTRATIVE)
        ):
            continue  # a determiner ("that glacier") or a conjunction ("so that the …")
        if word == "it" and following in _EXPLETIVE_AFTER_IT:
            continue
        end = match.end("p")
        return f"{question[:end]} ({subject}){question[end:]}"
    if len(own) < _OWN_TERMS or _WHAT_ABOUT.match(question):
        stripped = question.rstrip()
        mark = stripped[-1] if stripped and stripped[-1] in "?!." else ""
        body = stripped[:-1] if mark else stripped
        return f"{body} ({subject}){mark or '?'}"
    return question


@runtime_checkable
class HeedsEarlierRun(Protocol):
    """An engine that can take an earlier run's question and answer as context (the LLM
    engine puts them before each of its prompts)."""

    earlier_run: tuple[str, str] | None


def heed_earlier_run(engine: ReasoningEngine, state: AgentState) -> None:
    """Give the engine the earlier question and answer of a follow-up, when it takes them.
    Called by each node before it thinks: a resumed run has a new engine."""
    earlier = state.get("earlier_run")
    if earlier and isinstance(engine, HeedsEarlierRun):
        answer = str(earlier.get("answer", ""))[:MAX_CONTEXT_ANSWER_CHARS]
        engine.earlier_run = (str(earlier.get("query", "")), answer)
