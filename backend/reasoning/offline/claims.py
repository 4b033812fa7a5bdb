"""Claim extraction: the sentences of the sources that answer the plan's sub-queries.

Every candidate sentence is scored against each sub-query it was retrieved for:

``relevance = 0.5·cos(sentence, sub-query) + 0.2·cos(sentence, question)
+ 0.2·keyword overlap + 0.1·prior``

where keyword overlap is the mean share of the sub-query's and the question's key terms found
in the sentence, and prior = ½ source quality (0.5 if unscored) + ½ / (1 + retrieval rank).
An entity sub-query ("entity: X") scores sentences from sources that never name X at 0.8×;
a sentence opening with a pronoun or a connective ("It is …", "However, …") scores 0.9×,
since it says little on its own.

A sentence belongs to the focused sub-query (entity, part, bridge) it is most relevant to;
the whole-question and expanded searches may take any sentence not yet chosen. Sentences are
then chosen per sub-query by maximal marginal relevance (λ = 0.75), at most
:data:`PER_SUB_QUERY` (4 for a one-search plan) and :data:`MAX_CLAIMS` in all, none below
:data:`MIN_RELEVANCE`. A sentence within cosine :data:`DUPLICATE` of a chosen claim is a
duplicate, unless the two disagree (numbers, negation, antonyms …): it is dropped and its source
is added to the claim's ``source_ids``, so the claim cites every source that states it.

A claim's text is a sentence copied verbatim from its first source. Its relevance is the
higher of its sub-query's score and the whole question's, so a sentence that a follow-up
sub-query took over still leads when it answers the question itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import numpy as np

from backend.reasoning.models import Claim, Plan, Source, SubQuery
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.markup import plain
from backend.reasoning.offline.signals import contradiction_signals
from backend.reasoning.offline.text import (
    key_terms,
    mentions,
    overlap,
    split_sentences,
    word_set,
    words,
)

MAX_CLAIMS: Final = 14
PER_SUB_QUERY: Final = 4
PER_SINGLE_QUERY: Final = 6
MIN_RELEVANCE: Final = 0.3
DUPLICATE: Final = 0.9
MMR_LAMBDA: Final = 0.75
SAME_SOURCE_PENALTY: Final = 0.1
MIN_WORDS: Final = 4
MAX_WORDS: Final = 90
UNSCORED_QUALITY: Final = 0.5
CONTEXT_PENALTY: Final = 0.9
_DIAGRAM: Final = re.compile(r"[\u2500-\u257f]|-->|<--|\s\|\s.*\s\|\s")
_CATCH_ALL: Final = frozenset({"whole question", "expanded", "asking part"})
# Openings that lean on the sentence before: pronouns and discourse connectives.
LEANS_ON_CONTEXT: Final = word_set(
    "it he she they this these those its his her their however but thus therefore hence "
    "moreover furthermore additionally also instead still such otherwise likewise similarly "
    "conversely nevertheless nonetheless"
)


@dataclass(slots=True)
class Candidate:
    """A usable sentence of a source (4–90 words, prose: see :func:`is_prose`)."""

    index: int  # row in the similarity matrices
    source: Source
    text: str


def candidate_sentences(sources: list[Source]) -> list[Candidate]:
    """Every usable sentence of every source, in source order."""
    out: list[Candidate] = []
    for source in sources:
        for sentence in split_sentences(source.text):
            n = len(words(sentence))
            if MIN_WORDS <= n <= MAX_WORDS and is_prose(sentence):
                out.append(Candidate(len(out), source, sentence))
    return out


_CODE_SPAN: Final = re.compile(r"`[^`]*`")
_WORD: Final = re.compile(r"[A-Za-z]{2,}")
MIN_PROSE_WORDS: Final = 3


def is_prose(sentence: str) -> bool:
    """False for a heading, a question, a sentence with a code fence, a table row or a diagram
    line in it, and for code with fewer than three words of prose around it: they are not
    statements a report can quote as a claim."""
    lines = [line.strip() for line in sentence.splitlines()]
    if lines[0].startswith("#"):
        return False
    if plain(sentence).rstrip().endswith("?"):
        return False  # a question ("Q: Where can I get help with pexpect?") states nothing
    if any(line.startswith(("```", "|", "~~~")) or _DIAGRAM.search(line) for line in lines):
        return False
    # A line of code alone ("`WebSocketException(code=1008, reason=None)`") states nothing:
    # two of them with different numbers are not sources disagreeing.
    return len(_WORD.findall(_CODE_SPAN.sub(" ", sentence))) >= MIN_PROSE_WORDS


def quality(source: Source) -> float:
    """The source's quality score, or 0.5 when the researcher did not score it."""
    return source.score if source.score > 0 else UNSCORED_QUALITY


