"""Re-score SciFact verdicts fast while changing the fact-checker (a development aid).

Usage: python bench/scifact_sweep.py --data-dir DIR [--cache FILE] [--details FILE]

`marsa eval scifact-verify` searches the store and embeds every evidence sentence for each
claim, which takes about half an hour on 2 cores. This script does the same once and keeps
both (the 5 hits per claim and every sentence vector) in a cache file, so a change to the
offline verifier (align, direction, polarity, verify) is measured on all 809 claims in
about a minute. The verdicts are the engine's own (``verify_claims``), the evidence the same
5 hybrid-search hits the eval uses, so the figures match the eval's. The store in
``--data-dir`` must already hold the corpus: run the eval once with that ``--data-dir``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

from backend.config import get_settings
from backend.evals.scifact_verify import _FROM_VERDICT, f1_scores, gold_label, halves
from backend.graph.sources import scored, to_sources
from backend.reasoning.models import Claim, Source
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.verify import verify_claims

CLAIMS = Path(__file__).resolve().parents[2] / "shared/data/scifact/claims_train.jsonl"


def _hits(data_dir: Path, claims: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    from mcp_servers.document_store.settings import DocsSettings
    from mcp_servers.document_store.store import DocumentStore

    store = DocumentStore(
        DocsSettings.taken_from(get_settings()).model_copy(update={"data_dir": data_dir})
    )
    out = []
    for row in claims:
        found = store.search(row["claim"], n_results=5, mode="hybrid")
        out.append(
            to_sources("docs", "search_documents", {"results": [h.model_dump() for h in found]})
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--claims", type=Path, default=CLAIMS)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/scifact_sweep.pkl"))
    parser.add_argument("--details", type=Path)
    args = parser.parse_args()
    claims = [json.loads(line) for line in args.claims.open() if line.strip()]
    vectors = SentenceVectors(max_cached=10**7)
    if args.cache.is_file():
        hits, cached = pickle.loads(args.cache.read_bytes())
        vectors.preload(cached)
    else:
        hits = _hits(args.data_dir, claims)
    gold, predicted, lines = [], [], []
    for row, fields in zip(claims, hits, strict=True):
        sources = [scored(Source(id=f"S{i}", **f), None) for i, f in enumerate(fields, start=1)]
        [verdict] = verify_claims(
            [Claim(id="C1", text=row["claim"], source_ids=[])], sources, vectors
        )
        gold.append(gold_label(row))
        predicted.append(_FROM_VERDICT[verdict.verdict])
        lines.append(
            json.dumps(
                {
                    "id": row["id"],
                    "claim": row["claim"],
                    "gold": gold[-1],
                    "predicted": predicted[-1],
                    "rationale": verdict.rationale,
                    "evidence": [e.model_dump() for e in verdict.evidence],
                }
            )
        )
    if not args.cache.is_file():
        args.cache.write_bytes(pickle.dumps((hits, vectors.snapshot())))
    print_report(gold, predicted, args.details, lines)


def print_report(
    gold: list[str], predicted: list[str], details: Path | None, lines: list[str]
) -> None:
    """The figures as JSON on stdout (whole set and halves), one summary line on stderr, and
    each claim's verdict in ``details`` when given."""
    report = {
        "claims": len(gold),
        **f1_scores(gold, predicted),
        "halves": halves(gold, predicted),
    }
    if details:
        details.write_text("".join(line + "\n" for line in lines))
    c = report["per_label"]["CONTRADICT"]
    print(json.dumps(report, indent=1))
    print(
        f"macro-F1 {report['macro_f1']} | CONTRADICT P {c['precision']} R {c['recall']} "
        f"({c['predicted']} predicted) | halves "
        + " ".join(
            f"{k}: F1 {v['macro_f1']} P {v['contradict_precision']}"
            for k, v in report["halves"].items()
        ),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
