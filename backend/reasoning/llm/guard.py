"""No step may make the run worse: checks on a valid answer before the engine uses it.

An answer can be valid JSON and still not rest on this run's sources: it gives back the
prompt's example ("the direct answer"), a report keeps no citation after the citation check,
no claim is found in the source it cites, no evidence quote is in its source. The engine
re-asks once with the reason, then hands the step to the offline engine (``LLMEngine._ask``).
Quotes and claims are held to the one quote rule (``marsa_common.text.quote_holds``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from backend.reasoning.citations import check_citations
from backend.reasoning.llm.outputs import ClaimOut, ClaimsOut, ReportOut, VerifyOut
from backend.reasoning.llm.prompts import EXAMPLE_VALUES
from backend.reasoning.models import Source
from marsa_common.text import normalise, quote_holds

_EXAMPLES = frozenset(normalise(json.loads(f'"{value}"')) for value in EXAMPLE_VALUES)
_ELLIPSIS = ". …"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def echoed_example(answer: BaseModel) -> str | None:
    """Why ``answer`` gives back the prompt's example instead of an answer (one of its values
    is a placeholder of the JSON shape, or only an ellipsis), or None."""
    for value in _strings(answer.model_dump()):
        norm = normalise(value)
        if norm in _EXAMPLES or (norm and not norm.strip(_ELLIPSIS)):
            return f"it gives back the prompt's example ({value[:60]!r}) instead of an answer"
    return None


def claim_sources(claim: ClaimOut, by_id: dict[str, Source]) -> list[str]:
    """The sources ``claim`` cites that hold its text verbatim (the quote rule)."""
    return [
        sid for sid in claim.source_ids if sid in by_id and quote_holds(claim.text, by_id[sid].text)
    ]


def claims_problem(out: ClaimsOut, by_id: dict[str, Source], limit: int) -> str | None:
    """Why the claims do not rest on the sources (none of them is found in the source it
    cites, or none was given from sources there are), or None."""
    if not by_id:
        return None
    given = out.claims[:limit]
    if not given:
        return "it gave no claim, though there are sources"
    if not any(claim_sources(c, by_id) for c in given):
        return f"none of its {len(given)} claims is found verbatim in the source it cites"
    return None


def evidence_problem(out: VerifyOut, by_id: dict[str, Source]) -> str | None:
    """Why the verdicts' evidence does not rest on the sources (quotes were given and not one
    is found in the source it names: paraphrased or made up), or None."""
    quotes = [e for v in out.verdicts for e in v.evidence]
    held = [
        e for e in quotes if e.source_id in by_id and quote_holds(e.quote, by_id[e.source_id].text)
    ]
    if quotes and not held:
        return f"none of its {len(quotes)} evidence quotes is found in the source it names"
    return None


def report_problem(out: ReportOut, by_id: dict[str, Source]) -> str | None:
    """Why the report does not rest on the sources (not one citation survives the citation
    check, though there are sources), or None."""
    if not by_id:
        return None
    _, kept, check = check_citations(out.markdown, out.citations, by_id)
    if not kept:
        return f"no citation survives the citation check ({check['checked']} checked)"
    return None