def extract(plan: Plan, sources: list[Source], vectors: SentenceVectors) -> list[Claim]:
    """The claims that matter to the question, each tied to the sources that state it."""
    candidates = candidate_sentences(sources)
    if not candidates or not plan.sub_queries:
        return []
    texts = [c.text for c in candidates]
    queries = [sq.text for sq in plan.sub_queries] + [plan.query]
    to_query = vectors.cosine(texts, queries)
    between = vectors.cosine(texts, texts)
    per_query = PER_SINGLE_QUERY if len(plan.sub_queries) == 1 else PER_SUB_QUERY

    all_scores = [
        _relevance(
            plan,
            sq,
            [c for c in candidates if _retrieved_for(c.source, sq)],
            to_query[:, q],
            to_query[:, -1],
        )
        for q, sq in enumerate(plan.sub_queries)
    ]
    owner = _owners(plan.sub_queries, all_scores)

    chosen: list[tuple[Candidate, SubQuery, float]] = []
    merged: dict[int, list[str]] = {}  # chosen candidate index → its source ids
    for q, sq in enumerate(plan.sub_queries):
        scored = all_scores[q]
        remaining = sorted(
            (
                c
                for c in candidates
                if c.index in scored
                and scored[c.index] >= MIN_RELEVANCE
                and owner.get(c.index, q) == q
            ),
            key=lambda c: (-scored[c.index], c.index),
        )
        taken = 0
        while remaining and taken < per_query and len(chosen) < MAX_CLAIMS:
            best = max(remaining, key=lambda c: (_mmr(c, scored, between, chosen), -c.index))
            remaining.remove(best)
            twin = _duplicate_of(best, chosen, between)
            if twin is not None:
                if best.source.id not in merged[twin.index]:
                    merged[twin.index].append(best.source.id)
                continue
            chosen.append((best, sq, scored[best.index]))
            merged[best.index] = [best.source.id]
            taken += 1

    # Sources that state a chosen claim but were not in the running for its sub-query.
    for cand in candidates:
        twin = _duplicate_of(cand, chosen, between)
        if twin is not None and cand.source.id not in merged[twin.index]:
            merged[twin.index].append(cand.source.id)

    # A sentence a focused sub-query (a bridge, say) took over keeps its standing against
    # the question itself: its relevance is the higher of the two.
    whole = [q for q, sq in enumerate(plan.sub_queries) if sq.purpose == "whole question"]
    return [
        Claim(
            id=f"C{n}",
            text=cand.text,
            source_ids=merged[cand.index],
            sub_query_id=sq.id,
            relevance=round(max([score, *(all_scores[q].get(cand.index, 0.0) for q in whole)]), 4),
        )
        for n, (cand, sq, score) in enumerate(chosen, 1)
    ]


def _owners(sub_queries: list[SubQuery], all_scores: list[dict[int, float]]) -> dict[int, int]:
    """Which focused sub-query (an entity, a part, a bridge) each sentence belongs to: the one
    it is most relevant to, so that a sentence answering part 2 is not spent on part 1. The
    whole-question and expanded searches are catch-alls and own nothing."""
    owner: dict[int, int] = {}
    best: dict[int, float] = {}
    for q, sq in enumerate(sub_queries):
        if sq.purpose in _CATCH_ALL:
            continue
        for index, score in all_scores[q].items():
            if index not in best or score > best[index]:
                best[index], owner[index] = score, q
    return owner


def _retrieved_for(source: Source, sq: SubQuery) -> bool:
    # A source that no sub-query claims (e.g. given by hand) counts for all of them.
    return not source.sub_query_ids or sq.id in source.sub_query_ids


def _relevance(
    plan: Plan,
    sq: SubQuery,
    pool: list[Candidate],
    sim_sub_query: np.ndarray,
    sim_question: np.ndarray,
) -> dict[int, float]:
    terms = key_terms(sq.text)
    ranks = _retrieval_ranks(pool)
    entity = sq.purpose.removeprefix("entity: ") if sq.purpose.startswith("entity: ") else None
    names_entity: dict[str, bool] = {}
    scores: dict[int, float] = {}
    for c in pool:
        keywords = 0.5 * overlap(terms, c.text) + 0.5 * overlap(plan.key_terms, c.text)
        prior = 0.5 * quality(c.source) + 0.5 / (1 + ranks[c.source.id])
        score = (
            0.5 * float(sim_sub_query[c.index])
            + 0.2 * float(sim_question[c.index])
            + 0.2 * keywords
            + 0.1 * prior
        )
        if entity is not None:
            if c.source.id not in names_entity:
                names_entity[c.source.id] = mentions(f"{c.source.title}\n{c.source.text}", entity)
            if not names_entity[c.source.id]:
                score *= 0.8
        if words(c.text)[0] in LEANS_ON_CONTEXT:
            score *= CONTEXT_PENALTY  # "It is 330 metres tall." says little on its own
        scores[c.index] = score
    return scores


def _retrieval_ranks(pool: list[Candidate]) -> dict[str, int]:
    """Rank of each source by retrieval score (0 = best), ties by source order."""
    seen: dict[str, Source] = {}
    for c in pool:
        seen.setdefault(c.source.id, c.source)
    order = sorted(seen.values(), key=lambda s: -s.retrieval_score)
    return {s.id: rank for rank, s in enumerate(order)}


def _mmr(
    cand: Candidate,
    scored: dict[int, float],
    between: np.ndarray,
    chosen: list[tuple[Candidate, SubQuery, float]],
) -> float:
    redundancy = max((float(between[cand.index, c.index]) for c, _, _ in chosen), default=0.0)
    # A source that already gives a claim yields to one that gives none: the report should
    # cite the breadth of what was found (a multi-hop answer needs every hop's source).
    repeat = (
        SAME_SOURCE_PENALTY if any(c.source.id == cand.source.id for c, _, _ in chosen) else 0.0
    )
    return MMR_LAMBDA * scored[cand.index] - (1 - MMR_LAMBDA) * redundancy - repeat


def _duplicate_of(
    cand: Candidate, chosen: list[tuple[Candidate, SubQuery, float]], between: np.ndarray
) -> Candidate | None:
    """The chosen claim this sentence repeats (near-identical and not disagreeing), if any."""
    for other, _, _ in chosen:
        if other.index == cand.index:
            return other
        if between[cand.index, other.index] > DUPLICATE and not contradiction_signals(
            cand.text, other.text
        ):
            return other
    return None
