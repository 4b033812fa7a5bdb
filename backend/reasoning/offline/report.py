"""The report: the direct answer first, one section per search, then the numbered sources.

Within a section, claims from higher-quality sources come first.

Every sentence taken from the sources ends with numbered citations ``[n]``; ``n`` is given to
a source the first time it is cited. Each :class:`Citation` quotes the exact words relied on,
found verbatim in that source (the Markdown shows it on one line, hard wraps joined): the
claim sentence for the source it came from, and a source's
own sentence for a source that agrees in other words (a merged near-duplicate or a supporting
piece of evidence). Contradicted claims are flagged "**Contested:**" with the contradicting
source's sentence cited; claims no other source confirmed are marked "(not independently
confirmed)". The sources list gives each cited source's quality and its three components.
"""

from __future__ import annotations

from typing import Final

from backend.reasoning.models import Citation, Claim, Plan, Report, Source, SubQuery, Verdict
from backend.reasoning.offline.answer import Answer, direct_answer
from backend.reasoning.offline.claims import quality
from backend.reasoning.offline.text import content_stems, split_sentences

MAX_CITES_PER_CLAIM: Final = 4
UNCONFIRMED: Final = "(not independently confirmed)"


class _Citations:
    """Numbers sources in order of first use and records each (number, quote) once."""

    def __init__(self, sources: list[Source]):
        self.sources = {s.id: s for s in sources}
        self.numbers: dict[str, int] = {}
        self.citations: list[Citation] = []

    def cite(self, source_id: str, quote: str) -> str:
        source = self.sources.get(source_id)
        if source is None:
            return ""
        if quote not in source.text:
            quote = closest_sentence(source.text, quote)
        n = self.numbers.setdefault(source_id, len(self.numbers) + 1)
        if not any(c.n == n and c.quote == quote for c in self.citations):
            self.citations.append(Citation(n=n, source_id=source_id, quote=quote))
        return f"[{n}]"

    def for_claim(self, claim: Claim, verdict: Verdict | None) -> list[str]:
        """Markers for every source that states the claim or supports it, origin first."""
        own_words = {
            e.source_id: e.quote
            for e in (verdict.evidence if verdict else [])
            if e.stance == "supports"
        }
        ids = list(dict.fromkeys([*claim.source_ids, *own_words]))[:MAX_CITES_PER_CLAIM]
        markers = []
        for i, source_id in enumerate(ids):
            quote = claim.text if i == 0 else own_words.get(source_id, claim.text)
            markers.append(self.cite(source_id, quote))
        return [m for m in markers if m]


def closest_sentence(text: str, target: str) -> str:
    """The sentence of ``text`` sharing the most content words with ``target``."""
    sentences = split_sentences(text) or [text.strip()]
    goal = content_stems(target)
    return max(sentences, key=lambda s: (len(goal & content_stems(s)), -sentences.index(s)))


def write(
    plan: Plan, claims: list[Claim], verdicts: list[Verdict], sources: list[Source]
) -> Report:
    """Assemble the Markdown report and its citations."""
    by_claim = {v.claim_id: v for v in verdicts}
    registry = _Citations(sources)
    answer = direct_answer(plan, claims, by_claim)
    answer_line = _answer_line(answer, registry, by_claim)
    lines = ["## Answer", "", answer_line, ""]
    for heading, members in _sections(plan, _by_quality(claims, registry.sources)):
        lines += [f"## {heading}", ""]
        lines += [_claim_line(c, by_claim.get(c.id), registry) for c in members]
        lines.append("")
    lines += ["## Sources", ""]
    lines += [_source_line(n, registry.sources[sid]) for sid, n in registry.numbers.items()]
    return Report(
        markdown="\n".join(lines).rstrip() + "\n", citations=registry.citations, answer=answer_line
    )


