"""`marsa eval scifact-verify`: the fact-checker's verdicts against SciFact's labels.

Each labelled claim is checked against evidence retrieved from the ingested corpus through
the document store's search (the tool's code path), by the engine's ``verify``. Besides the
overall figures the report gives macro-F1 and CONTRADICT precision for each half of the
claims (a change is worth keeping when it helps both), and ``details`` writes one JSON line
per claim (gold label, verdict, rationale, evidence) to read the failures by example.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from backend.config import Settings
from backend.evals.metrics import percentile
from backend.evals.retrieval import load_corpus
from backend.graph.sources import scored, to_sources
from backend.reasoning.engine import ReasoningEngine
from backend.reasoning.models import Claim, Source, Verdict
from mcp_servers.document_store.settings import DocsSettings
from mcp_servers.document_store.store import DocumentStore

LABELS = ("SUPPORT", "CONTRADICT", "NOT_ENOUGH_INFO")
_FROM_VERDICT = {
    "supported": "SUPPORT",
    "contradicted": "CONTRADICT",
    "unverifiable": "NOT_ENOUGH_INFO",
}


def gold_label(claim: dict[str, Any]) -> str:
    """The label of the claim's evidence; NOT_ENOUGH_INFO when it has none."""
    labels = [item["label"] for items in claim.get("evidence", {}).values() for item in items]
    if not labels:
        return "NOT_ENOUGH_INFO"
    return Counter(labels).most_common(1)[0][0]


def f1_scores(gold: list[str], predicted: list[str]) -> dict[str, Any]:
    """Accuracy, macro-F1 and per-label precision/recall/F1."""
    per_label = {}
    for label in LABELS:
        tp = sum(g == p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(p == label != g for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label != p for g, p in zip(gold, predicted, strict=True))
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[label] = {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "gold": gold.count(label),
            "predicted": predicted.count(label),
        }
    accuracy = sum(g == p for g, p in zip(gold, predicted, strict=True)) / len(gold)
    macro = sum(v["f1"] for v in per_label.values()) / len(LABELS)
    return {"accuracy": round(accuracy, 4), "macro_f1": round(macro, 4), "per_label": per_label}


async def run(
    corpus: Path,
    claims_file: Path,
    settings: Settings,
    engine: ReasoningEngine,
    limit: int | None = None,
    evidence_k: int = 5,
    details: Path | None = None,
    log: Callable[[str], None] = lambda m: print(m, file=sys.stderr),
) -> dict[str, Any]:
    """The whole benchmark; returns the JSON object `marsa eval scifact-verify` prints."""
    store = DocumentStore(DocsSettings.taken_from(settings))
    docs = load_corpus(corpus)
    log(f"ingesting {len(docs)} abstracts (unchanged ones are skipped)…")
    store.ingest(docs, progress=lambda done, total: log(f"chunks {done}/{total}"))
    with claims_file.open() as handle:
        claims = [json.loads(line) for line in handle if line.strip()]
    claims = claims[:limit] if limit else claims
    gold, predicted, seconds = [], [], []
    lines: list[str] = []
    for n, row in enumerate(claims, start=1):
        started = time.perf_counter()
        hits = store.search(row["claim"], n_results=evidence_k, mode="hybrid")
        fields = to_sources("docs", "search_documents", {"results": [h.model_dump() for h in hits]})
        sources = [scored(Source(id=f"S{i}", **f), None) for i, f in enumerate(fields, start=1)]
        claim = Claim(id="C1", text=row["claim"], source_ids=[])
        [verdict] = await engine.verify([claim], sources)
        seconds.append(time.perf_counter() - started)
        gold.append(gold_label(row))
        predicted.append(_FROM_VERDICT[verdict.verdict])
        if details is not None:
            lines.append(json.dumps(_detail(row, gold[-1], predicted[-1], verdict, sources)))
        if n % 50 == 0:
            log(f"{n}/{len(claims)} claims")
    report = {"claims": len(claims), **f1_scores(gold, predicted)}
    report["halves"] = halves(gold, predicted)
    report["p50_seconds"] = round(percentile(seconds, 50), 3)
    contradict = report["per_label"]["CONTRADICT"]
    log(
        f"macro-F1 {report['macro_f1']}, CONTRADICT precision {contradict['precision']} "
        f"recall {contradict['recall']} ({contradict['predicted']} predicted)"
    )
    if details is not None:
        details.write_text("".join(line + "\n" for line in lines))
    return report


def halves(gold: list[str], predicted: list[str]) -> dict[str, dict[str, Any]]:
    """Macro-F1 and CONTRADICT precision/recall of the first and the last half of the claims
    (the first half takes the odd one: 809 claims are 405 + 404)."""
    middle = (len(gold) + 1) // 2
    out = {}
    for name, part in (("first", slice(0, middle)), ("last", slice(middle, None))):
        if not gold[part]:
            continue
        scores = f1_scores(gold[part], predicted[part])
        contradict = scores["per_label"]["CONTRADICT"]
        out[name] = {
            "claims": len(gold[part]),
            "macro_f1": scores["macro_f1"],
            "contradict_precision": contradict["precision"],
            "contradict_recall": contradict["recall"],
        }
    return out


def _detail(
    row: dict[str, Any], gold: str, predicted: str, verdict: Verdict, sources: list[Source]
) -> dict[str, Any]:
    titles = {s.id: s.title for s in sources}
    return {
        "id": row.get("id"),
        "claim": row["claim"],
        "gold": gold,
        "predicted": predicted,
        "confidence": verdict.confidence,
        "rationale": verdict.rationale,
        "evidence": [
            {
                "source": titles.get(e.source_id),
                "stance": e.stance,
                "weight": e.weight,
                "quote": e.quote,
            }
            for e in verdict.evidence
        ],
    }
