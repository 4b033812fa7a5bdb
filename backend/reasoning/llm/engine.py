"""The LLM engine: any LangChain chat model, JSON answers validated by pydantic.

Each step's JSON is asked for through the provider's own structured output when the engine is
given one (``structured.py``: json_schema, a forced tool call, Ollama's format), else with the
schema in the prompt and the answer parsed from its text; a server that refuses the structured
request (HTTP 400/422) is asked the second way for the rest of the run, and the run says so.

A malformed answer (or one cut at the output bound) is retried once with the validation error
and the start of the answer; a second failure falls back to the offline engine for that step.
So is an answer that is valid but does not rest on this run's sources (``guard.py``: the
prompt's example given back, no citation surviving the check, no claim or evidence quote found
in its source): no step may make the run worse than the offline engine would.

A provider failure (model unreachable, timeout, rate limit, auth, API error:
:func:`backend.llm.provider_errors`) falls back without a retry: the provider SDKs already
retry what is retryable. When the model is unreachable or refuses us
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from backend.llm import (
    StructuredOutput,
    dead_end,
    model_secrets,
    provider_errors,
    refused_request,
)
from backend.reasoning.citations import check_citations
from backend.reasoning.engine import ReasoningEngine
from backend.reasoning.llm import guard, prompts, structured
from backend.reasoning.llm.outputs import (
    ClaimsOut,
    PlanOut,
    RefineOut,
    ReportOut,
    VerdictOut,
    VerifyOut,
)
from backend.reasoning.models import (
    Citation,
    Claim,
    EvidenceItem,
    Plan,
    Report,
    Source,
    SubQuery,
    Verdict,
)
from backend.reasoning.offline.claims import quality
from backend.reasoning.offline.verify import weigh
from backend.trace import NodeName, Tracer
from marsa_common.secrets import scrub
from marsa_common.text import quote_holds

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
# An opening or closing tag of the fences the prompts use, however spaced or cased.
_FENCE_TAG = re.compile(r"<(\s*/?\s*)(source|claim)\b", re.IGNORECASE)
SOURCE_CHARS = 1500
MAX_PROMPT_SOURCES = 15


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


def weigh_verdict(claim: Claim, given: VerdictOut, by_id: dict[str, Source]) -> Verdict:
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

REASK = {
    "malformed": "That answer was not valid for the JSON shape asked: {problem}\n"
    "Answer again with the JSON object only.",
    "cut": "That answer was cut off: {problem}. Answer again with a shorter JSON object only.",
    "rejected": "That answer cannot be used: {problem}. Answer again from the sources given, "
    "copying quotes exactly, with the JSON object only.",
}
"""What the re-ask says, by the first answer's outcome."""
FELL_BACK = {
    "malformed": "the model's answer was malformed twice",
    "cut": "the model's answer was cut at the output bound twice",
    "rejected": "the model's answer did not rest on this run's sources, twice",
}
"""Why a step fell back after its re-ask, by the last answer's outcome."""


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
        structured: StructuredOutput | None = None,
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
        self.steps: dict[str, list[str]] = {"by_model": [], "fell_back": [], "fell_back_why": []}
        """Which steps of the run the model did and which fell back, in order, and why each
        fell back (``fell_back_why`` runs along ``fell_back``)."""
        self.structured = structured
        """How the model is asked for each step's JSON (None: the schema in the prompt only);
        None once a server refused it in this run."""
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
        # The provider's text is scrubbed before it is cut, so no part of a secret survives.
        error = scrub(error, self._secrets)[:500]
        self.steps["fell_back"].append(step)
        self.steps["fell_back_why"].append(f"{why} ({error})" if error else why)
        message = f"{step}: {why}; the {self.fallback.name} engine did this step"
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
        output: str = "prompt",
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
            output=output,
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

    async def _call(
        self, step: str, node: NodeName, messages: list[BaseMessage], schema: type[BaseModel]
    ) -> tuple[BaseMessage, dict[str, Any] | None, str]:
        """(the model's message, its structured answer if any, how it was asked): through the
        provider's structured output while the server takes it, else the prompt alone."""
        how = self.structured
        if how is not None:
            try:
                raw, payload = await structured.ask(
                    self.model, how, messages, structured.output_schema(step, schema)
                )
                return raw, payload, how.method
            except structured.StructuredUnavailable as exc:
                why = f"the model has no structured output ({how.method})"
                self._structured_off(step, node, how.method, why, exc)
            except provider_errors() as exc:
                if (cut := structured.cut_answer(exc)) is not None:
                    return cut, None, how.method
                if not refused_request(exc):
                    raise
                why = f"the server refused structured output ({how.method})"
                self._structured_off(step, node, how.method, why, exc)
        try:
            return await self.model.ainvoke(messages), None, "prompt"
        except provider_errors() as exc:
            if (cut := structured.cut_answer(exc)) is None:
                raise
            return cut, None, "prompt"

    def _structured_off(
        self, step: str, node: NodeName, method: str, why: str, exc: BaseException
    ) -> None:
        """The server refused the structured request (or the model has none): the rest of the
        run asks with the prompt and parses the answer, and the run says so."""
        self.structured = None
        error = scrub(f"{type(exc).__name__}: {exc}", self._secrets)[:500]
        message = (
            f"{step}: {why}; this and later steps ask for the JSON in the prompt and parse "
            "the answer"
        )
        self._fallbacks.append(f"LLM {message} ({error})")
        self._event(node, "fallback", message, step=step, structured_output=method, error=error)

    async def _ask(
        self,
        step: str,
        node: NodeName,
        prompt: str,
        schema: type[T],
        check: Callable[[T], str | None] | None = None,
    ) -> T | None:
        """The model's answer as ``schema``, or None: fall back.

        An answer that is malformed, cut at the output bound, or valid but not resting on this
        run's sources (the prompt's example given back, or ``check``'s reason) is asked again
        once with the reason and the start of the answer; a second such answer falls back."""
        if self._given_up is not None:
            self._fall_back(step, node, f"the model was given up on after {self._given_up}")
            return None
        if (spent := self._budget_spent()) is not None:
            self._fall_back(step, node, f"the run's {spent}")
            return None
        if self.earlier_run is not None:
            asked, answered = (neutralise(text) for text in self.earlier_run)
            prompt = prompts.EARLIER_RUN.format(question=asked, answer=answered) + prompt
        messages: list[BaseMessage] = [SystemMessage(prompts.SYSTEM), HumanMessage(prompt)]
        problem, outcome = "", "malformed"
        for attempt in (1, 2):
            started = time.monotonic()
            try:
                answer, payload, output = await self._call(step, node, messages, schema)
            except provider_errors() as exc:
                # A call that got no answer took time too (a timeout: all of it).
                self._event(
                    node,
                    "llm_call",
                    f"{step}: {self.model_name or 'model'} did not answer ({type(exc).__name__})",
                    step=step,
                    model=self.model_name,
                    attempt=attempt,
                    outcome="error",
                    output=self.structured.method if self.structured is not None else "prompt",
                    duration_ms=round((time.monotonic() - started) * 1000),
                    error=type(exc).__name__,
                )
                # The model cannot answer right now (down, unreachable, rate-limited,
                # refused): a second try in the same breath would fail the same way.
                why = "the model could not answer"
                if dead_end(exc):
                    self._given_up = f"{type(exc).__name__} at the {step} step"
                    why += " and is not asked again in this run"
                self._fall_back(step, node, why, f"{type(exc).__name__}: {exc}")
                return None
            seconds = time.monotonic() - started
            text = answer_text(answer.content) or structured.tool_arguments(answer)
            parsed, outcome, problem = self._judge(answer, payload, text, schema, check)
            if isinstance(answer, AIMessage):
                self._record_usage(
                    step,
                    node,
                    answer,
                    seconds=seconds,
                    attempt=attempt,
                    outcome=outcome,
                    output=output,
                )
            if parsed is not None:
                self.steps["by_model"].append(step)
                return parsed
            # The re-ask shows the start of the bad answer, never all of it: a runaway
            # answer resent whole overflowed the context.
            messages += [
                AIMessage(_excerpt(structured.text_of(payload, text))),
                HumanMessage(REASK[outcome].format(problem=problem)),
            ]
        self._fall_back(step, node, FELL_BACK[outcome], problem)
        return None

    def _judge(
        self,
        answer: BaseMessage,
        payload: dict[str, Any] | None,
        text: str,
        schema: type[T],
        check: Callable[[T], str | None] | None,
    ) -> tuple[T | None, str, str]:
        """(the answer if it may be used, its outcome, what is wrong with it)."""
        try:
            if payload is not None:
                parsed = schema.model_validate(payload)
            else:
                parsed = schema.model_validate_json(extract_json(text))
        except (ValidationError, ValueError) as exc:
            if structured.was_cut(answer):
                return None, "cut", "the answer was cut at the output bound (MARSA_LLM_MAX_TOKENS)"
            return None, "malformed", str(exc)[:500]
        problem = guard.echoed_example(parsed) or (check(parsed) if check else None)
        if problem:
            return None, "rejected", problem
        return parsed, "valid", ""

    async def plan(self, query: str, available: list[str]) -> Plan:
        out = await self._ask(
            "plan",
            "planner",
            prompts.PLAN.format(query=query, available=", ".join(available)),
            PlanOut,
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
            RefineOut,
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
        by_id = {s.id: s for s in sources}
        out = await self._ask(
            "claims",
            "fact_checker",
            prompts.CLAIMS.format(
                limit=self.max_claims, query=plan.query, sources=fence_sources(sources)
            ),
            ClaimsOut,
            check=lambda out: guard.claims_problem(out, by_id, self.max_claims),
        )
        if out is None:
            return await self.fallback.extract_claims(plan, sources)
        claims: list[Claim] = []
        for item in out.claims[: self.max_claims]:
            cited = guard.claim_sources(item, by_id)
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
        by_source = {s.id: s for s in sources}
        out = await self._ask(
            "verify",
            "fact_checker",
            prompts.VERIFY.format(claims=listed, sources=fence_sources(sources)),
            VerifyOut,
            check=lambda out: guard.evidence_problem(out, by_source),
        )
        if out is None:
            return await self.fallback.verify(claims, sources)
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
        by_id = {s.id: s for s in sources}
        out = await self._ask(
            "report",
            "synthesizer",
            prompts.REPORT.format(
                query=plan.query, claims=listed or "(none)", sources=fence_sources(sources)
            ),
            ReportOut,
            check=lambda out: guard.report_problem(out, by_id),
        )
        if out is None:
            return await self.fallback.write_report(plan, claims, verdicts, sources)
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
