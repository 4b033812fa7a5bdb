"""The LLM engine: any LangChain chat model, JSON answers validated by pydantic.

A malformed answer is retried once with the validation error; a second failure falls back to
the offline engine for that step. So does a provider failure (model unreachable, timeout,
rate limit, auth, API error: :func:`backend.llm.provider_errors`), without a retry: the
provider SDKs already retry what is retryable. When the model is unreachable or refuses us
(:func:`backend.llm.dead_end`), it is given up on for the rest of the run (an engine is built
per run): later steps go straight to the offline engine instead of each waiting for the same
failure. Each fallback is a ``fallback`` trace event and a note the graph's nodes drain into
the run's ``errors`` (:meth:`LLMEngine.take_fallbacks`), with secrets scrubbed from the
provider's error text.
Token counts are recorded per step when the provider reports them.

Verdicts are not taken on the model's word: evidence must be quoted verbatim from a source
other than the claim's own, and the confidence is computed from the surviving evidence
weighted by source quality (:func:`weigh_verdict`), with the offline fact-checker's rule
(``offline.verify.weigh``).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field, ValidationError

from backend.llm import dead_end, model_secrets, provider_errors
from backend.reasoning.citations import check_citations
from backend.reasoning.engine import ReasoningEngine
from backend.reasoning.llm import prompts
from backend.reasoning.models import (
    Citation,
    Claim,
    EvidenceItem,
    Plan,
    QuestionKind,
    Report,
    Source,
    SubQuery,
    Verdict,
    VerdictLabel,
)
from backend.reasoning.offline.claims import quality
from backend.reasoning.offline.verify import weigh
from backend.trace import NodeName, Tracer
from marsa_common.secrets import scrub
from marsa_common.text import normalise, quote_holds

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
# An opening or closing tag of the fences the prompts use, however spaced or cased.
_FENCE_TAG = re.compile(r"<(\s*/?\s*)(source|claim)\b", re.IGNORECASE)
SOURCE_CHARS = 1500
MAX_PROMPT_SOURCES = 15


class _SubQueryOut(BaseModel):
    text: str = Field(min_length=1)
    sources: list[str] = Field(default_factory=list)
    purpose: str = ""


class _PlanOut(BaseModel):
    kind: QuestionKind = "simple"
    sub_queries: list[_SubQueryOut] = Field(min_length=1)
    key_terms: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    rationale: str = ""


class _RefineOut(BaseModel):
    sub_queries: list[_SubQueryOut] = Field(default_factory=list)


class _ClaimOut(BaseModel):
    text: str = Field(min_length=1)
    source_ids: list[str] = Field(min_length=1)


class _ClaimsOut(BaseModel):
    claims: list[_ClaimOut]


class _EvidenceOut(BaseModel):
    source_id: str
    quote: str
    stance: str = "supports"


class _VerdictOut(BaseModel):
    claim_id: str
    verdict: VerdictLabel
    rationale: str = ""
    evidence: list[_EvidenceOut] = Field(default_factory=list)


class _VerifyOut(BaseModel):
    verdicts: list[_VerdictOut]


class _ReportOut(BaseModel):
    answer: str = ""
    answer_found: bool = True
    markdown: str = Field(min_length=1)
    citations: list[Citation] = Field(default_factory=list)


def extract_json(text: str) -> str:
    """The JSON object in a model's answer (bare, or inside a ``` fence)."""
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start == -1 or end <= start:
        raise ValueError("no JSON object in the answer")
    return body[start : end + 1]


def neutralise(text: str) -> str:
    """``text`` with every ``<source``/``</source``/``<claim``/``</claim`` tag defused, so
    retrieved text cannot close its fence (or open a fake one) and pass as instructions."""
    return _FENCE_TAG.sub(r"&lt;\1\2", text)


def fence_sources(sources: list[Source], limit: int = MAX_PROMPT_SOURCES) -> str:
    """Sources as untrusted data blocks, best first."""
    ranked = sorted(sources, key=lambda s: -(s.score + s.retrieval_score * 0.01))[:limit]
    blocks = []
    for s in ranked:
        title = neutralise(s.title.replace('"', "'"))
        text = neutralise(s.text[:SOURCE_CHARS])
        blocks.append(
            f'<source id="{s.id}" title="{title}" quality="{s.score:.2f}">\n{text}\n</source>'
        )
    return "\n".join(blocks)