def _answer_line(answer: Answer, registry: _Citations, verdicts: dict[str, Verdict]) -> str:
    if answer.contested:
        claim = answer.claims[0]
        line = _claim_line(claim, verdicts.get(claim.id), registry).removeprefix("- ")
        return line.replace("**Contested:**", "The sources disagree:", 1)
    if answer.per_claim:
        parts = []
        for claim in answer.claims:
            verdict = verdicts.get(claim.id)
            line = f"{inline(claim.text)} {''.join(registry.for_claim(claim, verdict))}"
            if verdict is None or verdict.verdict == "unverifiable":
                line += f" {UNCONFIRMED}"
            parts.append(line)
        return " ".join(parts)
    cited = [m for c in answer.claims for m in registry.for_claim(c, verdicts.get(c.id))]
    markers = "".join(dict.fromkeys(cited))
    if answer.claims and answer.text == answer.claims[0].text:
        line = f"{inline(answer.text)} {markers}"  # a verbatim sentence keeps its full stop
    else:
        line = f"{inline(answer.text)} {markers}".rstrip()
        line += "" if line.endswith((".", "!", "?")) else "."
    if answer.unconfirmed:
        line += f" {UNCONFIRMED}"
    return line.strip()


def inline(text: str) -> str:
    """A quote shown on one Markdown line: runs of whitespace (hard wraps) become one space.
    The citation keeps the exact text."""
    return " ".join(text.split())


def _claim_line(claim: Claim, verdict: Verdict | None, registry: _Citations) -> str:
    markers = "".join(registry.for_claim(claim, verdict))
    if verdict is not None and verdict.verdict == "contradicted":
        against = [e for e in verdict.evidence if e.stance == "contradicts"][:2]
        rebuttal = " ".join(
            f"“{inline(e.quote)}” {registry.cite(e.source_id, e.quote)}" for e in against
        )
        line = f"- **Contested:** {inline(claim.text)} {markers}"
        return f"{line} Contradicted by: {rebuttal}" if rebuttal else line
    if verdict is None or verdict.verdict == "unverifiable":
        return f"- {inline(claim.text)} {markers} {UNCONFIRMED}"
    return f"- {inline(claim.text)} {markers}"


def _by_quality(claims: list[Claim], sources: dict[str, Source]) -> list[Claim]:
    """Claims whose best source scores higher lead (stable: ties keep their relevance order)."""

    def best(claim: Claim) -> float:
        return max((quality(sources[s]) for s in claim.source_ids if s in sources), default=0.0)

    return sorted(claims, key=lambda c: -best(c))


def _sections(plan: Plan, claims: list[Claim]) -> list[tuple[str, list[Claim]]]:
    """Claims grouped under one heading per sub-query (in plan order, merged by heading)."""
    sections: dict[str, list[Claim]] = {}
    for sq in plan.sub_queries:
        members = [c for c in claims if c.sub_query_id == sq.id]
        if members:
            sections.setdefault(_heading(plan, sq), []).extend(members)
    known = {sq.id for sq in plan.sub_queries}
    stray = [c for c in claims if c.sub_query_id not in known]
    if stray:
        sections.setdefault("Other findings", []).extend(stray)
    return list(sections.items())


def _heading(plan: Plan, sq: SubQuery) -> str:
    purpose = sq.purpose
    if purpose.startswith("entity: "):
        return purpose.removeprefix("entity: ").removesuffix(" (retry)")
    if purpose.startswith("bridge: "):
        return f"Follow-up: {purpose.removeprefix('bridge: ')}"
    if purpose == "expanded":
        return "Further evidence"
    if purpose == "whole question":
        return "Findings" if plan.kind in ("simple", "multi_hop") else "The question as a whole"
    return sq.text.rstrip("?").strip() or purpose or sq.id


def _source_line(n: int, source: Source) -> str:
    where = source.url or source.path or f"{source.server}:{source.doc_id or source.tool}"
    if source.score <= 0:
        return f"{n}. {source.title} — {where} — quality unscored"
    line = f"{n}. {source.title} — {where} — quality {source.score:.2f}"
    b = source.score_breakdown
    if b is not None:
        line += f" (domain {b.domain:.2f}, recency {b.recency:.2f}, depth {b.depth:.2f})"
    return line
