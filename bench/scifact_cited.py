"""SciFact verdicts against the abstracts each claim cites (a quick check with no store).

Usage: python bench/scifact_cited.py [--claims FILE] [--corpus FILE] [--cache FILE]
[--details FILE] [--rationales]

`marsa eval scifact-verify` and `bench/scifact_sweep.py` need a document store holding the
5,183 abstracts (about half an hour to build on 2 busy cores). This check needs none: each
claim is verified by the engine's own ``verify_claims`` against the abstracts SciFact lists
as its ``cited_doc_ids``, each one source. It isolates the verifier from retrieval, so its
figures are not the eval's (no distracting abstracts; a NOT_ENOUGH_INFO claim still has its
cited abstracts), but a verifier change moves both the same way more often than not. The
sentence vectors are cached in ``--cache`` (first run about 5 minutes, then seconds). The
report gives macro-F1 and CONTRADICT precision for each half of the claims, as the eval does.

``--rationales`` reads no vectors at all: it runs ``stance`` on each gold rationale (the
evidence sentences SciFact marks, as if close) and counts per half how many SUPPORT and
CONTRADICT rationales read as "contradicts" and as "supports" — the contradiction signals'
recall and false alarms on the sentences that decide each claim.
"""

from __future__ import annotations

import argparse
import json
import pickle
from pathlib import Path
from typing import Any

from scifact_sweep import print_report  # a sibling: this runs as a script from bench/

from backend.evals.scifact_verify import _FROM_VERDICT, gold_label
from backend.graph.sources import scored, to_sources
from backend.reasoning.models import Claim, Source
from backend.reasoning.offline.embedding import SentenceVectors
from backend.reasoning.offline.verify import stance, verify_claims

DATA = Path(__file__).resolve().parents[2] / "shared/data/scifact"


def _hits(row: dict[str, Any], corpus: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The cited abstracts as document-store hits, one chunk each."""
    hits = []
    for doc_id in row["cited_doc_ids"]:
        doc = corpus[doc_id]
        text = " ".join(doc["abstract"])
        hits.append(
            {
                "title": doc["title"],
                "text": text,
                "source": f"scifact:{doc_id}",
                "doc_id": str(doc_id),
                "chunk_id": f"{doc_id}-0",
                "score": 1.0,
                "doc_word_count": len(text.split()),
            }
        )
    return hits


def rationales(claims: list[dict[str, Any]], corpus: dict[int, dict[str, Any]]) -> None:
    """Stances of the gold rationale sentences, counted per half and gold label."""
    middle = (len(claims) + 1) // 2
    counts: dict[str, dict[str, int]] = {}
    for n, row in enumerate(claims):
        half = "first" if n < middle else "last"
        for doc_id, items in row["evidence"].items():
            for item in items:
                sentences = [corpus[int(doc_id)]["abstract"][i] for i in item["sentences"]]
                read = {stance(row["claim"], s, 0.75)[0] for s in sentences}
                key = f"{half} {item['label']}"
                tally = counts.setdefault(key, {"rationales": 0, "contradicts": 0, "supports": 0})
                tally["rationales"] += 1
                tally["contradicts"] += "contradicts" in read
                tally["supports"] += "supports" in read
    print(json.dumps(counts, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=Path, default=DATA / "claims_train.jsonl")
    parser.add_argument("--corpus", type=Path, default=DATA / "corpus.jsonl")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/scifact_cited.pkl"))
    parser.add_argument("--details", type=Path)
    parser.add_argument("--rationales", action="store_true")
    args = parser.parse_args()
    with args.corpus.open() as handle:
        corpus = {row["doc_id"]: row for row in map(json.loads, handle) if row}
    claims = [json.loads(line) for line in args.claims.open() if line.strip()]
    if args.rationales:
        rationales(claims, corpus)
        return
    vectors = SentenceVectors(max_cached=10**7)
    if args.cache.is_file():
        vectors.preload(pickle.loads(args.cache.read_bytes()))
    gold, predicted, lines = [], [], []
    for row in claims:
        fields = to_sources("docs", "search_documents", {"results": _hits(row, corpus)})
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
        args.cache.write_bytes(pickle.dumps(vectors.snapshot()))
    print_report(gold, predicted, args.details, lines)


if __name__ == "__main__":
    main()