def sources_section(citations: list[Citation], sources: dict[str, Source]) -> str:
    """The report's numbered sources list with quality scores."""
    lines = ["", "## Sources"]
    seen: set[int] = set()
    for c in sorted(citations, key=lambda c: c.n):
        source = sources.get(c.source_id)
        if c.n in seen or source is None:
            continue
        seen.add(c.n)
        b = source.score_breakdown
        where = source.url or source.path or source.server
        parts = (
            f" (domain {b.domain:.2f}, recency {b.recency:.2f}, depth {b.depth:.2f})" if b else ""
        )
        lines.append(f"{c.n}. {source.title} — {where} — quality {source.score:.2f}{parts}")
    return "\n".join(lines) + "\n"


def _stance(label: str) -> Literal["supports", "contradicts", "neutral"]:
    label = label.strip().lower()
    if label.startswith("contradict"):
        return "contradicts"
    # Anything but an explicit "supports" (e.g. "neutral", "related") carries no weight.
    return "supports" if label.startswith("support") else "neutral"


def _not_independent(claim: Claim, by_id: dict[str, Source]) -> set[str]:
    """The claim's own sources and other chunks of the same documents (same doc_id or URL):
    they cannot confirm the claim, they are where it came from."""
    origins = [by_id[sid] for sid in claim.source_ids if sid in by_id]
    docs = {s.doc_id for s in origins if s.doc_id}
    urls = {s.url for s in origins if s.url}
    return set(claim.source_ids) | {
        sid for sid, s in by_id.items() if (s.doc_id in docs) or (s.url in urls)
    }


def weigh_verdict(claim: Claim, given: _VerdictOut, by_id: dict[str, Source]) -> Verdict:
    """The model's verdict, kept only as far as its evidence bears it out.

    Evidence counts when it comes from another source than the claim's (and other chunks of
    its documents) and its quote is found verbatim there; each piece weighs its source's quality
    (similarity is 1: the words are the source's own). Then the offline fact-checker's rule
    (:mod:`backend.reasoning.offline.verify`): per source the strongest piece of each stance
    counts; with S and C the sums, supported when S > k·C and S ≥ MIN_WEIGHT, contradicted when
    k·C ≥ S and C ≥ MIN_WEIGHT; confidence (S − C) / (S + C + 0.5) or its mirror. The label
    stays the model's when the rule agrees; otherwise the claim is unverifiable, confidence 0:
    the model's word alone never makes a claim supported or contradicted.
    """
    own = _not_independent(claim, by_id)
    dropped: Counter[str] = Counter()
    evidence: list[EvidenceItem] = []
    for e in given.evidence:
        source = by_id.get(e.source_id)
        if source is None:
            dropped["unknown source"] += 1
        elif e.source_id in own:
            dropped["the claim's own source"] += 1
        elif not quote_holds(e.quote, source.text):
            dropped["not verbatim"] += 1
        else:
            evidence.append(
                EvidenceItem(
                    source_id=e.source_id,
                    quote=e.quote,
                    stance=_stance(e.stance),
                    weight=round(quality(source), 4),
                )
            )
    best: dict[tuple[str, str], float] = {}
    for item in evidence:
        key = (item.stance, item.source_id)
        best[key] = max(best.get(key, 0.0), item.weight)
    s = round(sum(w for (stance, _), w in best.items() if stance == "supports"), 4)
    c = round(sum(w for (stance, _), w in best.items() if stance == "contradicts"), 4)
    label, confidence = weigh(s, c)
    rationale = given.rationale
    if label != given.verdict:
        label, confidence = "unverifiable", 0.0
        if given.verdict != "unverifiable":
            rationale = (
                f"The model said {given.verdict}, but the evidence quoted verbatim from other "
                f"sources does not bear it out (support {s:.2f}, contradiction {c:.2f})"
            )
    if dropped:
        rationale += (
            " [dropped evidence: "
            + ", ".join(f"{n} {why}" for why, n in sorted(dropped.items()))
            + "]"
        )
    return Verdict(
        claim_id=claim.id,
        verdict=label,
        confidence=round(min(1.0, max(0.0, confidence)), 4),
        evidence=evidence,
        rationale=rationale.strip(),
    )


@dataclass(frozen=True, slots=True)
class Budget:
    """What the model may spend in one run: tokens in and out, and US dollars (with prices
    set); None is no limit. A step asked once it is spent uses the offline engine."""

    tokens: int | None = None
    usd: float | None = None


REASK_EXCERPT = 300
"""Characters of a malformed answer shown back to the model with the validation error."""


def answer_text(content: str | list[Any]) -> str:
    """The text of a model's answer: a string as it is; content blocks (Anthropic with
    thinking, OpenAI's Responses API) as their text blocks joined, thinking left out."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") in ("text", "output_text"):
            parts.append(str(block.get("text", "")))
    return "\n".join(parts)


def _excerpt(text: str) -> str:
    return text if len(text) <= REASK_EXCERPT else f"{text[:REASK_EXCERPT]} … (cut)"


class LLMEngine:
    """Thinks with a chat model; falls back to another engine step by step."""

    name = "llm"

    def __init__(
        self,
        model: BaseChatModel,
        fallback: ReasoningEngine,
        model_name: str = "",
        tracer: Tracer | None = None,
        max_claims: int = 12,
        prices: tuple[float, float] | None = None,
        secrets: Iterable[str] = (),
        budget: Budget | None = None,
    ):
        self.model = model
        self.fallback = fallback
        self.model_name = model_name
        self.tracer = tracer
        self.max_claims = max_claims
        self.prices = prices
        """US dollars per million input and output tokens, when configured."""
        self.budget = budget or Budget()
        self.usage: dict[str, dict[str, Any]] = {}
        self.steps: dict[str, list[str]] = {"by_model": [], "fell_back": []}
        """Which steps of the run the model did and which fell back, in order."""
        self._fallbacks: list[str] = []
        # A provider may echo the key it was given in its error text (``Settings.secrets()``
        # passed in, plus the key the model itself holds).
        self._secrets = [*secrets, *model_secrets(model)]
        self.earlier_run: tuple[str, str] | None = None
        """For a follow-up: the earlier question and answer, put before every prompt."""
        self._given_up: str | None = None
        """Why the model is no longer asked in this run (e.g. "ConnectionError at the plan
        step"), once it was unreachable or refused us."""

    def take_fallbacks(self) -> list[str]:
        """What fell back since the last call, one line per step, for the run's ``errors``.

        The graph's nodes call this after using the engine, so each fallback is reported once,
        by the node whose step degraded."""
        taken, self._fallbacks = self._fallbacks, []
        return taken

    def _fall_back(self, step: str, node: NodeName, why: str, error: str = "") -> None:
        self.steps["fell_back"].append(step)
        message = f"{step}: {why}; the {self.fallback.name} engine did this step"
        # The provider's text is scrubbed before it is cut, so no part of a secret survives.
        error = scrub(error, self._secrets)[:500]
        self._fallbacks.append(f"LLM {message} ({error})" if error else f"LLM {message}")
        data: dict[str, Any] = {"step": step}
        if error:
            data["error"] = error
        if self._given_up is not None:
            data["given_up"] = self._given_up
        self._event(node, "fallback", message, **data)

    def _event(self, node: NodeName, kind: Any, message: str, **data: Any) -> None:
        if self.tracer is not None:
            self.tracer.emit(node, kind, message, **data)

    def _record_usage(
        self,
        step: str,
        node: NodeName,
        message: AIMessage,
        *,
        seconds: float = 0.0,
        attempt: int = 1,
        outcome: str = "valid",
    ) -> None:
        usage: dict[str, Any] = dict(message.usage_metadata or {})
        tokens_in, tokens_out = (
            int(usage.get("input_tokens", 0)),
            int(usage.get("output_tokens", 0)),
        )
        totals = self.usage.setdefault(
            step, {"node": node, "calls": 0, "input_tokens": 0, "output_tokens": 0}
        )
        totals["calls"] += 1
        totals["input_tokens"] += tokens_in
        totals["output_tokens"] += tokens_out
        cost = None
        if self.prices is not None and usage:
            cost = (tokens_in * self.prices[0] + tokens_out * self.prices[1]) / 1_000_000
            totals["cost_usd"] = round(totals.get("cost_usd", 0.0) + cost, 6)
        self._event(
            node,
            "llm_call",
            f"{step}: {self.model_name or 'model'} answered",
            step=step,
            model=self.model_name,
            attempt=attempt,
            outcome=outcome,
            duration_ms=round(seconds * 1000),
            input_tokens=usage.get("input_tokens"),
            output_tokens=usage.get("output_tokens"),
            cost_usd=None if cost is None else round(cost, 6),
        )

    def _budget_spent(self) -> str | None:
        """Which of the run's budgets (tokens, US dollars) is used up, if one is."""
        tokens = sum(t["input_tokens"] + t["output_tokens"] for t in self.usage.values())
        if self.budget.tokens is not None and tokens >= self.budget.tokens:
            return f"token budget is spent ({tokens:,} of {self.budget.tokens:,} tokens)"
        usd = sum(t.get("cost_usd", 0.0) for t in self.usage.values())
        if self.budget.usd is not None and usd >= self.budget.usd:
            return f"cost budget is spent (${usd:.4f} of ${self.budget.usd:.4f})"
        return None

    def usage_by_node(self) -> dict[str, dict[str, Any]]:
        """Calls, tokens and (with prices set) cost, summed per graph node."""
        nodes: dict[str, dict[str, Any]] = {}
        for totals in self.usage.values():
            node = nodes.setdefault(
                totals["node"], {"calls": 0, "input_tokens": 0, "output_tokens": 0}
            )
            for key in ("calls", "input_tokens", "output_tokens"):
                node[key] += totals[key]
            if "cost_usd" in totals:
                node["cost_usd"] = round(node.get("cost_usd", 0.0) + totals["cost_usd"], 6)
        return nodes

    async def _ask(self, step: str, node: NodeName, prompt: str, schema: type[T]) -> T | None:
        """The model's answer as ``schema``; one retry with the error; None means fall back."""
        if self._given_up is not None:
            self._fall_back(step, node, f"the model was given up on after {self._given_up}")
            return None
        if (spent := self._budget_spent()) is not None:
            self._fall_back(step, node, f"the run's {spent}")
            return None
        if self.earlier_run is not None:
            asked, answered = (neutralise(text) for text in self.earlier_run)
            prompt = prompts.EARLIER_RUN.format(question=asked, answer=answered) + prompt
        messages: list[Any] = [SystemMessage(prompts.SYSTEM), HumanMessage(prompt)]
        error = ""
        for attempt in (1, 2):
            started = time.monotonic()
            try:
                answer = await self.model.ainvoke(messages)
            except provider_errors() as exc:
                # The model cannot answer right now (down, unreachable, rate-limited,
                # refused): a second try in the same breath would fail the same way.
                why = "the model could not answer"
                if dead_end(exc):
                    self._given_up = f"{type(exc).__name__} at the {step} step"
                    why += " and is not asked again in this run"
                self._fall_back(step, node, why, f"{type(exc).__name__}: {exc}")
                return None
            seconds = time.monotonic() - started
            text = answer_text(answer.content)
            try:
                parsed = schema.model_validate_json(extract_json(text))
            except (ValidationError, ValueError) as exc:
                error = str(exc)[:500]
                if isinstance(answer, AIMessage):
                    self._record_usage(
                        step, node, answer, seconds=seconds, attempt=attempt, outcome="malformed"
                    )
                # The re-ask shows the start of the bad answer, never all of it: a runaway
                # answer resent whole overflowed the context.
                messages += [
                    AIMessage(_excerpt(text)),
                    HumanMessage(
                        f"That answer was not valid for the JSON shape asked: {error}\n"
                        "Answer again with the JSON object only."
                    ),
                ]
                continue
            if isinstance(answer, AIMessage):
                self._record_usage(step, node, answer, seconds=seconds, attempt=attempt)
            self.steps["by_model"].append(step)
            return parsed
        self._fall_back(step, node, "the model's answer was malformed twice", error)
        return None

    async def plan(self, query: str, available: list[str]) -> Plan:
        out = await self._ask(
            "plan",
            "planner",
            prompts.PLAN.format(query=query, available=", ".join(available)),
            _PlanOut,
        )
        if out is None:
            return await self.fallback.plan(query, available)
        subs = [
            SubQuery(
                id=f"q{i}",
                text=sq.text,
                purpose=sq.purpose,
                sources=[s for s in sq.sources if s in available] or list(available),
            )
            for i, sq in enumerate(out.sub_queries, start=1)
        ]
        return Plan(
            query=query,
            kind=out.kind,
            sub_queries=subs,
            key_terms=out.key_terms,
            entities=out.entities,
            rationale=out.rationale,
        )

    async def refine(
        self, plan: Plan, sources: list[Source], verdicts: list[Verdict], iteration: int
    ) -> list[SubQuery]:
        done = "; ".join(sq.text for sq in plan.sub_queries)
        summary = "\n".join(f"- {v.claim_id}: {v.verdict}" for v in verdicts) or "(none)"
        out = await self._ask(
            "refine",
            "planner",
            prompts.REFINE.format(
                done=done, query=plan.query, verdicts=summary, sources=fence_sources(sources, 5)
            ),
            _RefineOut,
        )
        if out is None:
            return await self.fallback.refine(plan, sources, verdicts, iteration)
        available = sorted({s for sq in plan.sub_queries for s in sq.sources})
        return [
            SubQuery(
                id=f"r{iteration}-{i}",
                text=sq.text,
                hop=iteration + 1,
                purpose=sq.purpose or "follow-up",
                sources=[s for s in sq.sources if s in available] or available,
            )
            for i, sq in enumerate(out.sub_queries, start=1)
        ]

    async def extract_claims(self, plan: Plan, sources: list[Source]) -> list[Claim]:
        out = await self._ask(
            "claims",
            "fact_checker",
            prompts.CLAIMS.format(
                limit=self.max_claims, query=plan.query, sources=fence_sources(sources)
            ),
            _ClaimsOut,
        )
        if out is None:
            return await self.fallback.extract_claims(plan, sources)
        by_id = {s.id: s for s in sources}
        claims: list[Claim] = []
        for item in out.claims[: self.max_claims]:
            cited = [
                sid
                for sid in item.source_ids
                if sid in by_id and normalise(item.text) in normalise(by_id[sid].text)
            ]
            if not cited:
                self._event(
                    "fact_checker",
                    "info",
                    "dropped a claim not found verbatim in its sources",
                    claim=item.text[:200],
                )
                continue
            claims.append(Claim(id=f"C{len(claims) + 1}", text=item.text, source_ids=cited))
        return claims

    async def verify(self, claims: list[Claim], sources: list[Source]) -> list[Verdict]:
        if not claims:
            return []
        listed = "\n".join(
            f'<claim id="{c.id}" sources="{",".join(c.source_ids)}">{neutralise(c.text)}</claim>'
            for c in claims
        )
        out = await self._ask(
            "verify",
            "fact_checker",
            prompts.VERIFY.format(claims=listed, sources=fence_sources(sources)),
            _VerifyOut,
        )
        if out is None:
            return await self.fallback.verify(claims, sources)
        by_source = {s.id: s for s in sources}
        given = {v.claim_id: v for v in out.verdicts}
        verdicts = []
        for claim in claims:
            v = given.get(claim.id)
            if v is None:
                verdicts.append(
                    Verdict(
                        claim_id=claim.id,
                        verdict="unverifiable",
                        confidence=0.0,
                        rationale="the model gave no verdict",
                    )
                )
                continue
            verdict = weigh_verdict(claim, v, by_source)
            if verdict.verdict != v.verdict or len(verdict.evidence) < len(v.evidence):
                self._event(
                    "fact_checker",
                    "info",
                    f"{claim.id}: kept {len(verdict.evidence)} of {len(v.evidence)} evidence "
                    f"quotes; the model said {v.verdict}, the evidence gives {verdict.verdict}",
                    claim_id=claim.id,
                    model_verdict=v.verdict,
                    verdict=verdict.verdict,
                )
            verdicts.append(verdict)
        return verdicts

    async def write_report(
        self, plan: Plan, claims: list[Claim], verdicts: list[Verdict], sources: list[Source]
    ) -> Report:
        by_claim = {v.claim_id: v for v in verdicts}
        listed = "\n".join(
            f"- {c.id} [{by_claim[c.id].verdict if c.id in by_claim else 'unverifiable'}] "
            f"{neutralise(c.text)} (sources: {', '.join(c.source_ids)})"
            for c in claims
        )
        out = await self._ask(
            "report",
            "synthesizer",
            prompts.REPORT.format(
                query=plan.query, claims=listed or "(none)", sources=fence_sources(sources)
            ),
            _ReportOut,
        )
        if out is None:
            return await self.fallback.write_report(plan, claims, verdicts, sources)
        by_id = {s.id: s for s in sources}
        # The sources list names only citations that will survive the synthesizer's check;
        # all of them are returned, so that the check still counts and explains each removal.
        _, valid, _ = check_citations(out.markdown, out.citations, by_id)
        markdown = out.markdown.rstrip() + "\n" + sources_section(valid, by_id)
        return Report(
            markdown=markdown,
            citations=out.citations,
            answer=out.answer,
            answer_found=out.answer_found,
        )
